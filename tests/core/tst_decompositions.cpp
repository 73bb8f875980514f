// Eigen's solvers behind plain functions (core/Decompositions.h): each gives what its Eigen call promises. The
// checks are properties (the rotation takes one direction to the other, A·v = λ·v, the least-squares solution of an
// exact system), so this suite instantiates none of the solvers it tests
// (tests/BUILD_TIME.md §Eigen's solvers compiled once).
#include <QtTest>

#include "core/Decompositions.h"

using namespace sg;

class TestDecompositions : public QObject {
  Q_OBJECT
 private slots:
  void rotationBetweenDirections() {
    const Vec3 from(1, 2, -0.5), to(-3, 0.25, 1);
    const Quat q = rotationBetween(from, to);
    QVERIFY(std::abs(q.norm() - 1) < 1e-12);
    QVERIFY((q * from.normalized()).isApprox(to.normalized(), 1e-12));
    // The smallest rotation: its axis is perpendicular to both directions.
    const Vec3 axis = q.vec().normalized();
    QVERIFY(std::abs(axis.dot(from.normalized())) < 1e-12 && std::abs(axis.dot(to.normalized())) < 1e-12);
    QVERIFY(rotationBetween(Vec3::UnitZ(), Vec3::UnitZ()).isApprox(Quat::Identity(), 1e-15));
    // Opposite directions: a half turn about some axis perpendicular to them.
    const Quat half = rotationBetween(Vec3::UnitZ(), -Vec3::UnitZ());
    QVERIFY((half * Vec3::UnitZ()).isApprox(-Vec3::UnitZ(), 1e-12));
  }

  void symmetricEigenAscending() {
    Eigen::Matrix2d m;
    m << 2, -0.7, -0.7, -1;
    const SymmetricEigen2 e = symmetricEigen(m);
    QCOMPARE(e.info, Eigen::Success);
    QVERIFY(e.values(0) <= e.values(1));
    QVERIFY(std::abs(e.values.sum() - m.trace()) < 1e-12);
    for (int k = 0; k < 2; ++k) QVERIFY((m * e.vectors.col(k)).isApprox(e.values(k) * e.vectors.col(k), 1e-12));
    QVERIFY((e.vectors.transpose() * e.vectors).isIdentity(1e-12));
  }

  void generalizedEigen() {
    Eigen::Matrix2d a, b;
    a << 0.3, 0.1, 0.1, -0.2;
    b << 1.5, 0.4, 0.4, 1.1;  // positive definite
    const SymmetricEigen2 e = generalizedSymmetricEigen(a, b);
    QCOMPARE(e.info, Eigen::Success);
    QVERIFY(e.values(0) <= e.values(1));
    for (int k = 0; k < 2; ++k)
      QVERIFY((a * e.vectors.col(k) - e.values(k) * b * e.vectors.col(k)).norm() < 1e-12);
  }

  void columnPivotedLeastSquares() {
    // An exact overdetermined system: the least-squares solution is the one that made it.
    MatX a(5, 3);
    a << 1, 0, 2, 0, 1, 1, 3, -1, 0, 0.5, 2, 1, -1, 1, 1;
    const VecX want = (VecX(3) << 0.25, -2, 1.5).finished();
    const ColPivQrSolution full = colPivQrSolve(a, a * want, 1e-10, 3);
    QCOMPARE(full.rank, Eigen::Index(3));
    QVERIFY((full.x - want).norm() < 1e-12);
    // A repeated column: rank 2 under the threshold, and no solution when rank 3 is required.
    MatX deficient = a;
    deficient.col(2) = deficient.col(0);
    const ColPivQrSolution refused = colPivQrSolve(deficient, deficient * want, 1e-10, 3);
    QCOMPARE(refused.rank, Eigen::Index(2));
    QCOMPARE(refused.x.size(), Eigen::Index(0));
    // Without a required rank it still solves (Eigen's basic solution), and the residual is zero.
    const ColPivQrSolution basic = colPivQrSolve(deficient, deficient * want);
    QCOMPARE(basic.x.size(), Eigen::Index(3));
    QVERIFY((deficient * basic.x - deficient * want).norm() < 1e-12);
  }
};

QTEST_APPLESS_MAIN(TestDecompositions)
#include "tst_decompositions.moc"
