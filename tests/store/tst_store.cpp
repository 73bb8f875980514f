// The grasp database's engine (src/store/README.md) on real SQLite files: URLs, clear errors for files that
// are not (our) databases, schema upgrade and refusal, idempotent row writes, query filters against a filter
// over the same records, SHA-256 and file provenance (a changed mesh is another object); the PostgreSQL client's
// retry policy as the environment sets it (no server needed).
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <thread>
#include <tuple>

#include "batch/Provenance.h"
#include "core/Error.h"
#include "io/ContentHash.h"
#include "io/ModelIO.h"
#include "store/GraspListRun.h"
#include "store/GraspStore.h"
#include "store/Import.h"
#include "store/PgClient.h"
#include "store/Schema.h"
#include "store/SqliteConnection.h"
#include "../support/TestPaths.h"
#include "../support/StoreRunRecord.h"

using namespace sg;
using namespace sg::store;

namespace {

std::string str(const QString& s) { return s.toStdString(); }

// The error `f` throws; empty when it throws none.
template <class F>
QString errorOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

ModelIdentity identity(const std::string& name, const std::string& hashSeed) {
  return {name, sha256Hex(hashSeed), {{"/models/" + name + ".xml", sha256Hex(hashSeed + "file"), 42}}};
}

// Row `row` of robot/object with `grasps` grasps whose ε L1 under "hertz" is scoreOf(row, rank) and force closure
// every other rank; ranks by energy = rank.
double scoreOf(std::int64_t row, int rank) { return 0.01 * static_cast<double>((row * 7 + rank * 3) % 23); }

RowRecord makeRow(std::int64_t row, const std::string& robot, const std::string& object, int grasps) {
  RowRecord r;
  r.row = row;
  r.job = row / 2;
  r.seed = std::to_string(100 + row);
  r.spec = "{}";
  r.robot = identity(robot, robot);
  r.object = identity(object, object);
  r.contactModel = "hertz";
  for (int k = 1; k <= grasps; ++k) {
    GraspRecord g;
    g.rank = k;
    g.energy = static_cast<double>(k) - 10.0;
    g.X_OP = Transform(Quat(Eigen::AngleAxisd(0.1 * k, Vec3::UnitZ())), Vec3(k, 2.0 * k, 100.0 + row));
    g.dofs = {0.5 * k, 1e-300};
    if (k % 2 == 0) g.breakAway = {{}, {{false, 0}, {true, 0.1 * k + 1e-17}}};  // chain 1 joint 1 broke away
    g.preGrasp_X_OP = Transform::fromTranslation(Vec3(0, 0, 150));
    g.preGraspDofs = {0.1};
    if (k % 3 != 1) g.preGraspBreakAway = {{{true, -0.25 * k - 1e-17}}};  // chain 0 joint 0 (ranks 2, 3, 5, ...)
    g.forceClosure = k % 2 == 1;
    g.measures.push_back({"hertz", "epsilon-l1", scoreOf(row, k), scoreOf(row, k) - 1e-3, scoreOf(row, k) + 1e-3});
    g.measures.push_back({"point", "epsilon-l1", 2 * scoreOf(row, k), std::nullopt, std::nullopt});
    g.contacts.push_back({"hand/link0", object, Vec3(1, 2, 3), Vec3::UnitX()});
    r.grasps.push_back(g);
  }
  return r;
}

RunRecord makeRun(const std::string& key) { return sg::test::testRunRecord(key, "batch", "tst_store", 8); }

}  // namespace

