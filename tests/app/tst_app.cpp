// Widget tests of the softgrasp application without OpenGL (QT_QPA_PLATFORM=offscreen): the Document and
// its commands, the docks, the main window's actions, settings, error handling and saving.
#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QRadioButton>
#include <QSpinBox>
#include <QSettings>
#include <QSignalBlocker>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QProcess>
#include <QTest>
#include <QStatusBar>
#include <QTreeWidget>
#include <QUndoStack>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "../support/AppTestSetup.h"
#include "CommandLine.h"
#include "Commands.h"
#include "DofDock.h"
#include "Document.h"
#include "MainWindow.h"
#include "MessageBoxCloser.h"
#include "PoseEditor.h"
#include "PropertiesDock.h"
#include "SceneTreeDock.h"
#include "ScreenshotDialog.h"
#include "TestFiles.h"
#include "TestWorld.h"
#include "core/RollPitchYaw.h"
#include "grasp/HandMotionPresets.h"
#include "io/ModelIO.h"
#include "model/EigenGraspMap.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {
const BodyHandle kBox{BodyHandle::Kind::Graspable, 0, {}};
const BodyHandle kTable{BodyHandle::Kind::Obstacle, 0, {}};
const BodyHandle kPalm{BodyHandle::Kind::Robot, 0, {-1, 0}};
const BodyHandle kLink1{BodyHandle::Kind::Robot, 0, {0, 1}};

Vec3 link1Position(const Document& doc) { return X_WB(doc.world().state, kLink1).translation(); }
}  // namespace

class TstApp : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void bodyPoseUndoRedo();
  void robotPoseMovesLinks();
  void dofValuesUndoRedo();
  void gestureMergesIntoOneStep();
  void propertiesYoungsSetAndCleared();
  void addBodyUndo();

  void dofDockSliderDrivesModel();
  void dofDockSpinBoxInDegrees();
  void dofDockEigengraspSlider();
  void dofDockFollowsSelectedRobot();
  void propertiesDockEdits();
  void poseEditorMovesBody();
  void sceneTreeMirrorsSelection();

  void actionsHaveStandardShortcuts();
  void docksHaveViewMenuEntries();
  void defaultLayoutShowsEveryDofRow();
  void statusBarShowsSelectionAndTriangles();
  void recentFilesPersistInSettings();
  void modelRootsFromSettings();
  void screenshotDialogSizes();
  void badFileShowsErrorAndKeepsWorld();
  void saveWritesFileThatLoadsBack();
  void robotLinkEditsSurviveSave();
  void importAndDropFiles();
  void unsavedChangesPrompt();
  void importBundledRobots();
  void loadWarningsAreShown();
  void commandLineParsing_data();
  void commandLineParsing();
  void commandLineGraspOptions();
  void commandLinePictureOptions();
  void helpWithoutADisplay();
  void versionIsTheProjectVersion();
  void worldToOpenFollowsTheDataDirectoryRule();
  void youngsErrorIsNotClipped();

 private:
  QTemporaryDir settingsDir_;
};

void TstApp::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
}

void TstApp::init() { QSettings("SoftGrasp", "softgrasp").clear(); }

// --- Document and commands ---

void TstApp::bodyPoseUndoRedo() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  QVERIFY(!doc.isModified());
  QSignalSpy changed(&doc, &Document::worldChanged);
  const Transform before = X_WB(doc.world().state, kBox);
  const Transform after(Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ())), Vec3(10, 20, 30));
  doc.push(new SetBodyPoseCommand(&doc, kBox, after));
  QVERIFY(X_WB(doc.world().state, kBox).isApprox(after));
  QVERIFY(doc.isModified());
  QCOMPARE(changed.count(), 1);
  QCOMPARE(changed.at(0).at(0).value<ChangeKind>(), ChangeKind::Poses);
  doc.undoStack()->undo();
  QVERIFY(X_WB(doc.world().state, kBox).isApprox(before));
  QVERIFY(!doc.isModified());
  doc.undoStack()->redo();
  QVERIFY(X_WB(doc.world().state, kBox).isApprox(after));
}

void TstApp::robotPoseMovesLinks() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  const Vec3 link1Before = link1Position(doc);
  const Transform pose = Transform::fromTranslation(Vec3(0, 0, 100));
  doc.push(new SetRobotPoseCommand(&doc, 0, pose));
  QVERIFY(X_WB(doc.world().state, kPalm).isApprox(pose));
  QVERIFY((link1Position(doc) - (link1Before + Vec3(0, 0, 100))).norm() < 1e-9);
  doc.undoStack()->undo();
  QVERIFY((link1Position(doc) - link1Before).norm() < 1e-9);
  QVERIFY(doc.world().state.robots[0].X_WP.isApprox(Transform()));
}

void TstApp::dofValuesUndoRedo() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  // Chain base at x = 15; joint 0 then joint 1 each with a = 40 mm: link 1 sits after both joints.
  QVERIFY((link1Position(doc) - Vec3(95, 0, 0)).norm() < 1e-9);
  doc.push(new SetDofValuesCommand(&doc, 0, {kPi / 2, 0.0}));
  QCOMPARE(doc.world().state.robots[0].dofValues[0], kPi / 2);
  QVERIFY((link1Position(doc) - Vec3(15, 80, 0)).norm() < 1e-9);
  doc.undoStack()->undo();
  QCOMPARE(doc.world().state.robots[0].dofValues[0], 0.0);
  QVERIFY((link1Position(doc) - Vec3(95, 0, 0)).norm() < 1e-9);
  // Out-of-range values are clamped to the DOF range (0..90°).
  doc.push(new SetDofValuesCommand(&doc, 0, {3.0, -1.0}));
  QCOMPARE(doc.world().state.robots[0].dofValues[0], kPi / 2);
  QCOMPARE(doc.world().state.robots[0].dofValues[1], 0.0);
}

