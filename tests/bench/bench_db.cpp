// bench_db: the grasp database on SQLite (src/store/README.md), three figures of issue-sized work:
//  1. insert rate in grasps/s, a row of 20 grasps per transaction, with and without their contacts;
//  2. "top 100 grasps of this robot on this object above x" on a generated database of 1,000,000 grasps
//     (10 robots × 100 objects), jittered over (robot, object, x), median and p90 [target ≤ 50 ms];
//  3. batch-merge --db of 100,000 shard rows, streamed, with the process's peak memory [target ≤ 200 MB].
// Every result is cross-checked against the values generated (a mismatch exits with status 3).
//
// usage: bench_db [--grasps N] [--merge-rows N] [--dir DIR] [--quick]
//   (--quick: 100,000 grasps and 5,000 merge rows, for a smoke run)
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "BenchStats.h"
#include "batch/ShardFile.h"
#include "core/Error.h"
#include "core/Json.h"
#include "io/ContentHash.h"
#include "store/GraspStore.h"
#include "store/Import.h"

using namespace sg;
using namespace sg::store;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double peakRss_MB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

ModelIdentity identity(const std::string& name) {
  return {name, sha256Hex(name), {{"/bench/" + name + ".xml", sha256Hex(name + ".xml"), 1000}}};
}

// A row of `grasps` grasps with jittered poses and one ε L1 under "hertz" each (value(k) from `rng`).
RowRecord makeRow(std::int64_t row, const std::string& robot, const std::string& object, int grasps,
                  std::mt19937_64& rng, bool contacts, std::vector<double>* values = nullptr) {
  std::uniform_real_distribution<double> u(0, 1);
  RowRecord r;
  r.row = row;
  r.job = row;
  r.seed = std::to_string(row + 1);
  r.spec = "{}";
  r.robot = identity(robot);
  r.object = identity(object);
  r.contactModel = "hertz";
  for (int k = 1; k <= grasps; ++k) {
    GraspRecord g;
    g.rank = k;
    g.energy = -10 + 20 * u(rng);
    g.X_OP = Transform(Quat(u(rng), u(rng), u(rng), u(rng)).normalized(), Vec3(u(rng), u(rng), u(rng)) * 100);
    g.dofs = {u(rng), u(rng), u(rng), u(rng)};
    g.preGrasp_X_OP = g.X_OP;
    g.preGraspDofs = g.dofs;
    g.forceClosure = u(rng) < 0.7;
    const double eps = 0.3 * u(rng);
    if (values) values->push_back(eps);
    g.measures.push_back({"hertz", "epsilon-l1", eps, eps * 0.99, eps * 1.01});
    g.measures.push_back({"hertz", "volume-l1", 10 * u(rng), std::nullopt, std::nullopt});
    if (contacts)
      for (int c = 0; c < 4; ++c)
        g.contacts.push_back({"hand/link" + std::to_string(c), object, Vec3(u(rng), u(rng), u(rng)), Vec3::UnitZ()});
    r.grasps.push_back(std::move(g));
  }
  return r;
}

RunRecord makeRun(const std::string& key, bool contacts) {
  RunRecord run;
  run.key = key;
  run.kind = "bench";
  run.softgraspVersion = "bench";
  run.command = "bench_db";
  run.settings = "{}";
  run.host = hostName();
  run.startedAt = utcNow();
  run.withContacts = contacts;
  return run;
}

void removeDb(const std::string& path) {
  for (const char* s : {"", "-wal", "-shm"}) fs::remove(path + s);
}

