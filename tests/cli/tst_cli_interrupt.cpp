// Ctrl+C keeps results (ui/cli/README.md §Progress and Ctrl+C): SIGINT sent to a running softgrasp-cli plan, batch and
// compare --sweep; the process ends with exit code 130 and what it had: plan's grasp list (saved, loadable by
// evaluate), batch's shard (resumed by the same command to the uninterrupted run's dataset, no row twice),
// the sweep's values done. A second SIGINT kills. Progress is forced on (--progress: stderr is a pipe here)
// only so that the test knows when the work is under way.
#include <signal.h>

#include <functional>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "../batch/BatchTestJobs.h"
#include "../support/CliRun.h"
#include "../support/TestPaths.h"

namespace {

using Run = sg::test::CliRun;
using sg::test::readFile;
using sg::test::writeFile;

constexpr int kTimeout_ms = 240000;

Run cli(const QStringList& args) { return sg::test::runCli(args, sg::test::qSourceDir(), kTimeout_ms); }

// A softgrasp-cli process interrupted once its stderr matches `ready` (then `sigints` SIGINTs in a row).
Run interrupt(const QStringList& args, const std::function<bool(const QByteArray& err)>& ready, int sigints = 1) {
  QProcess p;
  p.setWorkingDirectory(sg::test::qSourceDir());
  p.start(sg::test::qCliPath(), args);
  Run r;
  if (!p.waitForStarted()) return r;
  QElapsedTimer timer;
  timer.start();
  while (!ready(r.err) && p.state() == QProcess::Running && timer.elapsed() < kTimeout_ms) {
    p.waitForReadyRead(50);
    r.err += p.readAllStandardError();
  }
  for (int i = 0; i < sigints && p.state() == QProcess::Running; ++i) {
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    // Two SIGINTs sent at once may merge into one: the next goes after the handler has said it ran.
    while (i + 1 < sigints && !r.err.contains("interrupted: finishing") && p.state() == QProcess::Running &&
           timer.elapsed() < kTimeout_ms) {
      p.waitForReadyRead(50);
      r.err += p.readAllStandardError();
    }
  }
  if (!p.waitForFinished(kTimeout_ms)) {
    p.kill();
    p.waitForFinished();
    r.crashed = true;
    return r;
  }
  r.crashed = p.exitStatus() != QProcess::NormalExit;
  r.exitCode = r.crashed ? -1 : p.exitCode();
  r.out = p.readAllStandardOutput();
  r.err += p.readAllStandardError();
  return r;
}

int lineCount(const QString& path) { return readFile(path).count('\n'); }

// The "row" of every record line of a shard file (the header line has none).
QList<int> shardRows(const QString& path) {
  QList<int> rows;
  static const QRegularExpression row(QStringLiteral("\"row\": ?(\\d+)"));
  for (const QByteArray& line : readFile(path).split('\n')) {
    const auto m = row.match(QString::fromUtf8(line));
    if (m.hasMatch()) rows << m.captured(1).toInt();
  }
  return rows;
}

// Six rows of a few thousand iterations each, so that a row is in flight when SIGINT comes.
QByteArray slowJobList() {
  const QByteArray src = sg::test::sourceDir();
  return "{\n"
         "  \"format\": \"softgrasp-batch-jobs\", \"version\": 1,\n"
         "  \"defaults\": { \"steps\": 32000, \"contactModel\": \"point\", \"measures\": [\"epsilon-l1\"] },\n"
         "  \"jobs\": [ { \"world\": \"" + src + "/worlds/paralleljaw_box.xml\", \"seeds\": [1, 2, 3, 4, 5, 6] } ]\n"
         "}\n";
}
constexpr int kSlowRows = 6;

}  // namespace

