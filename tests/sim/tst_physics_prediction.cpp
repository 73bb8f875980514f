// Which measure predicts the physics trial (src/sim/README.md §Measures against physics): ROC AUC and Spearman
// against hand-computed cases — perfect and reversed order, ties (average ranks, a tie as one half), one class
// only (undefined), constant sides (undefined), grasps without a value ranked lowest, and bad input.
#include <QtTest/QtTest>

#include <cmath>
#include <limits>

#include "core/Error.h"
#include "sim/PhysicsPrediction.h"

using namespace sg;
using namespace sg::sim;

class TestPhysicsPrediction : public QObject {
  Q_OBJECT

 private slots:
  void averageRanksShareTies() {
    const std::vector<double> ranks = averageRanks({5, 1, 5, 3, 5});
    // sorted: 1 (rank 1), 3 (rank 2), three 5s at ranks 3, 4, 5 → 4 each
    QCOMPARE(ranks, (std::vector<double>{4, 1, 4, 2, 4}));
    QCOMPARE(averageRanks({}), std::vector<double>{});
  }

  void aucPerfectAndReversedOrder() {
    const std::vector<bool> labels{false, false, true, true, true};
    QCOMPARE(*rocAuc({0.1, 0.2, 0.3, 0.4, 0.5}, labels), 1.0);
    QCOMPARE(*rocAuc({0.5, 0.4, 0.3, 0.2, 0.1}, labels), 0.0);
  }

  void aucTiesCountOneHalf() {
    // Positives {2, 1}, negatives {1, 0}: pairs (2,1) right, (2,0) right, (1,1) tie = ½, (1,0) right → 3.5 / 4.
    QCOMPARE(*rocAuc({2, 1, 1, 0}, {true, true, false, false}), 3.5 / 4);
    // Everything tied: no information, ½.
    QCOMPARE(*rocAuc({7, 7, 7}, {true, false, false}), 0.5);
    // One positive 3 among negatives {1, 3, 5}: above 1 (1), tied with 3 (½), below 5 (0) → 1.5 / 3.
    QCOMPARE(*rocAuc({1, 3, 5, 3}, {false, false, false, true}), 0.5);
  }

  void aucOneClassIsUndefined() {
    QVERIFY(!rocAuc({1, 2, 3}, {true, true, true}));
    QVERIFY(!rocAuc({1, 2, 3}, {false, false, false}));
    QVERIFY(!rocAuc({}, {}));
  }

  void spearmanOrders() {
    QCOMPARE(*spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
    QCOMPARE(*spearman({1, 2, 3, 4}, {40, 30, 20, 10}), -1.0);
    // Monotone but not linear: still 1 (ranks only).
    QCOMPARE(*spearman({1, 2, 3, 4}, {1, 8, 27, 1000}), 1.0);
    // By hand: ranks x = (1, 2, 3), y = (1, 3, 2) → deviations (−1, 0, 1), (−1, 1, 0): ρ = 1 / 2.
    QCOMPARE(*spearman({1, 2, 3}, {1, 3, 2}), 0.5);
  }

  void spearmanWithTies() {
    // x = (1, 2, 2, 3) → ranks (1, 2.5, 2.5, 4); y = (1, 2, 3, 4) → (1, 2, 3, 4); mean 2.5.
    // Σdx·dy = (−1.5)(−1.5) + 0 + 0 + (1.5)(1.5) = 4.5; Σdx² = 4.5; Σdy² = 2.25+0.25+0.25+2.25 = 5.
    QVERIFY(std::abs(*spearman({1, 2, 2, 3}, {1, 2, 3, 4}) - 4.5 / std::sqrt(4.5 * 5)) < 1e-15);
  }

  void spearmanUndefined() {
    QVERIFY(!spearman({1, 1, 1}, {1, 2, 3}));  // constant predictor
    QVERIFY(!spearman({1, 2, 3}, {0.5, 0.5, 0.5}));  // constant trial score
    QVERIFY(!spearman({1}, {1}));
  }

  void badInput() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QVERIFY_THROWS_EXCEPTION(Error, rocAuc({1, 2}, {true}));
    QVERIFY_THROWS_EXCEPTION(Error, rocAuc({1, nan}, {true, false}));
    QVERIFY_THROWS_EXCEPTION(Error, spearman({1, 2}, {1}));
    QVERIFY_THROWS_EXCEPTION(Error, spearman({1, 2}, {1, std::numeric_limits<double>::infinity()}));
    const std::vector<Predictor> one{{"point", "epsilon-l1"}};
    QVERIFY_THROWS_EXCEPTION(Error, predictionTable(one, {{0.5, {1.0, 2.0}}}, 0.5));  // two values, one predictor
    QVERIFY_THROWS_EXCEPTION(Error, predictionTable(one, {{nan, {1.0}}}, 0.5));
    QVERIFY_THROWS_EXCEPTION(Error, predictionTable(one, {{0.5, {1.0}}}, 0));
    QVERIFY_THROWS_EXCEPTION(Error, predictionTable(one, {{0.5, {1.0}}}, 1.5));
    QVERIFY_THROWS_EXCEPTION(Error, predictionTable(one, {{0.5, {nan}}}, 0.5));
  }

