// The grasp database through softgrasp-cli, on real SQLite files (src/store/README.md): a plan lands in it and
// `db query` answers "the force-closure grasps of this hand on this object with ε L1 ≥ x under Hertz" as the
// plan's own list does; two batch processes writing into one database concurrently give the rows one process
// gives; a process killed with SIGKILL and resumed loses and doubles nothing; batch-merge --db streams the
// same rows; a query equals the filtered JSON merge of the same shards; bad databases are named; validate --db
// stores physics trials that db query filters and orders by; --db-no-contacts stores grasps without contacts;
// db query --csv carries the joints in break-away and shares its columns with the dataset CSV; a captured grasp's
// pre-grasp keeps its joints in break-away through import and export.
#include <QDir>
#include <QFile>
#include <QMap>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <tuple>
#include <vector>

#include "../batch/BatchTestJobs.h"
#include "../support/CliRun.h"
#include "../support/TestPaths.h"

using sg::test::readFile;
using sg::test::writeFile;

namespace {

using Run = sg::test::CliRun;

Run cli(const QStringList& args) { return sg::test::runCli(args, {}, 300000); }

// Every grasp of the database in run, row, rank order, without the database's own ids.
QJsonArray allGrasps(const QString& db, const QStringList& filters = {}) {
  const Run r = cli(QStringList{"db", "query", db, "--json"} + filters);
  if (r.exitCode != 0) qWarning("%s", r.err.constData());
  QJsonArray out;
  for (const QJsonValue& v : r.json().value("grasps").toArray()) {
    QJsonObject g = v.toObject();
    g.remove("id");
    out.append(g);
  }
  return out;
}

int lineCount(const QString& path) { return readFile(path).count('\n'); }

// A CSV text as rows of fields (RFC 4180 quoting: a quoted field may hold commas and doubled quotes).
QList<QByteArrayList> csvRows(const QByteArray& text) {
  QList<QByteArrayList> rows;
  for (const QByteArray& line : text.split('\n')) {
    if (line.isEmpty()) continue;
    QByteArrayList fields{QByteArray()};
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.last() += line[++i];
      else if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) fields.append(QByteArray());
      else fields.last() += c;
    }
    rows.append(fields);
  }
  return rows;
}

// A break-away CSV field ("chain:joint:dofValue" per joint, space-separated; src/batch/BATCH.md §Merge and the
// dataset) as (chain, joint, value) triples; a malformed joint gives {-1, -1, 0}.
using Joints = std::vector<std::tuple<int, int, double>>;
Joints jointsFromCsv(const QByteArray& field) {
  Joints out;
  for (const QByteArray& joint : field.split(' ')) {
    if (joint.isEmpty()) continue;
    const QByteArrayList parts = joint.split(':');
    bool okChain = false, okJoint = false, okValue = false;
    if (parts.size() == 3)
      out.emplace_back(parts[0].toInt(&okChain), parts[1].toInt(&okJoint), parts[2].toDouble(&okValue));
    if (!okChain || !okJoint || !okValue) return Joints{{-1, -1, 0.0}};
  }
  return out;
}
// A grasp list's (or a db-query document's) "breakAway" array as the same triples.
Joints jointsFromJson(const QJsonArray& joints) {
  Joints out;
  for (const QJsonValue& v : joints) {
    const QJsonObject j = v.toObject();
    out.emplace_back(j["chain"].toInt(), j["joint"].toInt(), j["dofValue"].toDouble());
  }
  return out;
}

}  // namespace

