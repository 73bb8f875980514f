// Grasp > Grasp Library (ui/app/GraspLibraryDock.h) on the offscreen platform, over a real SQLite file the
// test writes through the store (src/store/GraspListRun.h): the library lists the stored grasps, the robot,
// object, contact-model, threshold and force-closure filters and the column sort work, selecting a row
// previews it without touching the undo stack, Apply sets the hand to the row's grasp as one undo step (undo
// restores), Export writes a grasp list equal to the selected rows, the Planner dock's To Database lands its
// list in the file, and a file that is not a database is refused by name with the document untouched.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <cmath>
#include <optional>
#include <set>

#include "../support/AppTestSetup.h"
#include "Document.h"
#include "GraspLibraryDock.h"
#include "GraspLibraryModel.h"
#include "MainWindow.h"
#include "PlannerDock.h"
#include "grasp/planner/GraspList.h"
#include "model/Kinematics.h"
#include "render/CoinInit.h"
#include "store/GraspListRun.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {

constexpr double kTol = 1e-9;

bool samePose(const Transform& a, const Transform& b) {
  return (a.translation() - b.translation()).norm() < 1e-6 && a.rotation().angularDistance(b.rotation()) < 1e-9;
}

// One grasp per entry of `eps`: the palm moved from the hand's pose by i mm along x and turned by 0.1·i rad
// about z, DOF values spread over their ranges, the given energy, ε L1 and force closure, one contact.
planner::GraspList makeList(const World& world, const std::string& robotName, const std::vector<double>& eps,
                            const std::vector<double>& energy, const std::vector<bool>& fc) {
  planner::GraspList list;
  list.robot = robotName;
  list.robotIndex = 0;
  list.graspableIndex = 0;
  list.object = world.bodyLabel(BodyHandle{BodyHandle::Kind::Graspable, 0, {}});
  list.world = world.sourceFile;
  list.seed = "7";
  const Robot& hand = world.robots[0];
  for (std::size_t i = 0; i < eps.size(); ++i) {
    planner::PlannedGrasp g;
    g.energy = energy[i];
    const double k = static_cast<double>(i + 1);
    g.grasp.X_WP = world.state.robots[0].X_WP * Transform::fromTranslation(Vec3(k, 0, 0)) *
                   Transform::fromAxisAngle(Vec3::UnitZ(), 0.1 * k);
    g.preGrasp.X_WP = g.grasp.X_WP * Transform::fromTranslation(Vec3(0, 0, -20));
    for (const Dof& d : hand.dofs) {
      const double t = k / static_cast<double>(eps.size() + 1);
      g.grasp.dofValues.push_back(d.minValue + t * (d.maxValue - d.minValue));
      g.preGrasp.dofValues.push_back(d.minValue);
    }
    MeasureValue m;
    m.measure = "epsilon-l1";
    m.value = eps[i];
    m.ok = true;
    g.measures.push_back(m);
    g.forceClosure = fc[i];
    g.contacts.push_back({"palm", list.object, g.grasp.X_WP * Vec3(0, 0, 10), Vec3::UnitZ()});
    list.grasps.push_back(std::move(g));
  }
  return list;
}

}  // namespace

