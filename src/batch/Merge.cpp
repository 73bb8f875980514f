#include "batch/Merge.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "batch/ShardFile.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "grasp/QualityMeasure.h"
#include "core/Json.h"
#include "core/JsonFormat.h"
#include "io/AtomicFile.h"

namespace sg::batch {

namespace fs = std::filesystem;

namespace {

// "3, 7, 11-19 (step 4)" style lists get long; name the first few and count the rest.
std::string listRows(const std::vector<long>& rows, std::size_t shown = 12) {
  std::string out;
  for (std::size_t i = 0; i < rows.size() && i < shown; ++i) out += (i ? ", " : "") + std::to_string(rows[i]);
  if (rows.size() > shown) out += ", … (" + std::to_string(rows.size()) + " rows)";
  return out;
}

std::string number(double v) {
  if (!std::isfinite(v)) return "";
  return formatDouble(v);  // C locale: a CSV field, never "1,5"
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string numberField(const Json& j) { return j.isNull() ? "" : number(j.number("number")); }

std::string joinedNumbers(const Json& array) {
  std::string out;
  for (const Json& v : array.items("numbers")) {
    if (!out.empty()) out += ' ';
    out += numberField(v);
  }
  return out;
}

// One dataset entry per grasp: where it comes from, then the grasp as the grasp list has it.
Json datasetGrasp(const Json& job, const Json& list, const Json& grasp) {
  Json o = Json::object();
  o.set("row", job.at("row", "job").number("row"));
  o.set("job", job.at("job", "job").number("job"));
  for (const char* key : {"world", "hand", "object"})
    if (const Json* v = job.find(key)) o.set(std::string(key) + (std::string(key) == "object" ? "File" : ""), *v);
  o.set("seed", job.at("seed", "job").string("seed"));
  o.set("robot", list.at("robot", "list").string("robot"));
  o.set("object", list.at("object", "list").string("object"));
  for (const auto& [key, v] : grasp.members("grasp"))
    if (key != "state") o.set(key, v);
  return o;
}

}  // namespace

void checkRankBy(const std::string& rankBy) {
  if (rankBy == "row" || rankBy == "energy" || findQualityMeasure(rankBy)) return;
  std::string names;
  for (const std::string& m : qualityMeasureNames()) names += ", " + m;
  throw Error("cannot rank by '" + rankBy + "': expected row, energy" + names);
}

DatasetFormat datasetFormatOf(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".json") return DatasetFormat::Json;
  if (ext == ".csv") return DatasetFormat::Csv;
  throw Error("the dataset file must end in .json or .csv", path);
}

namespace {

// One grasp of the dataset, kept as text (a parsed tree per grasp would take ~10 × the shard bytes).
struct DatasetItem {
  std::pair<int, double> key{0, 0.0};   // the --rank-by order: (has no value, value)
  std::string json;                     // JSON: the grasp's line
  std::string csvHead, csvTail;         // CSV: the fields before and after the measure columns
  std::vector<std::pair<std::string, std::string>> measures;
  // CSV: the trial's fields (BATCH.md §Merge and the dataset): score, held, tried, and per direction tried
  // "held,displacement_mm,rotation_deg"; empty without a trial.
  std::string trialFields;
  std::vector<std::pair<std::string, std::string>> trialDirections;
};

// The pull directions in the order the trial's columns take (src/sim/TrialSettings.h: x+, x-, y+, y-, z+, z-).
const std::vector<std::string>& pullDirectionOrder() {
  static const std::vector<std::string> order = {"x+", "x-", "y+", "y-", "z+", "z-"};
  return order;
}

// Fields are appended one by one (`a + b` chains of temporaries trip GCC 12's -Wrestrict false positive).
void appendField(std::string& out, const std::string& text) {
  out += ',';
  out += text;
}

DatasetItem csvItem(const Json& e) {
  DatasetItem item;
  auto str = [&](const char* key) { const Json* v = e.find(key); return v ? csvField(v->string(key)) : std::string(); };
  std::string& head = item.csvHead;
  head += number(e.at("row", "e").number("row"));
  appendField(head, number(e.at("job", "e").number("job")));
  for (const char* key : {"world", "hand", "objectFile", "seed", "robot", "object"}) appendField(head, str(key));
  appendField(head, number(e.at("rank", "e").number("rank")));
  appendField(head, numberField(e.at("energy", "e")));
  appendField(head, e.at("forceClosure", "e").boolean("forceClosure") ? "1" : "0");
  appendField(head, std::to_string(e.at("contacts", "e").items("contacts").size()));
  for (const auto& [name, v] : e.at("measures", "e").members("measures")) item.measures.emplace_back(name, numberField(v));
  for (const char* c : {"grasp", "preGrasp"}) {
    const Json& conf = e.at(c, "e");
    const Json& palm = conf.at("palm", c);
    for (const Json& v : palm.at("position_mm", "palm").items("position_mm")) appendField(item.csvTail, numberField(v));
    for (const Json& v : palm.at("quaternion_wxyz", "palm").items("quaternion_wxyz"))
      appendField(item.csvTail, numberField(v));
    appendField(item.csvTail, joinedNumbers(conf.at("dofs", c)));
  }
  // The joints in break-away (PLANNER.md §Grasp list file, "breakAway"), grasp then pre-grasp, after the poses.
  for (const char* c : {"grasp", "preGrasp"})
    appendField(item.csvTail, breakAwayCsvField(e.at(c, "e").find("breakAway")));
  if (const Json* t = e.find("trial"); t && !t->isNull()) {
    item.trialFields = numberField(t->at("score", "trial"));
    appendField(item.trialFields, numberField(t->at("held", "trial")));
    appendField(item.trialFields, numberField(t->at("tried", "trial")));
    for (const Json& d : t->at("directions", "trial").items("trial.directions")) {
      std::string f = d.at("held", "direction").boolean("held") ? "1" : "0";
      appendField(f, numberField(d.at("displacement_mm", "direction")));
      appendField(f, numberField(d.at("rotation_deg", "direction")));
      item.trialDirections.emplace_back(d.at("direction", "direction").string("direction"), std::move(f));
    }
  }
  return item;
}

}  // namespace

std::string breakAwayCsvField(const Json* joints) {
  std::string out;
  if (!joints) return out;
  for (const Json& j : joints->items("breakAway")) {
    if (!out.empty()) out += ' ';
    out += number(j.at("chain", "breakAway").number("chain"));
    out += ':';
    out += number(j.at("joint", "breakAway").number("joint"));
    out += ':';
    out += numberField(j.at("dofValue", "breakAway"));
  }
  return out;
}

std::string datasetText(std::vector<std::string> records, const std::string& jobList, long rows,
                        DatasetFormat format, const std::string& rankBy, MergeSummary& summary) {
  checkRankBy(rankBy);
  std::vector<DatasetItem> items;
  std::vector<std::string> measureNames;
  std::set<std::string> trialDirections;  // every direction some grasp's trial tried
  bool trials = false;
  std::vector<std::string> failed;
  for (std::string& text : records) {
    const Json record = Json::parse(text);
    std::string().swap(text);  // the record's text is not needed any more
    const Json& job = record.at("job", "record");
    if (const Json* e = record.find("error")) {
      const long row = static_cast<long>(record.at("row", "record").number("row"));
      summary.failedRows.emplace_back(row, e->string("error"));
      Json f = Json::object();
      f.set("row", row);
      f.set("job", job);
      f.set("error", *e);
      failed.push_back(f.dumpLine());
      continue;
    }
    const Json& list = record.at("list", "record");
    for (const Json& g : list.at("grasps", "list").items("grasps")) {
      const Json entry = datasetGrasp(job, list, g);
      DatasetItem item = format == DatasetFormat::Csv ? csvItem(entry) : DatasetItem{};
      if (format == DatasetFormat::Json) item.json = entry.dumpLine();
      trials = trials || !item.trialFields.empty();
      for (const auto& [direction, fields] : item.trialDirections) trialDirections.insert(direction);
      for (const auto& [name, v] : g.at("measures", "grasp").members("measures"))
        if (std::find(measureNames.begin(), measureNames.end(), name) == measureNames.end()) measureNames.push_back(name);
      if (rankBy != "row") {
        const Json* v = rankBy == "energy" ? entry.find("energy") : entry.at("measures", "grasp").find(rankBy);
        if (!v || v->isNull()) item.key = {1, 0.0};
        else item.key = {0, rankBy == "energy" ? v->number(rankBy) : -v->number(rankBy)};
      }
      items.push_back(std::move(item));
    }
  }
  // Stable: ties keep row order (and within a row, rank order).
  if (rankBy != "row")
    std::stable_sort(items.begin(), items.end(), [](const DatasetItem& a, const DatasetItem& b) { return a.key < b.key; });
  summary.rows = rows;
  summary.grasps = static_cast<long>(items.size());
  summary.jobList = jobList;
  std::string out;
  if (format == DatasetFormat::Json) {
    // One grasp per line: diff- and grep-friendly, and far smaller than indented JSON at 10⁶ grasps. The layout
    // is laid out here, every value (the header's too) is written by sg::Json.
    Json head = withFormat(kDatasetFormat, Json::object());
    head.set("jobList", jobList);
    head.set("rows", rows);
    head.set("grasps", static_cast<long>(items.size()));
    head.set("rankedBy", rankBy);
    const std::string headLine = head.dumpLine();  // {"format":...,"rankedBy":"..."}: drop the closing brace
    out += headLine.substr(0, headLine.size() - 1) + ",\n";
    out += "\"failedRows\": [";
    for (std::size_t i = 0; i < failed.size(); ++i) {
      out += i ? ",\n  " : "\n  ";
      out += failed[i];
    }
    out += failed.empty() ? "],\n" : "\n],\n";
    out += "\"dataset\": [";
    for (std::size_t i = 0; i < items.size(); ++i) {
      out += i ? ",\n  " : "\n  ";
      out += items[i].json;
    }
    out += items.empty() ? "]}\n" : "\n]}\n";
    return out;
  }
  // CSV: one grasp per line; poses as position (mm) and quaternion (w x y z), DOF values space-separated.
  out += "row,job,world,hand,objectFile,seed,robot,object,rank,energy,forceClosure,contacts";
  for (const std::string& m : measureNames) appendField(out, csvField(m));
  for (const char* c : {"grasp", "pregrasp"})
    for (const char* f : {"_x_mm", "_y_mm", "_z_mm", "_qw", "_qx", "_qy", "_qz", "_dofs"})
      appendField(out, std::string(c) + f);
  out += ",grasp_break_away,pregrasp_break_away";
  // Trial columns only when some row ran trials, so datasets without them keep their columns.
  std::vector<std::string> directions;
  for (const std::string& d : pullDirectionOrder())
    if (trialDirections.count(d)) directions.push_back(d);
  if (trials) {
    out += ",trial_score,trial_held,trial_tried";
    for (const std::string& d : directions)
      for (const char* f : {"_held", "_displacement_mm", "_rotation_deg"}) appendField(out, d + f);
  }
  out += '\n';
  for (const DatasetItem& item : items) {
    out += item.csvHead;
    for (const std::string& m : measureNames) {
      const auto it = std::find_if(item.measures.begin(), item.measures.end(), [&](const auto& p) { return p.first == m; });
      appendField(out, it == item.measures.end() ? std::string() : it->second);
    }
    out += item.csvTail;
    if (trials) {
      appendField(out, item.trialFields.empty() ? ",," : item.trialFields);
      for (const std::string& d : directions) {
        const auto it = std::find_if(item.trialDirections.begin(), item.trialDirections.end(),
                                     [&](const auto& p) { return p.first == d; });
        appendField(out, it == item.trialDirections.end() ? ",," : it->second);
      }
    }
    out += '\n';
  }
  return out;
}

MergeSummary mergeShards(const std::string& dir, const std::string& outPath, const std::string& rankBy) {
  const DatasetFormat format = datasetFormatOf(outPath);
  checkRankBy(rankBy);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error("no such folder", dir);
  std::map<int, std::map<int, std::string>> files;  // shards → shard → path
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (const auto kn = parseShardFileName(name)) files[kn->second][kn->first] = entry.path().string();
  }
  if (ec) throw Error("cannot list the folder: " + ec.message(), dir);
  if (files.empty()) throw Error("holds no shard files (shard-K-of-N.jsonl, written by softgrasp-cli batch)", dir);
  if (files.size() > 1) {
    std::string counts;
    for (const auto& [n, f] : files) counts += (counts.empty() ? "" : ", ") + std::to_string(n);
    throw Error("holds shards of different shardings (N = " + counts + "); keep the files of one run only", dir);
  }
  const int shards = files.begin()->first;
  const std::map<int, std::string>& shardFiles = files.begin()->second;