class TestStore : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  QString path(const QString& name) const { return tmp_.filePath(name); }

 private slots:
  void urls() {
    QCOMPARE(parseStoreUrl("grasps.db").target, std::string("grasps.db"));
    QVERIFY(parseStoreUrl("grasps.db").backend == Backend::Sqlite);
    QCOMPARE(parseStoreUrl("sqlite:///tmp/a.db").target, std::string("/tmp/a.db"));
    QCOMPARE(parseStoreUrl("sqlite://rel/a.db").target, std::string("rel/a.db"));
    QVERIFY(parseStoreUrl("postgresql://u@h/db").backend == Backend::Postgres);
    QVERIFY(parseStoreUrl("postgres:///db").backend == Backend::Postgres);
    QVERIFY(errorOf([] { parseStoreUrl("mysql://h/db"); }).contains("mysql://h/db"));
    QVERIFY(errorOf([] { parseStoreUrl(""); }).contains("empty database URL"));
    QVERIFY(errorOf([] { parseStoreUrl("sqlite://"); }).contains("without a file path"));
    QCOMPARE(numberedPlaceholders("SELECT '?', ? , \"a?\" ?"), std::string("SELECT '?', $1 , \"a?\" $2"));
  }

  // The PostgreSQL client's retry policy (src/store/POSTGRES.md §Retry policy): the defaults in the code are the
  // ones the document states, SOFTGRASP_PG_RETRY overrides the keys it names, a bad value is an error naming the
  // variable. No server needed: the policy is read before any connection.
  void pgRetryPolicy() {
    using std::chrono::milliseconds;
    const PgRetryPolicy code;
    QFile doc(sg::test::qInSourceTree("src/store/POSTGRES.md"));
    QVERIFY(doc.open(QIODevice::ReadOnly | QIODevice::Text));
    const QString text = QString::fromUtf8(doc.readAll()).simplified();
    const QRegularExpressionMatch defaults = QRegularExpression("The defaults are `([^`]*)`").match(text);
    QVERIFY2(defaults.hasMatch(), "POSTGRES.md should state \"The defaults are `connect=...`\"");
    // Parsed over a policy whose every field differs from the code's: each of the four keys must be written.
    PgRetryPolicy odd;
    odd.connectAttempts = 97;
    odd.reconnectAttempts = 98;
    odd.firstDelay = milliseconds(99);
    odd.maxDelay = milliseconds(100);
    const PgRetryPolicy documented = parsePgRetryPolicy(defaults.captured(1).toStdString(), "POSTGRES.md", odd);
    QCOMPARE(documented.connectAttempts, code.connectAttempts);
    QCOMPARE(documented.reconnectAttempts, code.reconnectAttempts);
    QCOMPARE(documented.firstDelay.count(), code.firstDelay.count());
    QCOMPARE(documented.maxDelay.count(), code.maxDelay.count());
    // The prose: "Reopening waits 250 ms, then twice as long each time up to 4 s, 8 attempts (about 16 s", the
    // pauses between the attempts summed as PgClient::connect sleeps them.
    long long pauses_ms = 0;
    milliseconds delay = code.firstDelay;
    for (int i = 1; i < code.reconnectAttempts; ++i, delay = std::min(delay * 2, code.maxDelay)) pauses_ms += delay.count();
    const QString prose = QString("Reopening waits %1 ms, then twice as long each time up to %2 s, %3 attempts (about %4 s")
                              .arg(code.firstDelay.count())
                              .arg(code.maxDelay.count() / 1000.0)
                              .arg(code.reconnectAttempts)
                              .arg(qRound(pauses_ms / 1000.0));
    QVERIFY2(text.contains(prose), qPrintable("POSTGRES.md should say: " + prose));
    QVERIFY2(text.contains(QString("the first connection tries %1 times").arg(code.connectAttempts)), "POSTGRES.md");

    // A subset of the keys, in any order, with blanks: the others keep the base's values.
    const PgRetryPolicy some = parsePgRetryPolicy(" max_ms=400 , reconnect=2", "test");
    QCOMPARE(some.reconnectAttempts, 2);
    QCOMPARE(some.maxDelay.count(), 400LL);
    QCOMPARE(some.connectAttempts, code.connectAttempts);
    QCOMPARE(some.firstDelay.count(), code.firstDelay.count());
    QCOMPARE(parsePgRetryPolicy("", "test").reconnectAttempts, code.reconnectAttempts);
    const PgRetryPolicy zero = parsePgRetryPolicy("first_ms=0,max_ms=0,connect=1", "test");
    QCOMPARE(zero.firstDelay.count(), 0LL);
    QCOMPARE(zero.connectAttempts, 1);

    // Bad values: each error names where the text came from, the text, and the problem.
    const std::vector<std::pair<const char*, const char*>> bad{
        {"connect=0", "at least 1 attempt"},    {"reconnect=-2", "at least 1 attempt"},
        {"first_ms=-1", "must not be negative"}, {"first_ms=500,max_ms=100", "max_ms is below first_ms"},
        {"speed=3", "unknown key 'speed'"},      {"connect", "is not key=value"},
        {"connect=2.5", "not a whole number"},   {"reconnect=many", "not a whole number"}};
    for (const auto& [value, why] : bad) {
      const QString e = errorOf([&] { parsePgRetryPolicy(value, "SOFTGRASP_PG_RETRY (environment)"); });
      QVERIFY2(e.contains("SOFTGRASP_PG_RETRY (environment)") && e.contains(value) && e.contains(why), qPrintable(e));
    }

    // From the environment: unset and empty give the defaults; set, its keys; bad, an error naming the variable.
    const QByteArray saved = qgetenv("SOFTGRASP_PG_RETRY");
    const bool wasSet = qEnvironmentVariableIsSet("SOFTGRASP_PG_RETRY");
    qunsetenv("SOFTGRASP_PG_RETRY");
    QCOMPARE(pgRetryPolicyFromEnvironment().reconnectAttempts, code.reconnectAttempts);
    qputenv("SOFTGRASP_PG_RETRY", "");
    QCOMPARE(pgRetryPolicyFromEnvironment().connectAttempts, code.connectAttempts);
    qputenv("SOFTGRASP_PG_RETRY", "reconnect=3,first_ms=7");
    const PgRetryPolicy env = pgRetryPolicyFromEnvironment();
    QCOMPARE(env.reconnectAttempts, 3);
    QCOMPARE(env.firstDelay.count(), 7LL);
    QCOMPARE(env.maxDelay.count(), code.maxDelay.count());
    qputenv("SOFTGRASP_PG_RETRY", "reconnect=0");
    const QString e = errorOf([] { pgRetryPolicyFromEnvironment(); });
    if (wasSet) qputenv("SOFTGRASP_PG_RETRY", saved); else qunsetenv("SOFTGRASP_PG_RETRY");
    QVERIFY2(e.contains("SOFTGRASP_PG_RETRY") && e.contains("reconnect=0"), qPrintable(e));
  }

  // Each file that is not a usable grasp database gives an error naming it and saying what is wrong.
  void clearErrors() {
    QVERIFY(tmp_.isValid());
    const QString text = path("notes.txt");
    QFile f(text);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray("these are not the grasps you are looking for\n").repeated(200));
    f.close();
    QString e = errorOf([&] { GraspStore::open(str(text), OpenMode::ReadWrite); });
    QVERIFY2(e.contains(text) && e.contains("not a SQLite database"), qPrintable(e));

    e = errorOf([&] { GraspStore::open(str(path("missing.db")), OpenMode::ReadOnly); });
    QVERIFY2(e.contains(path("missing.db")) && e.contains("no such database file"), qPrintable(e));
    QVERIFY(!QFile::exists(path("missing.db")));

    e = errorOf([&] { GraspStore::open(str(tmp_.path()), OpenMode::ReadWrite); });
    QVERIFY2(e.contains("is a folder"), qPrintable(e));

    // Corrupt: a real database whose schema page (page 1 after the file header) is overwritten.
    const QString corrupt = path("corrupt.db");
    { GraspStore::open(str(corrupt), OpenMode::ReadWrite); }
    QFile c(corrupt);
    QVERIFY(c.open(QIODevice::ReadWrite));
    QVERIFY(c.seek(100));
    c.write(QByteArray(3000, '\x5a'));
    c.close();
    QFile::remove(corrupt + "-wal");
    QFile::remove(corrupt + "-shm");
    e = errorOf([&] { GraspStore::open(str(corrupt), OpenMode::ReadOnly); });
    QVERIFY2(e.contains(corrupt) && e.contains("corrupt"), qPrintable(e));

    // Someone else's SQLite database: never written into.
    const QString other = path("other.db");
    {
      SqliteConnection conn(str(other), OpenMode::ReadWrite);
      conn.execute("CREATE TABLE grasps (x INTEGER)");
    }
    e = errorOf([&] { GraspStore::open(str(other), OpenMode::ReadWrite); });
    QVERIFY2(e.contains(other) && e.contains("not a SoftGrasp grasp database"), qPrintable(e));

    e = errorOf([&] { GraspStore::open("ftp://example.org/grasps.db", OpenMode::ReadOnly); });
    QVERIFY2(e.contains("ftp://example.org/grasps.db") && e.contains("unknown database URL scheme"), qPrintable(e));
  }

  // Two processes opening one new database together: while the other holds a write transaction on the new file
  // (still in rollback mode), switching it to WAL must wait for it, not fail at once (src/store/README.md §SQLite).
  void walSwitchWaitsForAnotherWriter() {
    const QString file = path("opened-together.db");
    sqlite3* other = nullptr;
    QCOMPARE(sqlite3_open(qPrintable(file), &other), SQLITE_OK);
    QCOMPARE(sqlite3_exec(other, "BEGIN IMMEDIATE; CREATE TABLE theirs (x INTEGER)", nullptr, nullptr, nullptr),
             SQLITE_OK);
    std::thread commitLater([other] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr);
    });
    QString error;
    std::string mode;
    bool theirsExists = false;
    try {
      SqliteConnection conn(str(file), OpenMode::ReadWrite);
      auto statement = conn.prepare("PRAGMA journal_mode");
      if (statement->step()) mode = statement->columnText(0);
      theirsExists = conn.tableExists("theirs");
    } catch (const sg::Error& e) {
      error = QString::fromStdString(e.what());
    }
    commitLater.join();
    sqlite3_close(other);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(QString::fromStdString(mode), QStringLiteral("wal"));
    QVERIFY(theirsExists);
  }

  // A database of the previous schema version is upgraded by a writer and refused, with advice, by a reader;
  // one of a newer version is refused by both, naming both versions.
  void schemaVersions() {
    const QString old = path("v1.db");
    {
      SqliteConnection conn(str(old), OpenMode::ReadWrite);
      upgradeSchema(conn, kSchemaVersion - 1);
      QCOMPARE(readSchemaVersion(conn), kSchemaVersion - 1);
      QVERIFY(conn.tableExists("trials"));
      QVERIFY(!errorOf([&] { conn.prepare("SELECT pre_break_away FROM grasps"); }).isEmpty());  // migration 4's
    }
    QString e = errorOf([&] { GraspStore::open(str(old), OpenMode::ReadOnly); });
    QVERIFY2(e.contains(old) && e.contains("older") && e.contains("db init"), qPrintable(e));
    {
      auto db = GraspStore::open(str(old), OpenMode::ReadWrite);
      QCOMPARE(db->info().schemaVersion, kSchemaVersion);
      QVERIFY(db->connection().tableExists("trials"));
      QVERIFY(errorOf([&] { db->connection().prepare("SELECT pre_break_away FROM grasps"); }).isEmpty());
    }
    QVERIFY(errorOf([&] { GraspStore::open(str(old), OpenMode::ReadOnly); }).isEmpty());

    const QString newer = path("newer.db");
    {
      auto db = GraspStore::open(str(newer), OpenMode::ReadWrite);
      db->connection().execute(
          "INSERT INTO schema_version (version, applied_at, softgrasp_version) VALUES (99, 'later', '9.9')");
    }
    for (const OpenMode mode : {OpenMode::ReadOnly, OpenMode::ReadWrite}) {
      e = errorOf([&] { GraspStore::open(str(newer), mode); });
      QVERIFY2(e.contains(newer) && e.contains("schema version 99") && e.contains("newer") &&
                   e.contains("version " + QString::number(kSchemaVersion)),
               qPrintable(e));
    }
  }

  // A version-3 database with grasps (before pre_break_away, src/store/README.md §Schema and migrations): a
  // writer migrates it and every grasp reads back as stored, with no pre-grasp joint in break-away. The file is
  // made with today's code and taken back to version 3 (its column dropped, its schema_version row deleted);
  // its grasps table is then the one migrations 1 to 3 create, as the comparison with a fresh one checks.
  void versionThreeDatabaseKeepsItsGrasps() {
    const QString v3 = path("v3-rows.db"), fresh = path("v3-fresh.db");
    const RowRecord row = makeRow(5, "Hand", "mug", 4);
    {
      auto db = GraspStore::open(str(v3), OpenMode::ReadWrite);
      QVERIFY(db->insertRow(db->beginRun(makeRun("batch:v3")), row));
    }
    const auto graspsDdl = [](SqliteConnection& conn) {
      auto s = conn.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'grasps'");
      return s->step() ? s->columnText(0) : std::string();
    };
    std::string freshDdl;
    {
      SqliteConnection conn(str(fresh), OpenMode::ReadWrite);
      upgradeSchema(conn, 3);
      freshDdl = graspsDdl(conn);
    }
    {
      SqliteConnection conn(str(v3), OpenMode::ReadWrite);
      conn.execute("ALTER TABLE grasps DROP COLUMN pre_break_away");
      conn.execute("DELETE FROM schema_version WHERE version = 4");
      QCOMPARE(readSchemaVersion(conn), 3);
      QCOMPARE(graspsDdl(conn), freshDdl);
    }
    const QString e = errorOf([&] { GraspStore::open(str(v3), OpenMode::ReadOnly); });
    QVERIFY2(e.contains(v3) && e.contains("older") && e.contains("db init"), qPrintable(e));
    auto db = GraspStore::open(str(v3), OpenMode::ReadWrite);
    QCOMPARE(db->info().schemaVersion, 4);
    std::vector<GraspRow> rows;
    db->query({}, [&](const GraspRow& r) { rows.push_back(r); });
    QCOMPARE(rows.size(), row.grasps.size());
    int withPre = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const GraspRecord& in = row.grasps[i];
      const GraspRecord& out = rows[i].grasp;
      QCOMPARE(out.rank, in.rank);
      QCOMPARE(out.dofs, in.dofs);
      QCOMPARE(out.preGraspDofs, in.preGraspDofs);
      QVERIFY(out.breakAway == in.breakAway);
      QVERIFY(out.preGraspBreakAway.empty());  // '[]': version 3 did not keep it
      QCOMPARE(out.measures.size(), in.measures.size());
      QCOMPARE(out.contacts.size(), in.contacts.size());
      withPre += in.preGraspBreakAway.empty() ? 0 : 1;
    }
    QVERIFY(withPre > 0);  // the rows written had some: the migration is what lost them, not the test data
    auto raw = db->connection().prepare("SELECT count(*) FROM grasps WHERE pre_break_away = '[]'");
    QVERIFY(raw->step());
    QCOMPARE(raw->columnInt(0), std::int64_t(row.grasps.size()));
  }

  // What goes in comes out (poses, DOFs down to 1e-300, joints in break-away of the grasp and of the pre-grasp,
  // measures per model with bounds, contacts), in the database and in the grasp list made of the rows read; a
  // row written twice is stored once.
  void roundTripAndIdempotence() {
    auto db = GraspStore::open(str(path("round.db")), OpenMode::ReadWrite);
    const std::int64_t run = db->beginRun(makeRun("batch:round"));
    QCOMPARE(db->beginRun(makeRun("batch:round")), run);
    const RowRecord row = makeRow(3, "Hand", "mug", 4);
    QVERIFY(db->insertRow(run, row));
    QVERIFY(!db->insertRow(run, row));
    RowRecord failed;
    failed.row = 4;
    failed.seed = "7";
    failed.spec = "{}";
    failed.error = "world cannot be loaded";
    QVERIFY(db->insertRow(run, failed));
    QCOMPARE(db->rowsDone(run), (std::set<std::int64_t>{3, 4}));
    const StoreInfo info = db->info();
    QCOMPARE(info.rows, std::int64_t(2));
    QCOMPARE(info.failedRows, std::int64_t(1));
    QCOMPARE(info.grasps, std::int64_t(4));
    QCOMPARE(info.measures, std::int64_t(8));
    QCOMPARE(info.contacts, std::int64_t(4));
    QCOMPARE(info.robots, std::int64_t(1));
    QVERIFY(info.sizeBytes > 0);

    std::vector<GraspRow> rows;
    db->query({}, [&](const GraspRow& r) { rows.push_back(r); });
    QCOMPARE(rows.size(), std::size_t(4));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const GraspRecord& in = row.grasps[i];
      const GraspRecord& out = rows[i].grasp;
      QCOMPARE(rows[i].run, std::string("batch:round"));
      QCOMPARE(rows[i].row, std::int64_t(3));
      QCOMPARE(rows[i].seed, std::string("103"));
      QCOMPARE(rows[i].robot, std::string("Hand"));
      QCOMPARE(rows[i].robotHash, sha256Hex("Hand"));
      QCOMPARE(out.rank, in.rank);
      QCOMPARE(*out.energy, *in.energy);
      QVERIFY(out.X_OP.isApprox(in.X_OP, 1e-12));
      QVERIFY(out.preGrasp_X_OP.isApprox(in.preGrasp_X_OP, 1e-12));
      QCOMPARE(out.dofs, in.dofs);
      QVERIFY(out.breakAway == in.breakAway);  // none, or chain 1 joint 1 at its exact value
      QVERIFY(out.preGraspBreakAway == in.preGraspBreakAway);  // none, or chain 0 joint 0 at its exact value
      QCOMPARE(out.forceClosure, in.forceClosure);
      QCOMPARE(out.measures.size(), std::size_t(2));
      QCOMPARE(out.measures[0].contactModel, std::string("hertz"));
      QCOMPARE(*out.measures[0].value, *in.measures[0].value);
      QCOMPARE(*out.measures[0].lower, *in.measures[0].lower);
      QVERIFY(!out.measures[1].lower);
      QCOMPARE(out.contacts.size(), std::size_t(1));
      QVERIFY(out.contacts[0].n_O.isApprox(Vec3::UnitX()));
    }
    // The grasp list of the rows read (what the app's Grasp Library exports and applies): each configuration
    // with its own joints in break-away.
    const planner::GraspList list = graspListFromRows(rows, Transform::identity(), 0, 0);
    QCOMPARE(list.grasps.size(), row.grasps.size());
    int withPre = 0;
    for (std::size_t i = 0; i < list.grasps.size(); ++i) {
      QVERIFY(list.grasps[i].grasp.breakAway == row.grasps[i].breakAway);
      QVERIFY(list.grasps[i].preGrasp.breakAway == row.grasps[i].preGraspBreakAway);
      QCOMPARE(list.grasps[i].preGrasp.dofValues, row.grasps[i].preGraspDofs);
      withPre += row.grasps[i].preGraspBreakAway.empty() ? 0 : 1;
    }
    QVERIFY(withPre > 0 && withPre < static_cast<int>(row.grasps.size()));  // not vacuous
  }

  // Every filter and order against the same selection made directly over the records written.
  void queryFiltersMatchTheRecords() {
    auto db = GraspStore::open(str(path("query.db")), OpenMode::ReadWrite);
    const std::int64_t run = db->beginRun(makeRun("batch:query"));
    std::vector<RowRecord> rows;
    for (std::int64_t r = 0; r < 8; ++r)
      rows.push_back(makeRow(r, r % 2 ? "Barrett" : "ThreeFinger", r % 4 < 2 ? "mug" : "sphere", 5));
    for (const RowRecord& r : rows) QVERIFY(db->insertRow(run, r));

    struct Expected {
      std::int64_t row;
      int rank;
      double v;
    };
    for (const double threshold : {0.0, 0.1, 0.15, 1.0}) {
      std::vector<Expected> want;
      for (const RowRecord& r : rows)
        if (r.robot->name == "ThreeFinger" && r.object->name == "mug")
          for (const GraspRecord& g : r.grasps)
            if (g.forceClosure && *g.measures[0].value >= threshold) want.push_back({r.row, g.rank, *g.measures[0].value});
      std::stable_sort(want.begin(), want.end(), [](const Expected& a, const Expected& b) { return a.v > b.v; });
      GraspQuery q;
      q.robot = "ThreeFinger";
      q.object = "mug";
      q.contactModel = "hertz";
      q.measure = "epsilon-l1";
      q.minValue = threshold;
      q.forceClosure = true;
      q.order = GraspQuery::Order::Measure;
      std::vector<Expected> got;
      db->query(q, [&](const GraspRow& g) { got.push_back({g.row, g.grasp.rank, *g.value}); });
      QCOMPARE(got.size(), want.size());
      for (std::size_t i = 0; i < got.size(); ++i) QCOMPARE(got[i].v, want[i].v);
      // The primary model (hertz) is the default; "point" doubles every value.
      q.contactModel.clear();
      std::size_t n = 0;
      db->query(q, [&](const GraspRow&) { ++n; });
      QCOMPARE(n, want.size());
      q.contactModel = "point";
      q.minValue = 2 * threshold;
      n = 0;
      db->query(q, [&](const GraspRow& g) { QCOMPARE(*g.value, 2 * want[n++].v); });
      QCOMPARE(n, want.size());
    }
    // Limit, energy order, run filter, unknown names.
    GraspQuery q;
    q.order = GraspQuery::Order::Energy;
    q.limit = 3;
    std::vector<double> energies;
    db->query(q, [&](const GraspRow& g) { energies.push_back(*g.grasp.energy); });
    QCOMPARE(energies, (std::vector<double>{-9, -9, -9}));
    q = {};
    q.run = "batch:none";
    std::size_t n = 0;
    db->query(q, [&](const GraspRow&) { ++n; });
    QCOMPARE(n, std::size_t(0));
    q = {};
    q.robot = "Nobody";
    db->query(q, [&](const GraspRow&) { ++n; });
    QCOMPARE(n, std::size_t(0));
    q = {};
    q.minValue = 0.1;
    QVERIFY(errorOf([&] { db->query(q, [](const GraspRow&) {}); }).contains("needs a measure"));
  }

  void laterResults() {
    auto db = GraspStore::open(str(path("trials.db")), OpenMode::ReadWrite);
    const std::int64_t run = db->beginRun(makeRun("batch:trials"));
    QVERIFY(db->insertRow(run, makeRow(0, "Hand", "mug", 1)));
    std::int64_t grasp = 0;
    db->query({}, [&](const GraspRow& g) { grasp = g.id; });
    TrialRecord t;
    t.graspId = grasp;
    t.kind = "physics-six-directions";
    t.success = true;
    t.score = 5.0 / 6.0;
    t.details = "{\"held\": 5}";
    t.createdAt = "2026-11-29T06:00:00Z";
    QVERIFY(db->insertTrial(t) > 0);
    QCOMPARE(db->info().trials, std::int64_t(1));
    t.graspId = grasp + 1000;  // foreign key: no such grasp
    QVERIFY(!errorOf([&] { db->insertTrial(t); }).isEmpty());
  }

  // Trials that come with a grasp list (attachListTrials: a batch row with "validate", a plan --validate list)
  // are written with their grasps, in the row's transaction and linked to its run: success when every direction
  // tried held; a grasp without "trial" gets none; the row stored again adds none; a trial without its counts is
  // an error naming the grasp and the field.
  void trialsComeWithTheirRow() {
    auto db = GraspStore::open(str(path("row-trials.db")), OpenMode::ReadWrite);
    const std::int64_t run = db->beginRun(makeRun("batch:row-trials"));
    RowRecord row = makeRow(0, "Hand", "mug", 3);
    const Json list = Json::parse(
        "{\"trialSettings\": {\"duration_s\": 1, \"directions\": [\"x+\", \"z-\"]},\n"
        " \"grasps\": [{\"trial\": {\"score\": 1, \"held\": 2, \"tried\": 2, \"directions\": []}},\n"
        "            {},\n"
        "            {\"trial\": {\"score\": 0.5, \"held\": 1, \"tried\": 2, \"directions\": []}}]}");
    QCOMPARE(attachListTrials(row, list), std::size_t(2));
    QVERIFY(row.grasps[0].trial && !row.grasps[1].trial && row.grasps[2].trial);
    QCOMPARE(row.grasps[0].trial->success, std::optional<bool>(true));
    QCOMPARE(row.grasps[2].trial->success, std::optional<bool>(false));
    QCOMPARE(row.grasps[2].trial->score, std::optional<double>(0.5));
    const Json details = Json::parse(row.grasps[2].trial->details);
    QCOMPARE(details.at("settings", "d").dumpLine(), list.at("trialSettings", "l").dumpLine());
    QCOMPARE(details.at("result", "d").dumpLine(), list.at("grasps", "l").items("g")[2].at("trial", "g").dumpLine());
    QVERIFY(db->insertRow(run, row));
    QVERIFY(!db->insertRow(run, row));  // stored already: skipped whole, no trial twice
    QCOMPARE(db->info().trials, std::int64_t(2));
    auto s = db->connection().prepare(
        "SELECT g.grasp_rank, t.kind, t.success, t.score, t.run_id FROM trials t JOIN grasps g ON g.id = t.grasp_id "
        "ORDER BY g.grasp_rank");
    std::vector<std::tuple<std::int64_t, std::string, std::int64_t, double, std::int64_t>> got;
    while (s->step())
      got.emplace_back(s->columnInt(0), s->columnText(1), s->columnInt(2), s->columnDouble(3), s->columnInt(4));
    using Row = std::tuple<std::int64_t, std::string, std::int64_t, double, std::int64_t>;
    QCOMPARE(got, (std::vector<Row>{{1, "physics", 1, 1.0, run}, {3, "physics", 0, 0.5, run}}));
    // A list without trial settings attaches nothing; a trial without "tried" names it.
    RowRecord other = makeRow(1, "Hand", "mug", 1);
    QCOMPARE(attachListTrials(other, Json::parse("{\"grasps\": [{\"trial\": {\"score\": 1}}]}")), std::size_t(0));
    const QString bad = errorOf([&] {
      attachListTrials(other, Json::parse("{\"trialSettings\": {}, \"grasps\": [{\"trial\": {\"score\": 1, "
                                          "\"held\": 2}}]}"));
    });
    QVERIFY2(bad.contains("grasps[0]") && bad.contains("tried"), qPrintable(bad));
  }

  // Trials filter and order a query: minTrialScore keeps the grasps with a trial scoring at least it, order
  // TrialScore sorts by each grasp's best trial (grasps without one last), graspId picks one grasp.
  void queryByTrialScore() {
    auto db = GraspStore::open(str(path("trial-query.db")), OpenMode::ReadWrite);
    const std::int64_t run = db->beginRun(makeRun("batch:trial-query"));
    QVERIFY(db->insertRow(run, makeRow(0, "Hand", "mug", 5)));
    std::vector<std::int64_t> ids;
    db->query({}, [&](const GraspRow& g) { ids.push_back(g.id); });
    QCOMPARE(ids.size(), std::size_t(5));
    // Grasp ranks 1..4 get trials; rank 2 gets two (its best, 1.0, counts); rank 5 none.
    const std::vector<std::pair<std::size_t, double>> trials = {{0, 0.5}, {1, 1.0 / 6.0}, {1, 1.0}, {2, 0.0},
                                                                {3, 2.0 / 3.0}};
    for (const auto& [k, score] : trials) {
      TrialRecord t;
      t.graspId = ids[k];
      t.kind = "physics";
      t.score = score;
      t.createdAt = "2026-11-29T06:00:00Z";
      QVERIFY(db->insertTrial(t) > 0);
    }
    GraspQuery q;
    q.order = GraspQuery::Order::TrialScore;
    std::vector<std::int64_t> got;
    db->query(q, [&](const GraspRow& g) { got.push_back(g.id); });
    QCOMPARE(got, (std::vector<std::int64_t>{ids[1], ids[3], ids[0], ids[2], ids[4]}));
    for (const auto& [threshold, want] : std::vector<std::pair<double, std::vector<std::int64_t>>>{
             {0.0, {ids[0], ids[1], ids[2], ids[3]}}, {0.5, {ids[0], ids[1], ids[3]}}, {0.9, {ids[1]}}, {1.5, {}}}) {
      q = {};
      q.minTrialScore = threshold;
      got.clear();
      db->query(q, [&](const GraspRow& g) { got.push_back(g.id); });
      QCOMPARE(got, want);
    }
    q = {};
    q.graspId = ids[3];
    got.clear();
    db->query(q, [&](const GraspRow& g) {
      got.push_back(g.id);
      QCOMPARE(g.grasp.rank, 4);
    });
    QCOMPARE(got, std::vector<std::int64_t>{ids[3]});
  }

  // A query reads measures and contacts for many grasps at once (in chunks): every grasp gets exactly its own,
  // across chunk boundaries, and none for a run stored without contacts.
  void queryDetailsAcrossChunks() {
    auto db = GraspStore::open(str(path("chunks.db")), OpenMode::ReadWrite);
    std::map<std::tuple<std::string, std::int64_t, int>, GraspRecord> written;
    for (const bool withContacts : {true, false}) {
      RunRecord runRecord = makeRun(withContacts ? "batch:contacts" : "batch:bare");
      runRecord.withContacts = withContacts;
      const std::int64_t run = db->beginRun(runRecord);
      for (std::int64_t r = 0; r < 6; ++r) {
        RowRecord row = makeRow(r, "Hand", "mug", 53);
        for (GraspRecord& g : row.grasps) {
          g.contacts.clear();
          for (int c = 0; c < g.rank % 4; ++c)  // 0 to 3 contacts, each distinct
            g.contacts.push_back({"hand/link" + std::to_string(c), "mug", Vec3(r, g.rank, c), Vec3::UnitY()});
          if (g.rank % 5 == 0) g.measures.pop_back();  // one measure, not two
          written[{runRecord.key, r, g.rank}] = g;
        }
        QVERIFY(db->insertRow(run, row));
      }
    }
    std::size_t n = 0;
    db->query({}, [&](const GraspRow& row) {
      ++n;
      const GraspRecord& in = written.at({row.run, row.row, row.grasp.rank});
      const GraspRecord& out = row.grasp;
      QCOMPARE(out.measures.size(), in.measures.size());
      for (std::size_t i = 0; i < in.measures.size(); ++i) {
        QCOMPARE(out.measures[i].contactModel, in.measures[i].contactModel);
        QCOMPARE(*out.measures[i].value, *in.measures[i].value);
      }
      if (row.run == "batch:bare") {
        QVERIFY(out.contacts.empty());
        return;
      }
      QCOMPARE(out.contacts.size(), in.contacts.size());
      for (std::size_t c = 0; c < in.contacts.size(); ++c) {
        QCOMPARE(out.contacts[c].handBody, in.contacts[c].handBody);
        QVERIFY(out.contacts[c].p_OC_mm.isApprox(in.contacts[c].p_OC_mm));
      }
    });
    QCOMPARE(n, written.size());
    // The measure order reads the same details as the row order.
    GraspQuery q;
    q.measure = "epsilon-l1";
    q.order = GraspQuery::Order::Measure;
    q.limit = 300;
    n = 0;
    db->query(q, [&](const GraspRow& row) {
      ++n;
      QCOMPARE(row.grasp.measures.size(), written.at({row.run, row.row, row.grasp.rank}).measures.size());
    });
    QCOMPARE(n, std::size_t(300));
  }

  // FIPS 180-4 test vectors; pieces give the one-shot digest.
  void sha256() {
    QCOMPARE(sha256Hex(""), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    QCOMPARE(sha256Hex("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QCOMPARE(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
             std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    const std::string million(1000000, 'a');
    QCOMPARE(sha256Hex(million), std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
    Sha256 h;
    for (std::size_t i = 0; i < million.size(); i += 977) h.update(std::string_view(million).substr(i, 977));
    QCOMPARE(h.hexDigest(), sha256Hex(million));
  }

  // The same files elsewhere are the same object; a changed mesh is another one (provenance hashes bytes).
  void provenanceFollowsContent() {
    const QString src = sg::test::qSourceDir();
    const QString a = path("objA"), b = path("objB");
    for (const QString& dir : {a, b}) {
      QVERIFY(QDir().mkpath(dir));
      QVERIFY(QFile::copy(src + "/models/objects/box.xml", dir + "/box.xml"));
    }
    // box.xml names its geometry relative to itself: copy that file too.
    const World original = [&] {
      World w;
      w.graspables.push_back(loadBody(str(src + "/models/objects/box.xml"), BodyKind::Graspable, MaterialTable()));
      return w;
    }();
    const QString geometry = QString::fromStdString(original.graspables[0].geometry.file);
    for (const QString& dir : {a, b}) {
      QVERIFY(QDir().mkpath(QFileInfo(dir + "/" + geometry).path()));
      QVERIFY(QFile::copy(QString::fromStdString(original.graspables[0].geometry.resolvedPath), dir + "/" + geometry));
    }
    // The object's hash; its file list must be the body XML and its mesh.
    auto objectHash = [&](const QString& dir) -> std::string {
      World w = loadWorld(str(src + "/worlds/paralleljaw_box.xml"));
      w.sourceFile.clear();
      w.graspables[0] = loadBody(str(dir + "/box.xml"), BodyKind::Graspable, MaterialTable());
      batch::ProvenanceCache cache;
      const Json p = cache.provenance(w, 0, 0);
      if (p.at("object", "p").at("files", "o").items("f").size() != 2) return "wrong file list";
      return p.at("object", "p").at("sha256", "o").string("h");
    };
    const std::string hashA = objectHash(a);
    QCOMPARE(objectHash(b), hashA);
    QFile mesh(b + "/" + geometry);
    QVERIFY(mesh.open(QIODevice::Append));
    mesh.write("\n \n");  // the same triangles, other bytes
    mesh.close();
    QVERIFY(objectHash(b) != hashA);
  }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