// 1. Insert rate: `rows` rows of 20 grasps, one transaction each (batch --db) or 64 rows per transaction
// (batch-merge --db, db import).
void insertRate(const std::string& dir, bench::CrossCheck& check) {
  std::printf("insert rate (SQLite, WAL, synchronous=NORMAL; rows of 20 grasps, 2 measures each, 4 contacts):\n");
  for (const bool batched : {false, true})
  for (const bool contacts : {false, true}) {
    const std::string path = dir + (contacts ? "/insert-contacts.db" : "/insert.db");
    removeDb(path);
    auto db = GraspStore::open(path, OpenMode::ReadWrite);
    const std::int64_t run = db->beginRun(makeRun("bench:insert", contacts));
    std::mt19937_64 rng(7);
    const int rows = 500;
    std::vector<RowRecord> records;
    for (int r = 0; r < rows; ++r) records.push_back(makeRow(r, "Hand", "obj" + std::to_string(r % 7), 20, rng, contacts));
    std::vector<double> perRow;
    const auto t0 = Clock::now();
    const double cpu0 = cpuSeconds();
    if (batched) {
      for (std::size_t i = 0; i < records.size(); i += 64) {
        const auto t = Clock::now();
        db->insertRows(run, std::vector<RowRecord>(records.begin() + static_cast<std::ptrdiff_t>(i),
                                                   records.begin() + static_cast<std::ptrdiff_t>(std::min(i + 64, records.size()))));
        perRow.push_back(since(t) / 64);
      }
    } else {
      for (const RowRecord& r : records) {
        const auto t = Clock::now();
        db->insertRow(run, r);
        perRow.push_back(since(t));
      }
    }
    const double total = since(t0), cpu = cpuSeconds() - cpu0;
    const StoreInfo info = db->info();
    check.expect(info.grasps == rows * 20, "grasps stored = grasps inserted");
    check.expect(info.contacts == (contacts ? rows * 20 * 4 : 0), "contacts stored = contacts inserted");
    const bench::Spread s = bench::spreadOf(perRow);
    std::printf("  %-20s %-16s %7.0f grasps/s wall, %7.0f per CPU s (row of 20: median %.2f ms, p90 %.2f ms; %d rows)\n",
                batched ? "64 rows/transaction" : "1 row/transaction", contacts ? "with contacts" : "without contacts",
                rows * 20 / total, rows * 20 / cpu, s.median_s * 1e3, s.p90_s * 1e3, rows);
  }
}