void TstApp::gestureMergesIntoOneStep() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  const int gesture = doc.beginGesture();
  for (double v : {0.1, 0.2, 0.3}) doc.push(new SetDofValuesCommand(&doc, 0, {v, 0.0}, gesture));
  QCOMPARE(doc.undoStack()->count(), 1);
  QCOMPARE(doc.world().state.robots[0].dofValues[0], 0.3);
  // A new gesture, and commands without one, are separate steps.
  const int next = doc.beginGesture();
  QVERIFY(next != gesture);
  doc.push(new SetDofValuesCommand(&doc, 0, {0.4, 0.0}, next));
  doc.push(new SetDofValuesCommand(&doc, 0, {0.5, 0.0}));
  doc.push(new SetDofValuesCommand(&doc, 0, {0.6, 0.0}));
  QCOMPARE(doc.undoStack()->count(), 4);
  doc.undoStack()->undo();
  doc.undoStack()->undo();
  doc.undoStack()->undo();
  QCOMPARE(doc.world().state.robots[0].dofValues[0], 0.3);
  doc.undoStack()->undo();
  QCOMPARE(doc.world().state.robots[0].dofValues[0], 0.0);
  // Dragger moves of one gesture merge too.
  const int drag = doc.beginGesture();
  doc.push(new SetBodyPoseCommand(&doc, kBox, Transform::fromTranslation(Vec3(1, 0, 0)), drag));
  doc.push(new SetBodyPoseCommand(&doc, kBox, Transform::fromTranslation(Vec3(2, 0, 0)), drag));
  doc.push(new SetRobotPoseCommand(&doc, 0, Transform::fromTranslation(Vec3(0, 5, 0)), drag));
  doc.push(new SetRobotPoseCommand(&doc, 0, Transform::fromTranslation(Vec3(0, 6, 0)), drag));
  QCOMPARE(doc.undoStack()->index(), 2);
  doc.undoStack()->undo();
  doc.undoStack()->undo();
  QVERIFY(X_WB(doc.world().state, kBox).translation().isApprox(Vec3(100, 0, 0)));
}

void TstApp::propertiesYoungsSetAndCleared() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  QVERIFY(!doc.world().body(kBox).isSoft());
  BodyProperties p = propertiesOf(doc.world().body(kBox));
  p.youngs_Pa = 2.5e5;
  p.material = "rubber";
  p.mass_g = 42;
  doc.push(new SetBodyPropertiesCommand(&doc, kBox, p));
  QVERIFY(doc.world().body(kBox).isSoft());
  QCOMPARE(*doc.world().body(kBox).youngs_Pa, 2.5e5);
  QCOMPARE(doc.world().body(kBox).material, std::string("rubber"));
  QCOMPARE(doc.world().body(kBox).mass_g, 42.0);
  p.youngs_Pa.reset();
  doc.push(new SetBodyPropertiesCommand(&doc, kBox, p));
  QVERIFY(!doc.world().body(kBox).isSoft());
  doc.undoStack()->undo();
  QCOMPARE(*doc.world().body(kBox).youngs_Pa, 2.5e5);
  doc.undoStack()->undo();
  QVERIFY(!doc.world().body(kBox).isSoft());
  QCOMPARE(doc.world().body(kBox).material, std::string("wood"));
  QCOMPARE(doc.world().body(kBox).mass_g, 300.0);
}

void TstApp::addBodyUndo() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  doc.push(new AddBodyCommand(&doc, test::makeBody("extra", BodyKind::Obstacle, Vec3(1, 1, 1), Vec3::Zero()).body));
  doc.push(new AddRobotCommand(&doc, test::makeFingerRobot()));
  QCOMPARE(doc.world().obstacles.size(), std::size_t(2));
  QCOMPARE(doc.world().robots.size(), std::size_t(2));
  doc.setSelection(BodyHandle{BodyHandle::Kind::Robot, 1, {0, 0}});
  QVERIFY(doc.selection().has_value());
  doc.undoStack()->undo();
  QCOMPARE(doc.world().robots.size(), std::size_t(1));
  QVERIFY(!doc.selection().has_value());  // the selected robot is gone
  doc.undoStack()->undo();
  QCOMPARE(doc.world().obstacles.size(), std::size_t(1));
  QCOMPARE(doc.world().obstacles[0].name, std::string("table"));
}

// --- docks ---

void TstApp::dofDockSliderDrivesModel() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  DofDock dock(&doc);
  QCOMPARE(dock.robotIndex(), 0);
  QCOMPARE(dock.dofRowCount(), 2);
  QSlider* slider = dock.dofSlider(0);
  const Vec3 before = link1Position(doc);
  // A drag: press, several moves, release — one undo step.
  slider->setSliderDown(true);
  for (int v : {100, 300, 500}) slider->setValue(v);
  slider->setSliderDown(false);
  QVERIFY(std::abs(doc.world().state.robots[0].dofValues[0] - kPi / 4) < 1e-12);
  QVERIFY((link1Position(doc) - before).norm() > 10);
  QCOMPARE(doc.undoStack()->count(), 1);
  QVERIFY(std::abs(dock.dofSpinBox(0)->value() - 45.0) < 1e-9);
  // Undo moves the slider back.
  doc.undoStack()->undo();
  QCOMPARE(slider->value(), 0);
  QVERIFY((link1Position(doc) - before).norm() < 1e-9);
  // Two separate drags are two steps.
  for (int v : {200, 800}) {
    slider->setSliderDown(true);
    slider->setValue(v);
    slider->setSliderDown(false);
  }
  QCOMPARE(doc.undoStack()->count(), 2);
}

void TstApp::dofDockSpinBoxInDegrees() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  DofDock dock(&doc);
  QDoubleSpinBox* spin = dock.dofSpinBox(1);
  QCOMPARE(spin->minimum(), 0.0);
  QVERIFY(std::abs(spin->maximum() - 90.0) < 1e-9);
  spin->setValue(30.0);
  QVERIFY(std::abs(doc.world().state.robots[0].dofValues[1] - degToRad(30)) < 1e-12);
  QCOMPARE(dock.dofSlider(1)->value(), 333);
  // A change from elsewhere (undo) shows in the spin box.
  doc.undoStack()->undo();
  QCOMPARE(spin->value(), 0.0);
}

void TstApp::dofDockEigengraspSlider() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  DofDock dock(&doc);
  QCOMPARE(dock.eigenRowCount(), 2);  // identity eigengrasps: one per DOF
  // Origin is the middle of the range (45°), so the amplitude range of EG 0 is ±45° in rad.
  const auto [lo, hi] = eigenAmplitudeRange(doc.world().robots[0], 0);
  QVERIFY(std::abs(lo + kPi / 4) < 1e-12 && std::abs(hi - kPi / 4) < 1e-12);
  dock.eigenSlider(0)->setValue(DofDock::kSliderSteps);  // maximum amplitude → DOF 0 at 90°
  QVERIFY(std::abs(doc.world().state.robots[0].dofValues[0] - kPi / 2) < 1e-9);
  QVERIFY(std::abs(doc.world().state.robots[0].dofValues[1] - 0.0) < 1e-9);  // the other DOF untouched
  QVERIFY(std::abs(dock.dofSpinBox(0)->value() - 90.0) < 1e-6);           // DOF row follows

  // Eigengrasps that don't match the DOFs are left out rather than crashing the dock.
  World w = test::makeTestWorld();
  w.robots[0].eigengrasps.grasps[1].direction = VecX::Ones(3);
  doc.resetWorld(std::move(w));
  QCOMPARE(dock.dofRowCount(), 2);
  QCOMPARE(dock.eigenRowCount(), 0);
  dock.dofSlider(1)->setValue(DofDock::kSliderSteps);
  QVERIFY(std::abs(doc.world().state.robots[0].dofValues[1] - kPi / 2) < 1e-12);
}

