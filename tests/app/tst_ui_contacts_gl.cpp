// What the viewport shows of contacts (xvfb-run, QT_QPA_PLATFORM=xcb): after auto-grasp of the default world
// the picture differs from the one with contacts hidden at every contact's projection; friction cones of
// rigid and of soft contacts show; highlighting a contact changes the pixels at its projection.
#include <Inventor/SbViewVolume.h>
#include <Inventor/nodes/SoCamera.h>

#include <QAction>
#include <QApplication>
#include <QImage>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "../support/AppTestSetup.h"
#include "../support/ImageChecks.h"
#include "TestWorld.h"
#include "CollisionStoppedEdits.h"
#include "ContactOverlay.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "ViewportPanel.h"
#include "Commands.h"
#include "render/SceneBuilder.h"
#include <Inventor/nodes/SoMaterial.h>
#include "contact/ContactDetection.h"
#include "model/Kinematics.h"
#include "render/ContactNodes.h"
#include "viewport/CoinSetup.h"
#include "viewport/CoinViewport.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {
using K = BodyHandle::Kind;
const QSize kImageSize(640, 480);
using test::differingAround;
int differing(const QImage& a, const QImage& b) { return test::differingPixels(a, b); }
QPoint project(const SoCamera* camera, const Vec3& p) { return test::projectToImage(camera, p, kImageSize); }

sgtest::PlacedBody boxBody(const std::string& name, BodyKind kind, const Vec3& size, const Vec3& position) {
  sgtest::PlacedBody b = test::makeBody(name, kind, size, position);
  b.body.material = "plastic";
  return b;
}

// A rigid robot whose palm (a 30 mm cube at the origin) touches a rigid graspable 40 mm cube on the +x side
// (0.1 mm apart, within the contact threshold): point contacts with friction cones.
World rigidTouchWorld() {
  World w;
  Robot r;
  r.name = "Block";
  r.palm = boxBody("palm", BodyKind::Link, Vec3(30, 30, 30), Vec3::Zero()).body;
  sgtest::addRobot(w, r);
  sgtest::addGraspable(w, boxBody("cube", BodyKind::Graspable, Vec3(40, 40, 40), Vec3(15 + 20 + 0.1, 0, 0)));
  return w;
}
}  // namespace

class TstUiContactsGl : public QObject {
  Q_OBJECT

 public:
  static void initMain() { test::prepareGlApplication(); }

 private slots:
  void initTestCase();
  void cleanup();
  void graspedMugShowsEveryContact();
  void interpenetratingBodiesAreRed();
  void rigidContactsShowFrictionCones();
  void graspedMugShowsFrictionCones();
  void highlightChangesPixelsAtTheContact();
  void draggedHandStopsAtContact();

 private:
  // A shown main window with `world` open (the default world when empty), seen through the world's camera.
  bool makeWindow(const QString& world);
  QImage render() { return window_->viewportPanel()->viewport()->renderToImage(kImageSize); }
  SoCamera* camera() const { return window_->viewportPanel()->viewport()->camera(); }
  QAction* action(const char* name) const { return window_->findChild<QAction*>(name); }

  std::unique_ptr<MainWindow> window_;
  QTemporaryDir settingsDir_;
};

void TstUiContactsGl::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
  if (!test::onX11()) QSKIP(test::kNeedsX);
}

void TstUiContactsGl::cleanup() {
  if (window_) window_->document()->undoStack()->setClean();
  window_.reset();
}

bool TstUiContactsGl::makeWindow(const QString& world) {
  window_ = std::make_unique<MainWindow>();
  if (!window_->viewportPanel()) return false;
  window_->resize(1000, 700);
  window_->show();
  if (!QTest::qWaitForWindowExposed(window_.get())) return false;
  if (!window_->openWorldFile(world)) return false;
  QApplication::processEvents();
  return true;
}