class TstUiGraspLibrary : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    QVERIFY(dataDir_.isValid());
    test::useTemporarySettings(settingsDir_);
    initCoin();
  }
  void init() {
    window_ = std::make_unique<MainWindow>();
    QVERIFY(window_->openWorldFile(sg::test::qInSourceTree("worlds/paralleljaw_box.xml")));
    QAction* action = window_->findChild<QAction*>(QStringLiteral("actionGraspLibrary"));
    QVERIFY(action);
    QVERIFY(window_->graspMenu()->actions().contains(action));
    action->trigger();
    QVERIFY(dock() && dock()->isVisibleTo(window_.get()));
  }
  void cleanup() {
    if (window_) window_->document()->undoStack()->setClean();
    window_.reset();
  }

  void listsFiltersAndSorts();
  void previewAndApplyAsOneUndoStep();
  void exportWritesTheSelectedRows();
  void plannerResultsLandInTheDatabase();
  void nonDatabaseFileIsRefused();
  void appliedGraspKeepsItsBreakAwayJoints();

 private:
  GraspLibraryDock* dock() const { return window_->findChild<GraspLibraryDock*>(); }
  const World& world() const { return window_->document()->world(); }
  // A database with the hand's 4 grasps under "hertz" (ε 0.05, 0.30, 0.12, 0.21; energies 3, 1, 4, 2; the
  // first not force closure) and 2 grasps of a robot named "OtherHand" under "point" (ε 0.5, 0.02).
  QString writeDatabase(const QString& name) {
    const QString path = dataDir_.filePath(name);
    auto db = store::GraspStore::open(path.toStdString(), store::OpenMode::ReadWrite);
    handList_ = makeList(world(), world().robots[0].name, {0.05, 0.30, 0.12, 0.21}, {3, 1, 4, 2},
                         {false, true, true, true});
    store::insertGraspListRun(*db, "plan", world(), handList_, "hertz", "tst_ui_grasp_library");
    const planner::GraspList other = makeList(world(), "OtherHand", {0.5, 0.02}, {5, 6}, {true, true});
    store::insertGraspListRun(*db, "plan", world(), other, "point", "tst_ui_grasp_library");
    return path;
  }
  void setFilters(const QString& robot, const QString& object, const QString& model, const QString& minValue,
                  bool forceClosure) {
    dock()->findChild<QLineEdit*>("libraryRobot")->setText(robot);
    dock()->findChild<QLineEdit*>("libraryObject")->setText(object);
    auto* models = dock()->findChild<QComboBox*>("libraryContactModel");
    models->setCurrentIndex(models->findData(model));
    dock()->findChild<QLineEdit*>("libraryMinValue")->setText(minValue);
    dock()->findChild<QCheckBox*>("libraryForceClosure")->setChecked(forceClosure);
  }
  // The value column as the table shows it, top to bottom.
  std::vector<double> shownValues() const {
    std::vector<double> out;
    QSortFilterProxyModel* p = dock()->sortModel();
    for (int r = 0; r < p->rowCount(); ++r)
      out.push_back(p->data(p->index(r, GraspLibraryModel::kValue), GraspLibraryModel::kSortRole).toDouble());
    return out;
  }

  QTemporaryDir settingsDir_, dataDir_;
  std::unique_ptr<MainWindow> window_;
  planner::GraspList handList_;
};

void TstUiGraspLibrary::listsFiltersAndSorts() {
  const QString path = writeDatabase("filters.db");
  GraspLibraryDock* d = dock();
  QVERIFY2(d->openDatabase(path), qPrintable(d->statusText()));
  // Every grasp, each under its own primary model, highest ε first (the default measure and sort).
  QCOMPARE(d->libraryModel()->rowCount(), 6);
  QCOMPARE(shownValues(), (std::vector<double>{0.5, 0.30, 0.21, 0.12, 0.05, 0.02}));
  const QString hand = QString::fromStdString(world().robots[0].name);
  const QString object = QString::fromStdString(handList_.object);

  setFilters(QStringLiteral("OtherHand"), {}, {}, {}, false);
  QVERIFY(d->refresh());
  QCOMPARE(shownValues(), (std::vector<double>{0.5, 0.02}));

  setFilters(hand, object, {}, {}, false);
  QVERIFY(d->refresh());
  QCOMPARE(shownValues(), (std::vector<double>{0.30, 0.21, 0.12, 0.05}));
  for (const store::GraspRow& r : d->libraryModel()->grasps()) {
    QCOMPARE(QString::fromStdString(r.robot), hand);
    QCOMPARE(QString::fromStdString(r.object), object);
  }
  setFilters({}, QStringLiteral("no such object"), {}, {}, false);
  QVERIFY(d->refresh());
  QCOMPARE(d->libraryModel()->rowCount(), 0);

  // The measure read under a chosen model: only the grasps measured under it.
  setFilters({}, {}, QStringLiteral("point"), {}, false);
  QVERIFY(d->refresh());
  QCOMPARE(shownValues(), (std::vector<double>{0.5, 0.02}));
  setFilters({}, {}, QStringLiteral("hertz"), QStringLiteral("0.12"), false);
  QVERIFY(d->refresh());
  QCOMPARE(shownValues(), (std::vector<double>{0.30, 0.21, 0.12}));
  setFilters({}, {}, QStringLiteral("hertz"), {}, true);  // force closure only: not the ε 0.05 grasp
  QVERIFY(d->refresh());
  QCOMPARE(shownValues(), (std::vector<double>{0.30, 0.21, 0.12}));
  setFilters({}, {}, {}, QStringLiteral("abc"), false);
  QVERIFY(!d->refresh());
  QVERIFY(d->statusText().contains(QStringLiteral("abc")));

  // Sorting by a column: energy ascending, then ε ascending.
  setFilters({}, {}, QStringLiteral("hertz"), {}, false);
  QVERIFY(d->refresh());
  d->table()->sortByColumn(GraspLibraryModel::kEnergy, Qt::AscendingOrder);
  QSortFilterProxyModel* p = d->sortModel();
  std::vector<double> energies;
  for (int r = 0; r < p->rowCount(); ++r)
    energies.push_back(p->data(p->index(r, GraspLibraryModel::kEnergy), GraspLibraryModel::kSortRole).toDouble());
  QCOMPARE(energies, (std::vector<double>{1, 2, 3, 4}));
  QCOMPARE(shownValues(), (std::vector<double>{0.30, 0.21, 0.05, 0.12}));  // ε of the energies 1, 2, 3, 4
  d->table()->sortByColumn(GraspLibraryModel::kValue, Qt::AscendingOrder);
  QCOMPARE(shownValues(), (std::vector<double>{0.05, 0.12, 0.21, 0.30}));
}