void TstApp::dofDockFollowsSelectedRobot() {
  Document doc;
  World w = test::makeTestWorld();
  Robot second = test::makeFingerRobot();
  second.name = "Second";
  second.dofs.pop_back();  // one DOF only
  second.chains[0].joints.pop_back();
  second.chains[0].links.pop_back();
  second.eigengrasps = identityEigenGrasps(second);
  sgtest::addRobot(w, second);
  doc.resetWorld(std::move(w));
  DofDock dock(&doc);
  QCOMPARE(dock.robotIndex(), 0);
  doc.setSelection(BodyHandle{BodyHandle::Kind::Robot, 1, {0, 0}});
  QCOMPARE(dock.robotIndex(), 1);
  QCOMPARE(dock.dofRowCount(), 1);
  dock.dofSlider(0)->setValue(DofDock::kSliderSteps);
  QVERIFY(std::abs(doc.world().state.robots[1].dofValues[0] - kPi / 2) < 1e-12);
  QCOMPARE(doc.world().state.robots[0].dofValues[0], 0.0);
}

void TstApp::propertiesDockEdits() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  PropertiesDock dock(&doc);
  QVERIFY(!dock.youngsEdit()->isEnabled());
  doc.setSelection(kBox);
  QVERIFY(dock.youngsEdit()->isEnabled());
  QVERIFY(dock.youngsEdit()->text().isEmpty());  // rigid
  QCOMPARE(dock.materialBox()->count(), static_cast<int>(doc.world().materials.size()));
  QCOMPARE(dock.materialBox()->currentText(), QString("wood"));

  dock.youngsEdit()->setText("2.5e6");
  QVERIFY(dock.applyYoungs());
  QCOMPARE(*doc.world().body(kBox).youngs_Pa, 2.5e6);
  for (const char* bad : {"abc", "-5", "0", "1e400"}) {
    dock.youngsEdit()->setText(bad);
    QVERIFY2(!dock.applyYoungs(), bad);
    QVERIFY(!dock.youngsStatus()->text().isEmpty());
    QCOMPARE(*doc.world().body(kBox).youngs_Pa, 2.5e6);
  }
  dock.youngsEdit()->setText("");
  QVERIFY(dock.applyYoungs());
  QVERIFY(!doc.world().body(kBox).isSoft());
  QVERIFY(dock.youngsStatus()->text().isEmpty());

  dock.materialBox()->setCurrentText("rubber");
  dock.applyMaterial();
  QCOMPARE(doc.world().body(kBox).material, std::string("rubber"));
  dock.massBox()->setValue(55.5);
  QCOMPARE(doc.world().body(kBox).mass_g, 55.5);
  dock.massBox()->setValue(0.0);  // not a mass: ignored, and the box shows the mass again
  QCOMPARE(doc.world().body(kBox).mass_g, 55.5);
  QCOMPARE(dock.massBox()->value(), 55.5);
  QCOMPARE(doc.undoStack()->count(), 4);
  doc.undoStack()->undo();  // mass
  QCOMPARE(dock.massBox()->value(), 300.0);
  doc.undoStack()->undo();  // material
  QCOMPARE(dock.materialBox()->currentText(), QString("wood"));
  doc.undoStack()->undo();  // cleared youngs
  QCOMPARE(dock.youngsEdit()->text(), QString("2500000"));
}

void TstApp::poseEditorMovesBody() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  PoseEditor editor(&doc);
  QVERIFY(!editor.isEnabled());
  doc.setSelection(kBox);
  QVERIFY(editor.isEnabled());
  QCOMPARE(editor.field(0)->value(), 100.0);
  {
    const QSignalBlocker block(editor.field(0));  // set both fields, then apply once
    editor.field(0)->setValue(150);
  }
  editor.field(5)->setValue(90);  // yaw: a value change applies, like an arrow step
  const Transform pose = X_WB(doc.world().state, kBox);
  QVERIFY(pose.translation().isApprox(Vec3(150, 0, 0)));
  QVERIFY((pose.rotationMatrix() * Vec3::UnitX() - Vec3::UnitY()).norm() < 1e-9);
  QCOMPARE(doc.undoStack()->count(), 1);
  editor.applyFields();  // nothing changed: no new step
  QCOMPARE(doc.undoStack()->count(), 1);
  doc.undoStack()->undo();
  QCOMPARE(editor.field(0)->value(), 100.0);
  // A link edits its robot's pose.
  doc.setSelection(kLink1);
  editor.field(2)->setValue(25);
  QVERIFY(doc.world().state.robots[0].X_WP.translation().isApprox(Vec3(0, 0, 25)));
  // (Roll/pitch/yaw themselves: tests/core/tst_roll_pitch_yaw.cpp.)
  // Editing one field leaves the others exact (the fields show rounded values).
  const Transform odd(fromRollPitchYaw(Vec3(0.123456789, 0.0, 0.0)), Vec3(1.23456, 2.0, 3.0));
  doc.setSelection(kBox);
  doc.push(new SetBodyPoseCommand(&doc, kBox, odd));
  editor.field(1)->setValue(5.0);
  QCOMPARE(X_WB(doc.world().state, kBox).translation().x(), 1.23456);
  QVERIFY(X_WB(doc.world().state, kBox).rotation().angularDistance(odd.rotation()) < 1e-12);
  QCOMPARE(X_WB(doc.world().state, kBox).translation().y(), 5.0);
  // A negative yaw shows as a negative angle.
  doc.setSelection(kBox);
  doc.push(new SetBodyPoseCommand(&doc, kBox, Transform::fromAxisAngle(Vec3::UnitZ(), degToRad(-30))));
  QVERIFY(std::abs(editor.field(5)->value() + 30.0) < 1e-9);
  QCOMPARE(editor.field(3)->value(), 0.0);
}

void TstApp::sceneTreeMirrorsSelection() {
  Document doc;
  doc.resetWorld(test::makeTestWorld());
  SceneTreeDock dock(&doc);
  for (const auto& h : doc.world().bodyHandles()) QVERIFY(dock.itemFor(h));
  QCOMPARE(dock.itemFor(kBox)->text(0), QString("box"));
  // Tree → document.
  dock.tree()->setCurrentItem(dock.itemFor(kLink1));
  QVERIFY(doc.selection() == kLink1);
  // Document → tree.
  doc.setSelection(kTable);
  QCOMPARE(dock.tree()->selectedItems().size(), 1);
  QVERIFY(SceneTreeDock::handleOf(dock.tree()->selectedItems().first()) == kTable);
  doc.setSelection(std::nullopt);
  QVERIFY(dock.tree()->selectedItems().isEmpty());
  // Structure changes rebuild the tree.
  doc.push(new AddBodyCommand(&doc, test::makeBody("cup", BodyKind::Graspable, Vec3(1, 1, 1), Vec3::Zero()).body));
  QVERIFY(dock.itemFor({BodyHandle::Kind::Graspable, 1, {}}));
  QCOMPARE(dock.itemFor({BodyHandle::Kind::Graspable, 1, {}})->text(0), QString("cup"));
}

