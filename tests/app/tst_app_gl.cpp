// GL tests of the softgrasp application (xvfb-run, QT_QPA_PLATFORM=xcb): the headless screenshot mode on
// every bundled world (with --fit grasp, and --window: the whole window with a dock raised), picking in the main window's viewport, the DOF slider moving the picture, and the
// dragger moving the model.
#include <Inventor/SbViewVolume.h>
#include <Inventor/SbViewportRegion.h>
#include <Inventor/fields/SoSFRotation.h>
#include <Inventor/fields/SoSFVec3f.h>
#include <Inventor/nodes/SoCamera.h>
#include <Inventor/nodes/SoTransform.h>

#include <QApplication>
#include <QDockWidget>
#include <QDir>
#include <QImage>
#include <QProcess>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include "../support/AppTestSetup.h"
#include "../support/ImageChecks.h"
#include "Document.h"
#include "DofDock.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "SceneTreeDock.h"
#include "TestWorld.h"
#include "ViewportPanel.h"
#include "WindowScreenshot.h"
#include "contact/ContactDetection.h"
#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "render/SceneBuilder.h"
#include "viewport/CoinSetup.h"
#include "viewport/CoinViewport.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {
using test::differingPixels;
using test::foregroundPixels;
const BodyHandle kBox{BodyHandle::Kind::Graspable, 0, {}};
const BodyHandle kTable{BodyHandle::Kind::Obstacle, 0, {}};
const BodyHandle kLink1{BodyHandle::Kind::Robot, 0, {0, 1}};

QString softgraspPath() { return sg::test::qInBuildTree("ui/app/softgrasp"); }

// Runs `softgrasp WORLD --screenshot OUT --size 480x360 EXTRA...` and returns the image (null on failure).
QImage screenshot(const QString& world, const QString& out, const QStringList& extra) {
  QProcess p;
  p.start(softgraspPath(), QStringList{world, "--screenshot", out, "--size", "480x360"} + extra);
  if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
    qWarning("softgrasp failed: %s", p.readAllStandardError().constData());
    return {};
  }
  return QImage(out);
}

// Pure red pixels: the friction cones' edge lines and faces drawn over the bodies (render/ContactNodes.cpp);
// no body of the bundled worlds is pure red.
int coneRedPixels(const QImage& image) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      n += c.red() >= 100 && c.green() <= 8 && c.blue() <= 8;
    }
  return n;
}

// Pixels of the contact markers' lit orange (diffuse (1, 0.55, 0) with an emissive glow: about 255, 140, 62).
int markerPixels(const QImage& image) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      n += c.red() >= 240 && c.green() >= 115 && c.green() <= 165 && c.blue() >= 35 && c.blue() <= 80;
    }
  return n;
}

QStringList bundledWorlds() {
  const QDir worlds(sg::test::qInSourceTree("worlds"));
  QStringList out;
  for (const QString& f : worlds.entryList({"*.xml"}, QDir::Files, QDir::Name)) out << worlds.filePath(f);
  return out;
}

// The first bundled world that holds a robot (empty if none does).
QString bundledWorldWithRobot() {
  for (const QString& path : bundledWorlds()) {
    try {
      if (!sg::loadWorld(path.toStdString()).robots.empty()) return path;
    } catch (const std::exception&) {
    }
  }
  return {};
}

// The test world with the box moved clear of the finger and the table (beyond both along x), so nothing
// hides it from any view but the side one.
World pickWorld() {
  World w = test::makeTestWorld();
  w.state.X_WG[0] = Transform::fromTranslation(Vec3(250, 0, 0));
  return w;
}
}  // namespace

class TstAppGl : public QObject {
  Q_OBJECT

 public:
  static void initMain() { test::prepareGlApplication(); }

 private slots:
  void initTestCase();
  void screenshotOfEveryBundledWorld_data();
  void screenshotOfEveryBundledWorld();
  void screenshotViewsDiffer();
  void screenshotExitCodes();
  void screenshotDrawsTheGrasp();
  void screenshotDrawsContactsOfTheWorldAsLoaded_data();
  void screenshotDrawsContactsOfTheWorldAsLoaded();
  void screenshotGraspOptionErrors();
  void screenshotFitGraspFramesTheGrasp();
  void windowScreenshotRaisesTheDock();
  void windowScreenshotWritesTheWindow();
  void openBundledWorldInWindow();
  void pickingSelectsInTree();
  void dofSliderChangesLinksAndPicture();
  void draggerMovesModelAndUndoMovesDragger();