void TstUiGraspLibrary::previewAndApplyAsOneUndoStep() {
  const QString path = writeDatabase("apply.db");
  GraspLibraryDock* d = dock();
  QVERIFY(d->openDatabase(path));
  setFilters({}, {}, QStringLiteral("hertz"), {}, false);
  QVERIFY(d->refresh());
  QUndoStack* undo = window_->document()->undoStack();
  const int steps = undo->count();
  const RobotState before = world().state.robots[0];

  // Row 0 is the highest ε: the hand list's grasp 2 (ε 0.30).
  d->selectRow(0);
  QVERIFY(d->previewState().has_value());
  const planner::PlannedGrasp& expected = handList_.grasps[1];
  QVERIFY(samePose(d->previewState()->robots[0].X_WP, expected.grasp.X_WP));
  QCOMPARE(undo->count(), steps);  // a preview is no edit
  QVERIFY(samePose(world().state.robots[0].X_WP, before.X_WP));
  d->selectRow(-1);
  QVERIFY(!d->previewState().has_value());

  d->selectRow(0);
  QVERIFY(d->applySelected());
  QCOMPARE(undo->count(), steps + 1);
  QVERIFY(!d->previewState().has_value());
  const RobotState& applied = world().state.robots[0];
  QVERIFY(samePose(applied.X_WP, expected.grasp.X_WP));
  QCOMPARE(applied.dofValues.size(), expected.grasp.dofValues.size());
  for (std::size_t i = 0; i < applied.dofValues.size(); ++i)
    QVERIFY(std::abs(applied.dofValues[i] - expected.grasp.dofValues[i]) < kTol);
  undo->undo();
  QVERIFY(samePose(world().state.robots[0].X_WP, before.X_WP));
  QCOMPARE(world().state.robots[0].dofValues, before.dofValues);

  // A grasp of a robot this world lacks: refused, by name, nothing pushed.
  setFilters(QStringLiteral("OtherHand"), {}, {}, {}, false);
  QVERIFY(d->refresh());
  d->selectRow(0);
  QVERIFY(!d->previewState().has_value());
  QVERIFY(!d->applySelected());
  QVERIFY(d->statusText().contains(QStringLiteral("OtherHand")));
  QCOMPARE(undo->count(), steps + 1);
  QCOMPARE(undo->index(), steps);
}

