// Physics trials added to planned grasps (ui/cli/README.md §Physics trials of planned grasps): plan --validate
// writes each kept grasp's trial, equal to `validate --grasps` of the same list, in JSON, CSV and the grasp
// database; a batch row with "validate" carries the trials in its shard line and the database, and a resumed
// shard does not run the trials of the rows it holds again; batch-merge --db and db import (shards and a saved
// list) store the same trials, and batch-merge's CSV carries them; bad trial settings are refused.
#include <QtTest/QtTest>

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "../support/CliRun.h"
#include "../support/StoredTrials.h"
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

QJsonObject jsonOf(const std::string& text) {
  return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

// The trials of the shard lines (header first) as a database should hold them: by row and rank, each with the
// list's trial settings. Checks every stored field against them and returns how many trials the lines hold.
long checkTrialsMatchShard(const QString& db, const QByteArrayList& shardLines) {
  const std::vector<sg::test::StoredTrial> stored = sg::test::storedTrials(db.toStdString());
  std::size_t next = 0;
  for (int i = 1; i < shardLines.size(); ++i) {
    const QJsonObject record = recordOf(shardLines[i]);
    const QJsonObject list = record["list"].toObject();
    const QJsonArray grasps = list["grasps"].toArray();
    for (int k = 0; k < grasps.size(); ++k) {
      const QJsonObject trial = grasps[k].toObject()["trial"].toObject();
      if (next >= stored.size()) return -1;
      const sg::test::StoredTrial& t = stored[next++];
      const QJsonObject details = jsonOf(t.details);
      const bool same = t.row == record["row"].toInt() && t.rank == k + 1 && t.kind == "physics" &&
                        t.score == trial["score"].toDouble() &&
                        t.success == (trial["held"].toInt() == trial["tried"].toInt()) &&
                        details["result"].toObject() == trial &&
                        details["settings"].toObject() == list["trialSettings"].toObject() && t.runIsGraspRun;
      if (!same) {
        qWarning("%s: row %d rank %d: stored trial differs from the shard's: %s", qPrintable(db), record["row"].toInt(),
                 k + 1, t.details.c_str());
        return -1;
      }
    }
  }
  return next == stored.size() ? static_cast<long>(next) : -1;
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

  // batch-merge --db, db import of the shard folder and of the shard file store the trials of the shard lines,
  // as batch --db does; importing again adds none; the merged CSV has the trial columns with the same numbers.
  void mergeAndImportCarryTrials() {
    QTemporaryDir dir;
    const QString jobs = dir.filePath("jobs.json"), out = dir.filePath("out"), direct = dir.filePath("direct.db");
    QVERIFY(writeAll(jobs, jobList("z-,x+")));
    const auto run = runCli({"batch", jobs, "--out", out, "--threads", "1", "--db", direct, "--no-progress"});
    QCOMPARE(run.exitCode, 0);
    const QString shard = out + "/shard-0-of-1.jsonl";
    const QByteArrayList shardLines = lines(readAll(shard));
    QCOMPARE(shardLines.size(), 4);
    const long trials = checkTrialsMatchShard(direct, shardLines);
    QVERIFY(trials >= 3);

    const QString merged = dir.filePath("merged.db");
    const auto merge = runCli({"batch-merge", out, "--db", merged, "--json"});
    QCOMPARE(merge.exitCode, 0);
    QCOMPARE(merge.json()["trials"].toInteger(), trials);
    QCOMPARE(checkTrialsMatchShard(merged, shardLines), trials);
    const auto again = runCli({"batch-merge", out, "--db", merged, "--json"});
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(again.json()["trials"].toInteger(), 0);
    QCOMPARE(dbTrials(merged), trials);

    for (const QString& source : {out, shard}) {
      const QString imported = dir.filePath(QFileInfo(source).fileName() + ".db");
      const auto import = runCli({"db", "import", imported, source, "--json"});
      QCOMPARE(import.exitCode, 0);
      QCOMPARE(import.json()["trials"].toInteger(), trials);
      QCOMPARE(checkTrialsMatchShard(imported, shardLines), trials);
    }

    // CSV: score, held, tried, then x+ before z- (the protocol's order, not the job list's), per grasp in row
    // and rank order, the numbers of the shard's trials.
    const QString csvPath = dir.filePath("dataset.csv");
    QCOMPARE(runCli({"batch-merge", out, "--out", csvPath}).exitCode, 0);
    const QByteArrayList csv = lines(readAll(csvPath));
    QCOMPARE(static_cast<long>(csv.size()), trials + 1);
    const QList<QByteArray> header = csv[0].split(',');
    const qsizetype score = header.indexOf("trial_score");
    QVERIFY(score > 0);
    QCOMPARE(header.mid(score), (QList<QByteArray>{"trial_score", "trial_held", "trial_tried", "x+_held",
                                                   "x+_displacement_mm", "x+_rotation_deg", "z-_held",
                                                   "z-_displacement_mm", "z-_rotation_deg"}));
    int line = 1;
    for (int i = 1; i < shardLines.size(); ++i)
      for (const QJsonValue g : recordOf(shardLines[i])["list"].toObject()["grasps"].toArray()) {
        const QList<QByteArray> f = csv[line++].split(',');
        QCOMPARE(f.size(), header.size());
        const QJsonObject t = g.toObject()["trial"].toObject();
        QCOMPARE(f[score].toDouble(), t["score"].toDouble());
        QCOMPARE(f[score + 1].toInt(), t["held"].toInt());
        QCOMPARE(f[score + 2].toInt(), 2);
        const QJsonArray dirs = t["directions"].toArray();  // tried z- then x+
        for (int d = 0; d < 2; ++d) {
          const QJsonObject o = dirs[d].toObject();
          const qsizetype c = score + 3 + 3 * (o["direction"].toString() == "x+" ? 0 : 1);
          QCOMPARE(f[c] == "1", o["held"].toBool());
          QCOMPARE(f[c + 1].toDouble(), o["displacement_mm"].toDouble());
          QCOMPARE(f[c + 2].toDouble(), o["rotation_deg"].toDouble());
        }
      }
  }

  // db import of a list saved by plan --validate stores its grasps' trials, with the list's numbers.
  void importOfAValidatedList() {
    QTemporaryDir dir;
    const QString world = sg::test::qInSourceTree("worlds/paralleljaw_box.xml");
    const QString list = dir.filePath("planned.json"), db = dir.filePath("imported.db");
    const auto planned = runCli(QStringList{"plan", world, "--iterations", "400", "--chains", "2", "--threads", "1",
                                            "--seed", "2", "--validate", "--no-progress", "--out", list} + kTrial);
    QCOMPARE(planned.exitCode, 0);
    const QJsonObject saved = QJsonDocument::fromJson(readAll(list)).object();
    const QJsonArray grasps = saved["grasps"].toArray();
    QVERIFY(!grasps.isEmpty());
    const auto import = runCli({"db", "import", db, list, "--json"});
    QCOMPARE(import.exitCode, 0);
    QCOMPARE(import.json()["trials"].toInt(), grasps.size());
    const std::vector<sg::test::StoredTrial> stored = sg::test::storedTrials(db.toStdString());
    QCOMPARE(static_cast<qsizetype>(stored.size()), grasps.size());
    for (const sg::test::StoredTrial& t : stored) {
      const QJsonObject trial = grasps[static_cast<int>(t.rank) - 1].toObject()["trial"].toObject();
      QCOMPARE(t.score, trial["score"].toDouble());
      QCOMPARE(jsonOf(t.details)["result"].toObject(), trial);
      QCOMPARE(jsonOf(t.details)["settings"].toObject(), saved["trialSettings"].toObject());
    }
    // The same file again: its run exists, no trial is added.
    QCOMPARE(runCli({"db", "import", db, list, "--json"}).json()["trials"].toInt(), 0);
    QCOMPARE(dbTrials(db), static_cast<long>(grasps.size()));
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
