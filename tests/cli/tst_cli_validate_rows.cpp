// Physics trials added to planned grasps (ui/cli/README.md §Physics trials of planned grasps): plan --validate
// writes each kept grasp's trial, equal to `validate --grasps` of the same list, in JSON, CSV and the grasp
// database; a batch row with "validate" carries the trials in its shard line and the database, and a resumed
// shard does not run the trials of the rows it holds again; bad trial settings are refused.
#include <QtTest/QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "../support/CliRun.h"
#include "../support/TestPaths.h"

using sg::test::runCli;

namespace {

const QStringList kTrial = {"--directions", "z-,x+", "--duration", "0.2"};

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

QByteArrayList lines(const QByteArray& text) {
  QByteArrayList out = text.split('\n');
  if (!out.isEmpty() && out.last().isEmpty()) out.removeLast();
  return out;
}

QJsonObject recordOf(const QByteArray& line) { return QJsonDocument::fromJson(line).object()["record"].toObject(); }

long dbTrials(const QString& db) {
  const auto info = runCli({"db", "info", db, "--json"});
  return info.exitCode == 0 ? info.json()["counts"].toObject()["trials"].toInteger(-1) : -1;
}

QByteArray jobList(const QString& directions) {
  const QByteArray world = sg::test::qInSourceTree("worlds/paralleljaw_box.xml").toUtf8();
  return "{\"format\": \"softgrasp.batch-jobs\", \"version\": 1,\n"
         " \"defaults\": {\"steps\": 30150, \"chains\": 2, \"contactModel\": \"point\", \"measures\": [\"epsilon-l1\"],\n"
         "              \"validate\": true, \"trialDirections\": \"" + directions.toUtf8() + "\", \"trialDuration_s\": 0.2},\n"
         " \"jobs\": [{\"world\": \"" + world + "\", \"seeds\": [1, 2, 3]}]}\n";
}

}  // namespace

class TestCliValidateRows : public QObject {
  Q_OBJECT

 private slots:
  void planValidateEqualsValidateOfTheList() {
    QTemporaryDir dir;
    const QString world = sg::test::qInSourceTree("worlds/paralleljaw_box.xml");
    const QString list = dir.filePath("planned.json"), db = dir.filePath("grasps.db");
    // Seed 2: a list with grasps that hold and grasps that do not (checked below), so the comparison sees both
  // verdicts; the planner's final stage makes most seeds' lists hold throughout.
  const QStringList plan = QStringList{"plan", world, "--iterations", "400", "--chains", "2", "--threads", "1",
                                         "--seed", "2", "--validate", "--no-progress"} + kTrial;
    const auto planned = runCli(plan + QStringList{"--json", "--out", list, "--db", db});
    QCOMPARE(planned.exitCode, 0);
    const QJsonArray grasps = planned.json()["grasps"].toArray();
    QVERIFY(grasps.size() >= 3);
    QCOMPARE(planned.json()["trialSettings"].toObject()["duration_s"].toDouble(), 0.2);

    // validate reads the saved list (trials and all) as a grasp list and runs each grasp's trial again.
    const auto validated = runCli(QStringList{"validate", world, "--grasps", list, "--json", "--no-progress"} + kTrial);
    QCOMPARE(validated.exitCode, 0);
    const QJsonArray trials = validated.json()["grasps"].toArray();
    QCOMPARE(trials.size(), grasps.size());
    int held = 0, lost = 0;
    for (int i = 0; i < grasps.size(); ++i) {
      QJsonObject expected = trials[i].toObject();
      expected.remove("source");
      QCOMPARE(grasps[i].toObject()["trial"].toObject(), expected);
      const double score = expected["score"].toDouble();
      QCOMPARE(score, expected["held"].toDouble() / 2);
      (score == 1 ? held : lost) += 1;
    }
    QVERIFY2(held > 0 && lost > 0, "the small plan keeps grasps that hold and grasps that do not");
    // The saved file is the printed list's grasps with their trials.
    const QJsonObject saved = QJsonDocument::fromJson(readAll(list)).object();
    QCOMPARE(saved["grasps"].toArray(), grasps);

    // CSV: the same scores and per-direction fields, by rank.
    const auto csv = runCli(plan + QStringList{"--csv"});
    QCOMPARE(csv.exitCode, 0);
    const QByteArrayList rows = lines(csv.out);
    QCOMPARE(rows.size(), grasps.size() + 1);
    const QList<QByteArray> header = rows[0].split(',');
    const qsizetype score = header.indexOf("trial_score");
    QVERIFY(score > 0);
    QCOMPARE(header.mid(score + 1), (QList<QByteArray>{"z-_held", "z-_displacement_mm", "z-_rotation_deg",
                                                       "x+_held", "x+_displacement_mm", "x+_rotation_deg"}));
    for (int i = 0; i < grasps.size(); ++i) {
      const QList<QByteArray> f = rows[i + 1].split(',');
      const QJsonObject t = grasps[i].toObject()["trial"].toObject();
      QCOMPARE(f[score].toDouble(), t["score"].toDouble());
      const QJsonArray dirs = t["directions"].toArray();
      for (int d = 0; d < 2; ++d) {
        QCOMPARE(f[score + 1 + 3 * d] == "1", dirs[d].toObject()["held"].toBool());
        QCOMPARE(f[score + 2 + 3 * d].toDouble(), dirs[d].toObject()["displacement_mm"].toDouble());
        QCOMPARE(f[score + 3 + 3 * d].toDouble(), dirs[d].toObject()["rotation_deg"].toDouble());
      }
    }

    // --db: one trial per grasp, keyed by the grasp: the grasps scoring 1 are those the JSON says held.
    QCOMPARE(dbTrials(db), static_cast<long>(grasps.size()));
    const auto top = runCli({"db", "query", db, "--min-trial-score", "1", "--json"});
    QCOMPARE(top.exitCode, 0);
    QCOMPARE(top.json()["grasps"].toArray().size(), held);
    for (const QJsonValue g : top.json()["grasps"].toArray()) {
      const int rank = g.toObject()["rank"].toInt();
      QCOMPARE(grasps[rank - 1].toObject()["trial"].toObject()["score"].toDouble(), 1.0);
    }
  }

