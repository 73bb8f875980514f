#include "batch/ShardFile.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "batch/JobList.h"
#include "core/Error.h"
#include "io/AtomicFile.h"

namespace sg::batch {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kFramePrefix = "{\"sum\":\"";
constexpr std::string_view kFrameMiddle = "\",\"record\":";

long integerMember(const Json& o, const char* key, const std::string& what) {
  const double v = o.at(key, what).number(std::string(what) + "." + key);
  if (v != std::floor(v) || v < 0 || v > 9.0e15) throw Error(std::string(what) + "." + key + ": expected an integer ≥ 0");
  return static_cast<long>(v);
}

ShardHeader headerFromJson(const Json& o) {
  try {
    (void)checkFormat(o, kShardFormat, {});
  } catch (const Error& e) {
    throw Error("line 1 is not a shard header: " + e.message());
  }
  ShardHeader h;
  h.shard = static_cast<int>(integerMember(o, "shard", "header"));
  h.shards = static_cast<int>(integerMember(o, "shards", "header"));
  h.rows = integerMember(o, "rows", "header");
  h.jobList = o.at("jobList", "header").string("header.jobList");
  if (h.shards < 1 || h.shard >= h.shards) throw Error("header: shard " + std::to_string(h.shard) + " of " +
                                                       std::to_string(h.shards) + " is not a shard");
  return h;
}

// The record text of a framed line, or the reason it is not one.
std::optional<std::string> unframe(std::string_view line, std::string& why) {
  const std::size_t need = kFramePrefix.size() + 16 + kFrameMiddle.size() + 1;
  if (line.size() < need || line.substr(0, kFramePrefix.size()) != kFramePrefix ||
      line.substr(kFramePrefix.size() + 16, kFrameMiddle.size()) != kFrameMiddle || line.back() != '}') {
    why = "not a framed record ({\"sum\": ..., \"record\": ...})";
    return std::nullopt;
  }
  const std::string_view sum = line.substr(kFramePrefix.size(), 16);
  const std::size_t start = kFramePrefix.size() + 16 + kFrameMiddle.size();
  const std::string_view record = line.substr(start, line.size() - start - 1);
  if (fnv1a64Hex(record) != sum) {
    why = "checksum mismatch (the line was changed or cut short)";
    return std::nullopt;
  }
  return std::string(record);
}

}  // namespace

std::string shardFileName(int shard, int shards) {
  return "shard-" + std::to_string(shard) + "-of-" + std::to_string(shards) + ".jsonl";
}

std::optional<std::pair<int, int>> parseShardFileName(const std::string& name) {
  int k = -1, n = -1, used = 0;
  if (std::sscanf(name.c_str(), "shard-%d-of-%d.jsonl%n", &k, &n, &used) != 2) return std::nullopt;
  if (used != static_cast<int>(name.size()) || k < 0 || n < 1 || k >= n) return std::nullopt;
  if (name != shardFileName(k, n)) return std::nullopt;  // no leading zeros or signs
  return std::make_pair(k, n);
}

std::vector<long> rowsOfShard(long rows, int shard, int shards) {
  std::vector<long> out;
  for (long r = shard; r < rows; r += shards) out.push_back(r);
  return out;
}

Json ShardHeader::toJson() const {
  Json o = withFormat(kShardFormat, Json::object());
  o.set("shard", shard);
  o.set("shards", shards);
  o.set("rows", rows);
  o.set("jobList", jobList);
  return o;
}

std::string frameRecord(const Json& record) {
  const std::string text = record.dumpLine();
  std::string line;
  line.reserve(text.size() + 48);
  line += kFramePrefix;
  line += fnv1a64Hex(text);
  line += kFrameMiddle;
  line += text;
  line += "}\n";
  return line;
}

