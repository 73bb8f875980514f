// The osculating jet's least-squares solver (src/contact/JetLeastSquares.h, src/contact/README.md §Curvature
// estimators, "Solving"): exact polynomials of every degree recovered from positions and slopes, weighted least
// squares on noisy data equal to a column-pivoted QR of the same system written out row by row, rank-deficient
// systems refused, and the per-thread buffers carrying nothing from one fit to the next.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "contact/JetLeastSquares.h"
#include "core/Decompositions.h"

using namespace sg;

namespace jet_solve_test {

struct Polynomial {
  std::vector<double> c;  // in the order of jet::kMonomials
  double value(double u, double v) const {
    double g = 0;
    for (std::size_t k = 0; k < c.size(); ++k)
      g += c[k] * std::pow(u, jet::kMonomials[k].first) * std::pow(v, jet::kMonomials[k].second);
    return g;
  }
  double du(double u, double v) const {
    double g = 0;
    for (std::size_t k = 0; k < c.size(); ++k) {
      const auto [i, j] = jet::kMonomials[k];
      if (i > 0) g += c[k] * i * std::pow(u, i - 1) * std::pow(v, j);
    }
    return g;
  }
  double dv(double u, double v) const {
    double g = 0;
    for (std::size_t k = 0; k < c.size(); ++k) {
      const auto [i, j] = jet::kMonomials[k];
      if (j > 0) g += c[k] * j * std::pow(u, i) * std::pow(v, j - 1);
    }
    return g;
  }
};

// `count` samples at random points of the disc of radius rho (mm) on z = rho·g(x/rho, y/rho), every other one
// with the slopes of g, weights in [0.2, 1]; `noise` added to z (mm) and to the slopes.
std::vector<jet::Sample> samplesOf(const Polynomial& g, double rho, int count, double noise, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(-1, 1), weight(0.2, 1);
  std::normal_distribution<double> jitter(0, 1);
  std::vector<jet::Sample> out;
  while (static_cast<int>(out.size()) < count) {
    const double u = unit(rng), v = unit(rng);
    if (u * u + v * v > 1) continue;
    jet::Sample s{Vec3(u * rho, v * rho, rho * g.value(u, v) + noise * jitter(rng)), out.size() % 2 == 0, 0, 0,
                  weight(rng)};
    if (s.hasSlope) {
      s.sx = g.du(u, v) + noise * jitter(rng);
      s.sy = g.dv(u, v) + noise * jitter(rng);
    }
    out.push_back(s);
  }
  return out;
}

int rowsOf(const std::vector<jet::Sample>& samples) {
  int rows = 0;
  for (const auto& s : samples) rows += s.hasSlope ? 3 : 1;
  return rows;
}

// The weighted system written out row by row (a position row w·u^i·v^j = w·z/ρ, slope rows w·∂(u^i·v^j) = w·s),
// solved by column-pivoted QR: the reference the solver must agree with.
Eigen::VectorXd qrSolution(const std::vector<jet::Sample>& samples, double rho, int degree) {
  const int n = jet::unknowns(degree);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(rowsOf(samples), n);
  Eigen::VectorXd b(A.rows());
  int r = 0;
  for (const auto& s : samples) {
    const double u = s.q.x() / rho, v = s.q.y() / rho;
    for (int c = 0; c < n; ++c) {
      const auto [i, j] = jet::kMonomials[static_cast<std::size_t>(c)];
      A(r, c) = s.w * std::pow(u, i) * std::pow(v, j);
      if (s.hasSlope) {
        A(r + 1, c) = i > 0 ? s.w * i * std::pow(u, i - 1) * std::pow(v, j) : 0.0;
        A(r + 2, c) = j > 0 ? s.w * j * std::pow(u, i) * std::pow(v, j - 1) : 0.0;
      }
    }
    b(r) = s.w * s.q.z() / rho;
    if (s.hasSlope) {
      b(r + 1) = s.w * s.sx;
      b(r + 2) = s.w * s.sy;
    }
    r += s.hasSlope ? 3 : 1;
  }
  return colPivQrSolve(A, b).x;  // Eigen's ColPivHouseholderQR<MatrixXd>(A).solve(b)
}

Polynomial randomPolynomial(int degree, std::mt19937& rng) {
  std::uniform_real_distribution<double> coefficient(-1, 1);
  Polynomial g;
  for (int c = 0; c < jet::unknowns(degree); ++c) g.c.push_back(coefficient(rng));
  return g;
}

}  // namespace jet_solve_test

class TstJetSolve : public QObject {
  Q_OBJECT

