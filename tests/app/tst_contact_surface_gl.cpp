// What a hydroelastic contact surface looks like on a real GL context (run under xvfb-run, QT_QPA_PLATFORM=xcb):
// a hand-built 20 × 20 mm square whose pressure rises from 0 at x = -10 to 40 kPa at x = +10, seen from above
// through an orthographic camera — blue at the low end and red at the high end as the colour map says
// (render/ContactSurfaceNodes.h, unlit colours), the net-force arrow (green) over the centre of pressure at
// x = +10/3 and not at its mirror image. Colours are compared with a tolerance, never against a stored image.
#include <QtTest>

#include <Inventor/nodes/SoOrthographicCamera.h>
#include <Inventor/nodes/SoSeparator.h>

#include "../support/AppTestSetup.h"
#include "../support/HydroSurfaces.h"
#include "../support/ImageChecks.h"
#include "render/ContactSurfaceNodes.h"
#include "viewport/OffscreenRender.h"

using namespace sg;

namespace {

constexpr int kSize = 300;  // pixels, square

bool close(QRgb c, const std::array<float, 3>& expected, int tolerance = 10) {
  return std::abs(qRed(c) - int(expected[0] * 255 + 0.5f)) <= tolerance &&
         std::abs(qGreen(c) - int(expected[1] * 255 + 0.5f)) <= tolerance &&
         std::abs(qBlue(c) - int(expected[2] * 255 + 0.5f)) <= tolerance;
}

bool greenish(QRgb c) { return qGreen(c) > qRed(c) + 40 && qGreen(c) > qBlue(c) + 40; }

QString describe(QRgb c) { return QString("rgb(%1, %2, %3)").arg(qRed(c)).arg(qGreen(c)).arg(qBlue(c)); }

}  // namespace

class TstContactSurfaceGl : public QObject {
  Q_OBJECT

 public:
  static void initMain() { test::prepareGlApplication(); }

 private slots:
  void initTestCase() {
    if (!test::onX11()) QSKIP(test::kNeedsX);
    ui::initCoinForQt();
  }

  void pressureColoursAndArrow() {
    const ContactSurface surface = test::rampSquare(40e3);
    ContactSurfaceStyle style;
    style.forceOnN = true;  // the force on N (below the plane) points down: the arrow comes from above
    auto* scene = new SoSeparator;
    scene->ref();
    scene->addChild(makeContactSurfaceNode(surface, style));
    auto* camera = new SoOrthographicCamera;
    camera->ref();
    camera->position.setValue(0, 0, 200);  // looking down -z, x to the right, y up
    camera->height = 30;                   // mm across the image
    camera->nearDistance = 1;
    camera->farDistance = 400;
    const QImage image = ui::renderSceneOffscreen(scene, QSize(kSize, kSize), camera, QColor(40, 40, 40));
    QVERIFY(!image.isNull());
    const QSize size(kSize, kSize);
    auto at = [&](double x, double y) {
      const QPoint p = test::projectToImage(camera, Vec3(x, y, 0), size);
      return image.pixel(p);
    };
    // The low end (x = -9: 2 kPa) and the high end (x = +9: 38 kPa), away from the arrow.
    const QRgb low = at(-9, 6), high = at(9, 6);
    QVERIFY2(close(low, pressureColour(1.0 / 20)), qPrintable(describe(low)));
    QVERIFY2(close(high, pressureColour(19.0 / 20)), qPrintable(describe(high)));
    QVERIFY(qBlue(low) > qRed(low) + 100 && qRed(high) > qBlue(high) + 100);
    // Mid-way (x = 0: 20 kPa, between cyan and yellow) off the arrow's axis.
    const QRgb mid = at(0, -6);
    QVERIFY2(close(mid, pressureColour(0.5)), qPrintable(describe(mid)));
    // The arrow (shaft radius 1 mm, head wider) stands on the centre of pressure, x = +10/3; its mirror image is
    // plain surface: a third of the way across the strip x = -5 … 0, whose vertices carry the map's colours at
    // t = 1/4 and 1/2, interpolated in RGB (README §Contact surfaces: a chord of the map across the cyan stop).
    const QRgb onArrow = at(10.0 / 3, 0), mirror = at(-10.0 / 3, 0);
    QVERIFY2(greenish(onArrow), qPrintable(describe(onArrow)));
    const auto a = pressureColour(0.25), b = pressureColour(0.5);
    const std::array<float, 3> chord = {(2 * a[0] + b[0]) / 3, (2 * a[1] + b[1]) / 3, (2 * a[2] + b[2]) / 3};
    QVERIFY2(close(mirror, chord), qPrintable(describe(mirror)));
    // Outside the square: background.
    QCOMPARE(at(-13, 13), qRgb(40, 40, 40));
    camera->unref();
    scene->unref();
  }
};

QTEST_MAIN(TstContactSurfaceGl)
#include "tst_contact_surface_gl.moc"