 private:
  // A shown main window with the pick world, framed from the front.
  std::unique_ptr<MainWindow> makeWindow();
  QTemporaryDir settingsDir_;
};

void TstAppGl::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
  if (!test::onX11()) QSKIP(test::kNeedsX);
  QVERIFY2(QFileInfo::exists(softgraspPath()), qPrintable(softgraspPath()));
}

// --- headless screenshots ---

void TstAppGl::screenshotOfEveryBundledWorld_data() {
  QTest::addColumn<QString>("world");
  const QStringList files = bundledWorlds();
  if (files.isEmpty()) QTest::newRow("no bundled worlds") << QString();
  for (const QString& f : files) QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
}

void TstAppGl::screenshotOfEveryBundledWorld() {
  QFETCH(QString, world);
  QVERIFY2(!world.isEmpty(), "worlds/ holds no world");
  QTemporaryDir dir;
  const QString out = dir.filePath("shot.png");
  QProcess p;
  p.start(softgraspPath(), {world, "--screenshot", out, "--size", "320x240"});
  QVERIFY(p.waitForFinished(120000));
  QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
  const QImage image(out);
  QVERIFY(!image.isNull());
  QCOMPARE(image.size(), QSize(320, 240));
  const int fg = foregroundPixels(image);
  QVERIFY2(fg > 320 * 240 / 100, qPrintable(QString("only %1 non-background pixels").arg(fg)));
  QVERIFY2(fg < 320 * 240, "no background left: the camera is inside the scene");
}

void TstAppGl::screenshotViewsDiffer() {
  const QString world = bundledWorldWithRobot();
  QVERIFY2(!world.isEmpty(), "no bundled world with a robot");
  QTemporaryDir dir;
  QImage images[2];
  const char* views[2] = {"front", "top"};
  for (int i = 0; i < 2; ++i) {
    const QString out = dir.filePath(QString("%1.png").arg(views[i]));
    QCOMPARE(QProcess::execute(softgraspPath(), {world, "--screenshot", out, "--size", "200x150", "--view", views[i]}), 0);
    images[i] = QImage(out);
    QCOMPARE(images[i].size(), QSize(200, 150));
  }
  QVERIFY(differingPixels(images[0], images[1]) > 200 * 150 / 50);
}

void TstAppGl::screenshotExitCodes() {
  QTemporaryDir dir;
  const QString bad = dir.filePath("bad.xml");
  QFile f(bad);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write("<world>\n  <obstacle>\n</world>\n");
  f.close();
  const QString out = dir.filePath("out.png");
  QProcess p;
  p.start(softgraspPath(), {bad, "--screenshot", out});
  QVERIFY(p.waitForFinished(60000));
  QCOMPARE(p.exitCode(), 3);
  QVERIFY(p.readAllStandardError().contains("bad.xml"));
  QVERIFY(!QFileInfo::exists(out));
  QCOMPARE(QProcess::execute(softgraspPath(), {"--screenshot", out}), 2);                       // no world
  QCOMPARE(QProcess::execute(softgraspPath(), {bad, "--screenshot", out, "--size", "big"}), 2);  // bad size
  QCOMPARE(QProcess::execute(softgraspPath(), {"--help"}), 0);
}

