// The contact tools of the application on the offscreen platform (no viewport): the Grasp actions on the
// default world (auto-grasp touches the mug with every finger, one undo step, auto-open, approach along the
// approach direction), the contacts dock and the shared contact selection, the contact overlay's state,
// collision-stopped DOF and pose edits, and the shortcuts.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QDoubleSpinBox>
#include <QTreeWidgetItem>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QUndoStack>

#include <Inventor/nodes/SoDepthBuffer.h>
#include <Inventor/nodes/SoSeparator.h>

#include "../support/AppTestSetup.h"
#include "AnalysisExport.h"
#include "CollisionStoppedEdits.h"
#include "Commands.h"
#include "ContactOverlay.h"
#include "ContactsDock.h"
#include "DofDock.h"
#include "Document.h"
#include "GraspActions.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "PoseEditor.h"
#include "PropertiesDock.h"
#include "SceneTreeDock.h"
#include "contact/ContactDetection.h"
#include "model/EigenGraspMap.h"
#include "model/Kinematics.h"
#include "render/ContactNodes.h"
#include "../support/PlacedBody.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {
using K = BodyHandle::Kind;
const BodyHandle kMug{K::Graspable, 0, {}};

QString defaultWorldPath() { return sg::test::qInSourceTree("worlds/default.xml"); }

QAction* action(QWidget* window, const char* name) { return window->findChild<QAction*>(name); }

// Contacts between the mug and a link of finger (chain) `chain` of robot 0.
int fingerContacts(const std::vector<Contact>& contacts, int chain) {
  int n = 0;
  for (const Contact& c : contacts) {
    const bool a = c.side1.body == kMug && c.side2.body.kind == K::Robot && c.side2.body.ref.chain == chain;
    const bool b = c.side2.body == kMug && c.side1.body.kind == K::Robot && c.side1.body.ref.chain == chain;
    n += a || b;
  }
  return n;
}

}  // namespace

class TstUiContacts : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void cleanup();

  void actionsInMenuAndToolbar();
  void autoGraspTouchesWithEveryFinger();
  void dockListsTheContacts();
  void rowSelectionIsTheSharedContactSelection();
  void overlayFollowsContactsAndToggles();
  void autoGraspIsOneUndoStep();
  void actionsMoveTheSelectedRobot();
  void autoOpenOpens();
  void approachMovesAlongTheApproachDirection();
  void approachAndGraspIsOneStep();
  void dofSliderStopsAtContact();
  void dofEditWithoutCollisionCheckingGoesThrough();
  void draggedRobotStopsAtContact();
  void blockedEditPushesNothing();
  void plainGShortcutSparesSpinBoxes();
  void typedPoseStopsAtContact();
  void refusedEditsRevertTheWidgets();
  void oneNamingAndNumbering();
  void exportContactsAndQuality();
  void activeHandAndObjectSelectors();
  void interpenetrationIsReported();

 private:
  std::unique_ptr<MainWindow> window_;
  Document* doc_ = nullptr;
  GraspAnalysis* analysis_ = nullptr;
  QTemporaryDir settingsDir_;
};

void TstUiContacts::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
}

void TstUiContacts::init() {
  QSettings("SoftGrasp", "softgrasp").clear();
  MainWindow::Options options;
  options.createViewport = false;
  window_ = std::make_unique<MainWindow>(options);
  QVERIFY(!window_->viewportPanel());
  doc_ = window_->document();
  analysis_ = window_->analysis();
  QVERIFY(window_->openWorldFile(defaultWorldPath()));
  analysis_->recompute();
  QVERIFY(!anyCollision(doc_->world()));
}

void TstUiContacts::cleanup() {
  if (doc_) doc_->undoStack()->setClean();  // no "save changes?" question on close
  window_.reset();
  doc_ = nullptr;
  analysis_ = nullptr;
}

void TstUiContacts::actionsInMenuAndToolbar() {
  for (const char* name : {"actionApproach", "actionAutoGrasp", "actionApproachAndGrasp", "actionAutoOpen",
                           "actionCollisionChecking", "actionShowContacts", "actionShowFrictionCones"}) {
    QAction* a = action(window_.get(), name);
    QVERIFY2(a, name);
    QVERIFY2(window_->graspMenu()->actions().contains(a), name);
    QVERIFY2(a->isEnabled(), name);
  }
  for (const char* name : {"actionApproach", "actionAutoGrasp", "actionApproachAndGrasp", "actionAutoOpen",
                           "actionCollisionChecking"})
    QVERIFY2(window_->graspToolBar()->actions().contains(action(window_.get(), name)), name);
  QAction* collision = action(window_.get(), "actionCollisionChecking");
  QVERIFY(collision->isCheckable() && collision->isChecked());  // on by default
  QVERIFY(CollisionStoppedEdits::of(doc_) && CollisionStoppedEdits::of(doc_)->isEnabled());
  collision->setChecked(false);
  QVERIFY(!CollisionStoppedEdits::of(doc_)->isEnabled());
  CollisionStoppedEdits::of(doc_)->setEnabled(true);  // the action follows the edits' switch
  QVERIFY(collision->isChecked());
  // The contacts dock has a View menu entry.
  auto* dock = window_->findChild<ContactsDock*>();
  QVERIFY(dock);
  QVERIFY(window_->viewMenu()->actions().contains(dock->toggleViewAction()));
  // Without robots the motions are disabled.
  doc_->resetWorld(World{});
  QVERIFY(!action(window_.get(), "actionAutoGrasp")->isEnabled());
  QVERIFY(!action(window_.get(), "actionApproach")->isEnabled());
}

