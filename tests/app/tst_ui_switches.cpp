// Collision switches of the scene tree on the offscreen platform (no viewport), on the default world after
// auto-grasp: switching the mug's collisions off removes its contacts from the analysis, the contacts dock
// and the overlay, lets a DOF edit close the fingers through the mug, and shows the mug greyed in the tree;
// switching back restores the contacts. A pair switch removes only that pair's contacts. Neither edits
// the world.
#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <algorithm>

#include "../support/AppTestSetup.h"
#include "CollisionStoppedEdits.h"
#include "ContactOverlay.h"
#include "ContactsDock.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "SceneTreeDock.h"
#include "contact/ContactDetection.h"
#include "model/Kinematics.h"
#include "render/ContactNodes.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {
using K = BodyHandle::Kind;
const BodyHandle kMug{K::Graspable, 0, {}};
const BodyHandle kTable{K::Obstacle, 0, {}};

bool involves(const Contact& c, const BodyHandle& h) { return c.side1.body == h || c.side2.body == h; }
bool between(const Contact& c, const BodyHandle& a, const BodyHandle& b) { return involves(c, a) && involves(c, b); }

int count(const std::vector<Contact>& contacts, auto pred) {
  return static_cast<int>(std::count_if(contacts.begin(), contacts.end(), pred));
}

QAction* menuAction(QMenu& menu, const char* name) {
  for (QAction* a : menu.actions())
    if (a->objectName() == QLatin1String(name)) return a;
  return nullptr;
}

}  // namespace

class TstUiSwitches : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void cleanup();

  void menuOffersTheSwitches();
  void mugSwitchedOffLosesItsContactsAndLetsFingersThrough();
  void pairSwitchAffectsOnlyThatPair();
  void openingAWorldClearsTheSwitches();

 private:
  void autoGrasp();
  int contactsDockRows() const { return window_->findChild<ContactsDock*>()->table()->rowCount(); }
  int overlayMarkers() const { return window_->findChild<ContactOverlay*>()->nodes().contactCount(); }

  std::unique_ptr<MainWindow> window_;
  Document* doc_ = nullptr;
  GraspAnalysis* analysis_ = nullptr;
  SceneTreeDock* tree_ = nullptr;
  QTemporaryDir settingsDir_;
};

void TstUiSwitches::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
}

void TstUiSwitches::init() {
  QSettings("SoftGrasp", "softgrasp").clear();
  MainWindow::Options options;
  options.createViewport = false;
  window_ = std::make_unique<MainWindow>(options);
  doc_ = window_->document();
  analysis_ = window_->analysis();
  tree_ = window_->sceneTreeDock();
  QVERIFY(tree_);
  QCOMPARE(tree_->analysis(), analysis_);
  QVERIFY(window_->openWorldFile(sg::test::qInSourceTree("worlds/default.xml")));
  analysis_->recompute();
}

void TstUiSwitches::cleanup() {
  if (doc_) doc_->undoStack()->setClean();  // no "save changes?" question on close
  window_.reset();
  doc_ = nullptr;
  analysis_ = nullptr;
  tree_ = nullptr;
}

void TstUiSwitches::autoGrasp() {
  QAction* grasp = window_->findChild<QAction*>("actionAutoGrasp");
  QVERIFY(grasp);
  grasp->trigger();
  analysis_->recompute();
}

// Switches name bodies by handle: a newly opened world starts with none (its body 0 is another body).
void TstUiSwitches::openingAWorldClearsTheSwitches() {
  AnalysisSettings s = analysis_->settings();
  s.collision.disableBody(kMug);
  s.collision.disablePair(kTable, kMug);
  analysis_->setSettings(s);
  QVERIFY(analysis_->settings().collision.isBodyDisabled(kMug));
  QVERIFY(window_->openWorldFile(sg::test::qInSourceTree("worlds/objects_gallery.xml")));
  QVERIFY(!analysis_->settings().collision.isBodyDisabled(kMug));
  QVERIFY(!analysis_->settings().collision.isUserDisabled(kTable, kMug));
  analysis_->recompute();
  QVERIFY(!analysis_->contacts().empty());  // the gallery's objects rest on its table
}

