// softgrasp-cli with --db postgresql://… as a user runs it, against a real PostgreSQL 15 the test starts: a planner
// run and a two-shard batch land in PostgreSQL; two concurrent shard processes give the rows one process gives
// (compared with the same job list run into SQLite); a re-run inserts nothing twice; a process killed with SIGKILL
// resumes without a lost or doubled row; a server stopped mid-run is retried and, when it stays down, reported;
// batch-merge --db and db import carry a batch's physics trials; wrong URLs and a bad SOFTGRASP_PG_RETRY are named.
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "../batch/BatchTestJobs.h"
#include "../support/CliRun.h"
#include "../support/PostgresServer.h"
#include "../support/StoredTrials.h"
#include "store/PgClient.h"
#include "../support/TestPaths.h"

using sg::test::CliRun;
using sg::test::PostgresServer;
using sg::test::readFile;
using sg::test::writeFile;

namespace {

CliRun cli(const QStringList& args) { return sg::test::runCli(args, {}, 240000); }

// The client's back-off for the tests that wait for a server that is not there (src/store/POSTGRES.md §Retry
// policy): the attempts are counted as with the defaults, but the pauses are a few milliseconds, so giving up takes
// a fraction of a second instead of the defaults' ~16 s. `reconnect` differs from the default (8) so the error's
// attempt count shows the variable was read.
constexpr const char* kFastRetry = "connect=3,reconnect=5,first_ms=5,max_ms=20";

// `cli` with SOFTGRASP_PG_RETRY set to `policy`.
CliRun cliWithRetry(const QStringList& args, const char* policy) {
  qputenv("SOFTGRASP_PG_RETRY", policy);
  const CliRun r = cli(args);
  qunsetenv("SOFTGRASP_PG_RETRY");
  return r;
}

int lineCount(const QString& path) { return readFile(path).count('\n'); }

// `db query URL --csv` without the columns that name where a row was stored rather than what it is: the id
// (numbered in insertion order, which differs between concurrent writers) and, with `dropRun`, the run key (a
// plan's names its host, process and start time).
QByteArray queryCsv(const QString& url, bool dropRun = false) {
  const CliRun r = cli({"db", "query", url, "--csv"});
  if (r.exitCode != 0) return "db query failed: " + r.err;
  QByteArray out;
  for (const QByteArray& line : r.out.split('\n')) {
    if (line.isEmpty()) continue;
    QList<QByteArray> cells = line.split(',');
    cells.removeFirst();
    if (dropRun) cells.removeFirst();
    out += cells.join(',') + '\n';
  }
  return out;
}

QJsonObject dbInfo(const QString& url) { return cli({"db", "info", url, "--json"}).json(); }
// One of db info's counts (grasps, rows, runs, ...); -1 when db info failed.
int dbCount(const QString& url, const char* key) {
  const QJsonObject info = dbInfo(url);
  return info.contains("counts") ? info["counts"].toObject()[key].toInt() : -1;
}

// Waits until `path` has at least `lines` lines (a shard's header and rows) or the process ended.
bool waitForLines(const QString& path, int lines, QProcess& p) {
  if (!p.waitForStarted()) return false;
  QElapsedTimer timer;
  timer.start();
  while (lineCount(path) < lines && p.state() == QProcess::Running && timer.elapsed() < 120000) QTest::qWait(5);
  return lineCount(path) >= lines && p.state() == QProcess::Running;
}

}  // namespace

class TestPgCli : public QObject {
  Q_OBJECT
  PostgresServer server_;
  QTemporaryDir tmp_;
  QString jobs_, longJobs_;
  QByteArray reference_;  // the small job list run by one process into SQLite, as queryCsv prints it
  int databases_ = 0;
  QString sharedUrl_;     // the database of the two-shard run, re-run into later