// --- main window ---

void TstApp::actionsHaveStandardShortcuts() {
  MainWindow w(MainWindow::Options{false});
  const std::pair<const char*, QKeySequence::StandardKey> expected[] = {
      {"actionOpen", QKeySequence::Open}, {"actionSave", QKeySequence::Save},
      {"actionSaveAs", QKeySequence::SaveAs}, {"actionUndo", QKeySequence::Undo},
      {"actionRedo", QKeySequence::Redo}, {"actionQuit", QKeySequence::Quit}};
  for (const auto& [name, key] : expected) {
    auto* a = w.findChild<QAction*>(name);
    QVERIFY2(a, name);
    QCOMPARE(a->shortcut(), QKeySequence::keyBindings(key).value(0));
  }
  for (const char* name : {"actionImportRobot", "actionImportObject", "actionViewAll", "actionViewFront",
                           "actionViewTop", "actionViewSide", "actionViewIso", "actionOrthographic", "actionAxes",
                           "actionWireframe", "actionTransparency", "actionScreenshot", "actionAbout"})
    QVERIFY2(w.findChild<QAction*>(name), name);
  QVERIFY(w.findChild<QMenu*>("menuRecentFiles"));
  // Undo/redo are wired to the document's stack.
  auto* undo = w.findChild<QAction*>("actionUndo");
  QVERIFY(!undo->isEnabled());
  w.document()->resetWorld(test::makeTestWorld());
  w.document()->push(new SetBodyPoseCommand(w.document(), kBox, Transform()));
  QVERIFY(undo->isEnabled());
  undo->trigger();
  QVERIFY(X_WB(w.document()->world().state, kBox).translation().isApprox(Vec3(100, 0, 0)));
  QVERIFY(!w.document()->isModified());
}

void TstApp::docksHaveViewMenuEntries() {
  MainWindow w(MainWindow::Options{false});
  const auto actions = w.viewMenu()->actions();
  for (QDockWidget* dock : {static_cast<QDockWidget*>(w.sceneTreeDock()), static_cast<QDockWidget*>(w.dofDock()),
                            static_cast<QDockWidget*>(w.propertiesDock())})
    QVERIFY(actions.contains(dock->toggleViewAction()));
  auto* extra = new QDockWidget("Contacts", &w);
  w.addDock(extra);
  QVERIFY(w.viewMenu()->actions().contains(extra->toggleViewAction()));
  QVERIFY(!extra->objectName().isEmpty());
}

// First start (no saved layout) on the default world: the DOF dock shares the right column with the
// quality tabs but shows every DOF and eigengrasp row without scrolling.
void TstApp::defaultLayoutShowsEveryDofRow() {
  MainWindow window;
  window.resize(1300, 860);  // the offscreen screen is smaller than a desktop's
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  QVERIFY(window.openWorldFile(sg::test::qInSourceTree("worlds/default.xml")));
  QTRY_VERIFY(window.dofDock()->height() >= window.dofDock()->contentHeight());
  QCOMPARE(window.dofDock()->dofRowCount(), 4);
  QVERIFY(window.dofDock()->height() < window.height() / 2 + 1);
}

void TstApp::statusBarShowsSelectionAndTriangles() {
  MainWindow w(MainWindow::Options{false});
  w.document()->resetWorld(test::makeTestWorld());
  auto* tris = w.findChild<QLabel*>("trianglesLabel");
  auto* sel = w.findChild<QLabel*>("selectionLabel");
  QVERIFY(tris && sel);
  QVERIFY2(tris->text().contains("60 triangles"), qPrintable(tris->text()));  // 5 boxes × 12
  w.document()->setSelection(kBox);
  QVERIFY(sel->text().contains("box"));
  w.findChild<QAction*>("actionSelectNone")->trigger();
  QVERIFY(!w.document()->selection().has_value());
  QVERIFY(sel->text().contains("Nothing"));
}

void TstApp::recentFilesPersistInSettings() {
  QTemporaryDir dir;
  const QString world = test::writeBoxWorld(dir.path());
  QStringList copies;
  for (int i = 0; i < 12; ++i) {
    copies << dir.filePath(QString("w%1.xml").arg(i));
    QVERIFY(QFile::copy(world, copies.back()));
  }
  {
    MainWindow w(MainWindow::Options{false});
    for (const QString& c : copies) QVERIFY(w.openWorldFile(c));
    QVERIFY(w.openWorldFile(copies[5]));  // reopening moves it to the top
    QCOMPARE(w.recentFiles().size(), MainWindow::kMaxRecentFiles);
    QCOMPARE(w.recentFiles().first(), QFileInfo(copies[5]).absoluteFilePath());
    QCOMPARE(w.recentFiles().at(1), QFileInfo(copies[11]).absoluteFilePath());
    QCOMPARE(w.recentFiles().count(QFileInfo(copies[5]).absoluteFilePath()), 1);
    int fileEntries = 0;
    for (QAction* a : w.findChild<QMenu*>("menuRecentFiles")->actions()) fileEntries += a->data().isValid();
    QCOMPARE(fileEntries, MainWindow::kMaxRecentFiles);
  }
  // A new window (a new session) reads them back, and the last directory.
  MainWindow again(MainWindow::Options{false});
  QCOMPARE(again.recentFiles().first(), QFileInfo(copies[5]).absoluteFilePath());
  QCOMPARE(again.recentFiles().size(), MainWindow::kMaxRecentFiles);
  QCOMPARE(QSettings("SoftGrasp", "softgrasp").value("lastDirectory").toString(), QFileInfo(world).absolutePath());
  // The settings went to the test location, not the user's.
  QVERIFY(QFileInfo(QSettings("SoftGrasp", "softgrasp").fileName()).absoluteFilePath().startsWith(settingsDir_.path()));
  // Opening a recent file from the menu.
  again.findChild<QMenu*>("menuRecentFiles")->actions().at(2)->trigger();
  QCOMPARE(again.document()->filePath(), QFileInfo(copies[10]).absoluteFilePath());
  // Clear List empties the menu and the settings.
  again.findChild<QAction*>("actionClearRecent")->trigger();
  QVERIFY(again.recentFiles().isEmpty());
  QVERIFY(QSettings("SoftGrasp", "softgrasp").value("recentFiles").toStringList().isEmpty());
}