 private slots:
  // Data on an exact polynomial of degree d are fitted exactly at degree d and at every higher degree (whose
  // extra coefficients must come out 0).
  void recoversPolynomialsOfEachDegree() {
    std::mt19937 rng(39);
    for (int degree = 2; degree <= jet::kMaxDegree; ++degree) {
      const jet_solve_test::Polynomial g = jet_solve_test::randomPolynomial(degree, rng);
      const double rho = 3.5;
      const auto samples = jet_solve_test::samplesOf(g, rho, 4 * jet::unknowns(jet::kMaxDegree), 0.0, rng);
      for (int fitted = degree; fitted <= jet::kMaxDegree; ++fitted) {
        const auto x = jet::solveJet(samples, rho, fitted, jet_solve_test::rowsOf(samples));
        QVERIFY2(x.has_value(), qPrintable(QString("degree %1 fitted at %2").arg(degree).arg(fitted)));
        QCOMPARE(static_cast<int>(x->size()), jet::unknowns(fitted));
        for (int c = 0; c < x->size(); ++c) {
          const double want = c < jet::unknowns(degree) ? g.c[static_cast<std::size_t>(c)] : 0.0;
          QVERIFY2(std::abs((*x)(c) - want) < 1e-9,
                   qPrintable(QString("degree %1 at %2, coefficient %3: %4 against %5")
                                  .arg(degree).arg(fitted).arg(c).arg((*x)(c), 0, 'g', 17).arg(want)));
        }
      }
    }
  }

  // Noisy data: the weighted least-squares solution equals column-pivoted QR's of the same rows.
  void equalsQrOnNoisyData() {
    std::mt19937 rng(7);
    int compared = 0;
    double worst = 0;
    for (int degree = 2; degree <= jet::kMaxDegree; ++degree)
      for (const int count : {2 * jet::unknowns(degree), 60, 130}) {
        const jet_solve_test::Polynomial g = jet_solve_test::randomPolynomial(degree, rng);
        const double rho = 1 + 9 * std::uniform_real_distribution<double>(0, 1)(rng);
        const auto samples = jet_solve_test::samplesOf(g, rho, count, 0.01, rng);
        const auto x = jet::solveJet(samples, rho, degree, jet_solve_test::rowsOf(samples));
        QVERIFY(x.has_value());
        const Eigen::VectorXd want = jet_solve_test::qrSolution(samples, rho, degree);
        const double difference = (Eigen::VectorXd(*x) - want).norm() / want.norm();
        worst = std::max(worst, difference);
        QVERIFY2(difference < 1e-11, qPrintable(QString("degree %1, %2 samples: relative difference %3")
                                                    .arg(degree).arg(count).arg(difference)));
        ++compared;
      }
    QCOMPARE(compared, 15);
    qInfo("largest relative difference from QR: %.3g", worst);
  }

  // Samples on the line v = 0 determine no coefficient of v² and above: refused (the jet then drops the degree or
  // reports Degenerate), never a solution.
  void refusesRankDeficientSystems() {
    std::mt19937 rng(3);
    std::vector<jet::Sample> samples;
    for (int k = 0; k < 40; ++k) {
      const double u = -1 + 2.0 * k / 39;
      samples.push_back({Vec3(2 * u, 0, 2 * (0.3 * u * u - 0.1 * u)), k % 2 == 0, 0.6 * u - 0.1, 0.2, 1.0});
    }
    for (int degree = 2; degree <= jet::kMaxDegree; ++degree)
      QVERIFY(!jet::solveJet(samples, 2.0, degree, jet_solve_test::rowsOf(samples)).has_value());
    // One sample off the line (a position and two slopes) determines v² and the quadratic is solved.
    samples.push_back({Vec3(0.5, 1.0, 0.3), true, 0.1, 0.2, 1.0});
    QVERIFY(jet::solveJet(samples, 2.0, 2, jet_solve_test::rowsOf(samples)).has_value());
  }

  // The per-thread buffers only grow: a large fit, a small one, and the large one again give the same
  // coefficients bit for bit.
  void buffersCarryNothingBetweenFits() {
    std::mt19937 rng(11);
    const double rho = 3.5;
    const auto large = jet_solve_test::samplesOf(jet_solve_test::randomPolynomial(6, rng), rho, 130, 0.01, rng);
    const auto small = jet_solve_test::samplesOf(jet_solve_test::randomPolynomial(3, rng), rho, 25, 0.01, rng);
    const auto first = jet::solveJet(large, rho, 6, jet_solve_test::rowsOf(large));
    QVERIFY(first.has_value());
    QVERIFY(jet::solveJet(small, rho, 3, jet_solve_test::rowsOf(small)).has_value());
    const auto again = jet::solveJet(large, rho, 6, jet_solve_test::rowsOf(large));
    QVERIFY(again.has_value());
    QVERIFY(*again == *first);
  }

  // Each degree 2 … kMaxDegree has its own compiled solver; any other degree is refused, not solved with the
  // bounds of another.
  void degreesOutsideTheCompiledOnesAreRefused() {
    std::mt19937 rng(13);
    const double rho = 3.5;
    const auto samples = jet_solve_test::samplesOf(jet_solve_test::randomPolynomial(2, rng), rho, 130, 0.01, rng);
    for (const int degree : {-1, 0, 1, jet::kMaxDegree + 1})
      QVERIFY(!jet::solveJet(samples, rho, degree, jet_solve_test::rowsOf(samples)).has_value());
    for (int degree = 2; degree <= jet::kMaxDegree; ++degree) {
      const auto x = jet::solveJet(samples, rho, degree, jet_solve_test::rowsOf(samples));
      QVERIFY(x.has_value());
      QCOMPARE(static_cast<int>(x->size()), jet::unknowns(degree));
    }
  }
};

QTEST_APPLESS_MAIN(TstJetSolve)
#include "tst_jet_solve.moc"