ShardContent scanShard(const std::string& path, const std::function<void(long, const std::string&)>& visit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot be read", path);
  ShardContent c;
  std::set<long> seen;
  int lineNo = 0;
  std::string text;
  // One line in memory at a time: a shard of 10^5 rows is gigabytes.
  while (std::getline(in, text)) {
    ++lineNo;
    c.bytes += text.size() + (in.eof() ? 0 : 1);
    const bool complete = !in.eof();
    const std::string_view line(text);
    auto bad = [&](std::string problem) { c.problems.push_back({lineNo, std::move(problem)}); };
    if (!complete) {
      bad("half-written last line (no line end: the writer was stopped while writing it)");
      break;
    }
    std::string why;
    const std::optional<std::string> record = unframe(line, why);
    if (!record) {
      bad(why);
      continue;
    }
    Json j;
    try {
      j = Json::parse(*record);
    } catch (const Error& e) {
      bad("record is not JSON: " + e.message());
      continue;
    }
    if (lineNo == 1) {
      try {
        c.header = headerFromJson(j);
      } catch (const Error& e) {
        bad(e.message());
      }
      continue;
    }
    if (!c.header) {
      bad("row record without a valid header on line 1");
      continue;
    }
    long row = 0;
    try {
      if (j.type() != Json::Type::Object) throw Error("record is not a JSON object");
      row = integerMember(j, "row", "record");
      if (row >= c.header->rows) throw Error("row " + std::to_string(row) + " is beyond the job list's " +
                                             std::to_string(c.header->rows) + " rows");
      if (shardOfRow(row, c.header->shards) != c.header->shard)
        throw Error("row " + std::to_string(row) + " belongs to shard " +
                    std::to_string(shardOfRow(row, c.header->shards)) + ", not " + std::to_string(c.header->shard));
      if (!seen.insert(row).second) throw Error("row " + std::to_string(row) + " appears twice");
    } catch (const Error& e) {
      bad(e.message());
      continue;
    }
    visit(row, *record);
  }
  if (in.bad()) throw Error("read error", path);
  if (lineNo == 0) c.problems.push_back({1, "empty file (no header)"});
  return c;
}

std::optional<ShardHeader> readShardHeader(const std::string& path, std::string& why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot be read", path);
  std::string line;
  if (!std::getline(in, line) || in.eof()) {
    why = "no complete header line";
    return std::nullopt;
  }
  const std::optional<std::string> record = unframe(line, why);
  if (!record) return std::nullopt;
  try {
    return headerFromJson(Json::parse(*record));
  } catch (const Error& e) {
    why = e.message();
    return std::nullopt;
  }
}

ShardContent readShard(const std::string& path) {
  std::vector<std::pair<long, std::string>> rows;
  ShardContent c = scanShard(path, [&](long row, const std::string& record) { rows.emplace_back(row, record); });
  c.rows = std::move(rows);
  return c;
}

ShardWriter::ShardWriter(const std::string& dir, const ShardHeader& header) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error("cannot create the output folder: " + ec.message(), dir);
  path_ = (fs::path(dir) / shardFileName(header.shard, header.shards)).string();
  const std::string lockPath = (fs::path(dir) / ("shard-" + std::to_string(header.shard) + "-of-" +
                                                 std::to_string(header.shards) + ".lock")).string();
  lockFd_ = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lockFd_ < 0) throw Error(std::string("cannot open the lock file: ") + std::strerror(errno), lockPath);
  if (::flock(lockFd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(lockFd_);
    lockFd_ = -1;
    throw Error("another process is writing this shard (its lock file is held)", path_);
  }
  try {
    if (!fs::exists(path_, ec)) {
      writeFileAtomically(path_, frameRecord(header.toJson()));
      return;
    }
    const ShardContent c = readShard(path_);
    if (!c.header)
      throw Error("not a shard file of this batch (line 1: " +
                      (c.problems.empty() ? std::string("no header") : c.problems.front().problem) +
                      "); remove it or use another --out folder",
                  path_);
    if (!(*c.header == header))
      throw Error("was written for another job list or sharding (shard " + std::to_string(c.header->shard) + "/" +
                      std::to_string(c.header->shards) + ", " + std::to_string(c.header->rows) + " rows, job list " +
                      c.header->jobList + "; this run: " + std::to_string(header.shard) + "/" +
                      std::to_string(header.shards) + ", " + std::to_string(header.rows) + " rows, job list " +
                      header.jobList + "); use another --out folder",
                  path_);
    for (const auto& [row, text] : c.rows) done_.insert(row);
    dropped_ = c.problems;
    if (!dropped_.empty()) {
      std::string good = frameRecord(header.toJson());
      for (const auto& [row, text] : c.rows) good += frameRecord(Json::parse(text));
      writeFileAtomically(path_, good);
    }
  } catch (...) {
    ::close(lockFd_);
    lockFd_ = -1;
    throw;
  }
}

ShardWriter::~ShardWriter() {
  if (lockFd_ >= 0) ::close(lockFd_);  // releases the lock
}

void ShardWriter::append(const Json& record) {
  const std::string line = frameRecord(record);
  const long row = static_cast<long>(record.at("row", "record").number("row"));
  std::lock_guard<std::mutex> lock(mutex_);
  const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) throw Error(std::string("cannot open for appending: ") + std::strerror(errno), path_);
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(fd, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      throw Error(std::string("cannot append a row: ") + std::strerror(err), path_);
    }
    written += static_cast<std::size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  if (!synced) throw Error(std::string("cannot sync the appended row: ") + std::strerror(err), path_);
  done_.insert(row);
}

}  // namespace sg::batch
