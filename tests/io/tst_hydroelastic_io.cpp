// The body XML's hydroelastic option (src/io/FORMATS.md §Hydroelastic): reading, the modulus falling back to
// <youngs>, bad input naming the file and the field, bodies without it, and the writer's round trip.
#include <QtTest>

#include "core/Error.h"
#include "io/BodyXml.h"
#include "io/ModelIO.h"
#include "MeshTestFiles.h"

using namespace sg;
using sg::testfiles::writeFile;

namespace {

const MaterialTable kMaterials;
const QByteArray kBall = "<primitive type=\"sphere\" radius=\"10\"/>";

std::string bodyFile(const QTemporaryDir& dir, const QString& name, const QByteArray& children) {
  return writeFile(dir, name, "<?xml version=\"1.0\"?>\n<root>\n" + children + "\n</root>\n");
}

Body bodyXml(const QTemporaryDir& dir, const QString& name, const QByteArray& children) {
  return loadBody(bodyFile(dir, name, children), BodyKind::Graspable, kMaterials);
}

// Expects loading to throw an sg::Error naming `path` and containing every fragment.
void expectLoadError(const std::string& path, std::initializer_list<const char*> fragments) {
  try {
    (void)loadBody(path, BodyKind::Graspable, kMaterials);
  } catch (const Error& e) {
    const std::string what = e.what();
    QVERIFY2(what.find(path) != std::string::npos, what.c_str());
    for (const char* f : fragments) QVERIFY2(what.find(f) != std::string::npos, what.c_str());
    return;
  }
  QFAIL(("no error for " + path).c_str());
}

bool sameProperties(const HydroelasticProperties& a, const HydroelasticProperties& b) {
  return a.modulus_Pa == b.modulus_Pa && a.margin_mm == b.margin_mm && a.resolutionHint_mm == b.resolutionHint_mm &&
         a.slabThickness_mm == b.slabThickness_mm;
}

}  // namespace

class TestHydroelasticIo : public QObject {
  Q_OBJECT
 private slots:
  void readsEveryAttribute() {
    QTemporaryDir dir;
    const Body b = bodyXml(dir, "tip.xml", kBall + "<hydroelastic modulus=\"2.5e5\" margin=\"0.1\" resolutionHint=\"2\" "
                                                  "slabThickness=\"7\"/>");
    QVERIFY(b.isHydroelasticCompliant());
    QCOMPARE(*b.hydroelastic->modulus_Pa, 2.5e5);
    QCOMPARE(b.hydroelastic->margin_mm, 0.1);
    QCOMPARE(b.hydroelastic->resolutionHint_mm, 2.0);
    QCOMPARE(b.hydroelastic->slabThickness_mm, 7.0);
    QCOMPARE(b.hydroelasticModulus_Pa(), 2.5e5);
    QVERIFY(!b.isSoft());  // the option says nothing about the soft-finger models' <youngs>
  }

  void modulusDefaultsToYoungs() {
    QTemporaryDir dir;
    const Body b = bodyXml(dir, "soft.xml", "<youngs>1.5e6</youngs>" + kBall + "<hydroelastic/>");
    QVERIFY(b.isHydroelasticCompliant());
    QVERIFY(!b.hydroelastic->modulus_Pa);
    QCOMPARE(b.hydroelasticModulus_Pa(), 1.5e6);
    QCOMPARE(b.hydroelastic->margin_mm, 0.0);
    QCOMPARE(b.hydroelastic->resolutionHint_mm, 0.0);
    QCOMPARE(b.hydroelastic->slabThickness_mm, 0.0);
    // Its own modulus wins over <youngs>.
    const Body own = bodyXml(dir, "own.xml", "<youngs>1.5e6</youngs>" + kBall + "<hydroelastic modulus=\"3e5\"/>");
    QCOMPARE(own.hydroelasticModulus_Pa(), 3e5);
  }

  void bodiesWithoutItStayRigid() {
    QTemporaryDir dir;
    const Body b = bodyXml(dir, "plain.xml", "<youngs>1.5e6</youngs>" + kBall);
    QVERIFY(!b.isHydroelasticCompliant());
    QCOMPARE(b.hydroelasticModulus_Pa(), 0.0);
    QVERIFY(b.isSoft());
    const std::string xml = xmlio::bodyContentXml(b, dir.path().toStdString(), 2);
    QVERIFY2(xml.find("hydroelastic") == std::string::npos, xml.c_str());
  }

  void badInput() {
    QTemporaryDir dir;
    expectLoadError(bodyFile(dir, "nomodulus.xml", kBall + "<hydroelastic margin=\"0\"/>"),
                    {"hydroelastic body needs a modulus", "<youngs>"});
    expectLoadError(bodyFile(dir, "nan.xml", kBall + "<hydroelastic modulus=\"nan\"/>"),
                    {"attribute modulus", "not a finite number"});
    expectLoadError(bodyFile(dir, "text.xml", "<youngs>1e6</youngs>" + kBall + "<hydroelastic resolutionHint=\"fine\"/>"),
                    {"attribute resolutionHint", "not a finite number"});
    expectLoadError(bodyFile(dir, "zero.xml", kBall + "<hydroelastic modulus=\"0\"/>"), {"attribute modulus", "> 0 Pa"});
    expectLoadError(bodyFile(dir, "negmod.xml", kBall + "<hydroelastic modulus=\"-1e5\"/>"), {"attribute modulus"});
    expectLoadError(bodyFile(dir, "margin.xml", kBall + "<hydroelastic modulus=\"1e5\" margin=\"-0.1\"/>"),
                    {"attribute margin", ">= 0 mm"});
    expectLoadError(bodyFile(dir, "hint.xml", kBall + "<hydroelastic modulus=\"1e5\" resolutionHint=\"-2\"/>"),
                    {"attribute resolutionHint"});
    expectLoadError(bodyFile(dir, "slab.xml", kBall + "<hydroelastic modulus=\"1e5\" slabThickness=\"-1\"/>"),
                    {"attribute slabThickness"});
    expectLoadError(bodyFile(dir, "typo.xml", kBall + "<hydroelastic modulus=\"1e5\" resolution=\"2\"/>"),
                    {"unknown attribute 'resolution'", "<hydroelastic>"});
  }

  void writerRoundTrip() {
    QTemporaryDir dir;
    const std::string base = dir.path().toStdString();
    const QByteArray variants[] = {
        "<hydroelastic modulus=\"2.5e5\" margin=\"0.125\" resolutionHint=\"1.5\" slabThickness=\"12\"/>",
        "<youngs>1.5e6</youngs><hydroelastic/>",
        "<youngs>1.5e6</youngs><hydroelastic resolutionHint=\"0.3\"/>",
    };
    int n = 0;
    for (const QByteArray& v : variants) {
      const Body b = bodyXml(dir, QString("in%1.xml").arg(n), kBall + v);
      const std::string xml = xmlio::bodyContentXml(b, base, 2);
      QVERIFY2(xml.find("<hydroelastic") != std::string::npos, xml.c_str());
      const Body again = bodyXml(dir, QString("out%1.xml").arg(n++), QByteArray::fromStdString(xml));
      QVERIFY(again.hydroelastic);
      QVERIFY2(sameProperties(*b.hydroelastic, *again.hydroelastic), xml.c_str());
      QCOMPARE(again.hydroelasticModulus_Pa(), b.hydroelasticModulus_Pa());
      QCOMPARE(again.youngs_Pa.has_value(), b.youngs_Pa.has_value());
    }
  }
};

QTEST_GUILESS_MAIN(TestHydroelasticIo)
#include "tst_hydroelastic_io.moc"
