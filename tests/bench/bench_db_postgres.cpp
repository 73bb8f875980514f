// bench_db_postgres: the PostgreSQL side of the grasp database (src/store/POSTGRES.md), on a private PostgreSQL 15
// the benchmark starts (tests/support/PostgresServer.h, fsync on as a real server runs):
//   1. insert rate through GraspStore::insertRow (one transaction per row of 10 grasps, 2 measures each), with and
//      without 4 contacts per grasp: grasps/s, and the median and p90 time of a row;
//   2. the top-100 query of a (robot, object, measure threshold) on a generated database of 1,000,000 grasps (5
//      robots × 40 objects, 5,000 grasps per pair, ε L1 and volume under hertz for each): median and p90 of
//      GraspStore::query with jittered pairs and thresholds; target ≤ 50 ms (issue: grasp database, item 6).
// Cross-checks (a mismatch fails the benchmark): every inserted row and grasp is stored once; a stored grasp reads
// back as generated; each query returns the ids a plain SQL statement on grasp_measures returns, in its order.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "BenchStats.h"
#include "../support/PostgresServer.h"
#include "core/NumberFormat.h"
#include "store/GraspStore.h"
#include "store/PgClient.h"
#include "store/Schema.h"

using namespace sg;
using namespace sg::store;

namespace {

constexpr int kGraspsPerRow = 10;
constexpr int kContactsPerGrasp = 4;
constexpr int kRowsTimed = 150;

ModelIdentity model(const std::string& name) {
  ModelIdentity m;
  m.name = name;
  m.contentHash = std::string(64, name.size() % 2 ? 'a' : 'b');
  m.files.push_back({"/models/" + name + ".xml", std::string(64, 'c'), 1234});
  return m;
}

// A row of jittered grasps (the same generator seed gives the same row).
RowRecord generatedRow(std::int64_t index, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  RowRecord r;
  r.row = index;
  r.job = index;
  r.seed = std::to_string(1000 + index);
  r.spec = "{\"bench\": true}";
  r.robot = model("ThreeFinger");
  r.object = model("mug");
  r.contactModel = "hertz";
  r.elapsed_s = 0.5;
  r.iterations = 40000;
  r.stopReason = "steps";
  for (int k = 0; k < kGraspsPerRow; ++k) {
    GraspRecord g;
    g.rank = k + 1;
    g.energy = -10 + u(rng);
    g.X_OP = Transform(Quat(1, u(rng), u(rng), u(rng)).normalized(), Vec3(100 * u(rng), 100 * u(rng), 100 * u(rng)));
    g.dofs = {u(rng), u(rng), u(rng), u(rng)};
    g.preGrasp_X_OP = g.X_OP;
    g.preGraspDofs = g.dofs;
    g.forceClosure = u(rng) > 0;
    for (const char* measure : {"epsilon-l1", "volume-l1"})
      g.measures.push_back({"hertz", measure, 0.2 + 0.1 * u(rng), 0.19, 0.31});
    for (int c = 0; c < kContactsPerGrasp; ++c)
      g.contacts.push_back({"finger" + std::to_string(c), "mug", Vec3(u(rng), u(rng), u(rng)) * 40,
                            Vec3(u(rng), u(rng), 1).normalized()});
    r.grasps.push_back(std::move(g));
  }
  return r;
}

// The URL of database `name` on the server of `serverUrl` (postgresql://user@/db?host=...).
std::string databaseUrl(const std::string& serverUrl, const std::string& name) {
  const auto slash = serverUrl.find('/', serverUrl.find("://") + 3);
  const auto end = serverUrl.find('?', slash);
  return serverUrl.substr(0, slash + 1) + name + (end == std::string::npos ? "" : serverUrl.substr(end));
}

void insertRate(const std::string& serverUrl, bool withContacts, bench::CrossCheck& check) {
  const std::string name = withContacts ? "insert_contacts" : "insert_plain";
  PgClient(serverUrl).exec("CREATE DATABASE " + name);
  auto db = GraspStore::open(databaseUrl(serverUrl, name), OpenMode::ReadWrite);
  RunRecord run;
  run.key = "bench:" + name;
  run.kind = "batch";
  run.withContacts = withContacts;
  run.rowsTotal = kRowsTimed;
  const std::int64_t runId = db->beginRun(run);
  std::mt19937 rng(withContacts ? 7 : 8);
  std::vector<RowRecord> rows;
  for (int i = 0; i < kRowsTimed; ++i) rows.push_back(generatedRow(i, rng));
  std::vector<double> samples;
  double total = 0;
  for (const RowRecord& row : rows) {
    const auto t0 = std::chrono::steady_clock::now();
    const bool stored = db->insertRow(runId, row);
    samples.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    total += samples.back();
    check.expect(stored, "row " + std::to_string(row.row) + " was not stored");
  }
  // A second insert of a row stores nothing (the resume path).
  check.expect(!db->insertRow(runId, rows.front()), "a row was stored twice");
  const StoreInfo info = db->info();
  check.expect(info.rows == kRowsTimed && info.grasps == kRowsTimed * kGraspsPerRow,
               name + ": " + std::to_string(info.rows) + " rows, " + std::to_string(info.grasps) + " grasps stored");
  check.expect(info.contacts == (withContacts ? kRowsTimed * kGraspsPerRow * kContactsPerGrasp : 0),
               name + ": " + std::to_string(info.contacts) + " contacts stored");
  GraspQuery q;
  q.limit = 1;
  db->query(q, [&](const GraspRow& r) {
    const GraspRecord& expected = rows.front().grasps.front();
    check.expect(r.grasp.X_OP.translation() == expected.X_OP.translation() && r.grasp.dofs == expected.dofs &&
                     r.grasp.energy == expected.energy,
                 name + ": the first grasp does not read back as generated");
  });
  const bench::Spread s = bench::spreadOf(samples);
  std::printf("  %-16s %8.0f grasps/s   row of %d grasps: median %6.2f ms, p90 %6.2f ms  (%d rows)\n",
              withContacts ? "with contacts" : "without contacts", kRowsTimed * kGraspsPerRow / total, kGraspsPerRow,
              s.median_s * 1e3, s.p90_s * 1e3, kRowsTimed);
}

// 1,000,000 grasps generated by the server (INSERT ... SELECT over generate_series) in the schema's tables. The
// schema's secondary indexes are dropped for the load and made again after it from the schema's own statements
// (one sort each instead of a million insertions), so the query runs on exactly the schema's indexes.
void generateLargeDatabase(PgClient& c, const Connection& connection, long long grasps) {
  const std::string rows = std::to_string(grasps / 100);
  std::vector<std::string> indexes;
  for (int version = 1; version <= kSchemaVersion; ++version)
    for (const std::string& sql : migrationStatements(version, connection))
      if (sql.rfind("CREATE INDEX ", 0) == 0) indexes.push_back(sql);
  for (const std::string& sql : indexes)
    c.execScript("DROP INDEX " + sql.substr(13, sql.find(' ', 13) - 13));
  c.execScript(
      "SELECT setseed(0.25);"
      "INSERT INTO robots (name, content_hash) SELECT 'robot' || i, md5('r' || i) FROM generate_series(1, 5) i;"
      "INSERT INTO objects (name, content_hash) SELECT 'object' || i, md5('o' || i) FROM generate_series(1, 40) i;"
      "INSERT INTO runs (run_key, kind, softgrasp_version, command, settings, seed, host, started_at, ended_at, "
      "  stop_reason, job_list, rows_total, with_contacts) VALUES ('bench:generated', 'batch', 'bench', 'bench', "
      "  '{}', '', 'bench', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'complete', 'generated', " + rows + ", 0);"
      // Rows of 100 grasps; row r is robot r % 5 + 1 on object (r / 5) % 40 + 1.
      "INSERT INTO run_rows (run_id, row_index, job, seed, spec, robot_id, object_id, contact_model, elapsed_s, "
      "  iterations, stop_reason, error) SELECT 1, r, r, r::text, '{}', r % 5 + 1, (r / 5) % 40 + 1, 'hertz', 1, "
      "  1000, 'steps', '' FROM generate_series(0, " + rows + " - 1) r;"
      "INSERT INTO grasps (run_id, row_id, job, seed, grasp_rank, robot_id, object_id, energy, force_closure, "
      "  x_mm, y_mm, z_mm, qw, qx, qy, qz, dofs, pre_x_mm, pre_y_mm, pre_z_mm, pre_qw, pre_qx, pre_qy, pre_qz, "
      "  pre_dofs, state) SELECT 1, g / 100 + 1, g / 100, (g / 100)::text, g % 100 + 1, (g / 100) % 5 + 1, "
      "  (g / 500) % 40 + 1, -10 * random(), (random() < 0.6)::int, 100 * random(), 100 * random(), "
      "  100 * random(), 1, 0, 0, 0, '[0.1,0.2,0.3,0.4]', 0, 0, 150, 1, 0, 0, 0, '[0,0,0,0]', '[]' "
      "  FROM generate_series(0, " + std::to_string(grasps - 1) + ") g;"
      "INSERT INTO grasp_measures (grasp_id, contact_model, measure, value, lower_bound, upper_bound, robot_id, "
      "  object_id) SELECT id, 'hertz', m, CASE m WHEN 'epsilon-l1' THEN 0.3 * random() ELSE 0.01 * random() END, "
      "  NULL, NULL, robot_id, object_id FROM grasps, (VALUES ('epsilon-l1'), ('volume-l1')) AS ms(m);");
  for (const std::string& sql : indexes) c.execScript(sql);
  c.execScript("ANALYZE");
}

void topQuery(const std::string& serverUrl, long long total, bench::CrossCheck& check) {
  PgClient(serverUrl).exec("CREATE DATABASE query_top");
  const std::string url = databaseUrl(serverUrl, "query_top");
  auto db = GraspStore::open(url, OpenMode::ReadWrite);  // creates the schema
  PgClient c(url);
  const auto t0 = std::chrono::steady_clock::now();
  generateLargeDatabase(c, db->connection(), total);
  const double generation_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const long long grasps = c.exec("SELECT count(*) FROM grasps").integer(0, 0);
  check.expect(grasps == total, "generated " + std::to_string(grasps) + " grasps");
  std::printf("  generated %lld grasps, %lld measures in %.1f s (database %.0f MB)\n", grasps,
              c.exec("SELECT count(*) FROM grasp_measures").integer(0, 0), generation_s,
              static_cast<double>(db->info().sizeBytes) / 1e6);

  // Jittered queries: 16 (robot, object) pairs, thresholds between 0.05 and 0.25.
  std::mt19937 rng(11);
  struct Case {
    int robot, object;
    double threshold;
    std::vector<std::int64_t> expected;
  };
  std::vector<Case> cases;
  for (int k = 0; k < 16; ++k)
    cases.push_back({1 + static_cast<int>(rng() % 5), 1 + static_cast<int>(rng() % 40),
                     0.05 + 0.2 * std::uniform_real_distribution<double>(0, 1)(rng), {}});
  // The reference: the top 100 ids from grasp_measures alone (its index), timed too: what the query's joins and
  // per-grasp reads (measures, contacts) add on top of it.
  const std::string reference =
      "SELECT grasp_id FROM grasp_measures WHERE robot_id = $1 AND object_id = $2 AND contact_model = 'hertz' "
      "AND measure = 'epsilon-l1' AND value >= $3 ORDER BY value DESC, grasp_id LIMIT 100";
  const bench::Spread plain = bench::spreadOverStates(
      cases.size(),
      [&](std::size_t k) {
        Case& q = cases[k];
        const PgResult r = c.execPrepared(
            reference, {std::to_string(q.robot), std::to_string(q.object), formatDouble(q.threshold)});
        q.expected.clear();
        for (int i = 0; i < r.rows(); ++i) q.expected.push_back(r.integer(i, 0));
      },
      2.0, 3, 20);
  std::vector<std::vector<std::int64_t>> got(cases.size());
  const bench::Spread s = bench::spreadOverStates(
      cases.size(),
      [&](std::size_t k) {
        GraspQuery q;
        q.robot = "robot" + std::to_string(cases[k].robot);
        q.object = "object" + std::to_string(cases[k].object);
        q.contactModel = "hertz";
        q.measure = "epsilon-l1";
        q.minValue = cases[k].threshold;
        q.order = GraspQuery::Order::Measure;
        q.limit = 100;
        got[k].clear();
        db->query(q, [&](const GraspRow& row) { got[k].push_back(row.id); });
      },
      5.0, 3, 20);
  for (std::size_t k = 0; k < cases.size(); ++k)
    check.expect(got[k] == cases[k].expected && !got[k].empty(),
                 "query " + std::to_string(k) + ": " + std::to_string(got[k].size()) +
                     " grasps, not the reference's top 100");
  std::printf("  top-100 query (robot, object, hertz, epsilon-l1 >= t, best first): median %.1f ms, p90 %.1f ms "
              "(%zu samples; target <= 50 ms: %s)\n",
              s.median_s * 1e3, s.p90_s * 1e3, s.samples, s.median_s <= 0.050 ? "met" : "NOT met");
  std::printf("  of which the top-100 ids from grasp_measures alone (reference SQL): median %.1f ms, p90 %.1f ms\n",
              plain.median_s * 1e3, plain.p90_s * 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  // --grasps N: the size of the query's database (default 1,000,000; a multiple of 100). --server URL: a running
  // server where this user may CREATE DATABASE (the databases insert_plain, insert_contacts and query_top must
  // not exist); they are left there to be inspected (EXPLAIN). Default: a private server, gone at the end.
  long long total = 1000000;
  std::string serverUrl;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--grasps") total = std::atoll(argv[i + 1]);
    else if (flag == "--server") serverUrl = argv[i + 1];
    else argc = 0;
  }
  if (argc % 2 == 0 || total < 100 || total % 100 != 0) {
    std::fprintf(stderr, "usage: bench_db_postgres [--grasps N (multiple of 100)] [--server URL]\n");
    return 2;
  }
  test::PostgresServer server(true);
  if (serverUrl.empty()) {
    std::printf("bench_db_postgres: PostgreSQL 15 on a Unix socket, fsync on (tests/bench/README.md)\n");
    if (!server.start()) {
      std::fprintf(stderr, "bench_db_postgres: %s\n", server.error().c_str());
      return 1;
    }
    serverUrl = server.url();
  } else {
    std::printf("bench_db_postgres: the server of %s\n", PgClient::redact(serverUrl).c_str());
  }
  bench::CrossCheck check;
  try {
    std::printf("insert rate (GraspStore::insertRow, one transaction per row):\n");
    insertRate(serverUrl, false, check);
    insertRate(serverUrl, true, check);
    std::printf("query on %lld grasps:\n", total);
    topQuery(serverUrl, total, check);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_db_postgres: %s\n", e.what());
    return 1;
  }
  return check.finish();
}
