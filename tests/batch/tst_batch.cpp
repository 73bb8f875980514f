// The batch engine (src/batch/BATCH.md): job lists, sharding, checksummed shard files, resuming after a cut
// shard file, merging and what the merge refuses.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "BatchTestJobs.h"
#include "batch/BatchRun.h"
#include "batch/JobList.h"
#include "batch/Merge.h"
#include "batch/ShardFile.h"
#include "core/Error.h"
#include "core/Json.h"
#include "core/JsonFormat.h"

using namespace sg;
using namespace sg::batch;
using sg::test::readFile;
using sg::test::writeFile;

namespace {

std::string str(const QString& s) { return s.toStdString(); }

// Every shard of `shards` into `dir`, then the merge into `out`; the merge's summary.
MergeSummary runAll(const JobList& list, const QString& dir, int shards, const QString& out, int threads = 1) {
  for (int k = 0; k < shards; ++k) {
    ShardRunOptions o;
    o.shard = k;
    o.shards = shards;
    o.threads = threads;
    runShard(list, str(dir), o);
  }
  return mergeShards(str(dir), str(out));
}

QString errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

QByteArrayList lines(const QByteArray& text) {
  QByteArrayList out = text.split('\n');
  if (!out.isEmpty() && out.last().isEmpty()) out.removeLast();
  return out;
}

// The shard text with its header line's "format" set to `format` (re-framed, so its checksum holds).
QByteArray withHeaderFormat(const QByteArray& text, const std::string& format) {
  const QByteArray first = lines(text)[0];
  Json header = Json::parse(first.toStdString()).at("record", "line 1");
  header.set("format", format);
  return QByteArray::fromStdString(frameRecord(header)) + text.mid(first.size() + 1);
}

}  // namespace