  std::vector<std::string> problems;
  std::vector<int> missingShards;
  for (int k = 0; k < shards; ++k)
    if (!shardFiles.count(k)) missingShards.push_back(k);
  if (!missingShards.empty()) {
    std::string names;
    for (const int k : missingShards) names += (names.empty() ? "" : ", ") + shardFileName(k, shards);
    problems.push_back("missing shard file(s) " + names);
  }
  std::optional<ShardHeader> reference;
  std::map<long, std::string> records;
  for (const auto& [k, path] : shardFiles) {
    const ShardContent c = readShard(path);
    for (const ShardProblem& p : c.problems) problems.push_back(path + ":" + std::to_string(p.line) + ": " + p.problem);
    if (!c.header) continue;
    if (c.header->shard != k || c.header->shards != shards) {
      problems.push_back(path + ": its header says shard " + std::to_string(c.header->shard) + "/" +
                         std::to_string(c.header->shards) + ", its name " + std::to_string(k) + "/" +
                         std::to_string(shards));
      continue;
    }
    if (!reference) reference = c.header;
    if (c.header->rows != reference->rows || c.header->jobList != reference->jobList) {
      problems.push_back(path + ": written for another job list (" + std::to_string(c.header->rows) + " rows, " +
                         c.header->jobList + ") than " + shardFileName(reference->shard, shards) + " (" +
                         std::to_string(reference->rows) + " rows, " + reference->jobList + ")");
      continue;
    }
    std::set<long> have;
    for (const auto& [row, text] : c.rows) {
      have.insert(row);
      records[row] = text;
    }
    std::vector<long> missing;
    for (const long r : rowsOfShard(c.header->rows, k, shards))
      if (!have.count(r)) missing.push_back(r);
    if (!missing.empty())
      problems.push_back(path + ": lacks " + std::to_string(missing.size()) + " of its " +
                         std::to_string(rowsOfShard(c.header->rows, k, shards).size()) + " rows (" +
                         listRows(missing) + "); run its shard again to finish it");
  }
  if (!problems.empty()) {
    std::string message = problems.size() == 1 ? "incomplete or broken batch: " : "incomplete or broken batch (" +
                                                                                      std::to_string(problems.size()) +
                                                                                      " problems): ";
    for (std::size_t i = 0; i < problems.size() && i < 10; ++i) message += (i ? "; " : "") + problems[i];
    if (problems.size() > 10) message += "; and " + std::to_string(problems.size() - 10) + " more";
    throw Error(message, dir);
  }
  std::vector<std::string> ordered;
  ordered.reserve(records.size());
  for (auto& [row, text] : records) ordered.push_back(std::move(text));
  MergeSummary summary;
  summary.shards = shards;
  records.clear();
  const std::string text = datasetText(std::move(ordered), reference->jobList, reference->rows, format, rankBy, summary);
  writeFileAtomically(outPath, text);
  return summary;
}

}  // namespace sg::batch