void TstUiContacts::autoGraspTouchesWithEveryFinger() {
  const int before = analysis_->updateCount();
  action(window_.get(), "actionAutoGrasp")->trigger();
  QVERIFY(!anyCollision(doc_->world()));
  QApplication::processEvents();  // the live analysis is coalesced through a zero-time timer
  QVERIFY(analysis_->updateCount() > before);
  const std::vector<Contact>& contacts = analysis_->contacts();
  for (int chain = 0; chain < 3; ++chain)
    QVERIFY2(fingerContacts(contacts, chain) > 0, qPrintable(QString("no contact on finger %1").arg(chain)));
  for (const Contact& c : contacts) QVERIFY(c.separation_mm > 0 && c.separation_mm <= 0.2 + 1e-9);
  QVERIFY2(window_->statusBar()->currentMessage().contains("contact"), qPrintable(window_->statusBar()->currentMessage()));
  // The grasp is evaluated with a soft contact on every finger (the fingertips are soft).
  QVERIFY(analysis_->evaluation().has_value());
  int soft = 0;
  for (const auto& e : analysis_->evaluation()->contacts) soft += (e.kind == ContactKind::SoftFinger);
  QVERIFY(soft >= 3);
}

void TstUiContacts::dockListsTheContacts() {
  action(window_.get(), "actionAutoGrasp")->trigger();
  analysis_->recompute();
  const auto* dock = window_->findChild<ContactsDock*>();
  QVERIFY(dock);
  const QTableWidget* table = dock->table();
  const std::vector<Contact>& contacts = analysis_->contacts();
  QVERIFY(contacts.size() >= 3);
  QCOMPARE(table->rowCount(), static_cast<int>(contacts.size()));
  const World& w = doc_->world();
  bool sawFingerLabel = false, sawSoftType = false;
  for (int i = 0; i < table->rowCount(); ++i) {
    const Contact& c = contacts[i];
    QCOMPARE(table->item(i, ContactsDock::kBody1)->text(), QString::fromStdString(w.bodyLabel(c.side1.body)));
    QCOMPARE(table->item(i, ContactsDock::kBody2)->text(), QString::fromStdString(w.bodyLabel(c.side2.body)));
    QCOMPARE(table->item(i, ContactsDock::kSeparation)->text().toDouble(), std::round(c.separation_mm * 1000) / 1000);
    QCOMPARE(table->item(i, ContactsDock::kMuStatic)->text(), QString::number(c.muStatic, 'f', 2));
    QVERIFY(table->item(i, ContactsDock::kPosition)->text().contains(QString::number(c.side1.p_WC_mm.x(), 'f', 2)));
    sawFingerLabel |= table->item(i, ContactsDock::kBody2)->text().startsWith("ThreeFinger/chain");
    if (const auto e = analysis_->evaluationOfContact(i); e && analysis_->evaluation()->contacts[*e].kind == ContactKind::SoftFinger) {
      QCOMPARE(table->item(i, ContactsDock::kType)->text(), QString("soft finger, fitted"));
      sawSoftType = true;
    }
  }
  QVERIFY(sawFingerLabel);
  QVERIFY(sawSoftType);
  QVERIFY(dock->findChild<QLabel*>("contactsSummary")->text().startsWith(QString::number(contacts.size())));
  // The three fingertip contacts come first, before the mug's many contacts with the table.
  QVERIFY(contacts.size() > 3);
  for (std::size_t i = 0; i < contacts.size(); ++i) QCOMPARE(isHandContact(contacts[i]), i < 3);
  QVERIFY(dock->findChild<QLabel*>("contactsSummary")->text().contains("3 by a hand"));
  // Live: opening the hand again changes the rows.
  doc_->undoStack()->undo();
  analysis_->recompute();
  QCOMPARE(table->rowCount(), static_cast<int>(analysis_->contacts().size()));
  for (int chain = 0; chain < 3; ++chain) QCOMPARE(fingerContacts(analysis_->contacts(), chain), 0);
}