class TestBatch : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  JobList list_;
  QString baseJson_, baseCsv_, baseDir_;

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    QVERIFY(writeFile(tmp_.filePath("jobs.json"), test::smallJobList()));
    list_ = loadJobList(str(tmp_.filePath("jobs.json")));
    // The reference: one process, every row (two rows at a time).
    baseDir_ = tmp_.filePath("single");
    baseJson_ = tmp_.filePath("single.json");
    baseCsv_ = tmp_.filePath("single.csv");
    const MergeSummary s = runAll(list_, baseDir_, 1, baseJson_, 2);
    QCOMPARE(s.rows, static_cast<long>(test::kSmallJobListRows));
    QVERIFY(s.failedRows.empty());
    QVERIFY(s.grasps >= test::kSmallJobListRows);  // every row finds at least one grasp
    mergeShards(str(baseDir_), str(baseCsv_));
  }

  void jobListExpandsSeedsIntoRows() {
    QCOMPARE(list_.rows.size(), std::size_t(test::kSmallJobListRows));
    const std::vector<std::uint64_t> seeds = {1, 2, 3, 4, 10, 11, 12, 5, 6};
    for (std::size_t i = 0; i < list_.rows.size(); ++i) {
      QCOMPARE(list_.rows[i].index, static_cast<long>(i));
      QCOMPARE(list_.rows[i].seed, seeds[i]);
      QCOMPARE(list_.rows[i].settings.contactModels, std::vector<std::string>{"point"});
    }
    QCOMPARE(list_.rows[0].settings.steps, 30150L);
    QCOMPARE(list_.rows[8].settings.steps, 30100L);  // a job's own setting overrides the defaults
    QCOMPARE(list_.rows[4].handPose->translation().z(), 120.0);
    QVERIFY(!list_.rows[7].handPose);  // a world row
    QCOMPARE(list_.rows[8].handPose->translation().z(), 300.0);  // the default start pose
    QCOMPARE(list_.rows[4].job, 1L);
    QCOMPARE(list_.digest.size(), std::size_t(16));
    // The digest names the content: the same text gives the same digest, another seed another one.
    QCOMPARE(jobListFromJson(str(QString(test::smallJobList())), list_.path).digest, list_.digest);
    QByteArray other = test::smallJobList();
    other.replace("\"seeds\": [1, 2, 3, 4]", "\"seeds\": [1, 2, 3, 9]");
    QVERIFY(jobListFromJson(other.toStdString(), list_.path).digest != list_.digest);
    // The list is tagged with the former name "softgrasp-batch-jobs"; the current name reads to the same rows.
    QByteArray renamed = test::smallJobList();
    QVERIFY(renamed.contains("\"softgrasp-batch-jobs\""));
    renamed.replace("\"softgrasp-batch-jobs\"", "\"softgrasp.batch-jobs\"");
    QCOMPARE(jobListFromJson(renamed.toStdString(), list_.path).digest, list_.digest);
  }

  void jobListErrorsNameFileAndField_data() {
    QTest::addColumn<QByteArray>("from");
    QTest::addColumn<QByteArray>("to");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown key") << QByteArray("\"seeds\": [1, 2, 3, 4]") << QByteArray("\"stpes\": 5")
                                 << "jobs[0]: unknown key \"stpes\"";
    QTest::newRow("bad energy") << QByteArray("\"steps\": 30150,") << QByteArray("\"energy\": \"warmth\",")
                                << "defaults.energy";
    QTest::newRow("bad model") << QByteArray("\"point\"") << QByteArray("\"glue\"") << "defaults.contactModel";
    // The default parameters' counter starts at 30 000: a limit of 3000 would run nothing.
    QTest::newRow("steps below the start") << QByteArray("\"steps\": 30150,") << QByteArray("\"steps\": 3000,")
                                           << "jobs[0].steps: the step limit 3000 does not exceed";
    QTest::newRow("negative seed") << QByteArray("[1, 2, 3, 4]") << QByteArray("[1, -2]") << "jobs[0].seeds[1]";
    QTest::newRow("missing file") << QByteArray("/worlds/default.xml") << QByteArray("/worlds/nowhere.xml")
                                  << "jobs[2].world: no such file";
    QTest::newRow("two seed keys") << QByteArray("\"seed\": 5") << QByteArray("\"seed\": 5, \"seeds\": [1]")
                                   << "jobs[2]: give one of";
    QTest::newRow("format") << QByteArray("softgrasp-batch-jobs") << QByteArray("softgrasp.grasp-list")
                            << "expected a softgrasp.batch-jobs document version 1, found format "
                               "\"softgrasp.grasp-list\", version 1";
    QTest::newRow("newer version") << QByteArray("\"version\": 1,") << QByteArray("\"version\": 2,")
                                   << "found format \"softgrasp-batch-jobs\", version 2 (newer than this program reads)";
    QTest::newRow("json") << QByteArray("\"version\": 1,") << QByteArray("\"version\": 1,,") << "line 2";
  }
  void jobListErrorsNameFileAndField() {
    QFETCH(QByteArray, from);
    QFETCH(QByteArray, to);
    QFETCH(QString, expected);
    QByteArray text = test::smallJobList();
    QVERIFY(text.contains(from));
    text.replace(text.indexOf(from), from.size(), to);
    const QString path = tmp_.filePath("bad-jobs.json");
    QVERIFY(writeFile(path, text));
    const QString error = errorOf([&] { loadJobList(str(path)); });
    QVERIFY2(error.contains(expected), qPrintable(error));
    QVERIFY2(error.contains(path), qPrintable(error));
  }

  void shardsCoverEveryRowOnce() {
    for (int n = 1; n <= 7; ++n) {
      for (const long rows : {0L, 1L, 6L, 9L, 23L}) {
        std::map<long, int> seen;
        for (int k = 0; k < n; ++k)
          for (const long r : rowsOfShard(rows, k, n)) {
            QCOMPARE(shardOfRow(r, n), k);
            ++seen[r];
          }
        QCOMPARE(static_cast<long>(seen.size()), rows);
        for (const auto& [r, count] : seen) {
          QVERIFY(r >= 0 && r < rows);
          QCOMPARE(count, 1);
        }
      }
    }
  }

  // N = 1…7 shards over the same rows: every shard file holds exactly its rows, and the merge equals the
  // single-process dataset byte for byte (JSON and CSV).
  void shardedRunsMergeToTheSingleRun() {
    const QByteArray json = readFile(baseJson_), csv = readFile(baseCsv_);
    QVERIFY(json.contains("\"dataset\""));
    for (int n = 2; n <= 7; ++n) {
      const QString dir = tmp_.filePath(QString("n%1").arg(n));
      const QString out = tmp_.filePath(QString("n%1.json").arg(n));
      runAll(list_, dir, n, out);
      QCOMPARE(readFile(out), json);
      mergeShards(str(dir), str(tmp_.filePath("n.csv")));
      QCOMPARE(readFile(tmp_.filePath("n.csv")), csv);
      std::set<long> all;
      for (int k = 0; k < n; ++k) {
        const ShardContent c = readShard(str(dir + "/" + QString::fromStdString(shardFileName(k, n))));
        QVERIFY(c.problems.empty());
        QCOMPARE(c.header->shard, k);
        std::set<long> rows;
        for (const auto& [r, text] : c.rows) rows.insert(r);
        const std::vector<long> expected = rowsOfShard(test::kSmallJobListRows, k, n);
        QCOMPARE(rows, std::set<long>(expected.begin(), expected.end()));
        all.insert(rows.begin(), rows.end());
      }
      QCOMPARE(static_cast<int>(all.size()), test::kSmallJobListRows);
    }
    // Every row's grasps are in the dataset, ranked 1, 2, ... within the row.
    const QByteArrayList csvLines = lines(csv);
    std::map<int, int> lastRank;
    for (int i = 1; i < csvLines.size(); ++i) {
      const QByteArrayList f = csvLines[i].split(',');
      const int row = f[0].toInt(), rank = f[8].toInt();
      QCOMPARE(rank, lastRank[row] + 1);
      lastRank[row] = rank;
    }
    QCOMPARE(static_cast<int>(lastRank.size()), test::kSmallJobListRows);
  }

  // The CSV carries each grasp's joints in break-away (BATCH.md §Merge and the dataset) as the JSON dataset does:
  // columns grasp_break_away and pregrasp_break_away after pregrasp_dofs, "chain:joint:dofValue" per joint. One
  // grasp of the reference run gets two joints in break-away (its list as the planner writes a Barrett closing),
  // and every grasp's fields read back to the JSON dataset's entries of the same records.
  void datasetCsvCarriesTheBreakAwayState() {
    const ShardContent shard = readShard(str(baseDir_ + "/shard-0-of-1.jsonl"));
    QVERIFY(shard.problems.empty() && !shard.rows.empty());
    std::map<long, std::string> byRow;  // datasetText takes the records in row order
    for (const auto& [row, text] : shard.rows) byRow[row] = text;
    std::vector<std::string> records;
    for (const auto& [row, text] : byRow) records.push_back(text);
    {  // the first row's first grasp: two joints in break-away in its grasp, none in its pre-grasp
      Json record = Json::parse(records[0]);
      Json list = record.at("list", "record");
      Json grasps = Json::array();
      for (const Json& g : list.at("grasps", "list").items("grasps")) {
        Json copy = g;
        if (grasps.items("grasps").empty()) {
          Json joints = Json::array();
          for (const auto& [chain, joint, value] : {std::tuple{0L, 1L, 0.25}, std::tuple{2L, 1L, -1.0 / 3}}) {
            Json j = Json::object();
            j.set("chain", chain);
            j.set("joint", joint);
            j.set("dofValue", value);
            joints.push(j);
          }
          Json closed = g.at("grasp", "grasp");
          closed.set("breakAway", joints);
          copy.set("grasp", closed);
        }
        grasps.push(copy);
      }
      list.set("grasps", grasps);
      record.set("list", list);
      records[0] = record.dumpLine();
    }
    MergeSummary summary;
    const std::string csv = datasetText(records, "digest", test::kSmallJobListRows, DatasetFormat::Csv, "row", summary);
    const Json json = Json::parse(datasetText(records, "digest", test::kSmallJobListRows, DatasetFormat::Json, "row", summary));
    const QByteArrayList rows = lines(QByteArray::fromStdString(csv));
    const QByteArrayList header = rows.first().split(',');
    const int graspColumn = header.indexOf("grasp_break_away");
    QCOMPARE(header.indexOf("pregrasp_dofs") + 1, graspColumn);
    QCOMPARE(header.indexOf("pregrasp_break_away"), graspColumn + 1);
    const std::vector<Json>& entries = json.at("dataset", "dataset").items("dataset");
    QCOMPARE(static_cast<std::size_t>(rows.size() - 1), entries.size());
    // A CSV field back to (chain, joint, value) triples, and the JSON entry's list of them.
    using Joints = std::vector<std::tuple<long, long, double>>;
    auto fromCsv = [](const QByteArray& field) {
      Joints out;
      for (const QByteArray& joint : field.split(' ')) {
        if (joint.isEmpty()) continue;
        const QByteArrayList parts = joint.split(':');
        if (parts.size() != 3) return Joints{{-1, -1, 0.0}};
        out.emplace_back(parts[0].toLong(), parts[1].toLong(), parts[2].toDouble());
      }
      return out;
    };
    auto fromJson = [](const Json& configuration) {
      Joints out;
      if (const Json* b = configuration.find("breakAway"))
        for (const Json& j : b->items("breakAway"))
          out.emplace_back(static_cast<long>(j.at("chain", "j").number("chain")),
                           static_cast<long>(j.at("joint", "j").number("joint")), j.at("dofValue", "j").number("v"));
      return out;
    };
    int withBreakAway = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const QByteArrayList f = rows[static_cast<int>(i) + 1].split(',');
      QCOMPARE(f.size(), header.size());
      QCOMPARE(fromCsv(f[graspColumn]), fromJson(entries[i].at("grasp", "entry")));
      QCOMPARE(fromCsv(f[graspColumn + 1]), fromJson(entries[i].at("preGrasp", "entry")));
      if (!f[graspColumn].isEmpty()) ++withBreakAway;
    }
    QVERIFY(withBreakAway >= 1);
    QCOMPARE(fromCsv(rows[1].split(',')[graspColumn]), (Joints{{0, 1, 0.25}, {2, 1, -1.0 / 3}}));
    QVERIFY(rows[1].split(',')[graspColumn + 1].isEmpty());
  }

  // --rank-by: every grasp by a measure (highest first, none last) or by energy (lowest first); the same
  // lines as the row-ordered dataset, and still independent of the shard count.
  void rankedDatasets() {
    const QByteArrayList byRow = lines(readFile(baseCsv_));
    for (const char* key : {"epsilon-l1", "energy"}) {
      const QString one = tmp_.filePath(QString("rank-%1-1.csv").arg(key));
      const QString three = tmp_.filePath(QString("rank-%1-3.csv").arg(key));
      mergeShards(str(baseDir_), str(one), key);
      mergeShards(str(tmp_.filePath("n3")), str(three), key);
      QCOMPARE(readFile(three), readFile(one));
      const QByteArrayList ranked = lines(readFile(one));
      QCOMPARE(ranked.first(), byRow.first());
      const int column = byRow.first().split(',').indexOf(key);
      QVERIFY(column > 0);
      QByteArrayList a = ranked.mid(1), b = byRow.mid(1);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      QCOMPARE(a, b);
      bool seenEmpty = false;
      double last = std::strcmp(key, "energy") == 0 ? -1e300 : 1e300;
      int values = 0;
      for (int i = 1; i < ranked.size(); ++i) {
        const QByteArray field = ranked[i].split(',')[column];
        if (field.isEmpty()) {
          seenEmpty = true;
          continue;
        }
        QVERIFY(!seenEmpty);  // grasps without a value come last
        const double v = field.toDouble();
        if (std::strcmp(key, "energy") == 0) QVERIFY(v >= last);
        else QVERIFY(v <= last);
        last = v;
        ++values;
      }
      QVERIFY(values > 1);
    }
    QVERIFY(errorOf([&] { mergeShards(str(baseDir_), str(tmp_.filePath("x.csv")), "beauty"); }).contains("beauty"));
  }

  // A shard file cut in the middle of a line (the writer killed while appending) and one with a damaged
  // line: resuming drops the bad lines, keeps the good rows, runs the rest, and merges to the same dataset.
  void resumeAfterACutOrDamagedShardFile() {
    const QString dir = tmp_.filePath("resume");
    QVERIFY(QDir().mkpath(dir));
    const QString shard = dir + "/shard-0-of-1.jsonl";
    const QByteArray full = readFile(baseDir_ + "/shard-0-of-1.jsonl");
    const QByteArrayList all = lines(full);
    QCOMPARE(all.size(), 1 + test::kSmallJobListRows);
    // Header, two rows, half of the third.
    QVERIFY(writeFile(shard, all[0] + "\n" + all[1] + "\n" + all[2] + "\n" + all[3].left(all[3].size() / 2)));
    std::vector<ShardProblem> dropped;
    ShardRunOptions o;
    o.started = [&](const std::string&, const std::vector<ShardProblem>& d, const ShardProgress&) { dropped = d; };
    ShardProgress p = runShard(list_, str(dir), o);
    QCOMPARE(dropped.size(), std::size_t(1));
    QCOMPARE(dropped[0].line, 4);
    QVERIFY(QString::fromStdString(dropped[0].problem).contains("half-written"));
    QCOMPARE(p.skipped, std::size_t(2));
    QCOMPARE(p.done, std::size_t(test::kSmallJobListRows - 2));
    mergeShards(str(dir), str(tmp_.filePath("resume.json")));
    QCOMPARE(readFile(tmp_.filePath("resume.json")), readFile(baseJson_));

    // A changed byte inside line 3: its checksum no longer matches; the row runs again.
    QByteArray damaged = readFile(shard);
    const int at = damaged.indexOf("\"energy\"", damaged.indexOf('\n', damaged.indexOf('\n') + 1));
    QVERIFY(at > 0);
    damaged[at + 12] = 'X';  // "energy":"contacts" → "energy":"coXtacts"
    QVERIFY(writeFile(shard, damaged));
    dropped.clear();
    p = runShard(list_, str(dir), o);
    QCOMPARE(dropped.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(dropped[0].problem).contains("checksum"));
    QCOMPARE(p.done, std::size_t(1));
    QVERIFY(readShard(str(shard)).problems.empty());  // the file was repaired
    mergeShards(str(dir), str(tmp_.filePath("resume.json")));
    QCOMPARE(readFile(tmp_.filePath("resume.json")), readFile(baseJson_));

    // Nothing left to do: a third run skips every row.
    p = runShard(list_, str(dir), o);
    QCOMPARE(p.done, std::size_t(0));
    QCOMPARE(p.skipped, std::size_t(test::kSmallJobListRows));
  }

  // stopRequested (the CLI's Ctrl+C): asked after two rows, the run starts no third one; the file holds exactly
  // those rows and a second run resumes to the uninterrupted dataset.
  void stopRequestedEndsBetweenRowsResumably() {
    const QString dir = tmp_.filePath("stopped");
    std::size_t rowsDone = 0;
    ShardRunOptions o;
    o.threads = 1;
    o.rowDone = [&](const RowDone&, const ShardProgress& p) { rowsDone = p.done; };
    o.stopRequested = [&] { return rowsDone >= 2; };
    ShardProgress p = runShard(list_, str(dir), o);
    QVERIFY(p.stopped);
    QCOMPARE(p.done, std::size_t(2));
    QCOMPARE(lines(readFile(dir + "/shard-0-of-1.jsonl")).size(), 1 + 2);
    ShardRunOptions again;
    p = runShard(list_, str(dir), again);
    QVERIFY(!p.stopped);
    QCOMPARE(p.skipped, std::size_t(2));
    QCOMPARE(p.done, std::size_t(test::kSmallJobListRows - 2));
    mergeShards(str(dir), str(tmp_.filePath("stopped.json")));
    QCOMPARE(readFile(tmp_.filePath("stopped.json")), readFile(baseJson_));
    // Asked when no row is left: not a stop.
    ShardRunOptions done;
    done.stopRequested = [] { return true; };
    p = runShard(list_, str(dir), done);
    QVERIFY(!p.stopped);
  }

  // Rows with "validate" (BATCH.md §Physics trials): the settings join a row's description (and the digest)
  // only when validate is on, so older lists keep their digest; a shard of such rows needs the front end's
  // trial runner, which adds to each row's list before the line is written, so a resumed shard calls it only
  // for the rows it lacks.
  void trialRowsUseTheRunnerOncePerRow() {
    QByteArray off = test::smallJobList();
    off.replace("\"steps\": 30150,", "\"steps\": 30150, \"validate\": false, \"trialDirections\": \"z-\",");
    QCOMPARE(jobListFromJson(off.toStdString(), list_.path).digest, list_.digest);
    QByteArray on = test::smallJobList();
    on.replace("\"steps\": 30150,", "\"steps\": 30150, \"validate\": true, \"trialDirections\": \"z-\",");
    const JobList trialList = jobListFromJson(on.toStdString(), list_.path);
    QVERIFY(trialList.digest != list_.digest);
    QVERIFY(trialList.rows[0].settings.validate);
    QCOMPARE(trialList.rows[0].settings.trialDirections, std::string("z-"));
    QCOMPARE(trialList.rows[0].settings.trialDuration_s, 1.0);
    QCOMPARE(trialList.rows[0].describe().at("settings", "").at("trialDirections", "").string(""), std::string("z-"));

    const QString dir = tmp_.filePath("trials");
    ShardRunOptions none;
    const QString refused = errorOf([&] { runShard(trialList, str(dir), none); });
    QVERIFY2(refused.contains("validate"), qPrintable(refused));
    QVERIFY(!QFile::exists(dir + "/shard-0-of-1.jsonl"));

    // A runner that marks each grasp with its rank and counts its calls.
    std::map<long, int> calls;
    std::mutex callsMutex;
    ShardRunOptions o;
    o.shards = 3;
    o.threads = 1;
    o.trials = [&](const World&, const planner::GraspList& grasps, const BatchRow& row, const Json& doc) {
      {
        std::lock_guard<std::mutex> lock(callsMutex);
        ++calls[row.index];
      }
      Json out = doc;
      Json items = Json::array();
      for (std::size_t i = 0; i < grasps.grasps.size(); ++i) {
        Json g = doc.at("grasps", "").items("")[i];
        g.set("trial", static_cast<long>(i + 1));
        items.push(g);
      }
      out.set("grasps", items);
      return out;
    };
    std::size_t stopAfter = 2, done = 0;
    o.rowDone = [&](const RowDone&, const ShardProgress& p) { done = p.done; };
    o.stopRequested = [&] { return done >= stopAfter; };
    (void)runShard(trialList, str(dir), o);
    const std::map<long, int> firstRun = calls;
    stopAfter = 1000;
    const ShardProgress p = runShard(trialList, str(dir), o);
    QCOMPARE(p.skipped, firstRun.size());
    std::set<long> shardRows;
    for (const long r : rowsOfShard(static_cast<long>(trialList.rows.size()), 0, 3)) shardRows.insert(r);
    QCOMPARE(firstRun.size(), std::size_t(2));
    QCOMPARE(calls.size(), shardRows.size());
    for (const auto& [row, n] : calls) {
      QCOMPARE(n, 1);  // once: the resumed run did not run the trials of the rows the file held
      QVERIFY(shardRows.count(row));
    }
    for (const QByteArray& line : lines(readFile(dir + "/shard-0-of-3.jsonl")).mid(1)) {
      const Json record = Json::parse(line.toStdString()).at("record", "");
      const auto& items = record.at("list", "").at("grasps", "").items("");
      QVERIFY(!items.empty());
      for (std::size_t i = 0; i < items.size(); ++i)
        QCOMPARE(items[i].at("trial", "").number(""), static_cast<double>(i + 1));
    }
  }

  void mergeNamesMissingAndBrokenShards_data() {
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing shard") << "remove 1" << "missing shard file(s) shard-1-of-3.jsonl";
    QTest::newRow("missing row") << "drop row 4" << "shard-1-of-3.jsonl: lacks 1 of its 3 rows (4)";
    QTest::newRow("half-written") << "cut 2" << "shard-2-of-3.jsonl:4: half-written last line";
    QTest::newRow("changed byte") << "flip 0" << "shard-0-of-3.jsonl:2: checksum mismatch";
    QTest::newRow("not framed") << "garbage 0" << "shard-0-of-3.jsonl:5: not a framed record";
    QTest::newRow("foreign row") << "move row 4 to 0" << "row 4 belongs to shard 1, not 0";
    QTest::newRow("another job list") << "other list 2" << "shard-2-of-3.jsonl: written for another job list";
    QTest::newRow("other sharding") << "extra shard-0-of-2" << "different shardings (N = 2, 3)";
    QTest::newRow("not a shard header")
        << "header format softgrasp.grasp-list"
        << "shard-2-of-3.jsonl:1: line 1 is not a shard header: expected a softgrasp.batch-shard document version 1, "
           "found format \"softgrasp.grasp-list\", version 1";
  }
  void mergeNamesMissingAndBrokenShards() {
    QFETCH(QString, damage);
    QFETCH(QString, expected);
    static QString complete;
    if (complete.isEmpty()) {
      complete = tmp_.filePath("three");
      runAll(list_, complete, 3, tmp_.filePath("three.json"));
    }
    QTemporaryDir dir;
    for (int k = 0; k < 3; ++k) {
      const QString name = QString::fromStdString(shardFileName(k, 3));
      QVERIFY(QFile::copy(complete + "/" + name, dir.filePath(name)));
    }
    const QString s0 = dir.filePath("shard-0-of-3.jsonl"), s1 = dir.filePath("shard-1-of-3.jsonl"),
                  s2 = dir.filePath("shard-2-of-3.jsonl");
    const QByteArrayList l1 = lines(readFile(s1));
    if (damage == "remove 1") {
      QVERIFY(QFile::remove(s1));
    } else if (damage == "drop row 4" || damage == "move row 4 to 0") {
      QByteArray kept, moved;
      for (const QByteArray& l : l1) (l.contains("{\"row\":4,") ? moved : kept) += l + "\n";
      QVERIFY(!moved.isEmpty());
      QVERIFY(writeFile(s1, kept));
      if (damage == "move row 4 to 0") QVERIFY(writeFile(s0, readFile(s0) + moved));
    } else if (damage == "cut 2") {
      const QByteArray text = readFile(s2);
      QVERIFY(writeFile(s2, text.left(text.size() - 40)));
    } else if (damage == "flip 0") {
      QByteArray text = readFile(s0);
      int at = text.indexOf("\"position_mm\":[");
      while (at > 0 && !std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
      text[at] = text[at] == '3' ? '4' : '3';
      QVERIFY(writeFile(s0, text));
    } else if (damage == "garbage 0") {
      QVERIFY(writeFile(s0, readFile(s0) + "{\"row\": 99}\n"));
    } else if (damage == "other list 2") {
      QByteArray text = readFile(s2);
      const QByteArray header = lines(text)[0];
      ShardHeader h{2, 3, test::kSmallJobListRows, "0123456789abcdef"};
      QVERIFY(writeFile(s2, QByteArray::fromStdString(frameRecord(h.toJson())) + text.mid(header.size() + 1)));
    } else if (damage.startsWith("header format ")) {
      QVERIFY(writeFile(s2, withHeaderFormat(readFile(s2), damage.mid(int(std::strlen("header format "))).toStdString())));
    } else if (damage == "extra shard-0-of-2") {
      QVERIFY(QFile::copy(s0, dir.filePath("shard-0-of-2.jsonl")));
    }
    const QString error = errorOf([&] { mergeShards(str(dir.path()), str(dir.filePath("out.json"))); });
    QVERIFY2(error.contains(expected), qPrintable(error));
    QVERIFY(!QFile::exists(dir.filePath("out.json")));
  }

  // The dataset starts with its tag and the header members in a fixed order; shards whose header carries the
  // former name "softgrasp-batch-shard" (written before "softgrasp.<kind>") merge to the same dataset.
  void datasetIsTaggedAndFormerShardNamesMerge() {
    const Json dataset = Json::parse(readFile(baseJson_).toStdString());
    QCOMPARE(checkFormat(dataset, kDatasetFormat, str(baseJson_)), 1);
    std::vector<std::string> keys;
    for (const auto& [key, value] : dataset.members("dataset")) keys.push_back(key);
    QCOMPARE(keys, (std::vector<std::string>{"format", "version", "jobList", "rows", "grasps", "rankedBy",
                                             "failedRows", "dataset"}));
    QCOMPARE(dataset.at("rows", "d").number("rows"), double(test::kSmallJobListRows));
    QCOMPARE(dataset.at("grasps", "d").number("grasps"), double(dataset.at("dataset", "d").items("dataset").size()));
    QTemporaryDir dir;
    for (const auto& entry : QDir(baseDir_).entryList({"shard-*.jsonl"})) {
      const QByteArray text = readFile(baseDir_ + "/" + entry);
      QVERIFY(text.contains("\"format\":\"softgrasp.batch-shard\""));
      QVERIFY(writeFile(dir.filePath(entry), withHeaderFormat(text, "softgrasp-batch-shard")));
    }
    mergeShards(str(dir.path()), str(dir.filePath("old.json")));
    QCOMPARE(readFile(dir.filePath("old.json")), readFile(baseJson_));
  }

  void secondWriterOfAShardIsRefused() {
    QTemporaryDir dir;
    const ShardHeader h{0, 2, 4, list_.digest};
    ShardWriter first(str(dir.path()), h);
    const QString error = errorOf([&] { ShardWriter second(str(dir.path()), h); });
    QVERIFY2(error.contains("another process is writing this shard"), qPrintable(error));
  }

  void shardOfAnotherJobListIsNotResumed() {
    QTemporaryDir dir;
    { ShardWriter w(str(dir.path()), ShardHeader{0, 1, 3, "0123456789abcdef"}); }
    ShardRunOptions o;
    const QString error = errorOf([&] { runShard(list_, str(dir.path()), o); });
    QVERIFY2(error.contains("another job list or sharding"), qPrintable(error));
  }

  // A row that cannot run (a robot index the world lacks) is recorded with its error; the merge lists it
  // and the others' grasps are the dataset.
  void failedRowIsRecordedAndListed() {
    QTemporaryDir dir;
    QByteArray text = test::smallJobList();
    text.replace("\"seeds\": [1, 2, 3, 4]", "\"seeds\": [1], \"robot\": 3");
    QVERIFY(writeFile(dir.filePath("jobs.json"), text));
    const JobList list = loadJobList(str(dir.filePath("jobs.json")));
    const MergeSummary s = runAll(list, dir.filePath("out"), 2, dir.filePath("d.json"));
    QCOMPARE(s.failedRows.size(), std::size_t(1));
    QCOMPARE(s.failedRows[0].first, 0L);
    QVERIFY(QString::fromStdString(s.failedRows[0].second).contains("robot 3"));
    QVERIFY(readFile(dir.filePath("d.json")).contains("\"failedRows\": [\n  {\"row\":0,"));
  }
};

QTEST_GUILESS_MAIN(TestBatch)
#include "tst_batch.moc"