void TstUiContactsGl::graspedMugShowsEveryContact() {
  QVERIFY(makeWindow(sg::test::qInSourceTree("worlds/default.xml")));
  GraspAnalysis* analysis = window_->analysis();
  const QImage open = render();
  action("actionAutoGrasp")->trigger();
  analysis->recompute();
  const auto* overlay = window_->findChild<ContactOverlay*>();
  QVERIFY(overlay);
  const int contacts = static_cast<int>(analysis->contacts().size());
  QVERIFY(contacts >= 3);
  QCOMPARE(overlay->nodes().contactCount(), contacts);

  const QImage shown = render();
  QVERIFY(!shown.isNull());
  QVERIFY(differing(open, shown) > 500);  // the fingers closed
  action("actionShowContacts")->setChecked(false);
  const QImage hidden = render();
  action("actionShowContacts")->setChecked(true);

  // Every contact of the hand shows, even under a fingertip; of the mug's rim on the table, the front.
  int handInView = 0, tableShown = 0;
  for (int i = 0; i < contacts; ++i) {
    const Contact& c = analysis->contacts()[i];
    const QPoint at = project(camera(), overlay->nodes().glyph(i).position_mm());
    if (!shown.rect().contains(at)) continue;
    const int n = differingAround(shown, hidden, at, 4);
    if (c.side1.body.kind == K::Robot || c.side2.body.kind == K::Robot) {
      ++handInView;
      QVERIFY(overlay->nodes().glyph(i).onTop);
      QVERIFY2(n >= 4, qPrintable(QString("contact %1 at (%2, %3): only %4 pixels differ").arg(i).arg(at.x()).arg(at.y()).arg(n)));
    } else {
      tableShown += n >= 4;
    }
  }
  QVERIFY(handInView >= 3);
  QVERIFY(tableShown >= 3);
  // Nothing but the contacts changed: far from every contact the pictures agree.
  QVERIFY(differingAround(shown, hidden, QPoint(5, 5), 4) == 0);
}

void TstUiContactsGl::rigidContactsShowFrictionCones() {
  QVERIFY(makeWindow(sg::test::qInSourceTree("worlds/default.xml")));
  window_->document()->resetWorld(rigidTouchWorld());
  GraspAnalysis* analysis = window_->analysis();
  analysis->recompute();
  const auto* overlay = window_->findChild<ContactOverlay*>();
  QVERIFY(!analysis->contacts().empty());
  QCOMPARE(overlay->nodes().coneCount(), static_cast<int>(analysis->contacts().size()));  // all rigid
  ui::CoinViewport* view = window_->viewportPanel()->viewport();
  view->setStandardView(StandardView::Top);  // the cones lie in the x–y plane, opening towards −x
  view->viewAll();
  QApplication::processEvents();

  const QImage withCones = render();
  action("actionShowFrictionCones")->setChecked(false);
  const QImage withoutCones = render();
  action("actionShowFrictionCones")->setChecked(true);
  // Each cone's base centre, 20 mm out along its axis: beside the palm, seen from above.
  int changed = 0;
  for (int i = 0; i < overlay->nodes().contactCount(); ++i) {
    const FrictionCone cone = frictionCone(overlay->nodes().glyph(i));
    QVERIFY(cone.axis.x() < -0.99);  // out of the cube, towards the palm
    const Vec3 midway = cone.apex_mm + 0.75 * cone.height_mm * cone.axis + cone.baseRadius_mm() * 0.5 * Vec3::UnitY();
    changed += differingAround(withCones, withoutCones, project(camera(), midway), 3) > 0;
  }
  QVERIFY2(changed > 0, "no friction cone changed the picture");
  QVERIFY(differing(withCones, withoutCones) > 50);
}

// Closing the hand on the mug shows the contacts and their friction cones at once —
// the soft fingertip contacts included, their cones drawn through the fingers they open into.
void TstUiContactsGl::graspedMugShowsFrictionCones() {
  QVERIFY(makeWindow(sg::test::qInSourceTree("worlds/default.xml")));
  GraspAnalysis* analysis = window_->analysis();
  action("actionAutoGrasp")->trigger();
  analysis->recompute();
  const auto* overlay = window_->findChild<ContactOverlay*>();
  const QImage withCones = render();
  action("actionShowFrictionCones")->setChecked(false);
  const QImage withoutCones = render();
  action("actionShowFrictionCones")->setChecked(true);
  int handCones = 0;
  for (int i = 0; i < overlay->nodes().contactCount(); ++i) {
    const Contact& c = analysis->contacts()[i];
    if (c.side1.body.kind != K::Robot && c.side2.body.kind != K::Robot) continue;
    const FrictionCone cone = frictionCone(overlay->nodes().glyph(i));
    const QPoint at = project(camera(), cone.apex_mm + 0.6 * cone.height_mm * cone.axis);
    if (!withCones.rect().contains(at)) continue;
    ++handCones;
    const int n = differingAround(withCones, withoutCones, at, 3);
    QVERIFY2(n >= 9, qPrintable(QString("cone of contact %1: only %2 pixels differ").arg(i).arg(n)));
  }
  QVERIFY(handCones >= 3);
}