void TstUiSwitches::menuOffersTheSwitches() {
  // Nothing selected: only the body's own switch, on.
  doc_->setSelection(std::nullopt);
  auto menu = tree_->contextMenuFor(kMug);
  QAction* body = menuAction(*menu, "actionBodyCollisions");
  QVERIFY(body);
  QVERIFY(body->isCheckable() && body->isChecked());
  QVERIFY(!menuAction(*menu, "actionPairCollisions"));
  // With the mug itself selected there is still no pair.
  doc_->setSelection(kMug);
  QVERIFY(!menuAction(*tree_->contextMenuFor(kMug), "actionPairCollisions"));
  // With the table selected, the mug's menu offers the mug–table pair, named after the table.
  doc_->setSelection(kTable);
  menu = tree_->contextMenuFor(kMug);
  QAction* pair = menuAction(*menu, "actionPairCollisions");
  QVERIFY(pair);
  QVERIFY(pair->isCheckable() && pair->isChecked());
  QVERIFY(pair->text().contains(QString::fromStdString(doc_->world().bodyLabel(kTable))));
  // The tree's items carry the menu (a custom context menu).
  QCOMPARE(tree_->tree()->contextMenuPolicy(), Qt::CustomContextMenu);
}

void TstUiSwitches::mugSwitchedOffLosesItsContactsAndLetsFingersThrough() {
  autoGrasp();
  const std::vector<Contact> grasped = analysis_->contacts();
  const int mugContacts = count(grasped, [](const Contact& c) { return involves(c, kMug); });
  const int handContacts = count(grasped, [](const Contact& c) { return isHandContact(c); });
  QVERIFY(handContacts >= 3);
  QVERIFY(mugContacts > handContacts);  // and the mug's rim on the table
  QCOMPARE(contactsDockRows(), static_cast<int>(grasped.size()));
  QCOMPARE(overlayMarkers(), static_cast<int>(grasped.size()));
  const int steps = doc_->undoStack()->index();
  QVERIFY(!tree_->shownCollisionsOff(kMug));

  // With the mug on, closing every finger further is stopped by the mug.
  auto* edits = CollisionStoppedEdits::of(doc_);
  QVERIFY(edits && edits->isEnabled());
  const std::vector<double> closed = doc_->world().state.robots[0].dofValues;
  std::vector<double> further = closed;
  for (int k = 1; k < 4; ++k) further[k] = std::min(closed[k] + 0.3, doc_->world().robots[0].dofs[k].maxValue);
  QVERIFY(edits->setDofValues(0, further) != MotionOutcome::Reached);
  QVERIFY(!anyCollision(doc_->world()));
  doc_->undoStack()->setIndex(steps);

  // Switched off from the scene tree's menu.
  auto menu = tree_->contextMenuFor(kMug);  // owns its actions
  QAction* body = menuAction(*menu, "actionBodyCollisions");
  QVERIFY(body && body->isChecked());
  body->trigger();
  QVERIFY(analysis_->settings().collision.isBodyDisabled(kMug));
  for (const Contact& c : analysis_->contacts()) QVERIFY(!involves(c, kMug));
  QCOMPARE(static_cast<int>(analysis_->contacts().size()), static_cast<int>(grasped.size()) - mugContacts);
  QCOMPARE(contactsDockRows(), static_cast<int>(analysis_->contacts().size()));
  QCOMPARE(overlayMarkers(), static_cast<int>(analysis_->contacts().size()));
  // Shown greyed in the tree; the menu now offers switching it back on.
  QVERIFY(tree_->shownCollisionsOff(kMug));
  QTreeWidgetItem* item = tree_->itemFor(kMug);
  QVERIFY(item->font(0).italic());
  QVERIFY(item->toolTip(0).contains("off"));
  QVERIFY(!tree_->shownCollisionsOff(kTable));
  QVERIFY(!menuAction(*tree_->contextMenuFor(kMug), "actionBodyCollisions")->isChecked());
  // An analysis setting, not an edit of the world.
  QCOMPARE(doc_->undoStack()->index(), steps);
  QVERIFY(doc_->world().graspables[0].collisionEnabled);

  // The same DOF edit now closes the fingers into the mug.
  QCOMPARE(edits->setDofValues(0, further), MotionOutcome::Reached);
  const std::vector<double> reached = doc_->world().state.robots[0].dofValues;
  for (int k = 1; k < 4; ++k) QVERIFY(std::abs(reached[k] - further[k]) < 1e-9);
  bool fingerInMug = false;
  for (const auto& [a, b] : collidingPairs(doc_->world()))
    fingerInMug = fingerInMug || ((a == kMug && b.kind == K::Robot) || (b == kMug && a.kind == K::Robot));
  QVERIFY(fingerInMug);
  doc_->undoStack()->undo();
  QVERIFY(!anyCollision(doc_->world()));

  // Back on: the grasp's contacts return, and the mark goes.
  menu = tree_->contextMenuFor(kMug);
  menuAction(*menu, "actionBodyCollisions")->trigger();
  QVERIFY(!analysis_->settings().collision.isBodyDisabled(kMug));
  QCOMPARE(analysis_->contacts().size(), grasped.size());
  QCOMPARE(count(analysis_->contacts(), [](const Contact& c) { return involves(c, kMug); }), mugContacts);
  QCOMPARE(contactsDockRows(), static_cast<int>(grasped.size()));
  QVERIFY(!tree_->shownCollisionsOff(kMug));
  QVERIFY(!item->font(0).italic());
  QVERIFY(edits->setDofValues(0, further) != MotionOutcome::Reached);
}

