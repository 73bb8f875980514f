// Transforms, number parsing and the error type.
#include <QtTest>

#include <clocale>

#include "core/Error.h"
#include "core/FixedVector.h"
#include "core/Parse.h"
#include "core/Transform.h"

using namespace sg;

class TestCore : public QObject {
  Q_OBJECT
 private slots:
  void composeAppliesRightFirst() {
    const Transform a = Transform::fromAxisAngle(Vec3::UnitZ(), kPi / 2);
    const Transform b = Transform::fromTranslation(Vec3(1, 0, 0));
    // (a*b)(0) = a(b(0)) = Rz(90)·(1,0,0) = (0,1,0)
    QVERIFY(((a * b) * Vec3::Zero()).isApprox(Vec3(0, 1, 0), 1e-12));
    QVERIFY(((b * a) * Vec3::Zero()).isApprox(Vec3(1, 0, 0), 1e-12));
  }
  void inverseUndoes() {
    const Transform t(Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())), Vec3(4, -5, 6));
    QVERIFY((t * t.inverse()).isApprox(Transform::identity(), 1e-12));
    const Vec3 p(0.3, 0.2, -9);
    QVERIFY((t.inverse() * (t * p)).isApprox(p, 1e-12));
  }
  void matrixRoundTrip() {
    const Transform t(Quat(Eigen::AngleAxisd(-2.1, Vec3(0, 1, 1).normalized())), Vec3(7, 8, 9));
    QVERIFY(Transform::fromMatrix4(t.matrix()).isApprox(t, 1e-12));
  }
  void fullTransformRoundTrip() {
    const Transform t(Quat(Eigen::AngleAxisd(1.234, Vec3(1, -1, 0.5).normalized())), Vec3(8.37264e-06, 0.781957, 105.818));
    const std::string s = t.toFullTransformString();
    QVERIFY(s.front() == '(');
    auto back = Transform::parseFullTransform(s);
    QVERIFY(back.has_value());
    QVERIFY(back->isApprox(t, 1e-15));
    QCOMPARE(back->toFullTransformString(), s);
  }
  void fullTransformGraspitText() {
    auto t = Transform::parseFullTransform("(+1 0 0 0)[+8.37264e-06 +0.781957 +105.818]");
    QVERIFY(t.has_value());
    QVERIFY(t->translation().isApprox(Vec3(8.37264e-06, 0.781957, 105.818)));
    QVERIFY(t->rotation().isApprox(Quat::Identity()));
    // Quaternion w first: (0 0 0 1) is 180° about z.
    auto z = Transform::parseFullTransform("(0 0 0 1)[0 0 0]");
    QVERIFY((*z * Vec3(1, 0, 0)).isApprox(Vec3(-1, 0, 0), 1e-12));
  }
  void fullTransformRejectsGarbage() {
    QVERIFY(!Transform::parseFullTransform("(1 0 0)[0 0 0]"));
    QVERIFY(!Transform::parseFullTransform("(1 0 0 0)[0 0]"));
    QVERIFY(!Transform::parseFullTransform("(0 0 0 0)[0 0 0]"));
    QVERIFY(!Transform::parseFullTransform("(1 0 0 0)[nan 0 0]"));
    QVERIFY(!Transform::parseFullTransform("1 0 0 0 0 0 0"));
  }
  void parseIsLocaleIndependent() {
    const char* old = std::setlocale(LC_NUMERIC, nullptr);
    std::string saved = old ? old : "C";
    std::setlocale(LC_NUMERIC, "de_DE.UTF-8");  // may not exist; from_chars ignores the locale anyway
    QCOMPARE(parseDouble("1.5").value(), 1.5);
    QVERIFY(!parseDouble("1,5"));
    std::setlocale(LC_NUMERIC, saved.c_str());
  }
  void parseRejectsBadNumbers() {
    QCOMPARE(parseDouble(" +2.5e3 ").value(), 2500.0);
    QCOMPARE(parseDouble("-0.25").value(), -0.25);
    QVERIFY(!parseDouble(""));
    QVERIFY(!parseDouble("abc"));
    QVERIFY(!parseDouble("1.5x"));
    QVERIFY(!parseDouble("nan"));
    QVERIFY(!parseDouble("inf"));
    QVERIFY(!parseDouble("1e999"));
    QVERIFY(!parseDouble("++1"));
    QCOMPARE(parseInt("42").value(), 42);
    QVERIFY(!parseInt("4.2"));
    auto list = parseDoubleList(" 1 2\t3\n");
    QVERIFY(list && list->size() == 3 && (*list)[2] == 3.0);
    QVERIFY(!parseDoubleList("1 two 3"));
  }
  void formatSignedRoundTrips() {
    QCOMPARE(formatSigned(1.0), std::string("+1"));
    QCOMPARE(formatSigned(-0.0), std::string("+0"));
    QCOMPARE(formatSigned(-2.5), std::string("-2.5"));
    const double x = 0.1 + 0.2;
    QCOMPARE(parseDouble(formatSigned(x)).value(), x);
  }
  void errorNamesFileAndLine() {
    Error e("<mass> is not a number: 'abc'", "mug.xml", 12);
    QCOMPARE(std::string(e.what()), std::string("mug.xml:12: <mass> is not a number: 'abc'"));
    Error inner("bad vertex");
    Error outer = inner.withFile("a.off", 3).withContext("while loading body a.xml");
    QCOMPARE(outer.file(), std::string("a.off"));
    QCOMPARE(outer.line(), 3);
    QVERIFY(std::string(outer.what()).find("while loading body a.xml") != std::string::npos);
  }
  // FixedVector (the inline vertex lists of hydroelastic polygons): vector semantics up to its capacity, a clear
  // error past it, copies independent of the source.
  void fixedVectorBehavesLikeAVectorUpToItsCapacity() {
    FixedVector<Vec3, 4> v{Vec3(1, 2, 3), Vec3(4, 5, 6)};
    QCOMPARE(v.size(), std::size_t(2));
    QCOMPARE(v.back(), Vec3(4, 5, 6));
    v.push_back(Vec3(7, 8, 9));
    v.resize(4, Vec3(0, 0, 1));
    QCOMPARE(v[3], Vec3(0, 0, 1));
    QVERIFY_THROWS_EXCEPTION(std::length_error, v.push_back(Vec3::Zero()));
    QVERIFY_THROWS_EXCEPTION(std::length_error, v.resize(5));
    QCOMPARE(v.size(), std::size_t(4));
    FixedVector<Vec3, 4> copy = v;
    copy[0] = Vec3(-1, -1, -1);
    QCOMPARE(v[0], Vec3(1, 2, 3));
    QVERIFY(!(copy == v));
    copy = v;
    QVERIFY(copy == v);
    const double values[] = {0.5, 1.5, 2.5};
    FixedVector<double, 3> d;
    d.assign(values, values + 3);
    double sum = 0;
    for (double x : d) sum += x;
    QCOMPARE(sum, 4.5);
    QVERIFY_THROWS_EXCEPTION(std::length_error, (FixedVector<double, 2>(values, values + 3)));
    d.resize(2);
    d.resize(3);
    QCOMPARE(d[2], 0.0);  // T() for numbers
    d.clear();
    QVERIFY(d.empty());
  }
};

QTEST_APPLESS_MAIN(TestCore)
#include "tst_core.moc"