class TestCliInterrupt : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;

 private slots:
  void initTestCase() { QVERIFY(tmp_.isValid()); }

  // plan: the best list found so far is printed and saved, and evaluate reads the saved list.
  void planKeepsTheGraspsFoundSoFar() {
    const QString list = tmp_.filePath("interrupted.json");
    const Run r = interrupt({"plan", "worlds/default.xml", "--iterations", "100000000", "--progress", "--json",
                             "--out", list},
                            [](const QByteArray& err) {
                              // a progress line after the first: the annealing has run some iterations
                              return err.count("% annealing:") >= 2;
                            });
    QVERIFY2(!r.crashed && r.exitCode == 130, r.err.constData());
    QVERIFY2(r.err.contains("plan: interrupted after"), r.err.constData());
    const QJsonObject doc = r.json();
    const QJsonArray grasps = doc.value("grasps").toArray();
    QVERIFY2(grasps.size() >= 1, r.out.constData());
    const double iterations = doc.value("run").toObject().value("iterations").toDouble();
    QVERIFY(iterations > 0 && iterations < 1e8);
    // Best first (src/grasp/planner/PLANNER.md §Final stage): force-closure grasps first, each group by energy.
    for (int i = 1; i < grasps.size(); ++i) {
      const QJsonObject a = grasps[i - 1].toObject(), b = grasps[i].toObject();
      const bool fcA = a.value("forceClosure").toBool(), fcB = b.value("forceClosure").toBool();
      QVERIFY(fcA || !fcB);
      if (fcA == fcB) QVERIFY(a.value("energy").toDouble() <= b.value("energy").toDouble());
    }
    const QJsonObject saved = QJsonDocument::fromJson(readFile(list)).object();
    QCOMPARE(saved.value("grasps"), doc.value("grasps"));
    const Run evaluate = cli({"evaluate", "worlds/default.xml", "--grasps", list, "--json"});
    QVERIFY2(evaluate.exitCode == 0, evaluate.err.constData());
    QCOMPARE(evaluate.json().value("grasps").toArray().size(), grasps.size());
  }

  // A second Ctrl+C kills at once (the default action of SIGINT): here while batch finishes a long row.
  void secondInterruptKills() {
    const QString jobs = tmp_.filePath("long.json");
    const QByteArray src = sg::test::sourceDir();
    QVERIFY(writeFile(jobs, "{ \"format\": \"softgrasp-batch-jobs\", \"version\": 1, \"jobs\": [ { \"world\": \"" +
                                src + "/worlds/default.xml\", \"steps\": 100000000 } ] }\n"));
    const Run r = interrupt({"batch", jobs, "--out", tmp_.filePath("long"), "--threads", "1", "--progress"},
                            [](const QByteArray& err) { return err.contains("to run on 1 thread"); }, 2);
    QVERIFY2(r.crashed, r.err.constData());
    QVERIFY2(r.err.contains("interrupted: finishing"), r.err.constData());
  }

  // batch: the rows in flight finish, the shard resumes to exactly the uninterrupted run's dataset.
  void batchLeavesTheShardResumable() {
    const QString jobs = tmp_.filePath("slow.json");
    QVERIFY(writeFile(jobs, slowJobList()));
    const QString whole = tmp_.filePath("whole");
    const Run uninterrupted = cli({"batch", jobs, "--out", whole, "--threads", "1", "--no-progress"});
    QVERIFY2(uninterrupted.exitCode == 0, uninterrupted.err.constData());
    QVERIFY(cli({"batch-merge", whole, "--out", tmp_.filePath("whole.csv")}).exitCode == 0);

    const QString dir = tmp_.filePath("interrupted");
    const QString shard = dir + "/shard-0-of-1.jsonl";
    const Run r = interrupt({"batch", jobs, "--out", dir, "--threads", "1", "--progress"},
                            [&](const QByteArray&) { return lineCount(shard) >= 2; });  // header + a row
    QVERIFY2(!r.crashed && r.exitCode == 130, r.err.constData());
    const QList<int> done = shardRows(shard);
    QVERIFY2(done.size() >= 1 && done.size() < kSlowRows, r.err.constData());
    QVERIFY2(r.err.contains(QString("interrupted: %1 of %2 rows").arg(done.size()).arg(kSlowRows).toUtf8()),
             r.err.constData());
    QCOMPARE(lineCount(shard), done.size() + 1);  // nothing half-written

    const Run resumed = cli({"batch", jobs, "--out", dir, "--threads", "1", "--progress", "--json"});
    QVERIFY2(resumed.exitCode == 0, resumed.err.constData());
    QCOMPARE(resumed.json().value("skipped").toInt(), done.size());
    QCOMPARE(resumed.json().value("run").toInt(), kSlowRows - done.size());
    QList<int> rows = shardRows(shard);
    std::sort(rows.begin(), rows.end());
    QCOMPARE(rows, (QList<int>{0, 1, 2, 3, 4, 5}));  // each row once
    const Run merge = cli({"batch-merge", dir, "--out", tmp_.filePath("interrupted.csv")});
    QVERIFY2(merge.exitCode == 0, merge.err.constData());
    QCOMPARE(readFile(tmp_.filePath("interrupted.csv")), readFile(tmp_.filePath("whole.csv")));
  }

  // compare --sweep: the values done are printed as the uninterrupted sweep prints them.
  void sweepPrintsThePointsDone() {
    constexpr int kValues = 1000;  // the most a sweep takes, so the interrupt lands mid-sweep (80 values take < 1 s)
    const QStringList args = {"compare", "worlds/default.xml", "--approach", "--autograsp", "--contact-model",
                              "soft-finger,point", "--sweep", QString("force:1:80:%1").arg(kValues), "--csv"};
    const Run r = interrupt(args + QStringList{"--progress"}, [](const QByteArray& err) {
      // a sweep progress line beyond the first values
      static const QRegularExpression line(QStringLiteral("progress: +([0-9.]+)% sweep:"));
      double last = 0;
      for (auto it = line.globalMatch(QString::fromUtf8(err)); it.hasNext();) last = it.next().captured(1).toDouble();
      return last >= 300.0 / kValues;
    });
    QVERIFY2(!r.crashed && r.exitCode == 130, r.err.constData());
    const QStringList lines = QString::fromUtf8(r.out).trimmed().split('\n');
    const int values = (lines.size() - 1) / 2;
    QVERIFY2(values >= 3 && values < kValues && (lines.size() - 1) % 2 == 0, r.out.constData());
    QVERIFY2(r.err.contains(QString("the sweep's first %1 value(s) are printed").arg(values).toUtf8()),
             r.err.constData());
    // The values done, in order (1, 2, 3, ... N), each with a line per model.
    for (int k = 0; k < values; ++k)
      for (int m = 0; m < 2; ++m) {
        const QStringList cells = lines[1 + 2 * k + m].split(',');
        QCOMPARE(cells.value(0).toDouble(), 1.0 + k * 79.0 / (kValues - 1));  // force 1 to 80 N in kValues values
        QCOMPARE(cells.value(1), QString(m == 0 ? "soft-finger" : "point"));
        QCOMPARE(cells.value(2), QString("1"));
      }
  }
};

QTEST_GUILESS_MAIN(TestCliInterrupt)
#include "tst_cli_interrupt.moc"