// The default world after --approach --autograsp (the window's key G): the contacts' orange markers, the
// cones' dark red edges and the arrows' legend are in the picture; with --no-overlays (same grasp) and before the
// grasp (the open hand touches nothing) they are not.
void TstAppGl::screenshotDrawsTheGrasp() {
  const QString world = sg::test::qInSourceTree("worlds/default.xml");
  QTemporaryDir dir;
  const QImage grasped = screenshot(world, dir.filePath("grasped.png"), {"--approach", "--autograsp"});
  const QImage bare = screenshot(world, dir.filePath("bare.png"), {"--approach", "--autograsp", "--no-overlays"});
  const QImage open = screenshot(world, dir.filePath("open.png"), {});
  QVERIFY(!grasped.isNull() && !bare.isNull() && !open.isNull());
  const QString counts = QString("cone red %1/%2/%3, marker orange %4/%5/%6 (grasped/bare/open)")
                             .arg(coneRedPixels(grasped)).arg(coneRedPixels(bare)).arg(coneRedPixels(open))
                             .arg(markerPixels(grasped)).arg(markerPixels(bare)).arg(markerPixels(open));
  QVERIFY2(coneRedPixels(grasped) > 50, qPrintable(counts));
  QVERIFY2(markerPixels(grasped) > 10, qPrintable(counts));
  QVERIFY2(coneRedPixels(bare) == 0 && markerPixels(bare) == 0, qPrintable(counts));
  QVERIFY2(coneRedPixels(open) == 0 && markerPixels(open) == 0, qPrintable(counts));
  // Only the overlays differ between the grasped pictures: the hand closed the same way in both.
  QVERIFY(differingPixels(grasped, bare) > 0);
  QCOMPARE(differingPixels(grasped, bare, QRect(0, 0, 40, 40)), 0);
  // The legend of the arrows is painted in the bottom-left corner, as the window shows it over its view.
  const QRect legendCorner(12, grasped.height() - 36, 100, 24);
  QVERIFY2(differingPixels(grasped, bare, legendCorner) > legendCorner.width() * legendCorner.height() / 2,
           qPrintable(QString::number(differingPixels(grasped, bare, legendCorner))));
}

// Without a hand motion the world is drawn as the window shows it on open: with the overlays of its
// contacts as loaded. A world without contacts looks the same with and without overlays; one with
// contacts (objects resting on a table) does not.
void TstAppGl::screenshotDrawsContactsOfTheWorldAsLoaded_data() {
  QTest::addColumn<QString>("world");
  for (const QString& f : bundledWorlds()) QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
}

void TstAppGl::screenshotDrawsContactsOfTheWorldAsLoaded() {
  QFETCH(QString, world);
  const std::size_t contacts = findAllContacts(loadWorld(world.toStdString())).size();
  QTemporaryDir dir;
  const QImage shown = screenshot(world, dir.filePath("shown.png"), {});
  const QImage bare = screenshot(world, dir.filePath("bare.png"), {"--no-overlays"});
  QVERIFY(!shown.isNull() && !bare.isNull());
  const QString report = QString("%1 contacts, %2 pixels differ").arg(contacts).arg(differingPixels(shown, bare));
  QVERIFY2((differingPixels(shown, bare) > 0) == (contacts > 0), qPrintable(report));
  QCOMPARE(markerPixels(bare), 0);
}

void TstAppGl::screenshotGraspOptionErrors() {
  QTemporaryDir dir;
  const QString out = dir.filePath("out.png");
  const QString world = sg::test::qInSourceTree("worlds/default.xml");
  const auto run = [](const QStringList& args, QByteArray* err) {
    QProcess p;
    p.start(softgraspPath(), args);
    p.waitForFinished(120000);
    *err = p.readAllStandardError();
    return p.exitCode();
  };
  QByteArray err;
  QCOMPARE(run({world, "--autograsp"}, &err), 2);  // no window opens: a usage error
  QVERIFY2(err.contains("--autograsp") && err.contains("--screenshot"), err.constData());
  QCOMPARE(run({world, "--screenshot", out, "--contact-model", "rubber"}, &err), 2);
  QVERIFY2(err.contains("rubber") && err.contains("soft-finger"), err.constData());
  // A world without a robot has no hand to move.
  QCOMPARE(run({sg::test::qInSourceTree("worlds/objects_gallery.xml"), "--screenshot", out, "--approach"}, &err),
           2);
  QVERIFY2(err.contains("no robot"), err.constData());
  QVERIFY(!QFileInfo::exists(out));
  // Another registered model is accepted.
  QCOMPARE(run({world, "--screenshot", out, "--size", "64x48", "--autograsp", "--contact-model", "point"}, &err), 0);
  QVERIFY(QFileInfo::exists(out));
}

// --- the main window's viewport ---

std::unique_ptr<MainWindow> TstAppGl::makeWindow() {
  auto w = std::make_unique<MainWindow>();
  if (!w->viewportPanel()) return nullptr;
  w->resize(1000, 700);
  w->show();
  if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
  w->document()->resetWorld(pickWorld());
  ui::CoinViewport* view = w->viewportPanel()->viewport();
  view->setStandardView(StandardView::Front);
  view->viewAll();
  QApplication::processEvents();
  return w;
}