void TstUiGraspLibrary::exportWritesTheSelectedRows() {
  const QString path = writeDatabase("export.db");
  GraspLibraryDock* d = dock();
  QVERIFY(d->openDatabase(path));
  setFilters({}, {}, QStringLiteral("hertz"), {}, false);
  QVERIFY(d->refresh());
  QVERIFY(!d->exportSelection(dataDir_.filePath("none.json")));  // nothing selected
  // Rows 0 and 2 of the ε order: ε 0.30 and 0.12, the hand list's grasps 2 and 3.
  QItemSelectionModel* sel = d->table()->selectionModel();
  sel->select(d->sortModel()->index(0, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
  sel->select(d->sortModel()->index(2, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
  const QString out = dataDir_.filePath("selected.json");
  QVERIFY2(d->exportSelection(out), qPrintable(d->statusText()));
  const planner::GraspList list = planner::loadGraspList(out.toStdString());
  QCOMPARE(list.grasps.size(), std::size_t{2});
  QCOMPARE(list.robot, handList_.robot);
  QCOMPARE(list.object, handList_.object);
  const std::size_t source[] = {1, 2};
  for (std::size_t i = 0; i < 2; ++i) {
    const planner::PlannedGrasp& want = handList_.grasps[source[i]];
    const planner::PlannedGrasp& got = list.grasps[i];
    QVERIFY(samePose(got.grasp.X_WP, want.grasp.X_WP));
    QVERIFY(samePose(got.preGrasp.X_WP, want.preGrasp.X_WP));
    QCOMPARE(got.grasp.dofValues.size(), want.grasp.dofValues.size());
    for (std::size_t k = 0; k < got.grasp.dofValues.size(); ++k)
      QVERIFY(std::abs(got.grasp.dofValues[k] - want.grasp.dofValues[k]) < kTol);
    QCOMPARE(got.energy, want.energy);
    QCOMPARE(got.forceClosure, want.forceClosure);
    QVERIFY(got.measure("epsilon-l1") && got.measure("epsilon-l1")->ok);
    QCOMPARE(got.measure("epsilon-l1")->value, want.measure("epsilon-l1")->value);
    QCOMPARE(got.contacts.size(), std::size_t{1});
    QVERIFY((got.contacts[0].position_mm - want.contacts[0].position_mm).norm() < 1e-6);
  }
  // Rows of two robots make no one grasp list: refused.
  setFilters({}, {}, {}, {}, false);
  QVERIFY(d->refresh());
  d->table()->selectAll();
  QVERIFY(!d->exportSelection(dataDir_.filePath("mixed.json")));
  QVERIFY(!QFile::exists(dataDir_.filePath("mixed.json")));
}

void TstUiGraspLibrary::plannerResultsLandInTheDatabase() {
  // A grasp list loaded into the Planner dock (as after a run), saved into a new SQLite file.
  const planner::GraspList list = makeList(world(), world().robots[0].name, {0.1, 0.2, 0.3}, {1, 2, 3},
                                           {true, true, false});
  const QString listPath = dataDir_.filePath("planned.json");
  planner::saveGraspList(list, listPath.toStdString());
  auto* planner = window_->findChild<PlannerDock*>();
  QVERIFY(planner);
  QVERIFY(planner->loadList(listPath));
  const QString dbPath = dataDir_.filePath("planner.db");
  QVERIFY(!QFile::exists(dbPath));
  QVERIFY2(planner->saveToDatabase(dbPath), qPrintable(planner->statusText()));
  QVERIFY2(planner->saveToDatabase(dbPath), qPrintable(planner->statusText()));  // a second run of its own
  {
    auto db = store::GraspStore::open(dbPath.toStdString(), store::OpenMode::ReadOnly);
    const store::StoreInfo info = db->info();
    QCOMPARE(info.runs, std::int64_t{2});
    QCOMPARE(info.grasps, std::int64_t{6});
  }
  GraspLibraryDock* d = dock();
  QVERIFY(d->openDatabase(dbPath));
  setFilters({}, {}, {}, {}, false);
  QVERIFY(d->refresh());
  QCOMPARE(shownValues(), (std::vector<double>{0.3, 0.3, 0.2, 0.2, 0.1, 0.1}));
  std::set<std::string> runs;
  for (const store::GraspRow& r : d->libraryModel()->grasps()) runs.insert(r.run);
  QCOMPARE(runs.size(), std::size_t{2});
  // A folder is no database file: the reason, no crash.
  QVERIFY(!planner->saveToDatabase(dataDir_.path()));
  QVERIFY(planner->statusText().contains(QStringLiteral("failed")));
}

void TstUiGraspLibrary::nonDatabaseFileIsRefused() {
  const QString text = dataDir_.filePath("notes.db");
  {
    QFile f(text);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("these are notes, not a database\n");
  }
  GraspLibraryDock* d = dock();
  QUndoStack* undo = window_->document()->undoStack();
  const int steps = undo->count();
  const QString worldPath = window_->document()->filePath();
  const RobotState before = world().state.robots[0];
  QVERIFY(!d->openDatabase(text));
  QVERIFY2(d->statusText().contains(QStringLiteral("notes.db")), qPrintable(d->statusText()));
  QVERIFY(!d->isOpen());
  QCOMPARE(d->libraryModel()->rowCount(), 0);
  QVERIFY(!d->openDatabase(dataDir_.filePath("missing.db")));
  QVERIFY(d->statusText().contains(QStringLiteral("missing.db")));
  QVERIFY(!QFile::exists(dataDir_.filePath("missing.db")));  // reading never creates one
  QVERIFY(!d->openDatabase(QStringLiteral("mysql://host/db")));
  QVERIFY(d->statusText().contains(QStringLiteral("mysql://host/db")));
  QCOMPARE(undo->count(), steps);
  QCOMPARE(window_->document()->filePath(), worldPath);
  QVERIFY(samePose(world().state.robots[0].X_WP, before.X_WP));
  QCOMPARE(world().state.robots[0].dofValues, before.dofValues);
}

QTEST_MAIN(TstUiGraspLibrary)
// A stored grasp with a joint in break-away (src/store/README.md, column break_away): previewed and applied with
// it, so the document's hand is the stored one (its links where the clutch left them).
void TstUiGraspLibrary::appliedGraspKeepsItsBreakAwayJoints() {
  QVERIFY(window_->openWorldFile(sg::test::qInSourceTree("worlds/hydro_fingertips.xml")));
  const Robot& hand = world().robots[0];
  std::optional<std::pair<std::size_t, std::size_t>> clutch;
  for (std::size_t c = 0; c < hand.chains.size() && !clutch; ++c)
    for (std::size_t j = 0; j < hand.chains[c].joints.size() && !clutch; ++j) {
      const int dof = hand.chains[c].joints[j].expr.dof;
      if (dof >= 0 && hand.dofs[static_cast<std::size_t>(dof)].type == DofType::BreakAway) clutch = std::pair{c, j};
    }
  QVERIFY(clutch.has_value());
  planner::GraspList list = makeList(world(), hand.name, {0.3}, {1}, {true});
  BreakAwayState& broke = list.grasps[0].grasp.breakAway;
  broke.assign(clutch->first + 1, {});
  broke[clutch->first].resize(clutch->second + 1);
  broke[clutch->first][clutch->second] = {true, 0.123456789};
  const QString path = dataDir_.filePath("breakaway.db");
  {
    auto db = store::GraspStore::open(path.toStdString(), store::OpenMode::ReadWrite);
    store::insertGraspListRun(*db, "plan", world(), list, "hertz", "tst_ui_grasp_library");
  }
  GraspLibraryDock* d = dock();
  QVERIFY(d->openDatabase(path));
  setFilters({}, {}, QStringLiteral("hertz"), {}, false);
  QVERIFY(d->refresh());
  d->selectRow(0);
  QVERIFY(d->previewState().has_value());
  const JointBreakAway expected{true, 0.123456789};
  QVERIFY(breakAwayOf(d->previewState()->robots[0], clutch->first, clutch->second) == expected);
  QVERIFY(d->applySelected());
  const RobotState& applied = world().state.robots[0];
  QVERIFY(breakAwayOf(applied, clutch->first, clutch->second) == expected);
  // The links follow the clutch: as forward kinematics puts them with the stored state, not without it.
  const auto withIt = linkPoses(hand, applied.X_WP, applied.dofValues, broke);
  const auto without = linkPoses(hand, applied.X_WP, applied.dofValues);
  const std::size_t c = clutch->first;
  QVERIFY(applied.X_WL[c].back().isApprox(withIt[c].back(), 1e-12));
  QVERIFY(!applied.X_WL[c].back().isApprox(without[c].back(), 1e-6));
}

#include "tst_ui_grasp_library.moc"
