// softgrasp-cli compare --against-physics (src/sim/README.md §Measures against physics): a small run (two planned
// grasps, short pulls) gives the table's shape — one row per model × measure in order, one sample per grasp — and
// its rows equal the engine's table recomputed in process from the document's own samples; the static check's rows
// and its per-direction agreement with the trial add up; CSV and text say the same; usage errors for contradicting
// or bad flags.
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
    // Per model its measures, then the static check's held fraction (src/sim/README.md §Static check against
    // the trial).
    const QStringList expected{"point epsilon-l1", "point min-singular-value", "point static-held",
                               "soft-finger epsilon-l1", "soft-finger min-singular-value", "soft-finger static-held"};
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
      // The trial's verdict per direction: the score is their held fraction.
      const QJsonArray held = o["held"].toArray();
      QCOMPARE(held.size(), 6);
      int heldCount = 0;
      for (const QJsonValue& h : held) heldCount += h.toBool();
      QCOMPARE(score, heldCount / 6.0);
      // The largest displacement and rotation per direction: a held direction stayed within the protocol's
      // 10 mm and 15° (src/sim/README.md §Trial protocol), a lost one left one of them.
      const QJsonArray displacement = o["displacement_mm"].toArray(), rotation = o["rotation_deg"].toArray();
      QCOMPARE(displacement.size(), 6);
      QCOMPARE(rotation.size(), 6);
      for (int d = 0; d < 6; ++d) {
        const bool within = displacement[d].toDouble() < 10 && rotation[d].toDouble() < 15;
        QCOMPARE(within, held[d].toBool());
      }
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

    // The agreement: per model and direction, the four cells count every grasp tried (the static check applies
    // to each of the jaw's planned grasps), and the trial's "held" of the samples gives the physics side.
    const QJsonArray agreement = doc["agreement"].toArray();
    QCOMPARE(agreement.size(), 2 * 6);
    const QStringList directions{"x+", "x-", "y+", "y-", "z+", "z-"};
    for (int i = 0; i < agreement.size(); ++i) {
      const QJsonObject a = agreement[i].toObject();
      QCOMPARE(a["model"].toString(), QString(i < 6 ? "point" : "soft-finger"));
      QCOMPARE(a["direction"].toString(), directions[i % 6]);
      QCOMPARE(a["bothHeld"].toInt() + a["staticOnly"].toInt() + a["physicsOnly"].toInt() + a["neither"].toInt() +
                   a["notApplicable"].toInt(),
               2);
      int physicsHeld = 0;
      for (const QJsonValue& s : samples) physicsHeld += s.toObject()["held"].toArray()[i % 6].toBool();
      if (a["notApplicable"].toInt() == 0) QCOMPARE(a["bothHeld"].toInt() + a["physicsOnly"].toInt(), physicsHeld);
    }

    // CSV: a header, one line per row with the same AUC cells, then a line per model and direction with the
    // agreement counts.
    const auto csv = runCli(smallRun() << "--csv");
    QCOMPARE(csv.exitCode, 0);
    const QList<QByteArray> lines = csv.out.trimmed().split('\n');
    QCOMPARE(lines.size(), rows.size() + agreement.size() + 1);
    QCOMPARE(lines[0], QByteArray("model,measure,grasps,missing,successes,auc,spearman,direction,both_held,"
                                  "static_only,physics_only,neither"));
    for (int i = 0; i < agreement.size(); ++i) {
      const QList<QByteArray> cells = lines[rows.size() + 1 + i].split(',');
      const QJsonObject a = agreement[i].toObject();
      QCOMPARE(cells.size(), 12);
      QCOMPARE(cells[7], a["direction"].toString().toUtf8());
      QCOMPARE(cells[8].toInt(), a["bothHeld"].toInt());
      QCOMPARE(cells[11].toInt(), a["neither"].toInt());
    }
    for (int i = 0; i < rows.size(); ++i) {
      const QList<QByteArray> cells = lines[i + 1].split(',');
      QCOMPARE(cells.size(), 12);
      const QJsonValue auc = rows[i].toObject()["auc"];
      QCOMPARE(cells[5].isEmpty(), auc.isNull());
      if (!auc.isNull()) QCOMPARE(cells[5].toDouble(), auc.toDouble());
    }

    // Text: the header and a line per row.
    const auto text = runCli(smallRun());
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("measures against physics: 2 grasps of 1 world(s)"));
    QVERIFY(text.out.contains("soft-finger    min-singular-value"));
    QVERIFY(text.out.contains("soft-finger    static-held"));
    QVERIFY(text.out.contains("static check (static-held) against the trial"));
  }

  // --timestep reaches the trials: the document's settings say it; a bad step is a usage error.
  void timestepOption() {
    const auto r = runCli({"compare", worldPath(), "--against-physics", "--seeds", "1", "--iterations", "50", "--keep",
                           "1", "--duration", "0.05", "--threads", "1", "--contact-model", "point", "--measures",
                           "epsilon-l1", "--timestep", "0.001", "--no-progress", "--json"});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json()["settings"].toObject()["timestep_s"].toDouble(), 0.001);
    for (const char* step : {"0", "-0.001", "nan", "0.02", "fast"}) {
      const auto bad = runCli({"compare", worldPath(), "--against-physics", "--timestep", step});
      QCOMPARE(bad.exitCode, 2);
      QVERIFY(bad.err.contains("--timestep"));
    }
    const auto without = runCli({"compare", worldPath(), "--timestep", "0.001"});
    QCOMPARE(without.exitCode, 2);
    QVERIFY(without.err.contains("--against-physics"));
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
