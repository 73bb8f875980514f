// CoinViewport and offscreen rendering on a real GL context (run under xvfb-run, QT_QPA_PLATFORM=xcb).
// Images are checked with tolerances (colours at projected points, pixel counts), never exact.
#include <QtTest>

#include <QMouseEvent>
#include <QSignalSpy>
#include <QWheelEvent>

#include <Inventor/SbViewVolume.h>
#include <Inventor/SoPath.h>
#include <Inventor/nodes/SoMaterial.h>
#include <Inventor/nodes/SoOrthographicCamera.h>
#include <Inventor/nodes/SoPerspectiveCamera.h>
#include <Inventor/nodes/SoSeparator.h>

#include "BoxWorld.h"
#include "render/CameraMotion.h"
#include "render/CoinConvert.h"
#include "render/SceneBuilder.h"
#include "viewport/CoinSetup.h"
#include "viewport/CoinViewport.h"
#include "viewport/OffscreenRender.h"
#include "viewport/Picking.h"

using namespace sg;
using sg::ui::CoinViewport;

namespace {

const BodyHandle kCube{BodyHandle::Kind::Graspable, 0, {}};
const Vec3 kCubeCentre(30, 10, 0);  // mm
constexpr double kCubeSize = 40;    // mm

// A red rubber cube at kCubeCentre and a small grey stone block to its left.
World testWorld() {
  World w;
  sgtest::addGraspable(w, test::boxBody("cube", test::boxMesh(kCubeSize, kCubeSize, kCubeSize), kCubeCentre,
                                       "rubber", BodyKind::Graspable));
  sgtest::addObstacle(w, test::boxBody("block", test::boxMesh(20, 20, 20), Vec3(-60, -20, 0), "stone"));
  return w;
}

bool isRedish(QRgb c) { return qRed(c) > 90 && qRed(c) > qGreen(c) + 40 && qRed(c) > qBlue(c) + 40; }

bool isBackground(QRgb c, const QColor& bg = ui::defaultBackgroundColor()) {
  return std::abs(qRed(c) - bg.red()) <= 6 && std::abs(qGreen(c) - bg.green()) <= 6 &&
         std::abs(qBlue(c) - bg.blue()) <= 6;
}

int countPixels(const QImage& img, bool (*pred)(QRgb)) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) n += pred(img.pixel(x, y)) ? 1 : 0;
  return n;
}

bool notBackground(QRgb c) { return !isBackground(c); }

// Where a world point lands in an image of `size` seen through `camera` (top-left origin, pixels).
QPointF project(const SoCamera* camera, const Vec3& p, QSize size) {
  const float aspect = float(size.width()) / float(size.height());
  SbViewVolume vv = const_cast<SoCamera*>(camera)->getViewVolume(aspect);
  if (aspect < 1.0f) vv.scale(1.0f / aspect);  // Coin's ADJUST_CAMERA for tall viewports
  SbVec3f screen;
  vv.projectToScreen(toSb(p), screen);
  return QPointF(screen[0] * size.width(), (1.0f - screen[1]) * size.height());
}

void dragWith(QWidget* w, Qt::MouseButton button, Qt::KeyboardModifiers mods, QPoint from, QPoint to) {
  QTest::mousePress(w, button, mods, from);
  const int steps = 8;
  for (int i = 1; i <= steps; ++i) {
    const QPointF p = QPointF(from) + (QPointF(to - from) * i) / steps;
    QMouseEvent move(QEvent::MouseMove, p, w->mapToGlobal(p), Qt::NoButton, button, mods);
    QApplication::sendEvent(w, &move);
  }
  QTest::mouseRelease(w, button, mods, to);
}

// Counts paints, to see Coin's sensor queue trigger redraws.
class CountingViewport : public CoinViewport {
 public:
  int paints = 0;

 protected:
  void paintGL() override {
    CoinViewport::paintGL();
    ++paints;
  }
};

}  // namespace

class TstViewport : public QObject {
  Q_OBJECT

 public:
  static void initMain() { ui::installCoinSurfaceFormat(); }

 private slots:
  void initTestCase() {
    if (QGuiApplication::platformName() == "offscreen")
      QSKIP("GL needs an X server: run under xvfb-run with QT_QPA_PLATFORM=xcb");
    ui::initCoinForQt();
  }

