// The PostgreSQL backend (src/store/PostgresConnection.h) under the store's backend-neutral interface, against a
// real PostgreSQL 15 the test starts: the schema created, upgraded from version 1 (and from 3 with grasps), refused
// when newer or foreign;
// two processes' worth of connections creating one schema at once; statements (bindings, NULLs, reuse, validity
// across a reconnect); a unit of work rerun whole after a killed backend; wrong URLs named.
#include <QtTest/QtTest>

#include <cmath>
#include <limits>
#include <thread>

#include "../support/PostgresServer.h"
#include "../support/StoreRunRecord.h"
#include "core/Error.h"
#include "store/GraspStore.h"
#include "store/PostgresConnection.h"
#include "store/Schema.h"
#include "store/StoreUrl.h"

using namespace sg::store;
using sg::test::PostgresServer;

namespace {

PgRetryPolicy quickPolicy() {
  PgRetryPolicy p;
  p.connectAttempts = 1;
  p.reconnectAttempts = 4;
  p.firstDelay = std::chrono::milliseconds(50);
  return p;
}

std::int64_t scalar(Connection& c, const std::string& sql) {
  auto s = c.prepare(sql);
  if (!s->step()) throw sg::Error("no row: " + sql);
  return s->columnInt(0);
}

// A row of ThreeFinger on the mug with point contacts and no grasps yet, as the break-away tests write it.
RowRecord threeFingerMugRow(const std::string& seed) {
  RowRecord row;
  row.seed = seed;
  row.spec = "{}";
  row.robot = ModelIdentity{"ThreeFinger", std::string(64, 'a'), {}};
  row.object = ModelIdentity{"mug", std::string(64, 'b'), {}};
  row.contactModel = "point";
  return row;
}

}  // namespace

class TestPgStore : public QObject {
  Q_OBJECT
 private:
  PostgresServer server_;
  int databases_ = 0;

  // A new empty database on the test server; its URL.
  std::string freshDatabase() {
    const std::string name = "store_" + std::to_string(++databases_);
    PgClient(server_.url(), quickPolicy()).exec("CREATE DATABASE " + name);
    std::string url = server_.url();
    return url.replace(url.find("/" + server_.database() + "?"), server_.database().size() + 1, "/" + name);
  }

 private slots:
  void initTestCase() { QVERIFY2(server_.start(), server_.error().c_str()); }

  void opensByUrlAndCreatesTheSchema() {
    const std::string url = freshDatabase();
    auto c = openConnection(url, OpenMode::ReadWrite);
    QVERIFY(c->backend() == Backend::Postgres);
    QCOMPARE(readSchemaVersion(*c), 0);
    QVERIFY_THROWS_EXCEPTION(sg::Error, checkSchemaCurrent(*c));
    upgradeSchema(*c);
    QCOMPARE(readSchemaVersion(*c), kSchemaVersion);
    checkSchemaCurrent(*c);
    for (const char* table : {"schema_version", "robots", "robot_files", "objects", "object_files", "worlds",
                              "world_files", "runs", "run_rows", "grasps", "grasp_measures", "contacts", "trials"})
      QVERIFY2(c->tableExists(table), table);
    QVERIFY(!c->tableExists("no_such_table"));
    QVERIFY(c->sizeBytes() > 0);
    // Upgrading a current database changes nothing.
    upgradeSchema(*c);
    QCOMPARE(scalar(*c, "SELECT count(*) FROM schema_version"), std::int64_t(kSchemaVersion));
    // The auto-numbered key numbers rows (the dialect's DDL, PostgresConnection::autoIdColumn).
    c->execute("INSERT INTO robots (name, content_hash) VALUES ('a', 'h1'); "
               "INSERT INTO robots (name, content_hash) VALUES ('b', 'h2')");
    QCOMPARE(scalar(*c, "SELECT max(id) - min(id) FROM robots"), std::int64_t(1));
  }