  void tableRowsAndThreshold() {
    const std::vector<Predictor> predictors{{"point", "epsilon-l1"}, {"point", "volume-l1"}, {"hertz", "flat"}};
    // Scores 0, 1/6, 3/6, 1; success at ≥ 0.5: the last two.
    std::vector<PredictionSample> samples{
        {0.0, {0.01, 5.0, 1.0}}, {1.0 / 6, {0.02, std::nullopt, 1.0}}, {0.5, {0.03, 1.0, 1.0}}, {1.0, {0.04, 2.0, 1.0}}};
    const PredictionTable t = predictionTable(predictors, samples, 0.5);
    QCOMPARE(t.grasps, 4);
    QCOMPARE(t.successes, 2);
    QCOMPARE(t.rows.size(), std::size_t{3});
    // ε in the trial's order: perfect.
    QCOMPARE(*t.rows[0].auc, 1.0);
    QCOMPARE(*t.rows[0].spearman, 1.0);
    QVERIFY(t.rows[0].undefined.empty());
    // Volume: the grasp without a value ranks lowest → values ranked (4, 1, 2, 3) against scores (1, 2, 3, 4).
    // AUC: successes {1, 2} against failures {5, none}: (1 vs 5) wrong, (1 vs none) right, (2 vs 5) wrong,
    // (2 vs none) right → 2 / 4. ρ: deviations (1.5, −1.5, −0.5, 0.5)·(−1.5, −0.5, 0.5, 1.5) = −2.25+0.75−0.25+0.75
    // = −1 over 5 → −0.2.
    QCOMPARE(t.rows[1].missing, 1);
    QCOMPARE(*t.rows[1].auc, 0.5);
    QVERIFY(std::abs(*t.rows[1].spearman - -0.2) < 1e-15);
    // A constant predictor: AUC ½ (all ties), Spearman undefined with its reason.
    QCOMPARE(*t.rows[2].auc, 0.5);
    QVERIFY(!t.rows[2].spearman);
    QVERIFY(t.rows[2].undefined.find("Spearman undefined") != std::string::npos);
    // Held-all as success (threshold 1): one success.
    QCOMPARE(predictionTable(predictors, samples, 1.0).successes, 1);
    // Every grasp succeeds at a low threshold: AUC undefined, said so.
    const PredictionTable all = predictionTable(predictors, {samples[2], samples[3]}, 0.5);
    QVERIFY(!all.rows[0].auc);
    QVERIFY(all.rows[0].undefined.find("every grasp succeeded") != std::string::npos);
    QCOMPARE(*all.rows[0].spearman, 1.0);
  }
};

QTEST_APPLESS_MAIN(TestPhysicsPrediction)
#include "tst_physics_prediction.moc"