void TstUiContacts::rowSelectionIsTheSharedContactSelection() {
  action(window_.get(), "actionAutoGrasp")->trigger();
  analysis_->recompute();
  auto* dock = window_->findChild<ContactsDock*>();
  auto* overlay = window_->findChild<ContactOverlay*>();
  QVERIFY(dock && overlay);
  QTableWidget* table = dock->table();
  QVERIFY(table->rowCount() >= 3);
  QSignalSpy changed(analysis_, &GraspAnalysis::selectedContactChanged);
  table->selectRow(1);
  QCOMPARE(analysis_->selectedContact(), std::optional<int>(1));
  QCOMPARE(changed.count(), 1);
  QCOMPARE(overlay->nodes().highlighted(), std::optional<int>(1));
  // Selected elsewhere (e.g. the soft-contact inspector): the row follows, and so does the highlight.
  analysis_->setSelectedContact(2);
  const auto rows = table->selectionModel()->selectedRows();
  QCOMPARE(rows.size(), 1);
  QCOMPARE(rows.first().row(), 2);
  QCOMPARE(overlay->nodes().highlighted(), std::optional<int>(2));
  table->clearSelection();
  QVERIFY(!analysis_->selectedContact());
  QVERIFY(!overlay->nodes().highlighted());
  // A model change recomputes the contacts and drops the selection.
  table->selectRow(0);
  QVERIFY(analysis_->selectedContact());
  action(window_.get(), "actionAutoOpen")->trigger();
  analysis_->recompute();
  QVERIFY(!analysis_->selectedContact());
  QVERIFY(table->selectionModel()->selectedRows().isEmpty());
}

void TstUiContacts::overlayFollowsContactsAndToggles() {
  auto* overlay = window_->findChild<ContactOverlay*>();
  QVERIFY(overlay);
  action(window_.get(), "actionAutoGrasp")->trigger();
  analysis_->recompute();
  const auto& contacts = analysis_->contacts();
  const ContactNodes& nodes = overlay->nodes();
  QCOMPARE(nodes.contactCount(), static_cast<int>(contacts.size()));
  // A cone for every contact, the soft fingertip contacts included (their patches come from the quality
  // tools); the hand's are drawn over the bodies, the table's are depth-tested.
  int softContacts = 0;
  for (int i = 0; i < static_cast<int>(contacts.size()); ++i) {
    const auto e = analysis_->evaluationOfContact(i);
    softContacts += e && analysis_->evaluation()->contacts[*e].kind == ContactKind::SoftFinger;
    QVERIFY(nodes.coneNode(i) != nullptr);
    const bool byHand = contacts[i].side2.body.kind == K::Robot || contacts[i].side1.body.kind == K::Robot;
    QCOMPARE(nodes.glyph(i).onTop, byHand);
    QCOMPARE(nodes.coneNode(i)->getChild(0)->isOfType(SoDepthBuffer::getClassTypeId()), byHand);
    QVERIFY(nodes.glyph(i).position_mm().isApprox(contacts[i].side1.p_WC_mm, 1e-6) ||
            nodes.glyph(i).position_mm().isApprox(contacts[i].side2.p_WC_mm, 1e-6));
  }
  QCOMPARE(softContacts, 3);
  QCOMPARE(nodes.coneCount(), static_cast<int>(contacts.size()));
  // The table–mug contact's cone stands on the mug and opens out of it (downwards, into the table).
  for (int i = 0; i < static_cast<int>(contacts.size()); ++i) {
    const Contact& c = contacts[i];
    if (c.side1.body.kind == K::Obstacle && c.side2.body == kMug) {
      const FrictionCone cone = frictionCone(nodes.glyph(i));
      QVERIFY(cone.axis.isApprox(-c.side2.n_W, 1e-9));
      QVERIFY(cone.axis.z() < -0.9);
      QVERIFY(std::abs(cone.halfAngle_rad - std::atan(c.muStatic)) < 1e-12);
    }
  }
  QAction* showContacts = action(window_.get(), "actionShowContacts");
  QAction* showCones = action(window_.get(), "actionShowFrictionCones");
  QVERIFY(showContacts->isChecked() && showCones->isChecked());
  showCones->setChecked(false);
  QVERIFY(!overlay->conesVisible() && overlay->contactsVisible());
  showContacts->setChecked(false);
  QVERIFY(!overlay->contactsVisible());
  QVERIFY(!showCones->isEnabled());
  showContacts->setChecked(true);
  showCones->setChecked(true);
  QVERIFY(overlay->contactsVisible() && overlay->conesVisible());
}

void TstUiContacts::autoGraspIsOneUndoStep() {
  QUndoStack* stack = doc_->undoStack();
  const int steps = stack->count();
  const std::vector<double> open = doc_->world().state.robots[0].dofValues;
  const Transform pose = doc_->world().state.robots[0].X_WP;
  QAction* grasp = action(window_.get(), "actionAutoGrasp");
  QCOMPARE(grasp->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_G));
  grasp->trigger();
  const std::vector<double> closed = doc_->world().state.robots[0].dofValues;
  QVERIFY(closed != open);
  for (int k = 1; k < 4; ++k) QVERIFY(closed[k] > open[k] + 0.1);  // each finger closed
  QCOMPARE(closed[0], open[0]);                                     // the spread has no auto-grasp velocity
  QCOMPARE(stack->count(), steps + 1);
  QVERIFY(stack->undoText().contains("ThreeFinger"));
  stack->undo();
  QVERIFY(doc_->world().state.robots[0].dofValues == open);
  QVERIFY(doc_->world().state.robots[0].X_WP.isApprox(pose, 0));
  stack->redo();
  QVERIFY(doc_->world().state.robots[0].dofValues == closed);
  QVERIFY(!anyCollision(doc_->world()));
}