void TstUiSwitches::pairSwitchAffectsOnlyThatPair() {
  autoGrasp();
  const std::vector<Contact> grasped = analysis_->contacts();
  // A fingertip touching the mug.
  const auto first = std::find_if(grasped.begin(), grasped.end(), [](const Contact& c) { return isHandContact(c); });
  QVERIFY(first != grasped.end());
  const BodyHandle tip = first->side1.body.kind == K::Robot ? first->side1.body : first->side2.body;
  QVERIFY(between(*first, tip, kMug));
  const int pairContacts = count(grasped, [&](const Contact& c) { return between(c, tip, kMug); });
  const int otherHand = count(grasped, [&](const Contact& c) { return isHandContact(c) && !involves(c, tip); });
  const int onTable = count(grasped, [](const Contact& c) { return between(c, kMug, kTable); });
  QVERIFY(otherHand >= 2);
  QVERIFY(onTable > 0);

  // The fingertip's menu, with the mug selected, switches the fingertip–mug pair.
  doc_->setSelection(kMug);
  auto menu = tree_->contextMenuFor(tip);  // owns its actions
  QAction* pair = menuAction(*menu, "actionPairCollisions");
  QVERIFY(pair && pair->isChecked());
  pair->trigger();
  QVERIFY(analysis_->settings().collision.isUserDisabled(kMug, tip));
  const std::vector<Contact>& off = analysis_->contacts();
  QCOMPARE(count(off, [&](const Contact& c) { return between(c, tip, kMug); }), 0);
  QCOMPARE(count(off, [&](const Contact& c) { return isHandContact(c) && !involves(c, tip); }), otherHand);
  QCOMPARE(count(off, [](const Contact& c) { return between(c, kMug, kTable); }), onTable);
  QCOMPARE(static_cast<int>(off.size()), static_cast<int>(grasped.size()) - pairContacts);
  QCOMPARE(contactsDockRows(), static_cast<int>(off.size()));
  // Neither body is switched off as a whole; the tool tips name the other end.
  QVERIFY(!analysis_->settings().collision.isBodyDisabled(tip));
  QVERIFY(!analysis_->settings().collision.isBodyDisabled(kMug));
  QVERIFY(!tree_->shownCollisionsOff(tip) && !tree_->shownCollisionsOff(kMug));
  QVERIFY(tree_->itemFor(tip)->toolTip(0).contains(QString::fromStdString(doc_->world().bodyLabel(kMug))));
  QVERIFY(tree_->itemFor(kMug)->toolTip(0).contains(QString::fromStdString(doc_->world().bodyLabel(tip))));
  QVERIFY(tree_->itemFor(kTable)->toolTip(0).isEmpty());

  // Back on.
  menu = tree_->contextMenuFor(tip);
  pair = menuAction(*menu, "actionPairCollisions");
  QVERIFY(pair && !pair->isChecked());
  pair->trigger();
  QVERIFY(analysis_->settings().collision.userDisabledPairs.empty());
  QCOMPARE(analysis_->contacts().size(), grasped.size());
  QVERIFY(tree_->itemFor(tip)->toolTip(0).isEmpty());
}

QTEST_MAIN(TstUiSwitches)
#include "tst_ui_switches.moc"