// --fit grasp frames the hand and the mug, not the table: the same grasp seen from the same direction fills more of
// the picture, so its cones cover more pixels than with the whole world framed.
void TstAppGl::screenshotFitGraspFramesTheGrasp() {
  const QString world = sg::test::qInSourceTree("worlds/default.xml");
  QTemporaryDir dir;
  const QStringList grasp{"--approach", "--autograsp", "--view", "iso"};
  const QImage all = screenshot(world, dir.filePath("all.png"), grasp);
  const QImage fitted = screenshot(world, dir.filePath("fitted.png"), grasp + QStringList{"--fit", "grasp"});
  const QImage allExplicit = screenshot(world, dir.filePath("all2.png"), grasp + QStringList{"--fit", "all"});
  QVERIFY(!all.isNull() && !fitted.isNull() && !allExplicit.isNull());
  const int redAll = coneRedPixels(all), redFitted = coneRedPixels(fitted);
  QVERIFY2(redAll > 20 && redFitted > 2 * redAll, qPrintable(QString("cone red %1 (all) %2 (grasp)").arg(redAll).arg(redFitted)));
  QCOMPARE(differingPixels(all, allExplicit), 0);  // --fit all is the default
  const QString out = dir.filePath("x.png");
  QCOMPARE(QProcess::execute(softgraspPath(), {world, "--screenshot", out, "--fit", "table"}), 2);
  QCOMPARE(QProcess::execute(softgraspPath(), {world, "--screenshot", out, "--fit", "grasp", "--window"}), 2);
  QCOMPARE(QProcess::execute(softgraspPath(), {world, "--fit", "grasp"}), 2);  // only with --screenshot
  QVERIFY(!QFileInfo::exists(out));
}

// --window in process: the window at the asked size, the hand moved by the Grasp menu's G, the asked contact model
// analysed, and the asked dock raised over the Quality dock it shares a tab group with.
void TstAppGl::windowScreenshotRaisesTheDock() {
  const QString world = sg::test::qInSourceTree("worlds/default.xml");
  QString error;
  const auto options = parseCommandLine({"softgrasp", world, "--screenshot", "unused.png", "--window", "--size",
                                         "1100x760", "--approach", "--autograsp", "--contact-model", "hertz",
                                         "--dock", "comparison"},
                                        &error);
  QVERIFY2(options, qPrintable(error));
  QVERIFY(options->window);
  ScreenshotWindow shot = prepareScreenshotWindow(*options);
  QVERIFY2(shot.window, qPrintable(shot.error));
  MainWindow& w = *shot.window;
  QCOMPARE(w.size(), QSize(1100, 760));
  QCOMPARE(w.analysis()->settings().contactModel, std::string("hertz"));
  QVERIFY(w.analysis()->evaluation() && w.analysis()->evaluation()->forceClosure());
  QVERIFY(!w.analysis()->l1HullPending());
  QDockWidget* comparison = findDock(w, "Comparison");
  QDockWidget* quality = findDock(w, "quality");
  QVERIFY(comparison && quality);
  QVERIFY(comparison->isVisible() && !comparison->visibleRegion().isEmpty());
  QVERIFY(quality->visibleRegion().isEmpty());  // the tab behind
  w.document()->undoStack()->setClean();

  auto unknown = parseCommandLine({"softgrasp", world, "--screenshot", "unused.png", "--window", "--dock", "Nope"}, &error);
  QVERIFY(unknown);
  const ScreenshotWindow none = prepareScreenshotWindow(*unknown);
  QVERIFY(!none.window);
  QCOMPARE(none.exitCode, int(kExitUsage));
  QVERIFY2(none.error.contains("Nope") && none.error.contains("Comparison"), qPrintable(none.error));
}