void TstUiContacts::actionsMoveTheSelectedRobot() {
  World w = doc_->world();
  const Robot second = w.robots[0];
  RobotState secondState = w.state.robots[0];
  setRobotPose(second, secondState, Transform::fromTranslation(Vec3(600, 0, 0)) * secondState.X_WP);  // beside the mug
  w.addRobot(second, secondState);
  doc_->resetWorld(w);
  auto* actions = window_->findChild<GraspActions*>();
  QCOMPARE(actions->targetRobot(), 0);
  doc_->setSelection(BodyHandle{K::Robot, 1, {0, 1}});  // a link of the second hand
  QCOMPARE(actions->targetRobot(), 1);
  const std::vector<double> first = doc_->world().state.robots[0].dofValues;
  action(window_.get(), "actionAutoGrasp")->trigger();
  QVERIFY(doc_->world().state.robots[0].dofValues == first);
  const RobotState& moved = doc_->world().state.robots[1];
  for (int k = 1; k < 4; ++k) QVERIFY(moved.dofValues[k] > 1.0);  // closed (until the fingertips meet)
  QVERIFY(!anyCollision(doc_->world()));
}

void TstUiContacts::autoOpenOpens() {
  action(window_.get(), "actionAutoGrasp")->trigger();
  const std::vector<double> closed = doc_->world().state.robots[0].dofValues;
  const int steps = doc_->undoStack()->count();
  action(window_.get(), "actionAutoOpen")->trigger();
  const Robot& r = doc_->world().robots[0];
  const std::vector<double> opened = doc_->world().state.robots[0].dofValues;
  for (int k = 1; k < 4; ++k) {
    QVERIFY(opened[k] < closed[k]);
    QCOMPARE(opened[k], r.dofs[k].minValue);  // nothing in the way when opening
  }
  QCOMPARE(doc_->undoStack()->count(), steps + 1);
  analysis_->recompute();
  for (int chain = 0; chain < 3; ++chain) QCOMPARE(fingerContacts(analysis_->contacts(), chain), 0);
  QVERIFY(window_->statusBar()->currentMessage().contains("Auto-open"));
}

void TstUiContacts::approachMovesAlongTheApproachDirection() {
  const RobotState before = doc_->world().state.robots[0];
  const Vec3 start = before.X_WP.translation();
  const Vec3 direction = approachDirection(doc_->world().robots[0], before);
  const Quat rotation = before.X_WP.rotation();
  auto* actions = window_->findChild<GraspActions*>();
  QVERIFY(actions);
  QCOMPARE(actions->targetRobot(), 0);
  const int steps = doc_->undoStack()->count();
  action(window_.get(), "actionApproach")->trigger();
  const RobotState& after = doc_->world().state.robots[0];
  const Vec3 moved = after.X_WP.translation() - start;
  QVERIFY2(moved.norm() > 1.0, "the palm did not move");
  QVERIFY(moved.norm() <= GraspActions::kApproachDistance_mm + 1e-6);
  QVERIFY(moved.normalized().isApprox(direction, 1e-6));  // along the approach direction, forwards
  QVERIFY(after.X_WP.rotation().angularDistance(rotation) < 1e-9);
  QVERIFY(!anyCollision(doc_->world()));
  QCOMPARE(doc_->undoStack()->count(), steps + 1);
  // The palm comes down on the mug's rim (or the table): it stops in contact.
  QVERIFY2(window_->statusBar()->currentMessage().contains("contact"), qPrintable(window_->statusBar()->currentMessage()));
  // Approaching again is blocked by the contacts it made: nothing moves, no undo step.
  const Transform stopped = after.X_WP;
  action(window_.get(), "actionApproach")->trigger();
  QVERIFY(doc_->world().state.robots[0].X_WP.isApprox(stopped, 1e-9));
  QCOMPARE(doc_->undoStack()->count(), steps + 1);
  QVERIFY(window_->statusBar()->currentMessage().contains("blocked"));
  doc_->undoStack()->undo();
  QVERIFY(doc_->world().state.robots[0].X_WP.translation().isApprox(start, 1e-12));
}