class TestStoreCli : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  QString jobs_, singleDb_;
  QJsonArray single_;

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    jobs_ = tmp_.filePath("jobs.json");
    QVERIFY(writeFile(jobs_, sg::test::smallJobList()));
    singleDb_ = tmp_.filePath("single.db");
    const Run run = cli({"batch", jobs_, "--out", tmp_.filePath("single"), "--db", singleDb_, "--threads", "2"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    single_ = allGrasps(singleDb_);
    QVERIFY(single_.size() > 20);
    const Run info = cli({"db", "info", singleDb_, "--json"});
    QCOMPARE(info.exitCode, 0);
    const QJsonObject counts = info.json().value("counts").toObject();
    QCOMPARE(counts.value("rows").toInt(), sg::test::kSmallJobListRows);
    QCOMPARE(counts.value("runs").toInt(), 1);
    QCOMPARE(counts.value("grasps").toInt(), single_.size());
    // Three robots' files and three objects' (hand + object rows load the same hand and box as the world).
    QVERIFY(counts.value("robots").toInt() >= 2 && counts.value("objects").toInt() >= 3);
  }

  // The question on a Hertz plan: the database's answer is the plan's list filtered by hand.
  void queryAnswersTheExampleQuestion() {
    const QString db = tmp_.filePath("plan.db");
    const Run plan = cli({"plan", sg::test::qInSourceTree("worlds/default.xml"), "--steps", "30100", "--contact-model", "hertz",
                          "--measures", "epsilon-l1", "--db", db, "--json", "--no-progress"});
    QVERIFY2(plan.exitCode == 0, plan.err.constData());
    const QJsonObject list = plan.json();
    const QString robot = list.value("robot").toString(), object = list.value("object").toString();
    for (const double threshold : {0.0, 0.1}) {
      std::vector<double> want;
      for (const QJsonValue& v : list.value("grasps").toArray()) {
        const QJsonObject g = v.toObject();
        const QJsonValue e = g.value("measures").toObject().value("epsilon-l1");
        if (g.value("forceClosure").toBool() && e.isDouble() && e.toDouble() >= threshold) want.push_back(e.toDouble());
      }
      std::sort(want.rbegin(), want.rend());
      const QJsonArray got = allGrasps(db, {"--robot", robot, "--object", object, "--contact-model", "hertz",
                                            "--measure", "epsilon-l1", "--min", QString::number(threshold),
                                            "--force-closure", "--rank-by", "epsilon-l1"});
      QCOMPARE(static_cast<std::size_t>(got.size()), want.size());
      for (int i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].toObject().value("value").toDouble(), want[static_cast<std::size_t>(i)]);
        QVERIFY(got[i].toObject().value("forceClosure").toBool());
      }
    }
    // The run records where it came from.
    const Run info = cli({"db", "info", db});
    QVERIFY2(info.out.contains("runs: 1, rows 1"), info.out.constData());
  }

  // validate --db on the plan's database (queryAnswersTheExampleQuestion made it): each trial is stored with its
  // grasp, and db query filters and orders by the scores validate printed.
  void trialsGoIntoTheDatabase() {
    const QString db = tmp_.filePath("plan.db"), world = sg::test::qInSourceTree("worlds/default.xml");
    QVERIFY2(QFile::exists(db), "plan.db comes from queryAnswersTheExampleQuestion");
    const QString top = tmp_.filePath("top.json");
    const Run q = cli({"db", "query", db, "--measure", "epsilon-l1", "--rank-by", "epsilon-l1", "--limit", "3", "--json"});
    QVERIFY2(q.exitCode == 0, q.err.constData());
    QVERIFY(writeFile(top, q.out));
    const QStringList shortTrial = {"--directions", "x+,z-", "--duration", "0.05", "--no-progress"};
    const Run v = cli(QStringList{"validate", world, "--grasps", top, "--db", db, "--json"} + shortTrial);
    QVERIFY2(v.exitCode == 0, v.err.constData());
    QMap<qint64, double> score;  // grasp id -> the score validate printed
    for (const QJsonValue& t : v.json().value("grasps").toArray()) {
      const QString source = t.toObject().value("source").toString();
      QVERIFY2(source.startsWith("grasp "), qPrintable(source));
      score[source.mid(6).toLongLong()] = t.toObject().value("score").toDouble();
    }
    QCOMPARE(score.size(), 3);
    const auto ids = [&](const QStringList& filters) {
      QList<qint64> out;
      const Run r = cli(QStringList{"db", "query", db, "--json"} + filters);
      for (const QJsonValue& g : r.json().value("grasps").toArray()) out.append(g.toObject().value("id").toInteger());
      return out;
    };
    for (const double threshold : {0.0, 0.5, 1.0, 1.01}) {
      QList<qint64> want;
      for (auto it = score.begin(); it != score.end(); ++it)
        if (it.value() >= threshold) want.append(it.key());
      QList<qint64> got = ids({"--min-trial-score", QString::number(threshold)});
      std::sort(got.begin(), got.end());
      QCOMPARE(got, want);
    }
    QList<qint64> byScore = score.keys();
    std::stable_sort(byScore.begin(), byScore.end(), [&](qint64 a, qint64 b) { return score[a] > score[b]; });
    QCOMPARE(ids({"--rank-by", "trial-score", "--limit", "3"}), byScore);
    const Run info = cli({"db", "info", db, "--json"});
    QCOMPARE(info.json().value("counts").toObject().value("trials").toInt(), 3);

    // A plain grasp list has no database ids; grasps of another database, or another world's object, are refused.
    QCOMPARE(cli(QStringList{"validate", world, "--grasps", jobs_, "--db", db} + shortTrial).exitCode, 2);
    const QString other = tmp_.filePath("other.json");
    QVERIFY(writeFile(other, cli({"db", "query", singleDb_, "--limit", "1", "--json"}).out));
    Run bad = cli(QStringList{"validate", sg::test::qInSourceTree("worlds/paralleljaw_box.xml"), "--grasps", other, "--db", db} +
                  shortTrial);
    QCOMPARE(bad.exitCode, 3);
    QVERIFY2(bad.err.contains(db.toUtf8()) || bad.err.contains(other.toUtf8()), bad.err.constData());
    bad = cli(QStringList{"validate", sg::test::qInSourceTree("worlds/paralleljaw_box.xml"), "--grasps", top, "--db", db} +
              shortTrial);
    QCOMPARE(bad.exitCode, 3);
    QVERIFY2(bad.err.contains(top.toUtf8()) && bad.err.contains("hash"), bad.err.constData());
    QCOMPARE(cli({"db", "info", db, "--json"}).json().value("counts").toObject().value("trials").toInt(), 3);
  }

  // --db-no-contacts: the same grasps without their contacts.
  void withoutContacts() {
    const QString db = tmp_.filePath("bare.db");
    const Run merge = cli({"batch-merge", tmp_.filePath("single"), "--db", db, "--db-no-contacts", "--json"});
    QVERIFY2(merge.exitCode == 0, merge.err.constData());
    const QJsonArray bare = allGrasps(db);
    QCOMPARE(bare.size(), single_.size());
    int contacts = 0;
    for (int i = 0; i < bare.size(); ++i) {
      QJsonObject a = single_[i].toObject(), b = bare[i].toObject();
      contacts += static_cast<int>(a.value("contacts").toArray().size());
      QVERIFY(b.value("contacts").toArray().isEmpty());
      a.remove("contacts");
      b.remove("contacts");
      QCOMPARE(b, a);
    }
    QVERIFY(contacts > 0);
    QCOMPARE(cli({"db", "info", db, "--json"}).json().value("counts").toObject().value("contacts").toInt(), 0);
    QCOMPARE(cli({"db", "info", singleDb_, "--json"}).json().value("counts").toObject().value("contacts").toInt(),
             contacts);
  }

  void twoProcessesWriteTheRowsOfOne() {
    const QString db = tmp_.filePath("two.db"), dir = tmp_.filePath("two");
    QProcess a, b;
    a.start(sg::test::qCliPath(), {"batch", jobs_, "--out", dir, "--shard", "0/2", "--db", db, "--threads", "1"});
    b.start(sg::test::qCliPath(), {"batch", jobs_, "--out", dir, "--shard", "1/2", "--db", db, "--threads", "1"});
    QVERIFY(a.waitForFinished(300000) && b.waitForFinished(300000));
    QVERIFY2(a.exitCode() == 0, a.readAllStandardError().constData());
    QVERIFY2(b.exitCode() == 0, b.readAllStandardError().constData());
    QCOMPARE(allGrasps(db), single_);
  }

  // SIGKILL at any moment (between rows, inside a row, inside its database transaction), then the same command
  // again: every row once.
  void killedAndResumedLosesAndDoublesNothing() {
    const QString db = tmp_.filePath("killed.db"), dir = tmp_.filePath("killed");
    const QString shard = dir + "/shard-0-of-1.jsonl";
    QProcess p;
    p.start(sg::test::qCliPath(), {"batch", jobs_, "--out", dir, "--db", db, "--no-progress", "--threads", "1"});
    QVERIFY(p.waitForStarted());
    QElapsedTimer timer;
    timer.start();
    while (lineCount(shard) < 3 && timer.elapsed() < 120000) QTest::qWait(2);
    p.kill();
    p.waitForFinished();
    QVERIFY(lineCount(shard) < 1 + sg::test::kSmallJobListRows);
    const Run again = cli({"batch", jobs_, "--out", dir, "--db", db, "--no-progress"});
    QVERIFY2(again.exitCode == 0, again.err.constData());
    QCOMPARE(allGrasps(db), single_);
    // Once more: nothing to run, nothing inserted.
    QCOMPARE(cli({"batch", jobs_, "--out", dir, "--db", db, "--no-progress"}).exitCode, 0);
    QCOMPARE(allGrasps(db), single_);
  }

  // batch-merge --db streams the shard files: the same rows; and again inserts nothing.
  void mergeIntoDatabase() {
    const QString db = tmp_.filePath("merged.db");
    for (int pass = 0; pass < 2; ++pass) {
      const Run merge = cli({"batch-merge", tmp_.filePath("single"), "--db", db, "--json"});
      QVERIFY2(merge.exitCode == 0, merge.err.constData());
      QCOMPARE(merge.json().value("rows").toInt(), sg::test::kSmallJobListRows);
      QCOMPARE(merge.json().value("inserted").toInt(), pass == 0 ? sg::test::kSmallJobListRows : 0);
    }
    QCOMPARE(allGrasps(db), single_);
    // db import of the same folder: all rows already there.
    const Run import = cli({"db", "import", db, tmp_.filePath("single"), "--json"});
    QVERIFY2(import.exitCode == 0, import.err.constData());
    QCOMPARE(import.json().value("skipped").toInt(), sg::test::kSmallJobListRows);
  }

  // A query is the JSON dataset of the same shards filtered the same way.
  void queryEqualsFilteredMerge() {
    const QString dataset = tmp_.filePath("single.json");
    QCOMPARE(cli({"batch-merge", tmp_.filePath("single"), "--out", dataset}).exitCode, 0);
    const QJsonArray all = QJsonDocument::fromJson(readFile(dataset)).object().value("dataset").toArray();
    QVERIFY(!all.isEmpty());
    const double threshold = 0.01;
    QMultiMap<QString, double> want;  // "row/rank" -> ε
    for (const QJsonValue& v : all) {
      const QJsonObject g = v.toObject();
      const QJsonValue e = g.value("measures").toObject().value("epsilon-l1");
      if (g.value("robot").toString() == "ParallelJaw" && g.value("object").toString() == "box" &&
          g.value("forceClosure").toBool() && e.isDouble() && e.toDouble() >= threshold)
        want.insert(QString("%1/%2").arg(g.value("row").toInt()).arg(g.value("rank").toInt()), e.toDouble());
    }
    QVERIFY(!want.isEmpty());
    const QJsonArray got = allGrasps(singleDb_, {"--robot", "ParallelJaw", "--object", "box", "--measure", "epsilon-l1",
                                                 "--min", QString::number(threshold), "--force-closure"});
    QMultiMap<QString, double> have;
    for (const QJsonValue& v : got) {
      const QJsonObject g = v.toObject();
      have.insert(QString("%1/%2").arg(g.value("row").toInt()).arg(g.value("rank").toInt()),
                  g.value("value").toDouble());
    }
    QCOMPARE(have, want);
    // CSV export: one line per grasp of the query, plus the header.
    const QString csv = tmp_.filePath("export.csv");
    const Run ex = cli({"db", "export", singleDb_, "--out", csv, "--robot", "ParallelJaw", "--object", "box",
                        "--measure", "epsilon-l1", "--min", QString::number(threshold), "--force-closure"});
    QVERIFY2(ex.exitCode == 0, ex.err.constData());
    QCOMPARE(lineCount(csv), want.size() + 1);
  }

  // A planned grasp's joints in break-away (src/store/README.md, column break_away) land in the database and come
  // back in db query's "grasp" as the list has them; hydro_fingertips seed 2 (tst_planner's run) keeps some.
  void breakAwayJointsGoThroughTheDatabase() {
    const QString db = tmp_.filePath("breakaway.db"), list = tmp_.filePath("breakaway.json");
    const Run plan = sg::test::runCli({"plan", "worlds/hydro_fingertips.xml", "--iterations", "250", "--seed", "2",
                                       "--threads", "1", "--contact-model", "point", "--measures", "epsilon-l1",
                                       "--no-progress", "--out", list, "--db", db},
                                      sg::test::qSourceDir(), 300000);
    QVERIFY2(plan.exitCode == 0, plan.err.constData());
    const QJsonArray listed = QJsonDocument::fromJson(readFile(list)).object()["grasps"].toArray();
    const QJsonArray stored = allGrasps(db);
    QCOMPARE(stored.size(), listed.size());
    int withBreakAway = 0;
    for (int i = 0; i < stored.size(); ++i) {
      const QJsonObject s = stored[i].toObject();
      const QJsonArray expected = listed[s["rank"].toInt() - 1].toObject()["grasp"].toObject()["breakAway"].toArray();
      withBreakAway += expected.isEmpty() ? 0 : 1;
      QCOMPARE(s["grasp"].toObject()["breakAway"].toArray(), expected);
    }
    QVERIFY(withBreakAway > 0);  // not vacuous
  }

  // The same planned break-away grasps through db import of the saved list (src/store/README.md §Writing): db
  // query --csv's grasp_break_away holds each grasp's joints at their exact values, and the dataset CSV's empty
  // field for a grasp without (breakAwayJointsGoThroughTheDatabase saved the list).
  void breakAwayJointsGoThroughImportToCsv() {
    const QString db = tmp_.filePath("breakaway-import.db"), list = tmp_.filePath("breakaway.json");
    QVERIFY2(QFile::exists(list), "breakaway.json comes from breakAwayJointsGoThroughTheDatabase");
    const Run import = sg::test::runCli({"db", "import", db, list}, sg::test::qSourceDir(), 300000);
    QVERIFY2(import.exitCode == 0, import.err.constData());
    const Run query = cli({"db", "query", db, "--csv"});
    QVERIFY2(query.exitCode == 0, query.err.constData());
    const QList<QByteArrayList> rows = csvRows(query.out);
    const QJsonArray listed = QJsonDocument::fromJson(readFile(list)).object()["grasps"].toArray();
    QCOMPARE(rows.size() - 1, listed.size());
    const QByteArrayList& header = rows.first();
    const int rank = static_cast<int>(header.indexOf("rank"));
    const int column = static_cast<int>(header.indexOf("grasp_break_away"));
    QVERIFY(rank >= 0 && column >= 0);
    int with = 0, without = 0;
    for (int i = 1; i < rows.size(); ++i) {
      QCOMPARE(rows[i].size(), header.size());
      const QJsonObject grasp = listed[rows[i][rank].toInt() - 1].toObject()["grasp"].toObject();
      if (!grasp.contains("breakAway")) {
        QCOMPARE(rows[i][column], QByteArray());
        ++without;
        continue;
      }
      QCOMPARE(jointsFromCsv(rows[i][column]), jointsFromJson(grasp["breakAway"].toArray()));  // exact doubles
      ++with;
    }
    QVERIFY(with > 0 && without > 0);  // not vacuous
    // The text output names them too.
    const Run text = cli({"db", "query", db});
    QVERIFY2(text.out.contains(", break-away "), text.out.constData());
  }

  // db query --csv and the dataset CSV (batch-merge --out FILE.csv) of the same shards share columns by name
  // (ui/cli/README.md §Grasp database): both headers hold every shared name (a rename on either side fails here),
  // grasp_break_away and pregrasp_break_away right after pregrasp_dofs, and the shared fields are the same text, grasp by grasp. The small
  // job list's default world and ThreeFinger rows keep grasps with joints in break-away. The palm poses are
  // compared on the hand + object rows only: the dataset's are in the world frame, the database's in the object's
  // (X_OP), and only those rows put the object at the world origin (BATCH.md §Job list).
  void queryCsvSharesTheDatasetCsvColumns() {
    const QString dataset = tmp_.filePath("single.csv");
    QCOMPARE(cli({"batch-merge", tmp_.filePath("single"), "--out", dataset}).exitCode, 0);
    const Run query = cli({"db", "query", singleDb_, "--csv"});
    QVERIFY2(query.exitCode == 0, query.err.constData());
    const QList<QByteArrayList> merged = csvRows(readFile(dataset)), queried = csvRows(query.out);
    const QByteArrayList poseColumns = {"grasp_x_mm",    "grasp_y_mm",    "grasp_z_mm",    "grasp_qw",
                                        "grasp_qx",      "grasp_qy",      "grasp_qz",      "pregrasp_x_mm",
                                        "pregrasp_y_mm", "pregrasp_z_mm", "pregrasp_qw",   "pregrasp_qx",
                                        "pregrasp_qy",   "pregrasp_qz"};
    const QByteArrayList otherColumns = {"row",           "job",          "seed",
                                         "robot",         "object",       "rank",
                                         "energy",        "forceClosure", "grasp_dofs",
                                         "pregrasp_dofs", "grasp_break_away", "pregrasp_break_away"};
    const QByteArrayList &mh = merged.first(), &qh = queried.first();
    for (const QByteArrayList* names : {&poseColumns, &otherColumns})
      for (const QByteArray& name : *names) {
        QVERIFY2(mh.contains(name), "dataset CSV lacks " + name);
        QVERIFY2(qh.contains(name), "db query --csv lacks " + name);
      }
    QVERIFY(mh.contains("hand"));
    QCOMPARE(mh.indexOf("grasp_break_away"), mh.indexOf("pregrasp_dofs") + 1);
    QCOMPARE(qh.indexOf("grasp_break_away"), qh.indexOf("pregrasp_dofs") + 1);
    QCOMPARE(mh.indexOf("pregrasp_break_away"), mh.indexOf("grasp_break_away") + 1);
    QCOMPARE(qh.indexOf("pregrasp_break_away"), qh.indexOf("grasp_break_away") + 1);
    QCOMPARE(queried.size(), merged.size());
    QCOMPARE(queried.size() - 1, single_.size());
    int withBreakAway = 0, handObjectRows = 0;
    for (int i = 1; i < merged.size(); ++i) {  // both in row, rank order
      QCOMPARE(merged[i].size(), mh.size());
      QCOMPARE(queried[i].size(), qh.size());
      const bool handObject = !merged[i][mh.indexOf("hand")].isEmpty();
      handObjectRows += handObject ? 1 : 0;
      for (const QByteArrayList* names : {&otherColumns, &poseColumns}) {
        if (names == &poseColumns && !handObject) continue;
        for (const QByteArray& name : *names)
          QVERIFY2(merged[i][mh.indexOf(name)] == queried[i][qh.indexOf(name)],
                   qPrintable(QString("line %1, %2: dataset '%3', db query '%4'")
                                  .arg(i)
                                  .arg(QString::fromLatin1(name), QString::fromLatin1(merged[i][mh.indexOf(name)]),
                                       QString::fromLatin1(queried[i][qh.indexOf(name)]))));
      }
      withBreakAway += merged[i][mh.indexOf("grasp_break_away")].isEmpty() ? 0 : 1;
    }
    QVERIFY(withBreakAway > 0 && withBreakAway < merged.size() - 1);  // not vacuous: some grasps with, some without
    QVERIFY(handObjectRows > 0);
  }

  // A captured grasp's pre-grasp is its grasp, joints in break-away included (src/store/README.md §Tables, column
  // pre_break_away): a grasp list of such grasps (the planned list of breakAwayJointsGoThroughTheDatabase with
  // each pre-grasp replaced by its grasp) goes through db import and db export --out FILE.json with both
  // configurations' DOFs and joints exact, and db query --csv's pregrasp_break_away holds the pre-grasp's.
  void preGraspBreakAwayGoesThroughImportAndExport() {
    const QString planned = tmp_.filePath("breakaway.json"), list = tmp_.filePath("captured.json");
    QVERIFY2(QFile::exists(planned), "breakaway.json comes from breakAwayJointsGoThroughTheDatabase");
    QJsonObject doc = QJsonDocument::fromJson(readFile(planned)).object();
    QJsonArray grasps = doc["grasps"].toArray();
    for (int i = 0; i < grasps.size(); ++i) {
      QJsonObject g = grasps[i].toObject();
      g["preGrasp"] = g["grasp"];
      grasps[i] = g;
    }
    doc["grasps"] = grasps;
    QVERIFY(writeFile(list, QJsonDocument(doc).toJson()));
    const QString db = tmp_.filePath("captured.db"), exported = tmp_.filePath("captured-export.json");
    const Run import = sg::test::runCli({"db", "import", db, list}, sg::test::qSourceDir(), 300000);
    QVERIFY2(import.exitCode == 0, import.err.constData());
    const Run ex = cli({"db", "export", db, "--out", exported});
    QVERIFY2(ex.exitCode == 0, ex.err.constData());
    const QJsonArray back = QJsonDocument::fromJson(readFile(exported)).object()["grasps"].toArray();
    QCOMPARE(back.size(), grasps.size());
    int withBreakAway = 0;
    for (const QJsonValue& v : back) {
      const QJsonObject b = v.toObject();
      const QJsonObject listed = grasps[b["rank"].toInt() - 1].toObject();
      for (const char* config : {"grasp", "preGrasp"}) {
        const QJsonObject want = listed[config].toObject(), got = b[config].toObject();
        QCOMPARE(got["dofs"].toArray(), want["dofs"].toArray());
        QCOMPARE(got.contains("breakAway"), want.contains("breakAway"));
        QCOMPARE(got["breakAway"].toArray(), want["breakAway"].toArray());  // exact doubles
      }
      withBreakAway += listed["preGrasp"].toObject().contains("breakAway") ? 1 : 0;
    }
    QVERIFY(withBreakAway > 0 && withBreakAway < back.size());  // not vacuous: some with, some without

    const Run query = cli({"db", "query", db, "--csv"});
    QVERIFY2(query.exitCode == 0, query.err.constData());
    const QList<QByteArrayList> rows = csvRows(query.out);
    const int rank = static_cast<int>(rows.first().indexOf("rank"));
    const int column = static_cast<int>(rows.first().indexOf("pregrasp_break_away"));
    QVERIFY(rank >= 0 && column >= 0);
    QCOMPARE(rows.size() - 1, grasps.size());
    for (int i = 1; i < rows.size(); ++i)
      QCOMPARE(jointsFromCsv(rows[i][column]),
               jointsFromJson(grasps[rows[i][rank].toInt() - 1].toObject()["preGrasp"].toObject()["breakAway"].toArray()));
    const Run text = cli({"db", "query", db});
    QVERIFY2(text.out.contains(", pre-grasp break-away "), text.out.constData());
  }

  void badDatabasesAreNamed() {
    const QString notDb = tmp_.filePath("jobs.json");
    Run r = cli({"db", "info", notDb});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(notDb.toUtf8()) && r.err.contains("not a SQLite database"), r.err.constData());
    r = cli({"db", "query", "mysql://localhost/grasps"});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("mysql://localhost/grasps"), r.err.constData());
    r = cli({"db", "info", tmp_.filePath("none.db")});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("none.db") && r.err.contains("no such database file"), r.err.constData());
    r = cli({"db", "frobnicate", singleDb_});
    QCOMPARE(r.exitCode, 2);
    r = cli({"db", "query", singleDb_, "--min", "0.1"});
    QCOMPARE(r.exitCode, 2);
  }
};

QTEST_GUILESS_MAIN(TestStoreCli)
#include "tst_store_cli.moc"