  QString freshDatabase() {
    const std::string name = "cli_" + std::to_string(++databases_);
    sg::store::PgClient(server_.url()).exec("CREATE DATABASE " + name);
    std::string url = server_.url();
    url.replace(url.find("/" + server_.database() + "?"), server_.database().size() + 1, "/" + name);
    return QString::fromStdString(url);
  }

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    QVERIFY2(server_.start(), server_.error().c_str());
    jobs_ = tmp_.filePath("jobs.json");
    QVERIFY(writeFile(jobs_, sg::test::smallJobList()));
    // A longer list (the parallel jaw on the box, 40 seeds) for the runs the test interrupts.
    const QByteArray src = sg::test::sourceDir();
    longJobs_ = tmp_.filePath("long-jobs.json");
    QVERIFY(writeFile(longJobs_, "{ \"format\": \"softgrasp-batch-jobs\", \"version\": 1,\n"
                                 "  \"defaults\": { \"steps\": 30150, \"contactModel\": \"point\", \"measures\": "
                                 "[\"epsilon-l1\"] },\n  \"jobs\": [ { \"world\": \"" + src +
                                 "/worlds/paralleljaw_box.xml\", \"seedRange\": { \"first\": 100, \"count\": 40 } } ] }\n"));
    const QString sqlite = "sqlite://" + tmp_.filePath("single.db");
    const CliRun run = cli({"batch", jobs_, "--out", tmp_.filePath("single"), "--db", sqlite, "--no-progress"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    reference_ = queryCsv(sqlite);
    QCOMPARE(reference_.count('\n') - 1, dbCount(sqlite, "grasps"));  // less the header
    QVERIFY(reference_.count('\n') > sg::test::kSmallJobListRows);
    // Its last columns, grasp_break_away and pregrasp_break_away, are filled for some grasps (grasp_break_away
    // for the ThreeFinger rows), so the comparisons with PostgreSQL below cover the stored joints in break-away too.
    QVERIFY(reference_.startsWith("run,"));
    QVERIFY(reference_.left(reference_.indexOf('\n')).endsWith(",grasp_break_away,pregrasp_break_away"));
    int withBreakAway = 0;
    for (const QByteArray& line : reference_.split('\n').mid(1)) {
      const QList<QByteArray> cells = line.split(',');  // the break-away fields hold no comma
      withBreakAway += cells.size() > 2 && !cells[cells.size() - 2].isEmpty() ? 1 : 0;
    }
    QVERIFY(withBreakAway > 0);
  }

  // The same plan (same seed) into SQLite and into PostgreSQL stores the same grasps.
  void plannerRunLandsInPostgres() {
    const QString url = freshDatabase();
    const QString sqlite = "sqlite://" + tmp_.filePath("plan.db");
    for (const QString& db : {url, sqlite}) {
      const CliRun r = cli({"plan", "worlds/paralleljaw_box.xml", "--steps", "30150", "--seed", "3", "--db", db,
                            "--no-progress", "--json"});
      QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    QCOMPARE(dbInfo(url)["backend"].toString(), QString("postgresql"));
    QVERIFY(dbCount(url, "grasps") > 0);
    QCOMPARE(dbCount(url, "runs"), 1);
    QCOMPARE(queryCsv(url, true), queryCsv(sqlite, true));
  }

  // evaluate --db, db init, and batch-merge --db (the shards streamed into PostgreSQL) against SQLite.
  void evaluateInitAndMergeIntoPostgres() {
    const QString grasps = tmp_.filePath("grasps.json");
    const CliRun plan = cli({"plan", "worlds/paralleljaw_box.xml", "--steps", "30150", "--seed", "4", "--out", grasps,
                             "--no-progress"});
    QVERIFY2(plan.exitCode == 0, plan.err.constData());
    const QString url = freshDatabase();
    const CliRun init = cli({"db", "init", url});
    QVERIFY2(init.exitCode == 0, init.err.constData());
    QCOMPARE(dbCount(url, "grasps"), 0);
    const QString sqlite = "sqlite://" + tmp_.filePath("evaluate.db");
    for (const QString& db : {url, sqlite}) {
      const CliRun r = cli({"evaluate", "worlds/paralleljaw_box.xml", "--grasps", grasps, "--db", db, "--no-progress"});
      QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    QVERIFY(dbCount(url, "grasps") > 0);
    QCOMPARE(queryCsv(url, true), queryCsv(sqlite, true));
    const QString merged = freshDatabase();
    const CliRun merge = cli({"batch-merge", tmp_.filePath("single"), "--db", merged});
    QVERIFY2(merge.exitCode == 0, merge.err.constData());
    QCOMPARE(queryCsv(merged), reference_);
  }

  // `postgresql://` alone: the server and database come from PGHOST, PGPORT, PGDATABASE and PGUSER.
  // A batch whose rows ran physics trials: batch-merge --db and db import put the same trials into PostgreSQL as
  // batch-merge --db into SQLite (src/store/README.md §Trials).
  void mergeAndImportCarryTrials() {
    const QString jobs = tmp_.filePath("trial-jobs.json"), out = tmp_.filePath("trial-shards");
    QVERIFY(writeFile(jobs, "{\"format\": \"softgrasp.batch-jobs\", \"version\": 1,\n"
                            " \"defaults\": {\"steps\": 30150, \"contactModel\": \"point\",\n"
                            "  \"measures\": [\"epsilon-l1\"],\n"
                            "  \"validate\": true, \"trialDirections\": \"z-,x+\", \"trialDuration_s\": 0.2},\n"
                            " \"jobs\": [{\"world\": \"" + QByteArray(sg::test::sourceDir()) +
                            "/worlds/paralleljaw_box.xml\", \"seeds\": [1, 2]}]}\n"));
    const CliRun run = cli({"batch", jobs, "--out", out, "--threads", "1", "--no-progress"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QString sqlite = "sqlite://" + tmp_.filePath("trials.db");
    const QString merged = freshDatabase(), imported = freshDatabase();
    for (const QStringList& args : {QStringList{"batch-merge", out, "--db", sqlite},
                                    QStringList{"batch-merge", out, "--db", merged},
                                    QStringList{"db", "import", imported, out}}) {
      const CliRun r = cli(args);
      QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    const std::vector<sg::test::StoredTrial> expected = sg::test::storedTrials(sqlite.toStdString());
    QVERIFY(expected.size() >= 2);
    for (const QString& url : {merged, imported}) {
      const std::vector<sg::test::StoredTrial> got = sg::test::storedTrials(url.toStdString());
      QCOMPARE(got.size(), expected.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].row, expected[i].row);
        QCOMPARE(got[i].rank, expected[i].rank);
        QCOMPARE(got[i].kind, std::string("physics"));
        QCOMPARE(got[i].success, expected[i].success);
        QCOMPARE(got[i].score, expected[i].score);
        QCOMPARE(got[i].details, expected[i].details);
        QVERIFY(got[i].runIsGraspRun);
      }
    }
  }

  void urlFromTheEnvironment() {
    qputenv("PGHOST", server_.socketDir().c_str());
    qputenv("PGPORT", QByteArray::number(server_.port()));
    qputenv("PGDATABASE", server_.database().c_str());
    qputenv("PGUSER", server_.user().c_str());
    const CliRun init = cli({"db", "init", "postgresql://"});
    const QJsonObject info = dbInfo("postgresql://");
    for (const char* name : {"PGHOST", "PGPORT", "PGDATABASE", "PGUSER"}) qunsetenv(name);
    QVERIFY2(init.exitCode == 0, init.err.constData());
    QCOMPARE(info["backend"].toString(), QString("postgresql"));
    QVERIFY(info["counts"].toObject().contains("grasps"));
    // The same database by its full URL: the schema db init made is there.
    QVERIFY(dbCount(QString::fromStdString(server_.url()), "grasps") == 0);
  }

  // Two shard processes at once write one run; its rows are the single process's.
  void twoConcurrentShardsGiveTheSingleRun() {
    sharedUrl_ = freshDatabase();
    QProcess shards[2];
    for (int k = 0; k < 2; ++k)
      shards[k].start(sg::test::qCliPath(), {"batch", jobs_, "--out", tmp_.filePath("two"), "--shard",
                                    QString("%1/2").arg(k), "--db", sharedUrl_, "--threads", "1", "--no-progress"});
    for (QProcess& p : shards) {
      QVERIFY(p.waitForFinished(240000));
      QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
    }
    QCOMPARE(queryCsv(sharedUrl_), reference_);
    QCOMPARE(dbCount(sharedUrl_, "runs"), 1);
    QCOMPARE(dbCount(sharedUrl_, "rows"), sg::test::kSmallJobListRows);
  }

  // The same shard again — resumed from its shard files, and recomputed from scratch into another folder —
  // inserts nothing: the unique keys (run, row) and (run, job, seed, rank) hold.
  void rerunInsertsNothingTwice() {
    QVERIFY(!sharedUrl_.isEmpty());
    const QJsonObject before = dbInfo(sharedUrl_)["counts"].toObject();
    QVERIFY(!before.isEmpty());
    for (const QString& out : {tmp_.filePath("two"), tmp_.filePath("again")}) {
      const CliRun r = cli({"batch", jobs_, "--out", out, "--shard", "0/2", "--db", sharedUrl_, "--no-progress"});
      QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    const QJsonObject after = dbInfo(sharedUrl_)["counts"].toObject();
    for (const char* key : {"runs", "rows", "grasps", "measures", "contacts", "robots", "objects", "worlds"})
      QVERIFY2(after[key] == before[key], key);
    QCOMPARE(queryCsv(sharedUrl_), reference_);
  }

  // SIGKILL after the first rows; the same command again completes the run with every row once.
  void killedRunResumesWithoutLossOrDuplicate() {
    const QString url = freshDatabase();
    const QString dir = tmp_.filePath("killed");
    QProcess p;
    p.start(sg::test::qCliPath(), {"batch", jobs_, "--out", dir, "--db", url, "--threads", "1", "--no-progress"});
    QVERIFY(waitForLines(dir + "/shard-0-of-1.jsonl", 3, p));  // header + 2 rows
    p.kill();
    QVERIFY(p.waitForFinished());
    const CliRun again = cli({"batch", jobs_, "--out", dir, "--db", url, "--no-progress"});
    QVERIFY2(again.exitCode == 0, again.err.constData());
    QCOMPARE(queryCsv(url), reference_);
    QCOMPARE(dbCount(url, "rows"), sg::test::kSmallJobListRows);
  }

  // The server stops mid-run and comes back within the back-off: the batch finishes and the database holds
  // exactly the rows of its shard file (imported into SQLite for the comparison).
  void stoppedServerIsRetried() {
    const QString url = freshDatabase();
    const QString dir = tmp_.filePath("restart");
    QProcess p;
    p.start(sg::test::qCliPath(), {"batch", longJobs_, "--out", dir, "--db", url, "--threads", "1", "--no-progress"});
    QVERIFY2(waitForLines(dir + "/shard-0-of-1.jsonl", 3, p), "the batch ended before the server was stopped");
    server_.stop();
    QTest::qWait(1500);
    QVERIFY2(server_.start(), server_.error().c_str());
    QVERIFY(p.waitForFinished(240000));
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
    const QString sqlite = "sqlite://" + tmp_.filePath("restart.db");
    const CliRun import = cli({"db", "import", sqlite, dir});
    QVERIFY2(import.exitCode == 0, import.err.constData());
    QCOMPARE(dbCount(url, "rows"), 40);
    QCOMPARE(queryCsv(url), queryCsv(sqlite));
  }

  // The server stays down: the batch gives up after its back-off, saying so and naming the database; no row is
  // half there, and running the batch again once the server is back completes the run.
  void serverThatStaysDownIsReported() {
    const QString url = freshDatabase();
    const QString dir = tmp_.filePath("down");
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("SOFTGRASP_PG_RETRY", kFastRetry);
    p.setProcessEnvironment(env);
    p.start(sg::test::qCliPath(), {"batch", longJobs_, "--out", dir, "--db", url, "--threads", "1", "--no-progress"});
    QVERIFY2(waitForLines(dir + "/shard-0-of-1.jsonl", 3, p), "the batch ended before the server was stopped");
    server_.stop();
    QVERIFY(p.waitForFinished(120000));
    QVERIFY(p.exitStatus() == QProcess::NormalExit);
    QVERIFY(p.exitCode() != 0);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("lost the connection") && err.contains("(5 attempts over"), qPrintable(err));
    QVERIFY2(err.contains(url.section('?', 0, 0)), qPrintable(err));
    QVERIFY2(server_.start(), server_.error().c_str());
    const CliRun again = cli({"batch", longJobs_, "--out", dir, "--db", url, "--no-progress"});
    QVERIFY2(again.exitCode == 0, again.err.constData());
    const QString sqlite = "sqlite://" + tmp_.filePath("down.db");
    QCOMPARE(cli({"db", "import", sqlite, dir}).exitCode, 0);
    QCOMPARE(queryCsv(url), queryCsv(sqlite));
  }

  void wrongUrlsAreNamed_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("named");
    const QString host = QString::fromStdString(server_.url()).section('?', 1);
    const QString noDb = "postgresql://softgrasp@/no_such_db?" + host;
    const QString noServer = "postgresql://softgrasp@/x?host=/nonexistent/socket";
    QTest::newRow("db info, no such database") << QStringList{"db", "info", noDb} << "no_such_db";
    QTest::newRow("db query, no server") << QStringList{"db", "query", noServer} << "/nonexistent/socket";
    QTest::newRow("batch, no such database")
        << QStringList{"batch", jobs_, "--out", tmp_.filePath("never"), "--db", noDb} << "no_such_db";
    QTest::newRow("plan, bad parameter")
        << QStringList{"plan", "worlds/paralleljaw_box.xml", "--steps", "30150", "--db",
                       "postgresql://softgrasp@/x?colour=blue"}
        << "colour";
  }
  void wrongUrlsAreNamed() {
    QFETCH(QStringList, args);
    QFETCH(QString, named);
    const CliRun r = cliWithRetry(args, kFastRetry);
    QVERIFY(!r.crashed);
    QVERIFY(r.exitCode != 0);
    QVERIFY2(QString::fromUtf8(r.err).contains(named), r.err.constData());
  }

  // A SOFTGRASP_PG_RETRY the client cannot read is an error naming the variable, before any connection.
  void badRetryPolicyIsNamed() {
    const CliRun r = cliWithRetry({"db", "info", QString::fromStdString(server_.url())}, "reconnect=many");
    QVERIFY(!r.crashed);
    QVERIFY(r.exitCode != 0);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains("SOFTGRASP_PG_RETRY") && err.contains("reconnect=many"), r.err.constData());
  }
};

QTEST_GUILESS_MAIN(TestPgCli)
#include "tst_pg_cli.moc"