void TstUiContacts::approachAndGraspIsOneStep() {
  QAction* g = action(window_.get(), "actionApproachAndGrasp");
  QCOMPARE(g->shortcut(), QKeySequence(Qt::Key_G));
  QCOMPARE(g->shortcutContext(), Qt::WindowShortcut);
  const Vec3 start = doc_->world().state.robots[0].X_WP.translation();
  const Vec3 direction = approachDirection(doc_->world().robots[0], doc_->world().state.robots[0]);
  const int steps = doc_->undoStack()->count();
  g->trigger();
  const Vec3 moved = doc_->world().state.robots[0].X_WP.translation() - start;
  QVERIFY(moved.dot(direction) > 1.0);
  QVERIFY(moved.norm() <= GraspActions::kApproachBeforeGrasp_mm + 1e-6);
  QVERIFY(doc_->world().state.robots[0].dofValues[1] > 0.1);
  QVERIFY(!anyCollision(doc_->world()));
  QCOMPARE(doc_->undoStack()->count(), steps + 1);
  doc_->undoStack()->undo();
  QVERIFY(doc_->world().state.robots[0].X_WP.translation().isApprox(start, 1e-12));
  QCOMPARE(doc_->world().state.robots[0].dofValues[1], 0.0);
}

void TstUiContacts::dofSliderStopsAtContact() {
  DofDock* dofs = window_->dofDock();
  QCOMPARE(dofs->robotIndex(), 0);
  const int steps = doc_->undoStack()->count();
  const double max = doc_->world().robots[0].dofs[1].maxValue;
  QSlider* slider = dofs->dofSlider(1);
  slider->setSliderDown(true);
  for (int v = 100; v <= DofDock::kSliderSteps; v += 100) slider->setValue(v);  // one drag to fully closed
  slider->setSliderDown(false);
  const double value = doc_->world().state.robots[0].dofValues[1];
  QVERIFY2(value < max - 0.05, "the finger went through the mug");
  QVERIFY(value > 0.1);
  QVERIFY(!anyCollision(doc_->world()));
  QCOMPARE(doc_->undoStack()->count(), steps + 1);  // one drag, one step
  analysis_->recompute();
  QVERIFY(fingerContacts(analysis_->contacts(), 0) > 0);
  // The slider shows where the finger stopped once released.
  const double shown = slider->value() / double(DofDock::kSliderSteps) * max;
  QVERIFY(std::abs(shown - value) < max / DofDock::kSliderSteps + 1e-9);
  QVERIFY(window_->statusBar()->currentMessage().contains("contact"));
  doc_->undoStack()->undo();
  QCOMPARE(doc_->world().state.robots[0].dofValues[1], 0.0);
}

void TstUiContacts::dofEditWithoutCollisionCheckingGoesThrough() {
  // With the palm 50 mm above the rim, at 1.8 rad finger 0 reaches through the mug's wall (fully closed,
  // it curls over the rim instead).
  Transform lower = doc_->world().state.robots[0].X_WP;
  lower.setTranslation(Vec3(0, 0, 140));
  doc_->push(new SetRobotPoseCommand(doc_, 0, lower));
  const double through = 1.8;
  QDoubleSpinBox* spin = window_->dofDock()->dofSpinBox(1);
  spin->setValue(radToDeg(through));  // collision checking on: stops at the wall
  QVERIFY(doc_->world().state.robots[0].dofValues[1] < through - 0.1);
  QVERIFY(!anyCollision(doc_->world()));
  action(window_.get(), "actionCollisionChecking")->setChecked(false);
  spin->setValue(0);
  spin->setValue(radToDeg(through));
  QVERIFY(std::abs(doc_->world().state.robots[0].dofValues[1] - through) < 1e-3);  // 0.01° steps
  QVERIFY(anyCollision(doc_->world()));  // the finger is inside the mug now
  // Back on, the world already interpenetrates: edits still go through (to pull the finger out).
  action(window_.get(), "actionCollisionChecking")->setChecked(true);
  spin->setValue(0);
  QCOMPARE(doc_->world().state.robots[0].dofValues[1], 0.0);
  QVERIFY(!anyCollision(doc_->world()));
}

void TstUiContacts::draggedRobotStopsAtContact() {
  auto* edits = CollisionStoppedEdits::of(doc_);
  QVERIFY(edits);
  const Transform start = doc_->world().state.robots[0].X_WP;
  // A drag straight down 300 mm: through the mug to the table, unless stopped.
  const int gesture = doc_->beginGesture();
  const int steps = doc_->undoStack()->count();
  MotionOutcome last = MotionOutcome::Reached;
  for (int mm = 50; mm <= 300; mm += 50)
    last = edits->moveRobot(0, Transform::fromTranslation(Vec3(0, 0, -mm)) * start, gesture);
  QVERIFY(last == MotionOutcome::Blocked || last == MotionOutcome::Contact);
  const double dropped = start.translation().z() - doc_->world().state.robots[0].X_WP.translation().z();
  QVERIFY(dropped > 1 && dropped < 300);
  QVERIFY(!anyCollision(doc_->world()));
  QCOMPARE(doc_->undoStack()->count(), steps + 1);  // one gesture, one step
  // A body is stopped too: the mug lifted into the palm.
  doc_->undoStack()->undo();
  const Transform mug = X_WB(doc_->world().state, kMug);
  QVERIFY(edits->moveBody(kMug, Transform::fromTranslation(Vec3(0, 0, 200)) * mug) == MotionOutcome::Contact);
  const double lifted = X_WB(doc_->world().state, kMug).translation().z() - mug.translation().z();
  QVERIFY(lifted > 1 && lifted < 200);
  QVERIFY(!anyCollision(doc_->world()));
}