void TstApp::modelRootsFromSettings() {
  // A world naming its body by a path only a model root resolves.
  QTemporaryDir models, worlds;
  test::writeBoxWorld(models.path());
  const QString world = worlds.filePath("elsewhere.xml");
  test::writeText(world, "<?xml version=\"1.0\" ?>\n<world>\n  <graspableBody>\n    <filename>box.xml</filename>\n"
                         "  </graspableBody>\n</world>\n");
  {
    MainWindow w(MainWindow::Options{false});
    test::MessageBoxCloser closer;
    QVERIFY(!w.openWorldFile(world));
  }
  QSettings("SoftGrasp", "softgrasp").setValue("modelRoots", QStringList{models.path()});
  MainWindow w(MainWindow::Options{false});
  QCOMPARE(w.document()->loadOptions().modelRoots.size(), std::size_t(1));
  QVERIFY(w.openWorldFile(world));
  QCOMPARE(w.document()->world().graspables.size(), std::size_t(1));
}

void TstApp::screenshotDialogSizes() {
  ScreenshotDialog dialog(QSize(640, 480));
  QCOMPARE(dialog.chosenSize(), QSize(640, 480));
  auto buttons = dialog.findChildren<QRadioButton*>();
  QCOMPARE(buttons.size(), 2);
  buttons[1]->setChecked(true);  // custom resolution
  auto spins = dialog.findChildren<QSpinBox*>();
  QCOMPARE(spins.size(), 2);
  spins[0]->setValue(1920);
  spins[1]->setValue(1080);
  QCOMPARE(dialog.chosenSize(), QSize(1920, 1080));
}

void TstApp::badFileShowsErrorAndKeepsWorld() {
  QTemporaryDir dir;
  MainWindow w(MainWindow::Options{false});
  w.document()->resetWorld(test::makeTestWorld(), "/some/where/current.xml");
  w.document()->push(new SetBodyPoseCommand(w.document(), kBox, Transform::fromTranslation(Vec3(7, 8, 9))));
  const auto bodiesBefore = w.document()->world().bodyCount();

  const QString bad = dir.filePath("broken.xml");
  test::writeText(bad, "<?xml version=\"1.0\" ?>\n<world>\n  <graspableBody>\n    <filename>nowhere.xml</filename>\n"
                       "  </graspableBody>\n</world>\n");
  {
    test::MessageBoxCloser closer;
    QVERIFY(!w.openWorldFile(bad));
    QCOMPARE(closer.count(), 1);
    QCOMPARE(closer.icon(), QMessageBox::Critical);
    QVERIFY2(closer.text().contains("broken.xml"), qPrintable(closer.text()));
    QVERIFY2(closer.text().contains("nowhere.xml"), qPrintable(closer.text()));
  }
  const QString malformed = dir.filePath("malformed.xml");
  test::writeText(malformed, "<world>\n<obstacle>\n</world>\n");
  {
    test::MessageBoxCloser closer;
    QVERIFY(!w.openWorldFile(malformed));
    QCOMPARE(closer.count(), 1);
    QVERIFY2(closer.text().contains("malformed.xml"), qPrintable(closer.text()));
  }
  {
    test::MessageBoxCloser closer;
    QVERIFY(!w.openWorldFile(dir.filePath("does-not-exist.xml")));
    QCOMPARE(closer.count(), 1);
  }
  // The current world is untouched: same bodies, same edit, same path, undo history kept.
  QCOMPARE(w.document()->world().bodyCount(), bodiesBefore);
  QVERIFY(X_WB(w.document()->world().state, kBox).translation().isApprox(Vec3(7, 8, 9)));
  QCOMPARE(w.document()->filePath(), QString("/some/where/current.xml"));
  QVERIFY(w.document()->isModified());
  QCOMPARE(w.document()->undoStack()->count(), 1);
  QVERIFY(w.recentFiles().isEmpty());
}

void TstApp::saveWritesFileThatLoadsBack() {
  QTemporaryDir dir;
  const QString world = test::writeBoxWorld(dir.path());
  MainWindow w(MainWindow::Options{false});
  QVERIFY(w.openWorldFile(world));
  Document* doc = w.document();
  QCOMPARE(doc->world().graspables.size(), std::size_t(1));
  const Transform moved(Quat(Eigen::AngleAxisd(0.5, Vec3(1, 2, 3).normalized())), Vec3(12.5, -3, 40));
  doc->push(new SetBodyPoseCommand(doc, kBox, moved));
  BodyProperties p = propertiesOf(doc->world().body(kBox));
  p.youngs_Pa = 1.5e6;
  doc->push(new SetBodyPropertiesCommand(doc, kBox, p));
  QVERIFY(doc->isModified());

  const QString out = dir.filePath("saved.xml");
  QVERIFY(w.saveTo(out));
  QVERIFY(!doc->isModified());
  QCOMPARE(doc->filePath(), out);
  QCOMPARE(w.recentFiles().first(), QFileInfo(out).absoluteFilePath());

  const World loaded = loadWorld(out.toStdString());
  QCOMPARE(loaded.graspables.size(), doc->world().graspables.size());
  QCOMPARE(loaded.obstacles.size(), doc->world().obstacles.size());
  QVERIFY(loaded.state.X_WG[0].isApprox(moved, 1e-6));
  QVERIFY(loaded.state.X_WO[0].isApprox(doc->world().state.X_WO[0], 1e-9));
  QVERIFY(loaded.graspables[0].youngs_Pa.has_value());
  QCOMPARE(*loaded.graspables[0].youngs_Pa, 1.5e6);
  QCOMPARE(loaded.graspables[0].mass_g, doc->world().graspables[0].mass_g);
  QCOMPARE(loaded.graspables[0].material, doc->world().graspables[0].material);
  QCOMPARE(loaded.graspables[0].triangleCount(), doc->world().graspables[0].triangleCount());
}

// A robot is saved by file name; its edited link properties go into <linkProperties> (src/io/DEVIATIONS.md).
void TstApp::robotLinkEditsSurviveSave() {
  QTemporaryDir dir;
  Document doc;
  doc.openWorld(sg::test::qInSourceTree("worlds/default.xml"));
  QVERIFY(!doc.world().robots.empty());
  const BodyHandle tip{BodyHandle::Kind::Robot, 0, {0, static_cast<int>(doc.world().robots[0].chains[0].links.size()) - 1}};
  const BodyProperties original = propertiesOf(doc.world().body(tip));
  BodyProperties edited = original;
  edited.youngs_Pa = original.youngs_Pa.value_or(1e6) * 3.5;
  edited.mass_g = original.mass_g + 7.25;
  doc.push(new SetBodyPropertiesCommand(&doc, tip, edited));

  const QString out = dir.filePath("saved.xml");
  doc.saveWorld(out);
  Document reopened;
  reopened.openWorld(out);
  QCOMPARE(propertiesOf(reopened.world().body(tip)), edited);
  const BodyHandle palm{BodyHandle::Kind::Robot, 0, {-1, 0}};
  QCOMPARE(propertiesOf(reopened.world().body(palm)), propertiesOf(doc.world().body(palm)));  // not edited

  // Undone and saved again: the robot file's values come back on reopening.
  doc.undoStack()->undo();
  doc.saveWorld(out);
  Document again;
  again.openWorld(out);
  QCOMPARE(propertiesOf(again.world().body(tip)), original);
}

