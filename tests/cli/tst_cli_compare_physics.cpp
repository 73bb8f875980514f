// softgrasp-cli compare --against-physics (src/sim/README.md §Measures against physics): a small run (two planned
// grasps, short pulls) gives the table's shape — one row per model × measure in order, one sample per grasp — and
// its rows equal the engine's table recomputed in process from the document's own samples; CSV and text say the
// same; usage errors for contradicting or bad flags.
#include <QtTest/QtTest>

#include <QJsonArray>
#include <QJsonObject>

#include "../support/CliRun.h"
#include "sim/PhysicsPrediction.h"
#include "../support/TestPaths.h"

using sg::test::runCli;

namespace {

QString worldPath() { return sg::test::qInSourceTree("worlds/paralleljaw_box.xml"); }

QStringList smallRun() {
  return {"compare", worldPath(), "--against-physics", "--seeds", "1", "--iterations", "200", "--keep", "2",
          "--duration", "0.05", "--threads", "2", "--contact-model", "point,soft-finger", "--measures",
          "epsilon-l1,min-singular-value", "--no-progress"};
}

std::optional<double> optionalNumber(const QJsonValue& v) {
  return v.isNull() ? std::nullopt : std::optional<double>(v.toDouble());
}

}  // namespace

class TestCliComparePhysics : public QObject {
  Q_OBJECT

 private slots:
  void tableShapeAndEngineAgree() {
    const auto r = runCli(smallRun() << "--json");
    QCOMPARE(r.exitCode, 0);
    const QJsonObject doc = r.json();
    QCOMPARE(doc["format"].toString(), QStringLiteral("softgrasp.physics-prediction"));
    QCOMPARE(doc["grasps"].toInt(), 2);
    QCOMPARE(doc["complete"].toBool(), true);
    const QJsonArray rows = doc["rows"].toArray();
    const QJsonArray samples = doc["samples"].toArray();
    QCOMPARE(samples.size(), 2);
    const QStringList expected{"point epsilon-l1", "point min-singular-value", "soft-finger epsilon-l1",
                               "soft-finger min-singular-value"};
    QCOMPARE(rows.size(), expected.size());
    std::vector<sg::sim::Predictor> predictors;
    for (int i = 0; i < rows.size(); ++i) {
      const QJsonObject row = rows[i].toObject();
      QCOMPARE(row["model"].toString() + " " + row["measure"].toString(), expected[i]);
      predictors.push_back({row["model"].toString().toStdString(), row["measure"].toString().toStdString()});
    }
    // The engine on the document's own samples gives the document's rows.
    std::vector<sg::sim::PredictionSample> engineSamples;
    for (const QJsonValue& s : samples) {
      const QJsonObject o = s.toObject();
      const double score = o["score"].toDouble();
      QVERIFY(score >= 0 && score <= 1);
      QCOMPARE(o["predictors"].toArray().size(), rows.size());
      sg::sim::PredictionSample sample{score, {}};
      for (const QJsonValue& v : o["predictors"].toArray()) sample.predictors.push_back(optionalNumber(v));
      engineSamples.push_back(sample);
    }
    const sg::sim::PredictionTable table = sg::sim::predictionTable(predictors, engineSamples, 0.5);
    QCOMPARE(doc["successes"].toInt(), table.successes);
    for (int i = 0; i < rows.size(); ++i) {
      const QJsonObject row = rows[i].toObject();
      const sg::sim::PredictorRow& e = table.rows[static_cast<std::size_t>(i)];
      QCOMPARE(row["grasps"].toInt(), 2);
      QCOMPARE(row["missing"].toInt(), e.missing);
      QCOMPARE(optionalNumber(row["auc"]), e.auc);
      QCOMPARE(optionalNumber(row["spearman"]), e.spearman);
      // Undefined values say why.
      QCOMPARE(row.contains("undefined"), !e.auc || !e.spearman);
    }

    // CSV: a header and one line per row, the same AUC cells.
    const auto csv = runCli(smallRun() << "--csv");
    QCOMPARE(csv.exitCode, 0);
    const QList<QByteArray> lines = csv.out.trimmed().split('\n');
    QCOMPARE(lines.size(), rows.size() + 1);
    QCOMPARE(lines[0], QByteArray("model,measure,grasps,missing,successes,auc,spearman"));
    for (int i = 0; i < rows.size(); ++i) {
      const QList<QByteArray> cells = lines[i + 1].split(',');
      QCOMPARE(cells.size(), 7);
      const QJsonValue auc = rows[i].toObject()["auc"];
      QCOMPARE(cells[5].isEmpty(), auc.isNull());
      if (!auc.isNull()) QCOMPARE(cells[5].toDouble(), auc.toDouble());
    }

    // Text: the header and a line per row.
    const auto text = runCli(smallRun());
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("measures against physics: 2 grasps of 1 world(s)"));
    QVERIFY(text.out.contains("soft-finger    min-singular-value"));
  }

  void usageErrors() {
    auto bad = runCli({"compare", worldPath(), "--against-physics", "--autograsp"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("--autograsp"));
    bad = runCli({"compare", worldPath(), "--seeds", "2"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("--against-physics"));
    bad = runCli({"compare", worldPath(), "--against-physics", "--success-score", "0"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("--success-score"));
    bad = runCli({"compare", worldPath(), "--against-physics", "--success-score", "nan"});
    QCOMPARE(bad.exitCode, 2);
    bad = runCli({"compare", worldPath(), "--against-physics", "--keep", "0"});
    QCOMPARE(bad.exitCode, 2);
    bad = runCli({"compare", worldPath(), "--against-physics", "--measures", "epsilon-l9"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("epsilon-l9"));
    bad = runCli({"compare", worldPath(), "--against-physics", "--json", "--csv"});
    QCOMPARE(bad.exitCode, 2);
  }
};

QTEST_GUILESS_MAIN(TestCliComparePhysics)
#include "tst_cli_compare_physics.moc"