void TstUiContacts::blockedEditPushesNothing() {
  action(window_.get(), "actionAutoGrasp")->trigger();
  const int steps = doc_->undoStack()->count();
  const std::vector<double> closed = doc_->world().state.robots[0].dofValues;
  // Every finger is in contact: closing them further is opposed by their contacts.
  std::vector<double> more = closed;
  for (int k = 1; k < 4; ++k) more[k] = doc_->world().robots[0].dofs[k].maxValue;
  auto* edits = CollisionStoppedEdits::of(doc_);
  const MotionOutcome outcome = edits->setDofValues(0, more);
  QVERIFY(outcome == MotionOutcome::Blocked || outcome == MotionOutcome::Contact);
  QVERIFY(!anyCollision(doc_->world()));
  if (outcome == MotionOutcome::Blocked) QCOMPARE(doc_->undoStack()->count(), steps);
  QSignalSpy stopped(edits, &CollisionStoppedEdits::motionStopped);
  QVERIFY(edits->setDofValues(0, more) != MotionOutcome::Reached);
  QCOMPARE(stopped.count(), 1);
}

void TstUiContacts::plainGShortcutSparesSpinBoxes() {
  window_->show();
  window_->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window_.get()));
  QAction* g = action(window_.get(), "actionApproachAndGrasp");
  QSignalSpy triggered(g, &QAction::triggered);
  // Typing "g" into a DOF spin box types; it does not grasp.
  QDoubleSpinBox* spin = window_->dofDock()->dofSpinBox(1);
  spin->setFocus();
  QTest::keyClick(spin, Qt::Key_G);
  QCOMPARE(triggered.count(), 0);
  // Elsewhere in the window, G approaches and grasps.
  window_->findChild<ContactsDock*>()->table()->setFocus();
  QTest::keyClick(window_->findChild<ContactsDock*>()->table(), Qt::Key_G);
  QCOMPARE(triggered.count(), 1);
  QVERIFY(doc_->world().state.robots[0].dofValues[1] > 0.1);
}

// A pose typed in Properties obeys Collision Checking as a drag does.
void TstUiContacts::typedPoseStopsAtContact() {
  doc_->setSelection(BodyHandle{K::Robot, 0, {}});
  auto* pose = window_->findChild<PoseEditor*>();
  QVERIFY(pose);
  QVERIFY(pose->isEnabled());
  const double z0 = doc_->world().state.robots[0].X_WP.translation().z();
  const int steps = doc_->undoStack()->count();
  pose->field(2)->setValue(z0 - 300);  // through the mug and the table, unless stopped
  const double z = doc_->world().state.robots[0].X_WP.translation().z();
  QVERIFY2(z > z0 - 300 + 1 && z < z0, qPrintable(QString::number(z)));
  QVERIFY(!anyCollision(doc_->world()));
  QCOMPARE(doc_->undoStack()->count(), steps + 1);
  QCOMPARE(pose->field(2)->value(), std::round(z * 100) / 100);  // the field shows where it stopped
  QVERIFY2(window_->statusBar()->currentMessage().contains(QStringLiteral("last collision-free pose")),
           qPrintable(window_->statusBar()->currentMessage()));
  // The mug's pose too: lifted into the palm, it stops there.
  doc_->undoStack()->undo();
  doc_->setSelection(kMug);
  const double mz0 = X_WB(doc_->world().state, kMug).translation().z();
  pose->field(2)->setValue(mz0 + 200);
  const double mz = X_WB(doc_->world().state, kMug).translation().z();
  QVERIFY2(mz > mz0 + 1 && mz < mz0 + 200, qPrintable(QString::number(mz)));
  QVERIFY(!anyCollision(doc_->world()));
}

// Interpenetrating bodies (collision checking off) are named, with their depth, in the contacts dock
// and the status bar.
void TstUiContacts::interpenetrationIsReported() {
  action(window_.get(), "actionCollisionChecking")->setChecked(false);
  doc_->setSelection(BodyHandle{K::Robot, 0, {}});
  auto* pose = window_->findChild<PoseEditor*>();
  const double mugZ = X_WB(doc_->world().state, kMug).translation().z();
  pose->field(2)->setValue(mugZ);  // the palm at the mug's height: into the mug
  QCOMPARE(doc_->world().state.robots[0].X_WP.translation().z(), mugZ);  // unchecked: goes through
  QVERIFY(anyCollision(doc_->world()));
  analysis_->recompute();
  const auto& pairs = analysis_->interpenetrations();
  QVERIFY(!pairs.empty());
  QCOMPARE(pairs.size(), collidingPairs(doc_->world()).size());
  for (const Interpenetration& p : pairs) QVERIFY(p.depth_mm > 0);
  QVERIFY(pairs.front().depth_mm >= pairs.back().depth_mm);
  auto* dock = window_->findChild<ContactsDock*>();
  QVERIFY(!dock->collisionLabel()->isHidden());
  const QString first = QString::fromStdString(doc_->world().bodyLabel(pairs.front().body1));
  QVERIFY2(dock->collisionLabel()->text().contains(first), qPrintable(dock->collisionLabel()->text()));
  QVERIFY(dock->collisionLabel()->text().contains(QStringLiteral("mm deep")));
  QVERIFY2(window_->statusBar()->currentMessage().contains(QStringLiteral("interpenetrating")),
           qPrintable(window_->statusBar()->currentMessage()));
  // Pulled apart: nothing reported any more.
  doc_->undoStack()->undo();
  analysis_->recompute();
  QVERIFY(analysis_->interpenetrations().empty());
  QVERIFY(dock->collisionLabel()->isHidden());
  action(window_.get(), "actionCollisionChecking")->setChecked(true);
}