void TstApp::importAndDropFiles() {
  QTemporaryDir dir;
  test::writeBoxWorld(dir.path());
  MainWindow w(MainWindow::Options{false});
  w.document()->resetWorld(test::makeTestWorld());
  QVERIFY(w.importObjectFile(dir.filePath("box.off")));  // a bare mesh
  QCOMPARE(w.document()->world().graspables.size(), std::size_t(2));
  QCOMPARE(w.document()->world().graspables[1].triangleCount(), std::size_t(12));
  QVERIFY(w.importObjectFile(dir.filePath("box.xml"), true));  // a body XML as an obstacle
  QCOMPARE(w.document()->world().obstacles.size(), std::size_t(2));
  QVERIFY(w.document()->world().obstacles[1].isSoft());
  w.document()->undoStack()->undo();
  w.document()->undoStack()->undo();
  QCOMPARE(w.document()->world().graspables.size(), std::size_t(1));
  QCOMPARE(w.document()->world().obstacles.size(), std::size_t(1));
  {
    test::MessageBoxCloser closer;
    QVERIFY(!w.importObjectFile(dir.filePath("missing.off")));
    QCOMPARE(closer.count(), 1);
    QCOMPARE(w.document()->world().graspables.size(), std::size_t(1));
  }
  // Dropping a mesh imports it; dropping a world opens it.
  auto drop = [&w](const QString& path) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent dropEvent(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &dropEvent);
  };
  drop(dir.filePath("box.off"));
  QCOMPARE(w.document()->world().graspables.size(), std::size_t(2));
  w.document()->undoStack()->setClean();  // no unsaved-changes prompt for the next drop
  drop(dir.filePath("world.xml"));
  QCOMPARE(w.document()->filePath(), dir.filePath("world.xml"));
  QVERIFY(w.document()->world().robots.empty());
}

void TstApp::unsavedChangesPrompt() {
  MainWindow w(MainWindow::Options{false});
  w.document()->resetWorld(test::makeTestWorld());
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  {
    test::MessageBoxCloser closer;  // nothing modified: no question
    QVERIFY(w.close());
    QCOMPARE(closer.count(), 0);
  }
  w.show();
  w.document()->push(new SetBodyPoseCommand(w.document(), kBox, Transform()));
  QVERIFY(w.windowTitle().contains("[*]") && w.isWindowModified());
  {
    test::MessageBoxCloser closer(QMessageBox::Cancel);
    QVERIFY(!w.close());
    QCOMPARE(closer.count(), 1);
    QVERIFY(w.isVisible());
  }
  {
    test::MessageBoxCloser closer(QMessageBox::Cancel);
    QVERIFY(!w.maybeSave());  // what Open… and dropping a world ask first
  }
  {
    test::MessageBoxCloser closer(QMessageBox::Discard);
    QVERIFY(w.close());
    QCOMPARE(closer.count(), 1);
  }
  // Geometry and dock state were saved on close.
  QVERIFY(!QSettings("SoftGrasp", "softgrasp").value("windowState").toByteArray().isEmpty());
}