  void upgradesVersionOne() {
    auto c = openConnection(freshDatabase(), OpenMode::ReadWrite);
    upgradeSchema(*c, 1);
    QCOMPARE(readSchemaVersion(*c), 1);
    QVERIFY(!c->tableExists("trials"));
    QVERIFY_THROWS_EXCEPTION(sg::Error, checkSchemaCurrent(*c));  // readers ask for `db init`
    upgradeSchema(*c);
    QCOMPARE(readSchemaVersion(*c), kSchemaVersion);
    QVERIFY(c->tableExists("trials"));
    QCOMPARE(scalar(*c, "SELECT count(*) FROM grasps WHERE break_away <> '[]'"), std::int64_t(0));  // migration 3
    QCOMPARE(scalar(*c, "SELECT count(*) FROM grasps WHERE pre_break_away <> '[]'"), std::int64_t(0));  // 4
  }

  // A version-3 database with grasps (before pre_break_away): opened for writing it is migrated, its grasps keep
  // what they had and read no pre-grasp joint in break-away. Made with today's code and taken back to version 3
  // (its column dropped, its schema_version row deleted), as tst_store's versionThreeDatabaseKeepsItsGrasps.
  void upgradesVersionThreeWithGrasps() {
    const std::string url = freshDatabase();
    GraspRecord g;
    g.dofs = {0.5};
    g.preGraspDofs = {0.25};
    g.breakAway = {{{true, 0.1 + 1e-16}}};
    g.preGraspBreakAway = {{{true, 0.2}}};
    {
      auto db = GraspStore::open(url, OpenMode::ReadWrite);
      RowRecord row = threeFingerMugRow("3");
      row.grasps = {g};
      QVERIFY(db->insertRow(db->beginRun(sg::test::testRunRecord("plan:v3", "plan", "tst_pg_store", 1)), row));
      db->connection().execute("ALTER TABLE grasps DROP COLUMN pre_break_away");
      db->connection().execute("DELETE FROM schema_version WHERE version = 4");
      QCOMPARE(readSchemaVersion(db->connection()), 3);
    }
    QVERIFY_THROWS_EXCEPTION(sg::Error, GraspStore::open(url, OpenMode::ReadOnly));  // readers ask for `db init`
    auto db = GraspStore::open(url, OpenMode::ReadWrite);
    QCOMPARE(readSchemaVersion(db->connection()), kSchemaVersion);
    std::vector<GraspRow> rows;
    db->query({}, [&](const GraspRow& r) { rows.push_back(r); });
    QCOMPARE(rows.size(), std::size_t(1));
    QCOMPARE(rows[0].grasp.dofs, g.dofs);
    QVERIFY(rows[0].grasp.breakAway == g.breakAway);
    QVERIFY(rows[0].grasp.preGraspBreakAway.empty());
  }

  // A grasp's joints in break-away (GraspRecord::breakAway and preGraspBreakAway, src/store/README.md) come back
  // as written: the joints and their exact values; a grasp with none reads back with none.
  void graspsKeepTheirBreakAwayJoints() {
    auto db = GraspStore::open(freshDatabase(), OpenMode::ReadWrite);
    const std::int64_t runId = db->beginRun(sg::test::testRunRecord("plan:breakaway", "plan", "tst_pg_store", 1));
    RowRecord row = threeFingerMugRow("2");
    for (int k = 1; k <= 2; ++k) {
      GraspRecord g;
      g.rank = k;
      g.energy = -1.0 * k;
      g.dofs = {0.25 * k, 0.5};
      g.preGraspDofs = {0, 0};
      if (k == 1) g.breakAway = {{{false, 0}}, {{false, 0}, {true, 0.1 + 1e-16}}, {{true, -2.0 / 3}}};
      if (k == 1) g.preGraspBreakAway = {{}, {{true, 1.0 / 3}}};
      row.grasps.push_back(g);
    }
    QVERIFY(db->insertRow(runId, row));
    std::vector<GraspRow> rows;
    db->query({}, [&](const GraspRow& r) { rows.push_back(r); });
    QCOMPARE(rows.size(), std::size_t(2));
    const sg::BreakAwayState& b = rows[0].grasp.breakAway;
    QCOMPARE(b.size(), std::size_t(3));
    QVERIFY(b[0].empty());  // written: the active joints only
    QVERIFY(!b[1][0].active && b[1][1].active && b[1][1].dofValue == 0.1 + 1e-16);
    QVERIFY(b[2][0].active && b[2][0].dofValue == -2.0 / 3);
    QVERIFY(rows[1].grasp.breakAway.empty());
    const sg::BreakAwayState& pre = rows[0].grasp.preGraspBreakAway;  // the pre-grasp's (schema version 4)
    QCOMPARE(pre.size(), std::size_t(2));
    QVERIFY(pre[0].empty() && pre[1][0].active && pre[1][0].dofValue == 1.0 / 3);
    QVERIFY(rows[1].grasp.preGraspBreakAway.empty());
  }