// 2. Top-100 query on a generated database of `grasps` grasps.
void topQuery(const std::string& dir, std::int64_t grasps, bench::CrossCheck& check) {
  const std::string path = dir + "/million.db";
  removeDb(path);
  auto db = GraspStore::open(path, OpenMode::ReadWrite);
  const std::int64_t run = db->beginRun(makeRun("bench:million", false));
  const int robots = 10, objects = 100, perRow = 20;
  // values[robot][object] = every ε of that pair, to check the query against.
  std::map<std::pair<int, int>, std::vector<double>> values;
  std::map<std::pair<int, int>, std::vector<bool>> closure;
  std::mt19937_64 rng(11);
  const auto t0 = Clock::now();
  const std::int64_t rows = grasps / perRow;
  std::vector<RowRecord> pending;
  for (std::int64_t r = 0; r < rows; ++r) {
    const int robot = static_cast<int>(r % robots), object = static_cast<int>((r / robots) % objects);
    std::vector<double>& v = values[{robot, object}];
    pending.push_back(
        makeRow(r, "robot" + std::to_string(robot), "object" + std::to_string(object), perRow, rng, false, &v));
    for (const GraspRecord& g : pending.back().grasps) closure[{robot, object}].push_back(g.forceClosure);
    if (pending.size() == 64 || r + 1 == rows) {
      db->insertRows(run, pending);
      pending.clear();
    }
  }
  const double build = since(t0);
  std::printf("top-100 query on %lld grasps (%d robots x %d objects; built in %.0f s, %.0f grasps/s, %.0f MB):\n",
              static_cast<long long>(rows * perRow), robots, objects, build, rows * perRow / build,
              static_cast<double>(db->info().sizeBytes) / 1e6);
  // Jittered queries: (robot, object, threshold) vary; each checked against the generated values.
  std::mt19937_64 pick(5);
  std::uniform_real_distribution<double> u(0, 1);
  struct Q {
    int robot, object;
    double x;
  };
  std::vector<Q> qs;
  for (int i = 0; i < 40; ++i)
    qs.push_back({static_cast<int>(pick() % robots), static_cast<int>(pick() % objects), 0.25 * u(pick)});
  auto run1 = [&](const Q& q, std::vector<double>* out) {
    GraspQuery query;
    query.robot = "robot" + std::to_string(q.robot);
    query.object = "object" + std::to_string(q.object);
    query.contactModel = "hertz";
    query.measure = "epsilon-l1";
    query.minValue = q.x;
    query.forceClosure = true;
    query.order = GraspQuery::Order::Measure;
    query.limit = 100;
    db->query(query, [&](const GraspRow& g) {
      if (out) out->push_back(*g.value);
    });
  };
  for (const Q& q : qs) {
    std::vector<double> got, want;
    run1(q, &got);
    const auto& v = values[{q.robot, q.object}];
    const auto& fc = closure[{q.robot, q.object}];
    for (std::size_t i = 0; i < v.size(); ++i)
      if (fc[i] && v[i] >= q.x) want.push_back(v[i]);
    std::sort(want.rbegin(), want.rend());
    if (want.size() > 100) want.resize(100);
    check.expect(got == want, "top-100 query = the generated values filtered and sorted");
  }
  const bench::Spread s = bench::spreadOverStates(qs.size(), [&](std::size_t k) { run1(qs[k], nullptr); }, 2.0);
  std::printf("  robot + object + force closure + ε L1 ≥ x (hertz), top 100: median %.2f ms, p90 %.2f ms "
              "(%zu samples) [target ≤ 50 ms]\n", s.median_s * 1e3, s.p90_s * 1e3, s.samples);
  GraspQuery any;
  any.contactModel = "hertz";
  any.measure = "epsilon-l1";
  any.minValue = 0.2;
  any.order = GraspQuery::Order::Measure;
  any.limit = 100;
  const bench::Spread s2 = bench::spreadOverStates(1, [&](std::size_t) { db->query(any, [](const GraspRow&) {}); }, 1.0);
  std::printf("  any robot and object, ε L1 ≥ 0.2, top 100: median %.2f ms, p90 %.2f ms\n", s2.median_s * 1e3,
              s2.p90_s * 1e3);
}