void TstApp::importBundledRobots() {
  const QDir robots(sg::test::qInSourceTree("models/robots"));
  QStringList files;
  for (const QString& d : robots.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
    if (QFileInfo::exists(robots.filePath(d + "/" + d + ".xml"))) files << robots.filePath(d + "/" + d + ".xml");
  QVERIFY2(!files.isEmpty(), "models/robots holds no robot");
  files << robots.filePath("ThreeFingerURDF/urdf/three_finger.urdf");  // Import Robot takes URDF too
  MainWindow w(MainWindow::Options{false});
  w.document()->resetWorld(test::makeTestWorld());
  for (const QString& f : files) QVERIFY2(w.importRobotFile(f), qPrintable(f));
  const World& world = w.document()->world();
  QCOMPARE(world.robots.size(), std::size_t(1 + files.size()));
  for (const auto& h : world.bodyHandles()) QVERIFY(w.sceneTreeDock()->itemFor(h));
  // Selecting a link of the last robot shows its DOFs, with a row per DOF.
  const int last = static_cast<int>(world.robots.size()) - 1;
  w.document()->setSelection(BodyHandle{BodyHandle::Kind::Robot, last, {-1, 0}});
  QCOMPARE(w.dofDock()->robotIndex(), last);
  QCOMPARE(w.dofDock()->dofRowCount(), static_cast<int>(world.robots[last].dofCount()));
  for (int i = 0; i < files.size(); ++i) w.document()->undoStack()->undo();
  QCOMPARE(w.document()->world().robots.size(), std::size_t(1));
  QCOMPARE(w.dofDock()->robotIndex(), 0);
  QVERIFY(!w.document()->isModified());
}

// A robot naming an eigengrasp file that does not exist loads (as in GraspIt!), and says so: status bar,
// Help > Load Warnings; a clean file clears them. So do an object and a world whose texture is missing.
void TstApp::loadWarningsAreShown() {
  QTemporaryDir dir;
  const std::filesystem::path copy = std::filesystem::path(dir.path().toStdString()) / "ThreeFinger";
  std::filesystem::copy(sg::test::inSourceTree("models/robots/ThreeFinger"), copy,
                        std::filesystem::copy_options::recursive);
  const std::filesystem::path robotFile = copy / "ThreeFinger.xml";
  std::string text;
  {
    std::ifstream in(robotFile);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto at = text.find("eigen/threefinger_eigen.xml");
  QVERIFY(at != std::string::npos);
  text.replace(at, std::string("eigen/threefinger_eigen.xml").size(), "eigen/missing_eigen.xml");
  std::ofstream(robotFile) << text;

  MainWindow window(MainWindow::Options{.createViewport = false});
  QAction* show = window.findChild<QAction*>("actionLoadWarnings");
  QVERIFY(show && !show->isEnabled());
  QVERIFY(window.importRobotFile(QString::fromStdString(robotFile.string())));
  QCOMPARE(window.loadWarnings().size(), 1);
  QVERIFY(window.loadWarnings().front().contains("missing_eigen.xml"));
  QVERIFY(show->isEnabled());
  QVERIFY(window.statusBar()->currentMessage().contains("1 warning"));
  QVERIFY(window.openWorldFile(sg::test::qInSourceTree("worlds/default.xml")));
  QVERIFY(window.loadWarnings().isEmpty());
  QVERIFY(!show->isEnabled());
  // A texture Coin cannot read is a warning of the body that names it, not a load error; the
  // object (here a bare .iv) and a world naming it load.
  const QString floor = dir.filePath("floor.iv");
  {
    QFile f(floor);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("#Inventor V2.1 ascii\nSeparator {\n  Texture2 { filename \"textures/checker.jpg\" }\n"
            "  Cube { width 100 height 100 depth 2 }\n}\n");
  }
  QVERIFY(window.importObjectFile(floor, /*obstacle=*/true));
  QCOMPARE(window.loadWarnings().size(), 1);
  QVERIFY(window.loadWarnings().front().contains("textures/checker.jpg"));
  QVERIFY(show->isEnabled());
  const QString world = dir.filePath("floor_world.xml");
  {
    QFile f(world);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("<world><obstacle><filename>floor.iv</filename></obstacle></world>\n");
  }
  QVERIFY(window.openWorldFile(world));
  QCOMPARE(window.document()->world().obstacles.size(), std::size_t(1));
  QCOMPARE(window.loadWarnings().size(), 1);
  QVERIFY(window.loadWarnings().front().startsWith(floor + ":3: texture 'textures/checker.jpg' not found"));
  QVERIFY(window.statusBar()->currentMessage().contains("1 warning"));
}

void TstApp::commandLineParsing_data() {
  QTest::addColumn<QStringList>("args");
  QTest::addColumn<bool>("ok");
  QTest::addColumn<QString>("world");
  QTest::addColumn<QString>("shot");
  QTest::addColumn<QSize>("size");
  QTest::addColumn<int>("view");
  const int iso = static_cast<int>(StandardView::Iso), top = static_cast<int>(StandardView::Top);
  QTest::newRow("empty") << QStringList{} << true << "" << "" << QSize(800, 600) << iso;
  QTest::newRow("world") << QStringList{"w.xml"} << true << "w.xml" << "" << QSize(800, 600) << iso;
  QTest::newRow("shot") << QStringList{"w.xml", "--screenshot", "o.png", "--size", "320x200", "--view", "top"}
                        << true << "w.xml" << "o.png" << QSize(320, 200) << top;
  QTest::newRow("no world") << QStringList{"--screenshot", "o.png"} << false << "" << "" << QSize() << 0;
  QTest::newRow("bad size") << QStringList{"w.xml", "--screenshot", "o.png", "--size", "12"} << false << ""
                            << "" << QSize() << 0;
  QTest::newRow("zero size") << QStringList{"w.xml", "--screenshot", "o.png", "--size", "0x10"} << false << ""
                             << "" << QSize() << 0;
  QTest::newRow("bad view") << QStringList{"w.xml", "--screenshot", "o.png", "--view", "back"} << false << ""
                            << "" << QSize() << 0;
  QTest::newRow("unknown option") << QStringList{"--frobnicate"} << false << "" << "" << QSize() << 0;
  QTest::newRow("two worlds") << QStringList{"a.xml", "b.xml"} << false << "" << "" << QSize() << 0;
}

void TstApp::commandLineParsing() {
  QFETCH(QStringList, args);
  QFETCH(bool, ok);
  QString error;
  const auto cl = parseCommandLine(QStringList{"softgrasp"} + args, &error);
  QCOMPARE(cl.has_value(), ok);
  if (!ok) {
    QVERIFY(!error.isEmpty());
    return;
  }
  QFETCH(QString, world);
  QFETCH(QString, shot);
  QFETCH(QSize, size);
  QFETCH(int, view);
  QCOMPARE(cl->world, world);
  QCOMPARE(cl->screenshot, shot);
  QCOMPARE(cl->size, size);
  QCOMPARE(static_cast<int>(cl->view), view);
  QCOMPARE(cl->viewGiven, args.contains("--view"));
}

void TstApp::commandLineGraspOptions() {
  QString error;
  auto cl = parseCommandLine({"softgrasp", "w.xml", "--screenshot", "o.png"}, &error);
  QVERIFY(cl);
  QVERIFY(!cl->approach && !cl->autoGrasp && cl->overlays);
  QVERIFY(cl->contactModel.empty());
  cl = parseCommandLine({"softgrasp", "w.xml", "--screenshot", "o.png", "--approach", "--autograsp", "--contact-model",
                         "soft", "--no-overlays"},
                        &error);
  QVERIFY2(cl, qPrintable(error));
  QVERIFY(cl->approach && cl->autoGrasp && !cl->overlays);
  // The switches move the hand as softgrasp-cli's do (one preset table, one default approach distance).
  const HandMotionRequest g = screenshotMotion(*cl);
  QVERIFY(g.approach && g.fingers == FingerMotion::Close);
  QCOMPARE(g.approachDistance_mm, presetMotion(HandMotionPreset::ApproachAndGrasp).approachDistance_mm);
  const auto approachOnly = parseCommandLine({"softgrasp", "w.xml", "--screenshot", "o.png", "--approach"}, &error);
  QVERIFY2(approachOnly, qPrintable(error));
  const HandMotionRequest a = screenshotMotion(*approachOnly);
  QVERIFY(a.approach && a.fingers == FingerMotion::Keep);
  QCOMPARE(a.approachDistance_mm, kApproachBeforeGrasp_mm);  // softgrasp-cli grasp --approach --no-close: 30 mm
  QVERIFY(usageText().contains("30 mm"));  // the help says the distance
  QCOMPARE(cl->contactModel, std::string("soft-finger"));  // an alias, stored under the registered name
  // A model that is not registered: the message lists the registered ones.
  QVERIFY(!parseCommandLine({"softgrasp", "w.xml", "--screenshot", "o.png", "--contact-model", "rubber"}, &error));
  QVERIFY2(error.contains("rubber") && error.contains("soft-finger") && error.contains("point"), qPrintable(error));
  // The screenshot's options without a screenshot: named in the message.
  QVERIFY(!parseCommandLine({"softgrasp", "w.xml", "--autograsp"}, &error));
  QVERIFY2(error.contains("--autograsp") && error.contains("--screenshot"), qPrintable(error));
  QVERIFY(!parseCommandLine({"softgrasp", "w.xml", "--approach", "--contact-model", "point"}, &error));
  QVERIFY2(error.contains("--approach") && error.contains("--contact-model"), qPrintable(error));
  QVERIFY(usageText().contains("--autograsp"));
  QVERIFY(usageText().contains("--contact-model"));
}

// --fit and --window/--dock (the user guide's pictures): what each sets, and the combinations that are refused.
void TstApp::commandLinePictureOptions() {
  QString error;
  const QStringList shot{"softgrasp", "w.xml", "--screenshot", "o.png"};
  auto cl = parseCommandLine(shot, &error);
  QVERIFY(cl && !cl->fitGrasp && !cl->window && cl->dock.isEmpty());
  cl = parseCommandLine(shot + QStringList{"--fit", "GRASP"}, &error);
  QVERIFY2(cl && cl->fitGrasp, qPrintable(error));
  cl = parseCommandLine(shot + QStringList{"--fit", "all"}, &error);
  QVERIFY2(cl && !cl->fitGrasp, qPrintable(error));
  cl = parseCommandLine(shot + QStringList{"--window", "--dock", "Hydroelastic Surface", "--autograsp"}, &error);
  QVERIFY2(cl && cl->window && cl->dock == "Hydroelastic Surface" && cl->autoGrasp, qPrintable(error));
  QVERIFY(!parseCommandLine(shot + QStringList{"--fit", "table"}, &error));
  QVERIFY2(error.contains("table") && error.contains("grasp"), qPrintable(error));
  QVERIFY(!parseCommandLine(shot + QStringList{"--dock", "Quality"}, &error));  // --dock without --window
  QVERIFY2(error.contains("--dock") && error.contains("--window"), qPrintable(error));
  QVERIFY(!parseCommandLine(shot + QStringList{"--window", "--no-overlays"}, &error));
  QVERIFY2(error.contains("--no-overlays"), qPrintable(error));
  QVERIFY(!parseCommandLine(shot + QStringList{"--window", "--fit", "grasp"}, &error));
  QVERIFY2(error.contains("--fit"), qPrintable(error));
  QVERIFY(!parseCommandLine({"softgrasp", "w.xml", "--window"}, &error));  // only with --screenshot
  QVERIFY2(error.contains("--window") && error.contains("--screenshot"), qPrintable(error));
  for (const char* option : {"--fit", "--window", "--dock"}) QVERIFY2(usageText().contains(option), option);
}

// `softgrasp --help` prints its usage with no display at all.
void TstApp::helpWithoutADisplay() {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(name);
  p.setProcessEnvironment(env);
  p.start(sg::test::qInBuildTree("ui/app/softgrasp"), {"--help"});
  QVERIFY(p.waitForFinished(60000));
  QCOMPARE(p.exitStatus(), QProcess::NormalExit);
  QCOMPARE(p.exitCode(), 0);
  QVERIFY2(p.readAllStandardOutput().contains("--screenshot"), p.readAllStandardError().constData());
}

// softgrasp --version prints project()'s version (core/Version.h), without a display, as softgrasp-cli does.
void TstApp::versionIsTheProjectVersion() {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(name);
  p.setProcessEnvironment(env);
  p.start(sg::test::qInBuildTree("ui/app/softgrasp"), {"--version"});
  QVERIFY(p.waitForFinished(60000));
  QCOMPARE(p.exitStatus(), QProcess::NormalExit);
  QCOMPARE(p.exitCode(), 0);
  QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()), QStringLiteral("softgrasp " SG_PROJECT_VERSION "\n"));
  const auto parsed = sg::app::parseCommandLine({"softgrasp", "--version"}, nullptr);
  QVERIFY(parsed && parsed->version && !parsed->help);
}

