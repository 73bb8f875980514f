// softgrasp-cli batch and batch-merge as a user runs them: shards merge to the single run, a killed run
// resumes to the same dataset, progress on stderr, broken or incomplete folders and bad options named.
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "../support/CliRun.h"

#include "BatchTestJobs.h"
#include "../support/TestPaths.h"

using sg::test::readFile;
using sg::test::writeFile;

namespace {

using Run = sg::test::CliRun;

Run cli(const QStringList& args) { return sg::test::runCli(args, {}, 240000); }

int lineCount(const QString& path) { return readFile(path).count('\n'); }

}  // namespace

class TestBatchCli : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  QString jobs_, single_;

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    jobs_ = tmp_.filePath("jobs.json");
    QVERIFY(writeFile(jobs_, sg::test::smallJobList()));
    single_ = tmp_.filePath("single.csv");
    const Run run = cli({"batch", jobs_, "--out", tmp_.filePath("single"), "--threads", "2", "--progress"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    // Progress (--progress: stderr is a pipe here): rows done, grasps/s, time left; one line per row.
    QVERIFY2(run.err.contains("9/9 rows done") && run.err.contains("grasps/s") && run.err.contains("left"),
             run.err.constData());
    QVERIFY(run.out.contains("0 already done, 9 run, 0 failed"));
    const Run merge = cli({"batch-merge", tmp_.filePath("single"), "--out", single_});
    QVERIFY2(merge.exitCode == 0, merge.err.constData());
    QVERIFY(merge.out.contains("every row present"));
  }

  void threeShardsMergeToTheSingleRun() {
    const QString dir = tmp_.filePath("three");
    for (const char* shard : {"2/3", "0/3", "1/3"}) {
      const Run run = cli({"batch", jobs_, "--out", dir, "--shard", shard, "--no-progress", "--json"});
      QVERIFY2(run.exitCode == 0, run.err.constData());
      QVERIFY(run.err.isEmpty());
      QVERIFY(run.out.contains("\"shardRows\": 3"));
    }
    const Run merge = cli({"batch-merge", dir, "--out", tmp_.filePath("three.csv")});
    QCOMPARE(merge.exitCode, 0);
    QCOMPARE(readFile(tmp_.filePath("three.csv")), readFile(single_));
  }

  // The process is killed (SIGKILL) after its first rows; the same command again runs only the rest and
  // the merge gives the uninterrupted run's dataset.
  void killedRunResumesToTheSameDataset() {
    const QString dir = tmp_.filePath("killed");
    const QString shard = dir + "/shard-0-of-1.jsonl";
    QProcess p;
    p.start(sg::test::qCliPath(), {"batch", jobs_, "--out", dir, "--no-progress"});
    QVERIFY(p.waitForStarted());
    QElapsedTimer timer;
    timer.start();
    while (lineCount(shard) < 3 && timer.elapsed() < 120000) QTest::qWait(5);  // header + 2 rows
    p.kill();
    p.waitForFinished();
    const int lines = lineCount(shard);
    QVERIFY2(lines >= 3 && lines < 1 + sg::test::kSmallJobListRows, qPrintable(QString::number(lines)));
    const Run again = cli({"batch", jobs_, "--out", dir, "--progress"});
    QVERIFY2(again.exitCode == 0, again.err.constData());
    QVERIFY2(again.err.contains(QString("%1 already done").arg(lines - 1).toUtf8()), again.err.constData());
    const Run merge = cli({"batch-merge", dir, "--out", tmp_.filePath("killed.csv")});
    QVERIFY2(merge.exitCode == 0, merge.err.constData());
    QCOMPARE(readFile(tmp_.filePath("killed.csv")), readFile(single_));
  }

  // A cut shard file: batch-merge refuses it naming the file and line (exit 3, one line), batch resumes it.
  void cutShardIsRefusedByMergeAndRepairedByBatch() {
    const QString dir = tmp_.filePath("cut");
    QVERIFY(QDir().mkpath(dir));
    const QByteArray full = readFile(tmp_.filePath("single/shard-0-of-1.jsonl"));
    const QString shard = dir + "/shard-0-of-1.jsonl";
    QVERIFY(writeFile(shard, full.left(full.size() * 2 / 3)));
    const Run merge = cli({"batch-merge", dir, "--out", tmp_.filePath("cut.json")});
    QCOMPARE(merge.exitCode, 3);
    QVERIFY2(merge.err.contains(shard.toUtf8()) && merge.err.contains("half-written last line"), merge.err.constData());
    QVERIFY2(merge.err.contains("lacks"), merge.err.constData());
    QCOMPARE(merge.err.count('\n'), 1);
    QVERIFY(merge.out.isEmpty());
    const Run batch = cli({"batch", jobs_, "--out", dir});
    QCOMPARE(batch.exitCode, 0);
    QVERIFY2(batch.err.contains("warning: " + shard.toUtf8()) && batch.err.contains("dropped, its row runs again"),
             batch.err.constData());
    QCOMPARE(cli({"batch-merge", dir, "--out", tmp_.filePath("cut.csv")}).exitCode, 0);
    QCOMPARE(readFile(tmp_.filePath("cut.csv")), readFile(single_));
  }

  void mergeNamesMissingShards() {
    const QString dir = tmp_.filePath("partial");
    const Run quiet = cli({"batch", jobs_, "--out", dir, "--shard", "1/4", "--quiet"});  // the former spelling
    QCOMPARE(quiet.exitCode, 0);
    QCOMPARE(quiet.err, QByteArray("softgrasp-cli: note: --quiet is deprecated, use --no-progress\n"));
    const Run merge = cli({"batch-merge", dir, "--out", tmp_.filePath("partial.json")});
    QCOMPARE(merge.exitCode, 3);
    QVERIFY2(merge.err.contains("missing shard file(s) shard-0-of-4.jsonl, shard-2-of-4.jsonl, shard-3-of-4.jsonl"),
             merge.err.constData());
    QVERIFY(!QFile::exists(tmp_.filePath("partial.json")));
  }

  void badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("expected");
    QTest::newRow("shard K ≥ N") << QStringList{"batch", "JOBS", "--out", "OUT", "--shard", "4/4"} << 2 << "--shard";
    QTest::newRow("shard text") << QStringList{"batch", "JOBS", "--out", "OUT", "--shard", "a/b"} << 2 << "--shard";
    QTest::newRow("threads") << QStringList{"batch", "JOBS", "--out", "OUT", "--threads", "-1"} << 2 << "--threads";
    QTest::newRow("no --out") << QStringList{"batch", "JOBS"} << 2 << "--out";
    QTest::newRow("dataset ext") << QStringList{"batch-merge", "OUT", "--out", "d.txt"} << 2 << ".json or .csv";
    QTest::newRow("rank-by") << QStringList{"batch-merge", "OUT", "--out", "d.csv", "--rank-by", "beauty"} << 2
                             << "--rank-by: cannot rank by 'beauty'";
    QTest::newRow("no job list") << QStringList{"batch", "nowhere.json", "--out", "OUT"} << 3 << "nowhere.json";
    QTest::newRow("no folder") << QStringList{"batch-merge", "nowhere", "--out", "d.csv"} << 3 << "nowhere";
  }
  void badInput() {
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, expected);
    args.replaceInStrings("JOBS", jobs_);
    args.replaceInStrings("OUT", tmp_.filePath("unused"));
    const Run r = cli(args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
    QVERIFY(r.out.isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestBatchCli)
#include "tst_batch_cli.moc"