  void init() {
    world_ = testWorld();
    scene_ = std::make_unique<WorldScene>(world_);
    view_ = std::make_unique<CountingViewport>();
    view_->resize(400, 300);
    view_->setSceneGraph(scene_->root());
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    QVERIFY(view_->isValid());
    view_->setStandardView(CoinViewport::StandardView::Front);
  }

  void cleanup() {
    view_.reset();
    scene_.reset();
  }

  void rendersBodyWhereProjected() {
    QCOMPARE(view_->sceneGraph(), static_cast<SoNode*>(scene_->root()));
    const QImage img = view_->grabFramebuffer();
    QCOMPARE(img.size(), QSize(400, 300) * view_->devicePixelRatio());
    const QPointF centre = project(view_->camera(), kCubeCentre, img.size());
    QVERIFY2(isRedish(img.pixel(centre.toPoint())), qPrintable(QColor(img.pixel(centre.toPoint())).name()));
    // Just outside the cube (one size above its centre; Z is up) and the corners: background.
    const QPointF above = project(view_->camera(), kCubeCentre + Vec3(0, 0, kCubeSize), img.size());
    QVERIFY(isBackground(img.pixel(above.toPoint())));
    QVERIFY(isBackground(img.pixel(1, 1)));
    QVERIFY(isBackground(img.pixel(img.width() - 2, img.height() - 2)));
    // The grey block is drawn, and is not red.
    const QPointF block = project(view_->camera(), Vec3(-60, -20, 0), img.size());
    QVERIFY(!isBackground(img.pixel(block.toPoint())));
    QVERIFY(!isRedish(img.pixel(block.toPoint())));
    // Front face lit by the headlight: clearly brighter than ambient only.
    QVERIFY(qRed(img.pixel(centre.toPoint())) > 120);
  }

  void pickingReturnsTheBody() {
    const QSize size = view_->size();
    const QPoint centre = project(view_->camera(), kCubeCentre, size).toPoint();
    SoPath* path = view_->pickPath(centre);
    QVERIFY(path);
    const auto handle = scene_->bodyForPath(path);
    path->unref();
    QVERIFY(handle);
    QVERIFY(*handle == kCube);
    const auto point = view_->pickPoint(centre);
    QVERIFY(point);
    // The front face, facing the camera on −Y.
    QVERIFY(std::abs((*point)[1] - float(kCubeCentre.y() - kCubeSize / 2)) < 0.5f);
    const QPointF back = project(view_->camera(), fromSb(*point), size);  // on the same pixel ray
    QVERIFY((back - QPointF(centre)).manhattanLength() < 2.0);
    QCOMPARE(ui::pickBody(*view_, *scene_, centre), std::optional<BodyHandle>(kCube));
    QVERIFY(!ui::pickBody(*view_, *scene_, QPoint(2, 2)));
    // Background: nothing.
    QVERIFY(!view_->pickPath(QPoint(2, 2)));
    QVERIFY(!view_->pickPoint(QPoint(2, 2)));
  }