  void refusesNewerAndForeignDatabases() {
    const std::string url = freshDatabase();
    {
      auto c = openConnection(url, OpenMode::ReadWrite);
      upgradeSchema(*c);
      c->execute("INSERT INTO schema_version VALUES (" + std::to_string(kSchemaVersion + 7) + ", 'later', 'x')");
    }
    auto c = openConnection(url, OpenMode::ReadOnly);
    for (int pass = 0; pass < 2; ++pass) {
      try {
        if (pass == 0) checkSchemaCurrent(*c);
        else upgradeSchema(*c);
        QFAIL("a newer schema was accepted");
      } catch (const sg::Error& e) {
        const QString m = QString::fromUtf8(e.what());
        QVERIFY2(m.contains("newer") && m.contains(QString::number(kSchemaVersion + 7)), qPrintable(m));
        QVERIFY2(m.contains(QString::fromStdString(url.substr(0, url.find('?')))), qPrintable(m));
      }
    }
    auto foreign = openConnection(freshDatabase(), OpenMode::ReadWrite);
    foreign->execute("CREATE TABLE runs (id INTEGER)");
    try {
      upgradeSchema(*foreign);
      QFAIL("a foreign database was written into");
    } catch (const sg::Error& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains("not a SoftGrasp"), e.what());
    }
  }

  // Several processes opening one fresh database at once: the advisory lock lets one create the schema; the
  // others find it made.
  void concurrentSchemaCreation() {
    const std::string url = freshDatabase();
    std::vector<std::thread> threads;
    std::vector<std::string> errors(4);
    for (std::size_t i = 0; i < errors.size(); ++i)
      threads.emplace_back([&, i] {
        try {
          PostgresConnection c(url, quickPolicy());
          upgradeSchema(c);
        } catch (const std::exception& e) {
          errors[i] = e.what();
        }
      });
    for (auto& t : threads) t.join();
    for (const auto& e : errors) QVERIFY2(e.empty(), e.c_str());
    auto c = openConnection(url, OpenMode::ReadOnly);
    QCOMPARE(scalar(*c, "SELECT count(*) FROM schema_version"), std::int64_t(kSchemaVersion));
  }

  void statementsBindAndStep() {
    auto c = openConnection(freshDatabase(), OpenMode::ReadWrite);
    c->execute("CREATE TABLE t (i BIGINT, d DOUBLE PRECISION, s TEXT)");
    auto insert = c->prepare("INSERT INTO t (i, d, s) VALUES (?, ?, ?)");
    const double third = 1.0 / 3.0;
    const std::int64_t big = std::int64_t(1) << 60;
    insert->bindInt(1, big);
    insert->bindDouble(2, third);
    insert->bindText(3, "it's '?' here");  // a ? inside a bound value is not a placeholder
    QVERIFY(!insert->step());
    insert->reset();
    insert->bindInt(1, -1);
    insert->bindDouble(2, std::numeric_limits<double>::quiet_NaN());  // non-finite: NULL
    insert->bindNull(3);
    QVERIFY(!insert->step());
    auto select = c->prepare("SELECT i, d, s FROM t WHERE i >= ? ORDER BY i DESC");
    select->bindInt(1, -5);
    QVERIFY(select->step());
    QCOMPARE(select->columnInt(0), big);
    QCOMPARE(select->columnDouble(1), third);
    QCOMPARE(select->columnText(2), std::string("it's '?' here"));
    QVERIFY(select->step());
    QCOMPARE(select->columnInt(0), std::int64_t(-1));
    QVERIFY(select->isNull(1));
    QVERIFY(std::isnan(select->columnDouble(1)));
    QVERIFY(select->isNull(2));
    QCOMPARE(select->columnText(2), std::string());
    QVERIFY(!select->step());
    QVERIFY(!select->step());
    select->reset();  // bindings kept
    int rows = 0;
    while (select->step()) ++rows;
    QCOMPARE(rows, 2);
    // A bad statement names the database and PostgreSQL's complaint.
    try {
      c->prepare("SELECT nope FROM t")->step();
      QFAIL("a bad column was accepted");
    } catch (const sg::Error& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains("nope"), e.what());
    }
  }

  // The backend is killed in the middle of a unit of work: Connection::transaction reconnects and runs it again;
  // the statements prepared before the loss still work; the unit's rows are there once.
  void unitOfWorkSurvivesAKilledBackend() {
    const std::string url = freshDatabase();
    PostgresConnection c(url, quickPolicy());
    c.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)");
    auto insert = c.prepare("INSERT INTO t (k, v) VALUES (?, ?) ON CONFLICT DO NOTHING");
    PgClient killer(url, quickPolicy());
    int runs = 0;
    c.transaction([&] {
      ++runs;
      for (int k = 1; k <= 3; ++k) {
        insert->reset();
        insert->bindInt(1, k);
        insert->bindText(2, "run " + std::to_string(runs));
        insert->step();
        if (runs == 1 && k == 2)
          killer.exec("SELECT pg_terminate_backend($1)",
                      {std::to_string(scalar(c, "SELECT pg_backend_pid()"))});
      }
    });
    QCOMPARE(runs, 2);
    QCOMPARE(scalar(c, "SELECT count(*) FROM t"), std::int64_t(3));
    QCOMPARE(scalar(c, "SELECT count(*) FROM t WHERE v = 'run 2'"), std::int64_t(3));
    // A unit that fails rolls back whole.
    QVERIFY_THROWS_EXCEPTION(sg::Error, c.transaction([&] {
      c.execute("INSERT INTO t VALUES (10, 'x')");
      c.execute("INSERT INTO t VALUES (1, 'duplicate')");
    }));
    QCOMPARE(scalar(c, "SELECT count(*) FROM t"), std::int64_t(3));
    // begin()/commit() by hand: a lost connection is an error saying the transaction was rolled back.
    c.begin();
    c.execute("INSERT INTO t VALUES (20, 'manual')");
    killer.exec("SELECT pg_terminate_backend($1)", {std::to_string(scalar(c, "SELECT pg_backend_pid()"))});
    try {
      c.execute("INSERT INTO t VALUES (21, 'manual')");
      QFAIL("a lost connection inside begin()/commit() went unnoticed");
    } catch (const sg::Error& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains("rolled back"), e.what());
    }
    c.rollback();
    QCOMPARE(scalar(c, "SELECT count(*) FROM t"), std::int64_t(3));
  }

  void wrongUrlsAreNamed() {
    const QString host = QString::fromStdString(server_.url()).section('?', 1);
    const std::string noDb = ("postgresql://softgrasp@/no_such_database?" + host).toStdString();
    try {
      openConnection(noDb, OpenMode::ReadOnly);
      QFAIL("connected to a missing database");
    } catch (const sg::Error& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains("no_such_database"), e.what());
    }
    try {
      openConnection("postgres://softgrasp:pw@/x?host=/nonexistent/socket/dir", OpenMode::ReadWrite);
      QFAIL("connected without a server");
    } catch (const sg::Error& e) {
      const QString m = QString::fromUtf8(e.what());
      QVERIFY2(m.contains("/nonexistent/socket/dir") && !m.contains(":pw@"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestPgStore)
#include "tst_pg_store.moc"