  void batchRowsCarryTrialsAndResume() {
    QTemporaryDir dir;
    const QString jobs = dir.filePath("jobs.json"), out = dir.filePath("out"), db = dir.filePath("b.db");
    QVERIFY(writeAll(jobs, jobList("z-,x+")));
    const auto first = runCli({"batch", jobs, "--out", out, "--threads", "1", "--db", db, "--json", "--no-progress"});
    QCOMPARE(first.exitCode, 0);
    QCOMPARE(first.json()["run"].toInt(), 3);
    const QString shard = out + "/shard-0-of-1.jsonl";
    const QByteArrayList done = lines(readAll(shard));
    QCOMPARE(done.size(), 4);  // header + 3 rows
    long grasps = 0;
    for (int i = 1; i < done.size(); ++i) {
      const QJsonObject list = recordOf(done[i])["list"].toObject();
      QCOMPARE(list["trialSettings"].toObject()["directions"].toArray().size(), 2);
      for (const QJsonValue g : list["grasps"].toArray()) {
        const QJsonObject t = g.toObject()["trial"].toObject();
        QCOMPARE(t["tried"].toInt(), 2);
        QCOMPARE(t["score"].toDouble(), t["held"].toDouble() / 2);
        ++grasps;
      }
    }
    QCOMPARE(dbTrials(db), grasps);

    // A shard cut after its first row (a kill): the resumed run keeps that line as it was (its elapsed_s too:
    // the row and its trials were not run again) and runs the two others, whose trials are those of the first
    // run (the trial is deterministic); the database gets no trial twice.
    QVERIFY(writeAll(shard, done[0] + "\n" + done[1] + "\n"));
    const auto resumed = runCli({"batch", jobs, "--out", out, "--threads", "1", "--db", db, "--json", "--no-progress"});
    QCOMPARE(resumed.exitCode, 0);
    QCOMPARE(resumed.json()["skipped"].toInt(), 1);
    QCOMPARE(resumed.json()["run"].toInt(), 2);
    const QByteArrayList again = lines(readAll(shard));
    QCOMPARE(again.size(), 4);
    QCOMPARE(again[1], done[1]);
    for (int i = 2; i < 4; ++i) {
      const QJsonObject before = recordOf(done[i]), after = recordOf(again[i]);
      QCOMPARE(after["row"].toInt(), before["row"].toInt());
      QCOMPARE(after["list"].toObject(), before["list"].toObject());
    }
    QCOMPARE(dbTrials(db), grasps);

    // A database that lacks a row the shard holds (killed between the two writes; here a new database): the
    // resumed run imports the row, its trials with it.
    const QString fresh = dir.filePath("fresh.db");
    QVERIFY(writeAll(shard, done[0] + "\n" + done[1] + "\n"));
    const auto imported = runCli({"batch", jobs, "--out", out, "--threads", "1", "--db", fresh, "--json",
                                  "--no-progress"});
    QCOMPARE(imported.exitCode, 0);
    QCOMPARE(imported.json()["skipped"].toInt(), 1);
    QCOMPARE(dbTrials(fresh), grasps);
  }

  void badTrialSettings() {
    QTemporaryDir dir;
    const QString world = sg::test::qInSourceTree("worlds/paralleljaw_box.xml");
    auto bad = runCli({"plan", world, "--iterations", "10", "--directions", "z-"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("--validate"));
    bad = runCli({"plan", world, "--iterations", "10", "--validate", "--duration", "nan"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("--duration"));
    bad = runCli({"plan", world, "--iterations", "10", "--validate", "--directions", "x+,w-"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("w-"));
    // A job list's bad directions: refused before any row runs, naming the file and the setting.
    const QString jobs = dir.filePath("jobs.json"), out = dir.filePath("out");
    QVERIFY(writeAll(jobs, jobList("z-,q+")));
    bad = runCli({"batch", jobs, "--out", out, "--no-progress"});
    QVERIFY(bad.exitCode != 0 && !bad.crashed);
    QVERIFY(bad.err.contains("jobs.json"));
    QVERIFY(bad.err.contains("trialDirections"));
    QVERIFY(!QFile::exists(out + "/shard-0-of-1.jsonl"));
    QVERIFY(writeAll(jobs, jobList("z-").replace("\"trialDuration_s\": 0.2", "\"trialDuration_s\": -1")));
    bad = runCli({"batch", jobs, "--out", out, "--no-progress"});
    QVERIFY(bad.exitCode != 0 && !bad.crashed);
    QVERIFY(bad.err.contains("trialDuration_s"));
  }
};

QTEST_GUILESS_MAIN(TestCliValidateRows)
#include "tst_cli_validate_rows.moc"