  void clickWithoutDragEmitsClicked() {
    QSignalSpy clicked(view_.get(), &CoinViewport::clicked);
    QSignalSpy camera(view_.get(), &CoinViewport::cameraChanged);
    const QPoint centre = project(view_->camera(), kCubeCentre, view_->size()).toPoint();
    QTest::mouseClick(view_.get(), Qt::LeftButton, Qt::ControlModifier, centre);
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.at(0).at(0).toPoint(), centre);
    QCOMPARE(clicked.at(0).at(1).value<Qt::KeyboardModifiers>(), Qt::KeyboardModifiers(Qt::ControlModifier));
    QCOMPARE(camera.count(), 0);
  }

  void orbitChangesCamera() {
    QSignalSpy clicked(view_.get(), &CoinViewport::clicked);
    QSignalSpy changed(view_.get(), &CoinViewport::cameraChanged);
    const SbVec3f focalBefore = focalPoint(view_->camera());
    const SbVec3f posBefore = view_->camera()->position.getValue();
    const SbRotation rotBefore = view_->camera()->orientation.getValue();
    dragWith(view_.get(), Qt::LeftButton, Qt::NoModifier, QPoint(50, 150), QPoint(150, 150));
    QVERIFY(changed.count() > 0);
    QCOMPARE(clicked.count(), 0);
    QVERIFY(!(view_->camera()->orientation.getValue() == rotBefore));
    QVERIFY((view_->camera()->position.getValue() - posBefore).length() > 1.0f);
    QVERIFY((focalPoint(view_->camera()) - focalBefore).length() < 1e-2f);  // orbit about the focal point
    // Dragging right turns the scene right: the camera moves to its left (−X from the front view).
    QVERIFY(view_->camera()->position.getValue()[0] < posBefore[0]);

    // Pan (middle drag) moves the focal point, keeps the orientation.
    const SbRotation rot = view_->camera()->orientation.getValue();
    const SbVec3f focal = focalPoint(view_->camera());
    dragWith(view_.get(), Qt::MiddleButton, Qt::NoModifier, QPoint(200, 150), QPoint(230, 120));
    QVERIFY(view_->camera()->orientation.getValue() == rot);
    QVERIFY((focalPoint(view_->camera()) - focal).length() > 1.0f);

    // Wheel zooms in: closer to the focal point.
    const float distance = view_->camera()->focalDistance.getValue();
    QWheelEvent wheel(QPointF(200, 150), view_->mapToGlobal(QPointF(200, 150)), QPoint(), QPoint(0, 120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view_.get(), &wheel);
    QVERIFY(view_->camera()->focalDistance.getValue() < distance * 0.95f);
  }

  void viewAllShowsWholeScene() {
    // Look away from everything, then viewAll.
    view_->camera()->position = SbVec3f(5000, 5000, 5000);
    view_->camera()->focalDistance = 10;
    QVERIFY(countPixels(view_->grabFramebuffer(), isRedish) == 0);
    QSignalSpy changed(view_.get(), &CoinViewport::cameraChanged);
    view_->viewAll();
    QCOMPARE(changed.count(), 1);
    const auto box = sceneBoundingBox(scene_->root());
    QVERIFY(box);
    const QSize size = view_->size();
    for (int i = 0; i < 8; ++i) {
      const Vec3 corner(i & 1 ? box->getMax()[0] : box->getMin()[0], i & 2 ? box->getMax()[1] : box->getMin()[1],
                        i & 4 ? box->getMax()[2] : box->getMin()[2]);
      const QPointF p = project(view_->camera(), corner, size);
      QVERIFY2(p.x() >= 0 && p.x() <= size.width() && p.y() >= 0 && p.y() <= size.height(),
               qPrintable(QString("corner %1 at %2,%3").arg(i).arg(p.x()).arg(p.y())));
    }
    QVERIFY(countPixels(view_->grabFramebuffer(), isRedish) > 500);

    // Standard views all keep the cube in sight.
    for (auto v : {CoinViewport::StandardView::Top, CoinViewport::StandardView::Side, CoinViewport::StandardView::Iso}) {
      view_->setStandardView(v);
      QVERIFY(countPixels(view_->grabFramebuffer(), isRedish) > 500);
    }
  }

  void orthographicCamera() {
    QVERIFY(!view_->isOrthographic());
    const int redPerspective = countPixels(view_->grabFramebuffer(), isRedish);
    view_->setOrthographic(true);
    QVERIFY(view_->isOrthographic());
    QVERIFY(view_->camera()->isOfType(SoOrthographicCamera::getClassTypeId()));
    const QImage img = view_->grabFramebuffer();
    const QPointF centre = project(view_->camera(), kCubeCentre, img.size());
    QVERIFY(isRedish(img.pixel(centre.toPoint())));
    // Same focal-plane scale: the cube covers a similar area (its front face is near the focal plane).
    const int redOrtho = countPixels(img, isRedish);
    QVERIFY2(redOrtho > redPerspective / 2 && redOrtho < redPerspective * 2,
             qPrintable(QString("%1 vs %2").arg(redOrtho).arg(redPerspective)));
    const float height = static_cast<SoOrthographicCamera*>(view_->camera())->height.getValue();
    QWheelEvent wheel(QPointF(200, 150), view_->mapToGlobal(QPointF(200, 150)), QPoint(), QPoint(0, -240),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view_.get(), &wheel);
    QVERIFY(static_cast<SoOrthographicCamera*>(view_->camera())->height.getValue() > height * 1.1f);
    view_->setOrthographic(false);
    QVERIFY(view_->camera()->isOfType(SoPerspectiveCamera::getClassTypeId()));
  }

  void seekMovesFocalPoint() {
    const QPoint centre = project(view_->camera(), kCubeCentre, view_->size()).toPoint();
    const auto target = view_->pickPoint(centre);
    QVERIFY(target);
    QTest::mouseDClick(view_.get(), Qt::LeftButton, Qt::NoModifier, centre);
    QVERIFY((focalPoint(view_->camera()) - *target).length() < 1.0f);
  }

  void draggerMouseDragMovesPose() {
    const Transform start = X_WB(world_.state, kCube);
    view_->attachDragger(start, 60.0);
    QVERIFY(view_->hasDragger());
    QVERIFY(view_->draggerPose().isApprox(start, 1e-4));
    if (qEnvironmentVariableIsSet("SG_KEEP_IMAGES")) {
      view_->setStandardView(CoinViewport::StandardView::Iso);
      view_->grabFramebuffer().save(QDir::temp().filePath("sg_dragger.png"));
      view_->setStandardView(CoinViewport::StandardView::Front);
    }
    QSignalSpy moved(view_.get(), &CoinViewport::draggerMoved);
    QSignalSpy released(view_.get(), &CoinViewport::draggerReleased);
    QSignalSpy camera(view_.get(), &CoinViewport::cameraChanged);
    QSignalSpy clicked(view_.get(), &CoinViewport::clicked);
    const SbVec3f camBefore = view_->camera()->position.getValue();

    // Press on the dragger's front face (translates in its plane) and drag right.
    const QPoint from = project(view_->camera(), kCubeCentre + Vec3(0, -30, 0), view_->size()).toPoint();
    dragWith(view_.get(), Qt::LeftButton, Qt::NoModifier, from, from + QPoint(60, 0));
    QVERIFY(moved.count() > 0);
    QCOMPARE(released.count(), 1);
    QCOMPARE(camera.count(), 0);  // the dragger took the drag, not navigation
    QCOMPARE(clicked.count(), 0);
    QVERIFY(view_->camera()->position.getValue() == camBefore);
    const Transform last = moved.last().at(0).value<Transform>();
    const Transform final = released.at(0).at(0).value<Transform>();
    QVERIFY(last.translation().x() > start.translation().x() + 5.0);        // moved right (+X) in mm
    QVERIFY(std::abs(last.translation().y() - start.translation().y()) < 1e-3);  // in the face plane
    QVERIFY(final.isApprox(last, 1e-6));
    QVERIFY(view_->draggerPose().isApprox(final, 1e-6));
    // Picking ignores the dragger: the cube is still found under its handle.
    SoPath* path = view_->pickPath(from);
    QVERIFY(path);
    QVERIFY(scene_->bodyForPath(path) == std::optional<BodyHandle>(kCube));
    path->unref();

    // Programmatic move also reports.
    const Transform target(Quat(Eigen::AngleAxisd(0.4, Vec3::UnitY())), Vec3(1, 2, 3));
    view_->setDraggerPose(target);
    QVERIFY(moved.count() > 1);
    QVERIFY(moved.last().at(0).value<Transform>().isApprox(target, 1e-5));
    view_->detachDragger();
    QVERIFY(!view_->hasDragger());
    QCOMPARE(view_->draggerPose().translation(), Vec3::Zero());
  }

  void renderToImageAtAnySize() {
    for (const QSize size : {QSize(640, 480), QSize(1600, 1200), QSize(300, 500)}) {
      const QImage img = view_->renderToImage(size);
      QCOMPARE(img.size(), size);
      const int red = countPixels(img, isRedish);
      QVERIFY2(red > size.width() * size.height() / 200, qPrintable(QString::number(red)));
      QVERIFY(isBackground(img.pixel(1, 1)));
      const QPointF centre = project(view_->camera(), kCubeCentre, size);
      QVERIFY(isRedish(img.pixel(centre.toPoint())));
    }
    // The widget keeps working afterwards (its context is restored).
    const QImage after = view_->grabFramebuffer();
    QVERIFY(isRedish(after.pixel(project(view_->camera(), kCubeCentre, after.size()).toPoint())));
  }

  void renderToImageNeverShown() {
    CoinViewport hidden;
    hidden.resize(320, 240);
    hidden.setSceneGraph(scene_->root());  // first scene: framed automatically
    const QImage img = hidden.renderToImage(QSize(640, 480));
    QCOMPARE(img.size(), QSize(640, 480));
    QVERIFY(countPixels(img, isRedish) > 1000);
    QVERIFY(countPixels(img, notBackground) < 640 * 480);
  }

  void offscreenStandardViews() {
    const QSize size(500, 400);
    const QImage front = ui::renderSceneOffscreen(scene_->root(), size, StandardView::Front);
    QCOMPARE(front.size(), size);
    QVERIFY(countPixels(front, isRedish) > 2000);
    const QImage iso = ui::renderSceneOffscreen(scene_->root(), size, StandardView::Iso, QColor(255, 255, 255));
    if (qEnvironmentVariableIsSet("SG_KEEP_IMAGES")) iso.save(QDir::temp().filePath("sg_offscreen_iso.png"));
    QVERIFY(countPixels(iso, isRedish) > 2000);
    QCOMPARE(QColor(iso.pixel(1, 1)), QColor(255, 255, 255));
    // Front view: the cube (right of the block) is right of the image centre.
    int sumX = 0, n = 0;
    for (int y = 0; y < front.height(); ++y)
      for (int x = 0; x < front.width(); ++x)
        if (isRedish(front.pixel(x, y))) sumX += x, ++n;
    QVERIFY(n > 0 && sumX / n > size.width() / 2);
    QVERIFY(ui::renderSceneOffscreen(nullptr, size).isNull());
  }

  void displayModes() {
    const QImage opaque = view_->grabFramebuffer();
    const QPoint centre = project(view_->camera(), kCubeCentre, opaque.size()).toPoint();
    const int redOpaque = countPixels(opaque, isRedish);
    // Wireframe: only the edges of the triangles are drawn.
    scene_->setWireframe(true);
    const int redWire = countPixels(view_->grabFramebuffer(), isRedish);
    QVERIFY2(redWire > 0 && redWire < redOpaque / 3, qPrintable(QString("%1 vs %2").arg(redWire).arg(redOpaque)));
    scene_->setWireframe(false);
    // Transparency blends with the background.
    scene_->setTransparency(0.7f);
    const QRgb seeThrough = view_->grabFramebuffer().pixel(centre);
    const QRgb solid = opaque.pixel(centre);
    const QColor bg = ui::defaultBackgroundColor();
    QVERIFY(std::abs(qRed(seeThrough) - bg.red()) < std::abs(qRed(solid) - bg.red()) - 30);
    scene_->setTransparency(0.0f);
    // Background colour.
    view_->setBackgroundColor(QColor(255, 255, 255));
    QCOMPARE(view_->backgroundColor(), QColor(255, 255, 255));
    QCOMPARE(QColor(view_->grabFramebuffer().pixel(1, 1)), QColor(255, 255, 255));
  }

  void contextRecreatedOnReparent() {
    // Moving the widget to another top-level window re-creates its GL context (initializeGL again).
    QWidget other;
    other.resize(420, 320);
    view_->setParent(&other);
    view_->move(0, 0);
    other.show();
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(&other));
    const QImage img = view_->grabFramebuffer();
    QVERIFY(isRedish(img.pixel(project(view_->camera(), kCubeCentre, img.size()).toPoint())));
    view_->setParent(nullptr);  // back to a top-level before `other` dies
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    const QImage again = view_->grabFramebuffer();
    QVERIFY(isRedish(again.pixel(project(view_->camera(), kCubeCentre, again.size()).toPoint())));
  }

  void idleViewDoesNotRepaint() {
    // Rendering (which fits the clipping planes) must not schedule another render.
    QTRY_VERIFY(view_->paints > 0);
    QTest::qWait(300);
    const int settled = view_->paints;
    QTest::qWait(300);
    QCOMPARE(view_->paints, settled);
  }

  void sceneChangesRepaint() {
    // Coin's sensor queue, pumped by the Qt loop, asks the widget to repaint when a field changes.
    QTRY_VERIFY(view_->paints > 0);
    QTest::qWait(50);
    const int before = view_->paints;
    scene_->bodyMaterial(kCube)->diffuseColor = SbColor(0.1f, 0.2f, 0.9f);
    QTRY_VERIFY(view_->paints > before);
    const QImage img = view_->grabFramebuffer();
    const QRgb c = img.pixel(project(view_->camera(), kCubeCentre, img.size()).toPoint());
    QVERIFY(qBlue(c) > qRed(c) + 40);
    // Selection highlight is visible too.
    scene_->setSelected(kCube);
    const QRgb lit = view_->grabFramebuffer().pixel(project(view_->camera(), kCubeCentre, img.size()).toPoint());
    QVERIFY(qRed(lit) + qGreen(lit) > qRed(c) + qGreen(c) + 40);
  }

 private:
  World world_;
  std::unique_ptr<WorldScene> scene_;
  std::unique_ptr<CountingViewport> view_;
};

QTEST_MAIN(TstViewport)
#include "tst_viewport.moc"