// The world the application opens (worldToOpen, io/DataDirectory.h): without WORLD the bundled default world (for
// this build-tree executable, the source checkout's); a relative WORLD from the working directory first, then
// from the data directory; with --screenshot never a default.
void TstApp::worldToOpenFollowsTheDataDirectoryRule() {
  const auto same = [](const QString& a, const QString& b) {
    return !a.isEmpty() && QFileInfo(a).canonicalFilePath() == QFileInfo(b).canonicalFilePath();
  };
  QTemporaryDir elsewhere;
  struct Restore {  // the working directory, also when a check fails
    QString previous = QDir::currentPath();
    ~Restore() { QDir::setCurrent(previous); }
  } restore;
  QDir::setCurrent(elsewhere.path());
  const auto noWorld = parseCommandLine({"softgrasp"}, nullptr);
  QVERIFY(noWorld && noWorld->world.isEmpty());
  QVERIFY2(same(worldToOpen(*noWorld), sg::test::qInSourceTree("worlds/default.xml")),
           qPrintable(worldToOpen(*noWorld)));
  const auto named = parseCommandLine({"softgrasp", "worlds/paralleljaw_box.xml"}, nullptr);
  QVERIFY(named);
  QVERIFY2(same(worldToOpen(*named), sg::test::qInSourceTree("worlds/paralleljaw_box.xml")),
           qPrintable(worldToOpen(*named)));
  const auto shot = parseCommandLine({"softgrasp", "worlds/paralleljaw_box.xml", "--screenshot", "o.png"}, nullptr);
  QVERIFY(shot);
  QVERIFY(same(worldToOpen(*shot), sg::test::qInSourceTree("worlds/paralleljaw_box.xml")));
  // A file of that name in the working directory wins, and stays as typed.
  QVERIFY(QDir().mkpath("worlds"));
  QVERIFY(QFile::copy(sg::test::qInSourceTree("worlds/default.xml"), "worlds/paralleljaw_box.xml"));
  QCOMPARE(worldToOpen(*named), QStringLiteral("worlds/paralleljaw_box.xml"));
  // Found nowhere: unchanged, so the error names what was typed.
  const auto missing = parseCommandLine({"softgrasp", "worlds/none.xml"}, nullptr);
  QVERIFY(missing);
  QCOMPARE(worldToOpen(*missing), QStringLiteral("worlds/none.xml"));
}

// The Young's-modulus error is shown whole, wrapped in the Properties dock.
void TstApp::youngsErrorIsNotClipped() {
  MainWindow w(MainWindow::Options{false});
  w.resize(1000, 700);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  w.document()->resetWorld(test::makeTestWorld());
  w.document()->setSelection(BodyHandle{BodyHandle::Kind::Graspable, 0, {}});
  auto* youngs = w.propertiesDock()->findChild<QLineEdit*>();
  QVERIFY(youngs);
  youngs->setText("abc");
  QVERIFY(!w.propertiesDock()->applyYoungs());
  auto* status = w.propertiesDock()->findChild<QLabel*>("youngsStatus");
  QVERIFY(status);
  QTest::qWait(20);
  const QString text = status->text();
  QVERIFY(text.contains("or empty for rigid"));
  QVERIFY(status->wordWrap());
  auto needed = [&] {
    return status->fontMetrics().boundingRect(QRect(0, 0, status->width(), 10000), Qt::TextWordWrap, text);
  };
  QTRY_VERIFY_WITH_TIMEOUT(needed().height() <= status->height(), 2000);
  QVERIFY2(needed().height() <= status->height() && needed().width() <= status->width(),
           qPrintable(QString("needs %1x%2, has %3x%4").arg(needed().width()).arg(needed().height()).arg(status->width()).arg(status->height())));
}

QTEST_MAIN(TstApp)
#include "tst_app.moc"