// An edit Collision Checking refuses (or stops short, or the DOF range clamps) leaves every widget showing
// the model's value, not the typed one: DOF spin boxes and sliders, eigengrasp amplitudes, the typed pose.
void TstUiContacts::refusedEditsRevertTheWidgets() {
  action(window_.get(), "actionAutoGrasp")->trigger();
  DofDock* dofs = window_->dofDock();
  const Robot& robot = doc_->world().robots[0];
  auto model = [this](int k) { return doc_->world().state.robots[0].dofValues[static_cast<std::size_t>(k)]; };
  QDoubleSpinBox* spin = dofs->dofSpinBox(1);
  // Close finger 1 as far as it goes (it touches the mug: stopped at once), then type 9999 as a user does: the
  // finger cannot move, the edit is refused, and the field must go back to the finger's angle.
  spin->setValue(spin->maximum());
  QVERIFY(!anyCollision(doc_->world()));
  const int steps = doc_->undoStack()->count();
  const double held = model(1);
  QVERIFY(radToDeg(held) < spin->maximum() - 1);  // the mug stops the finger well short of its limit
  window_->show();
  window_->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window_.get()));
  spin->setFocus();
  spin->selectAll();
  QTest::keyClicks(spin, "9999");
  QTest::keyClick(spin, Qt::Key_Return);
  QCOMPARE(model(1), held);                          // the hand stays...
  QCOMPARE(doc_->undoStack()->count(), steps);       // ...no undo step...
  QVERIFY2(window_->statusBar()->currentMessage().contains("blocked"), qPrintable(window_->statusBar()->currentMessage()));
  QCOMPARE(spin->value(), std::round(radToDeg(held) * 100) / 100);  // ...and the field shows where it is
  // The same refusal set programmatically (the clamped value): the field reverts too.
  spin->setValue(spin->maximum());
  QCOMPARE(spin->value(), std::round(radToDeg(held) * 100) / 100);
  // The slider moved to fully closed (a click on its track, not a drag) snaps back to the finger.
  QSlider* slider = dofs->dofSlider(1);
  slider->setValue(DofDock::kSliderSteps);
  QCOMPARE(model(1), held);
  const Dof& d = robot.dofs[1];
  QCOMPARE(slider->value(),
           static_cast<int>(std::lround((held - d.minValue) / (d.maxValue - d.minValue) * DofDock::kSliderSteps)));
  // An eigengrasp amplitude pushed to its limit: the fingers stop on the mug, the field shows the amplitude of the
  // DOFs reached, not the limit.
  QVERIFY(dofs->eigenRowCount() > 0);
  QDoubleSpinBox* amplitude = dofs->eigenSpinBox(0);
  for (double target : {amplitude->maximum(), amplitude->minimum()}) {
    amplitude->setValue(target);
    QVERIFY(!anyCollision(doc_->world()));
    const double reached = dofsToAmplitudes(robot, doc_->world().state.robots[0].dofValues).at(0);
    QCOMPARE(amplitude->value(), std::round(reached * 1000) / 1000);
  }
  // A typed pose the mug blocks: the field shows the robot's height.
  doc_->setSelection(BodyHandle{K::Robot, 0, {}});
  auto* pose = window_->findChild<PoseEditor*>();
  QVERIFY(pose);
  const double z0 = doc_->world().state.robots[0].X_WP.translation().z();
  pose->field(2)->setValue(z0 - 300);
  pose->field(2)->setValue(z0 - 300);  // in contact already: nothing moves
  const double z = doc_->world().state.robots[0].X_WP.translation().z();
  QVERIFY(z > z0 - 300 + 1);
  QCOMPARE(pose->field(2)->value(), std::round(z * 100) / 100);
}