// The executable's --window: a PNG of the window's size with the grasp's cones in its view; bad combinations are
// usage errors.
void TstAppGl::windowScreenshotWritesTheWindow() {
  const QString world = sg::test::qInSourceTree("worlds/default.xml");
  QTemporaryDir dir;
  const QString out = dir.filePath("window.png");
  QProcess p;
  p.start(softgraspPath(), {world, "--screenshot", out, "--window", "--size", "1000x700", "--approach", "--autograsp",
                            "--dock", "Planner"});
  QVERIFY(p.waitForFinished(120000));
  QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
  const QImage image(out);
  QCOMPARE(image.size(), QSize(1000, 700));
  // The same window before the grasp: the open hand touches nothing, so no cone is drawn in its view.
  const QString openOut = dir.filePath("open.png");
  QCOMPARE(QProcess::execute(softgraspPath(), {world, "--screenshot", openOut, "--window", "--size", "1000x700",
                                               "--dock", "Planner"}),
           0);
  const QImage open(openOut);
  QCOMPARE(open.size(), image.size());
  QVERIFY2(coneRedPixels(image) > 0 && coneRedPixels(open) == 0,
           qPrintable(QString("cone red %1 (grasped) %2 (open)").arg(coneRedPixels(image)).arg(coneRedPixels(open))));
  QVERIFY(differingPixels(image, open) > 1000);
  const QString no = dir.filePath("no.png");
  QCOMPARE(QProcess::execute(softgraspPath(), {world, "--screenshot", no, "--dock", "Planner"}), 2);  // no --window
  QCOMPARE(QProcess::execute(softgraspPath(), {world, "--screenshot", no, "--window", "--no-overlays"}), 2);
  QCOMPARE(QProcess::execute(softgraspPath(), {world, "--window"}), 2);  // only with --screenshot
  QCOMPARE(QProcess::execute(softgraspPath(), {dir.filePath("missing.xml"), "--screenshot", no, "--window"}), 3);
  QVERIFY(!QFileInfo::exists(no));
}

void TstAppGl::openBundledWorldInWindow() {
  const QString world = bundledWorldWithRobot();
  QVERIFY2(!world.isEmpty(), "no bundled world with a robot");
  MainWindow w;
  QVERIFY(w.viewportPanel());
  w.resize(1000, 700);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(w.openWorldFile(world));
  const World& loaded = w.document()->world();
  QVERIFY(!loaded.robots.empty());
  QCOMPARE(w.viewportPanel()->scene()->bodyNodeCount(), loaded.bodyCount());
  for (const auto& h : loaded.bodyHandles()) QVERIFY(w.sceneTreeDock()->itemFor(h));
  QCOMPARE(w.dofDock()->dofRowCount(), static_cast<int>(loaded.robots[0].dofCount()));
  QApplication::processEvents();
  const QImage shot = w.grab().toImage();  // the whole window, GL view composited
  QVERIFY(!shot.isNull());
  const QImage view = w.viewportPanel()->viewport()->renderToImage(QSize(400, 300));
  QVERIFY(foregroundPixels(view) > 400 * 300 / 100);

  // View ▸ Screenshot… at a chosen resolution.
  QTemporaryDir shots;
  QVERIFY(w.saveScreenshot(shots.filePath("view.png"), QSize(333, 222)));
  const QImage png(shots.filePath("view.png"));
  QCOMPARE(png.size(), QSize(333, 222));
  QVERIFY(foregroundPixels(png) > 333 * 222 / 100);

  // Saving keeps the current view as the world's camera.
  w.viewportPanel()->viewport()->setStandardView(StandardView::Top);
  const Camera expected = worldCameraFrom(w.viewportPanel()->viewport()->camera());
  QTemporaryDir dir;
  const QString out = dir.filePath("saved.xml");
  QVERIFY(w.saveTo(out));
  const World reloaded = loadWorld(out.toStdString());
  QVERIFY(reloaded.camera.has_value());
  QVERIFY((reloaded.camera->position_mm - expected.position_mm).norm() < 1e-3);
  QVERIFY(reloaded.camera->orientation.angularDistance(expected.orientation) < 1e-4);
  QCOMPARE(reloaded.bodyCount(), loaded.bodyCount());
}

