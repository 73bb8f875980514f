// The libpq wrapper (src/store/PgClient.h) and the test server (tests/support/PostgresServer.h) against a real
// PostgreSQL 15 started by the test: URLs and libpq's environment, parameters, all-or-nothing transactions, a lost
// connection retried (a killed backend, a restarted server) and then reported, wrong URLs named, and the server
// stopped when the process that started it aborts or is killed.
#include <QtTest/QtTest>

#include <csignal>
#include <fstream>
#include <thread>
#include <unistd.h>

#include "../support/PostgresServer.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "store/PgClient.h"

using sg::store::PgClient;
using sg::store::PgRetryPolicy;
using sg::test::PostgresServer;

namespace {

PgRetryPolicy quickPolicy(int reconnectAttempts = 4) {
  PgRetryPolicy p;
  p.connectAttempts = 1;
  p.reconnectAttempts = reconnectAttempts;
  p.firstDelay = std::chrono::milliseconds(50);
  p.maxDelay = std::chrono::milliseconds(400);
  return p;
}

long long countRows(PgClient& c, const std::string& table) {
  return c.exec("SELECT count(*) FROM " + table).integer(0, 0);
}

// True when `pid` no longer runs: gone, or a zombie nobody reaped yet (a container's PID 1 may never reap it).
bool processGone(pid_t pid) {
  if (::kill(pid, 0) != 0) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const auto close = line.rfind(')');
  return close == std::string::npos || line.substr(close + 2, 1) == "Z";
}

bool waitGone(pid_t pid, int timeout_ms) {
  for (int waited = 0; waited < timeout_ms; waited += 50) {
    if (processGone(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return processGone(pid);
}

}  // namespace

class TestPgClient : public QObject {
  Q_OBJECT
 private:
  PostgresServer server_;

  // tests/postgres/pg_server_probe.cpp starts a server, reports its postmaster PID and directory, then aborts or
  // is killed with SIGKILL. The server must be gone afterwards.
  void serverDiesWithChild(bool abortChild);

 private slots:
  void initTestCase() {
    QVERIFY2(server_.start(), server_.error().c_str());
    PgClient c(server_.url(), quickPolicy());
    c.execScript("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value DOUBLE PRECISION)");
  }
  void init() {
    if (!server_.running()) QVERIFY2(server_.start(), server_.error().c_str());
    PgClient(server_.url(), quickPolicy()).exec("DELETE FROM item");
  }

  void connectsByUrl() {
    PgClient c(server_.url());
    QCOMPARE(c.exec("SELECT current_database()").text(0, 0), server_.database());
    QVERIFY(c.serverVersion() >= 150000);
    QVERIFY(c.serverVersion() < 160000);
  }

  // libpq's own environment when the URL is empty, and a URL naming only the scheme.
  void connectsByEnvironment() {
    qputenv("PGHOST", server_.socketDir().c_str());
    qputenv("PGPORT", QByteArray::number(server_.port()));
    qputenv("PGDATABASE", server_.database().c_str());
    qputenv("PGUSER", server_.user().c_str());
    for (const std::string url : {"", "postgresql://"}) {
      PgClient c(url, quickPolicy());
      QCOMPARE(c.exec("SELECT current_database(), current_user").text(0, 0), server_.database());
    }
    for (const char* name : {"PGHOST", "PGPORT", "PGDATABASE", "PGUSER"}) qunsetenv(name);
  }

  void parametersRoundTrip() {
    PgClient c(server_.url(), quickPolicy());
    const double value = 0.1 + 0.2;  // not representable in few digits: the text form must round-trip exactly
    c.exec("INSERT INTO item VALUES ($1, $2, $3)", {"1", "it's \"quoted\"", sg::formatDouble(value)});
    c.exec("INSERT INTO item VALUES ($1, $2, $3)", {"2", "null value", std::nullopt});
    const auto r = c.exec("SELECT id, name, value FROM item ORDER BY id");
    QCOMPARE(r.rows(), 2);
    QCOMPARE(r.integer(0, 0), 1LL);
    QCOMPARE(r.text(0, 1), std::string("it's \"quoted\""));
    QCOMPARE(r.number(0, 2), value);
    QVERIFY(r.isNull(1, 2));
    QVERIFY_THROWS_EXCEPTION(sg::Error, r.number(1, 2));
    QCOMPARE(r.columnIndex("name"), 1);
    const auto big = c.exec("SELECT 9007199254740993::bigint, -42::bigint");  // 2^53 + 1: not a double
    QCOMPARE(big.integer(0, 0), 9007199254740993LL);
    QCOMPARE(big.integer(0, 1), -42LL);
    // Prepared statements run again with new parameters; ON CONFLICT DO NOTHING reports no row touched.
    const std::string insert = "INSERT INTO item VALUES ($1, $2, NULL) ON CONFLICT DO NOTHING";
    QCOMPARE(c.execPrepared(insert, {"3", "a"}).affectedRows(), 1LL);
    QCOMPARE(c.execPrepared(insert, {"3", "b"}).affectedRows(), 0LL);
    QCOMPARE(c.execPrepared(insert, {"4", "c"}).affectedRows(), 1LL);
    QCOMPARE(countRows(c, "item"), 4LL);
  }

  void statementErrorNamesStateAndUrl() {
    PgClient c(server_.url(), quickPolicy());
    try {
      c.exec("SELECT * FROM no_such_table");
      QFAIL("a missing table was not reported");
    } catch (const sg::Error& e) {
      const std::string m = e.what();
      QVERIFY2(m.find("42P01") != std::string::npos, m.c_str());  // undefined_table
      QVERIFY2(m.find("no_such_table") != std::string::npos, m.c_str());
      QVERIFY2(m.find(server_.database()) != std::string::npos, m.c_str());
    }
    QCOMPARE(c.exec("SELECT 1").integer(0, 0), 1LL);  // still usable
  }

  // A failure anywhere in a transaction leaves none of it; the connection is usable afterwards.
  void transactionIsAllOrNothing() {
    PgClient c(server_.url(), quickPolicy());
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, c.transaction([&] {
      c.exec("INSERT INTO item VALUES (1, 'a', 1)");
      throw std::runtime_error("the caller's own failure");
    }));
    QVERIFY_THROWS_EXCEPTION(sg::Error, c.transaction([&] {
      c.exec("INSERT INTO item VALUES (1, 'a', 1)");
      c.exec("INSERT INTO item VALUES (1, 'duplicate key', 1)");
    }));
    QCOMPARE(countRows(c, "item"), 0LL);
    c.transaction([&] {
      c.exec("INSERT INTO item VALUES (1, 'a', 1)");
      c.exec("INSERT INTO item VALUES (2, 'b', 2)");
    });
    QCOMPARE(countRows(c, "item"), 2LL);
  }

  // The backend is killed between two statements of a transaction: the transaction runs again on a new
  // connection and its rows are there once.
  void lostConnectionInTransactionRunsItAgain() {
    PgClient c(server_.url(), quickPolicy());
    PgClient killer(server_.url(), quickPolicy());
    int runs = 0;
    c.transaction([&] {
      ++runs;
      c.exec("INSERT INTO item VALUES ($1, 'first', 1)", {std::to_string(10 + runs)});
      if (runs == 1) killer.exec("SELECT pg_terminate_backend($1)", {c.exec("SELECT pg_backend_pid()").text(0, 0)});
      c.exec("INSERT INTO item VALUES ($1, 'second', 2)", {std::to_string(20 + runs)});
    });
    QCOMPARE(runs, 2);
    QCOMPARE(c.reconnects(), 1);
    // Only the second run's rows: the first run's insert was rolled back with its connection.
    const auto r = c.exec("SELECT id FROM item ORDER BY id");
    QCOMPARE(r.rows(), 2);
    QCOMPARE(r.integer(0, 0), 12LL);
    QCOMPARE(r.integer(1, 0), 22LL);
  }

  // The server stops while a client waits; it comes back within the back-off and the statement succeeds.
  void serverRestartIsRetried() {
    PgClient c(server_.url(), quickPolicy(8));
    c.exec("INSERT INTO item VALUES (1, 'before', 1)");
    server_.stop();
    long long count = -1;
    std::string failure;
    // The client retries on a thread; the server restarts on this one (its PR_SET_PDEATHSIG names this thread).
    std::thread client([&] {
      try {
        count = countRows(c, "item");
      } catch (const std::exception& e) {
        failure = e.what();
      }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const bool restarted = server_.start();
    client.join();
    QVERIFY2(restarted, server_.error().c_str());
    QVERIFY2(failure.empty(), failure.c_str());
    QCOMPARE(count, 1LL);
    QVERIFY(c.reconnects() >= 1);
  }

  // The server stays down: after the back-off the error says the connection was lost and names the database.
  void lostConnectionIsReported() {
    PgClient c(server_.url(), quickPolicy(3));
    server_.stop();
    try {
      c.transaction([&] { c.exec("INSERT INTO item VALUES (1, 'never', 1)"); });
      QFAIL("a stopped server was not reported");
    } catch (const sg::Error& e) {
      const std::string m = e.what();
      QVERIFY2(m.find("lost the connection") != std::string::npos, m.c_str());
      QVERIFY2(m.find("3 attempts") != std::string::npos, m.c_str());
      QVERIFY2(m.find(server_.database()) != std::string::npos, m.c_str());
    }
    QVERIFY2(server_.start(), server_.error().c_str());
    PgClient after(server_.url(), quickPolicy());
    QCOMPARE(countRows(after, "item"), 0LL);
  }

  void wrongUrlsAreNamed_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("expected");
    const QString host = QString::fromStdString(server_.url()).section('?', 1);
    QTest::newRow("no such database") << "postgresql://softgrasp@/no_such_db?" + host << "no_such_db";
    QTest::newRow("no such role") << "postgresql://nobody_here@/softgrasp_test?" + host << "nobody_here";
    QTest::newRow("no server there") << "postgresql://softgrasp@/x?host=/nonexistent/dir" << "/nonexistent/dir";
    QTest::newRow("bad parameter") << "postgresql://softgrasp@/x?colour=blue" << "colour";
    QTest::newRow("bad port") << "postgresql://softgrasp@localhost:notaport/x" << "notaport";
  }
  void wrongUrlsAreNamed() {
    QFETCH(QString, url);
    QFETCH(QString, expected);
    try {
      PgClient c(url.toStdString(), quickPolicy());
      QFAIL("connected");
    } catch (const sg::Error& e) {
      const QString m = QString::fromUtf8(e.what());
      QVERIFY2(m.contains(expected), qPrintable(m));
      QVERIFY2(m.contains("postgresql://"), qPrintable(m));  // the URL is named
    }
  }

  void passwordsAreRedacted() {
    QCOMPARE(PgClient::redact("postgresql://u:secret@host:5/db?sslmode=disable"),
             std::string("postgresql://u:***@host:5/db?sslmode=disable"));
    QCOMPARE(PgClient::redact("postgresql://u@/db?password=secret&host=/tmp"),
             std::string("postgresql://u@/db?password=***&host=/tmp"));
    QCOMPARE(PgClient::redact("host=/tmp password=secret dbname=x"), std::string("host=/tmp password=*** dbname=x"));
    QCOMPARE(PgClient::redact("postgresql://host/db"), std::string("postgresql://host/db"));
    try {
      PgClient c("postgresql://softgrasp:hunter2@/x?host=/nonexistent/dir", quickPolicy());
      QFAIL("connected");
    } catch (const sg::Error& e) {
      QVERIFY2(std::string(e.what()).find("hunter2") == std::string::npos, e.what());
    }
  }

  void serverStopsWhenItsProcessAborts() { serverDiesWithChild(true); }
  void serverStopsWhenItsProcessIsKilled() { serverDiesWithChild(false); }
};

void TestPgClient::serverDiesWithChild(bool abortChild) {
  QProcess probe;
  probe.start(QStringLiteral(SG_PG_PROBE_PATH), {abortChild ? "abort" : "wait"});
  QVERIFY(probe.waitForStarted());
  while (!probe.canReadLine() && probe.state() == QProcess::Running) probe.waitForReadyRead(1000);
  const QStringList report = QString::fromUtf8(probe.readLine()).trimmed().split(' ');
  if (!abortChild) ::kill(static_cast<pid_t>(probe.processId()), SIGKILL);
  QVERIFY(probe.waitForFinished(60000));
  QCOMPARE(probe.exitStatus(), QProcess::CrashExit);
  QVERIFY2(report.size() == 2, probe.readAllStandardError().constData());
  const pid_t serverPid = report[0].toInt();
  QVERIFY(serverPid > 0);
  const bool gone = waitGone(serverPid, 15000);
  if (!gone) ::kill(serverPid, SIGKILL);
  std::error_code ec;
  std::filesystem::remove_all(report[1].toStdString(), ec);  // a process that died left its directory behind
  QVERIFY2(gone, "the postmaster outlived the process that started it");
}

QTEST_GUILESS_MAIN(TestPgClient)
#include "tst_pg_client.moc"