// 3. batch-merge --db of `rows` shard rows (4 shards), streamed.
void merge(const std::string& dir, std::int64_t rows, bench::CrossCheck& check) {
  const std::string shards = dir + "/shards";
  fs::remove_all(shards);
  fs::create_directories(shards);
  const int n = 4;
  // One row's record: a grasp list of 5 grasps with 2 contacts each, and its provenance (BATCH.md §Shard files).
  auto record = [](std::int64_t row) {
    std::string grasps;
    for (int k = 0; k < 5; ++k) {
      const std::string x = std::to_string(0.5 * static_cast<double>(row % 97) + k);
      grasps += std::string(k ? "," : "") + "{\"rank\":" + std::to_string(k + 1) + ",\"energy\":" + x +
                ",\"state\":[1,2,3,4,5,6,7],\"preGrasp\":{\"palm\":{\"position_mm\":[" + x +
                ",2,300],\"quaternion_wxyz\":[1,0,0,0]},\"dofs\":[0.1,0.2,0.3,0.4]},\"grasp\":{\"palm\":{"
                "\"position_mm\":[" + x + ",2,250],\"quaternion_wxyz\":[0,1,0,0]},\"dofs\":[0.5,0.6,0.7,0.8]},"
                "\"forceClosure\":true,\"measures\":{\"epsilon-l1\":0.1" + std::to_string(k) +
                "},\"contacts\":[{\"handBody\":\"H/l0\",\"otherBody\":\"mug\",\"position_mm\":[1,2,3],"
                "\"normal\":[0,0,1]},{\"handBody\":\"H/l1\",\"otherBody\":\"mug\",\"position_mm\":[4,5,6],"
                "\"normal\":[0,0,-1]}]}";
    }
    const std::string id = "{\"sha256\":\"" + std::string(64, 'a') + "\",\"files\":[{\"path\":\"/m/x.xml\","
                           "\"sha256\":\"" + std::string(64, 'b') + "\",\"bytes\":10}],\"name\":\"N\"}";
    const std::string text =
        "{\"row\":" + std::to_string(row) + ",\"job\":{\"row\":" + std::to_string(row) + ",\"job\":" +
        std::to_string(row) + ",\"world\":\"w.xml\",\"seed\":\"" + std::to_string(row) +
        "\",\"settings\":{\"contactModel\":[\"hertz\"]}},\"elapsed_s\":1.5,\"iterations\":1000,\"list\":{\"format\":"
        "\"softgrasp.grasp-list\",\"version\":1,\"world\":\"w.xml\",\"robot\":\"Hand\",\"robotIndex\":0,\"object\":"
        "\"mug\",\"graspableIndex\":0,\"planning\":{\"energy\":\"contacts\",\"space\":\"axis-angle\",\"params\":"
        "\"default\",\"seed\":\"" + std::to_string(row) + "\",\"maxSteps\":70000,\"stopReason\":\"step-limit\","
        "\"variables\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\"]},\"grasps\":[" + grasps + "]},\"provenance\":{"
        "\"world\":" + id + ",\"robot\":" + id + ",\"object\":" + id + ",\"X_WO\":{\"position_mm\":[0,0,0],"
        "\"quaternion_wxyz\":[1,0,0,0]}}}";
    return batch::frameRecord(Json::parse(text));
  };
  std::uintmax_t bytes = 0;
  for (int k = 0; k < n; ++k) {
    batch::ShardHeader h;
    h.shard = k;
    h.shards = n;
    h.rows = rows;
    h.jobList = "00000000bench000";
    const std::string path = shards + "/" + batch::shardFileName(k, n);
    std::ofstream out(path, std::ios::binary);
    out << batch::frameRecord(withFormat(batch::kShardFormat, h.toJson()));
    for (std::int64_t r = k; r < rows; r += n) out << record(r);
    out.close();
    bytes += fs::file_size(path);
  }
  const std::string path = dir + "/merged.db";
  removeDb(path);
  const double rssBefore = peakRss_MB();
  auto db = GraspStore::open(path, OpenMode::ReadWrite);
  const auto t0 = Clock::now();
  const ImportSummary s = importShardFolder(*db, shards, "bench_db");
  const double t = since(t0);
  check.expect(s.problems.empty() && s.rowsStored == rows && s.grasps == rows * 5,
               "merge: every row and grasp in the database");
  std::printf("batch-merge --db of %lld rows (%d shards, %.0f MB of shard text, 5 grasps + 10 contacts per row):\n",
              static_cast<long long>(rows), n, static_cast<double>(bytes) / 1e6);
  std::printf("  %.1f s, %.0f rows/s; peak memory (max RSS) %.0f MB before, %.0f MB after [target ≤ 200 MB]\n", t,
              static_cast<double>(rows) / t, rssBefore, peakRss_MB());
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t grasps = 1000000, mergeRows = 100000;
  std::string dir = (fs::temp_directory_path() / "softgrasp-bench-db").string();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      grasps = 100000;
      mergeRows = 5000;
    } else if (a == "--grasps" && i + 1 < argc) {
      grasps = std::stoll(argv[++i]);
    } else if (a == "--merge-rows" && i + 1 < argc) {
      mergeRows = std::stoll(argv[++i]);
    } else if (a == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else {
      std::fprintf(stderr, "usage: bench_db [--grasps N] [--merge-rows N] [--dir DIR] [--quick]\n");
      return 2;
    }
  }
  fs::create_directories(dir);
  bench::CrossCheck check;
  try {
    // The merge first: its peak memory is the process's until then.
    merge(dir, mergeRows, check);
    insertRate(dir, check);
    topQuery(dir, grasps, check);
  } catch (const Error& e) {
    std::fprintf(stderr, "bench_db: %s\n", e.what());
    return 1;
  }
  return check.finish();
}