// The scene tree, Properties, the contacts table and the inspector name a link by World::bodyLabel and
// number contacts from 1.
void TstUiContacts::oneNamingAndNumbering() {
  action(window_.get(), "actionAutoGrasp")->trigger();
  analysis_->recompute();
  const auto& contacts = analysis_->contacts();
  QVERIFY(contacts.size() >= 3);
  const BodyHandle link = contacts[0].side1.body.kind == K::Robot ? contacts[0].side1.body : contacts[0].side2.body;
  QCOMPARE(link.kind, K::Robot);
  const QString label = QString::fromStdString(doc_->world().bodyLabel(link));
  // Scene tree: robot > chainC > linkL spells the label.
  auto* tree = window_->sceneTreeDock()->itemFor(link);
  QVERIFY(tree);
  const QString path = tree->parent()->parent()->text(0) + "/" + tree->parent()->text(0) + "/" + tree->text(0);
  QCOMPARE(path, label);
  // Properties.
  doc_->setSelection(link);
  QCOMPARE(window_->propertiesDock()->findChild<QLabel*>("propertiesName")->text(), label);
  // Contacts table: row i is numbered i + 1 and names the label.
  auto* dock = window_->findChild<ContactsDock*>();
  QCOMPARE(dock->table()->verticalHeaderItem(0)->text(), QString("1"));
  QVERIFY(dock->table()->item(0, ContactsDock::kBody1)->text() == label ||
          dock->table()->item(0, ContactsDock::kBody2)->text() == label);
  // Inspector: the same number and label.
  auto* combo = window_->findChild<QComboBox*>("inspectorContactCombo");
  QVERIFY(combo);
  QVERIFY2(combo->itemText(1).startsWith("#1 ") && combo->itemText(1).contains(label), qPrintable(combo->itemText(1)));
}

// File > Export writes the live contacts and quality as JSON (the CLI's field names) and CSV.
void TstUiContacts::exportContactsAndQuality() {
  QVERIFY(action(window_.get(), "actionExportJson") && action(window_.get(), "actionExportCsv"));
  action(window_.get(), "actionAutoGrasp")->trigger();
  analysis_->recompute();
  QTemporaryDir dir;
  QVERIFY(exportAnalysisJson(*doc_, *analysis_, dir.filePath("a.json")));
  QFile json(dir.filePath("a.json"));
  QVERIFY(json.open(QIODevice::ReadOnly));
  const QJsonObject o = QJsonDocument::fromJson(json.readAll()).object();
  const auto& contacts = analysis_->contacts();
  QCOMPARE(o["contactsFound"].toInt(), static_cast<int>(contacts.size()));
  const QJsonArray found = o["found"].toArray();
  QCOMPARE(found.size(), static_cast<qsizetype>(contacts.size()));
  QCOMPARE(found[0].toObject()["index"].toInt(-1), 0);
  QCOMPARE(found[0].toObject()["body1"].toString(), QString::fromStdString(doc_->world().bodyLabel(contacts[0].side1.body)));
  QCOMPARE(o["contacts"].toArray().size(), static_cast<qsizetype>(analysis_->evaluation()->contacts.size()));
  QCOMPARE(o["measures"].toObject()["epsilon-l1"].toObject()["value"].toDouble(),
           analysis_->evaluation()->measure("epsilon-l1")->value);
  QCOMPARE(o["forceClosure"].toBool(), analysis_->evaluation()->forceClosure());
  QVERIFY(exportContactsCsv(*doc_, *analysis_, dir.filePath("c.csv")));
  QFile csv(dir.filePath("c.csv"));
  QVERIFY(csv.open(QIODevice::ReadOnly));
  const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
  QCOMPARE(lines.size(), static_cast<qsizetype>(contacts.size() + 1));
  QVERIFY(lines[0].startsWith("number,body1,body2"));
  QVERIFY(lines[1].startsWith("1," + QByteArray::fromStdString(doc_->world().bodyLabel(contacts[0].side1.body)) + ","));
}

// The toolbar names the active hand and target object explicitly.
void TstUiContacts::activeHandAndObjectSelectors() {
  auto* actions = window_->findChild<GraspActions*>();
  QVERIFY(actions);
  QComboBox* hand = actions->handSelector();
  QComboBox* object = actions->objectSelector();
  QVERIFY(window_->findChild<QToolBar*>() && hand && object);
  QCOMPARE(hand->count(), static_cast<int>(doc_->world().robots.size()) + 1);
  QCOMPARE(object->count(), static_cast<int>(doc_->world().graspables.size()) + 1);
  QCOMPARE(hand->itemText(1), QString::fromStdString(doc_->world().robots[0].name));
  // The object chosen is the one evaluated, whatever is selected.
  object->setCurrentIndex(1);
  emit object->activated(1);
  QCOMPARE(analysis_->targetGraspable(), std::optional<int>(0));
  doc_->setSelection(std::nullopt);
  analysis_->recompute();
  QCOMPARE(analysis_->graspableIndex(), 0);
  // The hand chosen is the one the Grasp actions move.
  hand->setCurrentIndex(1);
  QCOMPARE(actions->targetRobot(), 0);
  action(window_.get(), "actionAutoGrasp")->trigger();
  QVERIFY(doc_->world().state.robots[0].dofValues[1] > 0.1);
  // Back to following the selection.
  object->setCurrentIndex(0);
  emit object->activated(0);
  QVERIFY(!analysis_->targetGraspable());
}

QTEST_MAIN(TstUiContacts)
#include "tst_ui_contacts.moc"