void TstAppGl::pickingSelectsInTree() {
  auto w = makeWindow();
  QVERIFY(w);
  ui::CoinViewport* view = w->viewportPanel()->viewport();
  Document* doc = w->document();

  // Project the box's centre with the viewport's camera.
  const Body& box = doc->world().body(kBox);
  const Vec3 centre = X_WB(doc->world().state, kBox) * box.mesh->bounds.center();
  // The view volume as rendered, including the camera's adjustment to the viewport's aspect ratio.
  SbViewportRegion rendered;
  const SbViewVolume volume = view->camera()->getViewVolume(SbViewportRegion(view->width(), view->height()), rendered);
  SbVec3f screen;
  volume.projectToScreen(SbVec3f(float(centre.x()), float(centre.y()), float(centre.z())), screen);
  const QPoint pos(int(screen[0] * view->width()), int((1.0f - screen[1]) * view->height()));
  QVERIFY(view->rect().contains(pos));

  QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, pos);
  QVERIFY(doc->selection() == kBox);
  const auto selected = w->sceneTreeDock()->tree()->selectedItems();
  QCOMPARE(selected.size(), 1);
  QVERIFY(SceneTreeDock::handleOf(selected.first()) == kBox);
  QVERIFY(w->viewportPanel()->scene()->isHighlighted(kBox));
  QVERIFY(view->hasDragger());
  QVERIFY(view->draggerPose().isApprox(X_WB(doc->world().state, kBox), 1e-4));

  // Selecting in the tree highlights in the scene; clicking the background clears the selection.
  w->sceneTreeDock()->tree()->setCurrentItem(w->sceneTreeDock()->itemFor(kTable));
  QVERIFY(w->viewportPanel()->scene()->isHighlighted(kTable));
  QVERIFY(!w->viewportPanel()->scene()->isHighlighted(kBox));
  QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, QPoint(3, 3));
  QVERIFY(!doc->selection().has_value());
  QVERIFY(w->sceneTreeDock()->tree()->selectedItems().isEmpty());
  QVERIFY(!view->hasDragger());
  doc->undoStack()->setClean();
}

void TstAppGl::dofSliderChangesLinksAndPicture() {
  auto w = makeWindow();
  QVERIFY(w);
  ui::CoinViewport* view = w->viewportPanel()->viewport();
  Document* doc = w->document();
  WorldScene* scene = w->viewportPanel()->scene();
  const QImage before = view->renderToImage(QSize(640, 480));
  QVERIFY(!before.isNull());
  QVERIFY(foregroundPixels(before) > 640 * 480 / 100);
  const Vec3 linkBefore = X_WB(doc->world().state, kLink1).translation();

  QSlider* slider = w->dofDock()->dofSlider(0);
  slider->setSliderDown(true);
  slider->setValue(DofDock::kSliderSteps);  // 90°
  slider->setSliderDown(false);
  const Vec3 linkAfter = X_WB(doc->world().state, kLink1).translation();
  QVERIFY((linkAfter - linkBefore).norm() > 50);
  // The scene follows the model.
  const SbVec3f t = scene->bodyTransform(kLink1)->translation.getValue();
  QVERIFY((Vec3(t[0], t[1], t[2]) - linkAfter).norm() < 1e-3);
  const QImage after = view->renderToImage(QSize(640, 480));
  QVERIFY2(differingPixels(before, after) > 200, "moving a finger did not change the picture");

  doc->undoStack()->undo();
  const QImage undone = view->renderToImage(QSize(640, 480));
  QVERIFY(differingPixels(before, undone) < 20);
  doc->undoStack()->setClean();
}

void TstAppGl::draggerMovesModelAndUndoMovesDragger() {
  auto w = makeWindow();
  QVERIFY(w);
  ui::CoinViewport* view = w->viewportPanel()->viewport();
  Document* doc = w->document();
  doc->setSelection(kBox);
  QVERIFY(view->hasDragger());
  const Transform start = X_WB(doc->world().state, kBox);
  // A drag: several moves then a release is one undo step.
  for (double x : {10.0, 20.0, 30.0}) view->setDraggerPose(Transform::fromTranslation(start.translation() + Vec3(x, 0, 0)));
  emit view->draggerReleased(view->draggerPose());
  QVERIFY(X_WB(doc->world().state, kBox).translation().isApprox(start.translation() + Vec3(30, 0, 0), 1e-4));
  QCOMPARE(doc->undoStack()->count(), 1);
  const SbVec3f t = w->viewportPanel()->scene()->bodyTransform(kBox)->translation.getValue();
  QVERIFY(std::abs(t[0] - (start.translation().x() + 30)) < 1e-3);
  doc->undoStack()->undo();
  QVERIFY(X_WB(doc->world().state, kBox).isApprox(start));
  QVERIFY(view->draggerPose().isApprox(start, 1e-4));  // the dragger follows the model
  QCOMPARE(doc->undoStack()->count(), 1);               // following is not a new edit
  // A robot link drags its robot.
  doc->setSelection(kLink1);
  view->setDraggerPose(Transform::fromTranslation(Vec3(0, 0, 50)));
  emit view->draggerReleased(view->draggerPose());
  QVERIFY(doc->world().state.robots[0].X_WP.translation().isApprox(Vec3(0, 0, 50), 1e-4));
  doc->undoStack()->setClean();
}

QTEST_MAIN(TstAppGl)
#include "tst_app_gl.moc"