void TstUiContactsGl::highlightChangesPixelsAtTheContact() {
  QVERIFY(makeWindow(sg::test::qInSourceTree("worlds/default.xml")));
  GraspAnalysis* analysis = window_->analysis();
  action("actionAutoGrasp")->trigger();
  analysis->recompute();
  const auto* overlay = window_->findChild<ContactOverlay*>();
  QVERIFY(overlay->nodes().contactCount() >= 3);
  const QImage plain = render();
  for (int i : {0, overlay->nodes().contactCount() - 1}) {
    analysis->setSelectedContact(i);
    QCOMPARE(overlay->nodes().highlighted(), std::optional<int>(i));
    const QImage highlighted = render();
    const QPoint at = project(camera(), overlay->nodes().glyph(i).position_mm());
    QVERIFY(plain.rect().contains(at));
    const int n = differingAround(plain, highlighted, at, 3);
    QVERIFY2(n >= 9, qPrintable(QString("contact %1: only %2 pixels differ").arg(i).arg(n)));
    // The highlight sits at the contact, not elsewhere: a point far from it is unchanged.
    QCOMPARE(differingAround(plain, highlighted, QPoint(5, 5), 4), 0);
  }
  analysis->setSelectedContact(std::nullopt);
  QVERIFY(differing(plain, render()) == 0);
}

void TstUiContactsGl::draggedHandStopsAtContact() {
  QVERIFY(makeWindow(sg::test::qInSourceTree("worlds/default.xml")));
  Document* doc = window_->document();
  ui::CoinViewport* view = window_->viewportPanel()->viewport();
  doc->setSelection(BodyHandle{K::Robot, 0, {-1, 0}});  // the palm drags its robot
  QVERIFY(view->hasDragger());
  const Transform start = doc->world().state.robots[0].X_WP;
  const int steps = doc->undoStack()->count();
  // One drag straight down through the mug and the table.
  for (int mm = 20; mm <= 300; mm += 20) view->setDraggerPose(Transform::fromTranslation(Vec3(0, 0, -mm)) * start);
  emit view->draggerReleased(view->draggerPose());
  const Transform stopped = doc->world().state.robots[0].X_WP;
  const double dropped = start.translation().z() - stopped.translation().z();
  QVERIFY2(dropped > 1 && dropped < 300, qPrintable(QString("dropped %1 mm").arg(dropped)));
  QVERIFY(!anyCollision(doc->world()));
  QCOMPARE(doc->undoStack()->count(), steps + 1);
  QVERIFY(view->draggerPose().isApprox(stopped, 1e-4));  // the dragger comes back to where the hand stopped
  // With collision checking off the same drag goes through.
  CollisionStoppedEdits::of(doc)->setEnabled(false);
  view->setDraggerPose(Transform::fromTranslation(Vec3(0, 0, -90)) * start);  // palm into the mug
  emit view->draggerReleased(view->draggerPose());
  QVERIFY(doc->world().state.robots[0].X_WP.isApprox(Transform::fromTranslation(Vec3(0, 0, -90)) * start, 1e-6));
  QVERIFY(anyCollision(doc->world()));
}

// Interpenetrating bodies are drawn red (GraspIt!'s convention) and get their colour back once apart.
void TstUiContactsGl::interpenetratingBodiesAreRed() {
  QVERIFY(makeWindow(sg::test::qInSourceTree("worlds/default.xml")));
  Document* doc = window_->document();
  WorldScene* scene = window_->viewportPanel()->scene();
  const BodyHandle mug{BodyHandle::Kind::Graspable, 0, {}};
  const SbColor mugColour = scene->bodyMaterial(mug)->diffuseColor[0];
  action("actionCollisionChecking")->setChecked(false);
  const Transform X = X_WB(doc->world().state, mug);
  const Transform palm = doc->world().state.robots[0].X_WP;
  doc->push(new SetRobotPoseCommand(doc, 0, Transform::fromTranslation(X.translation() - palm.translation()) * palm));
  window_->analysis()->recompute();
  QVERIFY(!window_->analysis()->interpenetrations().empty());
  QVERIFY(scene->isColliding(mug));
  const SbColor red = scene->bodyMaterial(mug)->diffuseColor[0];
  QVERIFY(red[0] > 0.8f && red[1] < 0.2f && red[2] < 0.2f);
  doc->undoStack()->undo();
  window_->analysis()->recompute();
  QVERIFY(!scene->isColliding(mug));
  QVERIFY(scene->bodyMaterial(mug)->diffuseColor[0] == mugColour);
  action("actionCollisionChecking")->setChecked(true);
}

QTEST_MAIN(TstUiContactsGl)
#include "tst_ui_contacts_gl.moc"
