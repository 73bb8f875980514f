// Quality > Holding Forces (ui/app/HoldForcesOverlay.h) on the grasped default world under xvfb: off at start;
// Worst Direction draws one arrow per contact that carries a force in the grasp force optimisation of the
// object's weight along its worst direction (the engine's analyzeHold on the same evaluation), and the view's
// pixels change around each arrow; a chosen direction is the one drawn; Off removes them.
#include <QAction>
#include <QApplication>
#include <QImage>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <Inventor/nodes/SoSwitch.h>

#include "../support/AppTestSetup.h"
#include "../support/ImageChecks.h"
#include "GraspedDefaultWorld.h"
#include "HoldForcesOverlay.h"
#include "ViewportPanel.h"
#include "grasp/forces/GraspForceOptimization.h"
#include "render/HoldForceNodes.h"
#include "viewport/CoinViewport.h"

using namespace sg;
using namespace sg::app;

namespace {
constexpr int kWidth = 800, kHeight = 600;

bool showGraspedDefaultWorld(MainWindow& w) {
  if (!w.viewportPanel()) return false;
  w.resize(1000, 700);
  w.show();
  return QTest::qWaitForWindowExposed(&w) && test::openAndGraspDefaultWorld(w);
}
}  // namespace

class TstUiHoldForcesGl : public QObject {
  Q_OBJECT

 public:
  static void initMain() { test::prepareGlApplication(); }

 private slots:
  void initTestCase();
  void arrowsOfTheWorstAndAChosenDirection();

 private:
  QTemporaryDir settingsDir_;
};

void TstUiHoldForcesGl::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
  if (!test::onX11()) QSKIP(test::kNeedsX);
}

void TstUiHoldForcesGl::arrowsOfTheWorstAndAChosenDirection() {
  MainWindow w;
  QVERIFY(showGraspedDefaultWorld(w));
  auto* overlay = w.findChild<HoldForcesOverlay*>();
  QAction* off = w.findChild<QAction*>("actionHoldForces_off");
  QAction* worst = w.findChild<QAction*>("actionHoldForces_worst");
  QAction* zMinus = w.findChild<QAction*>("actionHoldForces_z-");
  QVERIFY(overlay && off && worst && zMinus);
  QVERIFY(off->isChecked());
  QCOMPARE(overlay->arrowCount(), 0);
  QCOMPARE(overlay->node()->whichChild.getValue(), SO_SWITCH_NONE);

  // The engine's answer on the same evaluation.
  const GraspEvaluation& e = *w.analysis()->evaluation();
  const World& world = w.document()->world();
  const Body& object = world.graspables[static_cast<std::size_t>(w.analysis()->graspableIndex())];
  const HoldResult hold = analyzeHold(world, world.state, e, object, weightLoads(object, {"all"}));
  QVERIFY(hold.worst >= 0);
  const HoldDirection& d = hold.directions[static_cast<std::size_t>(hold.worst)];
  QVERIFY(d.balanced);
  int carrying = 0;
  for (const HoldContactForce& f : d.forces) carrying += f.force_W_N.norm() > 1e-12;
  QVERIFY(carrying >= 2);

  ui::CoinViewport* view = w.viewportPanel()->viewport();
  QApplication::processEvents();
  const QImage hidden = view->renderToImage(QSize(kWidth, kHeight));
  worst->trigger();
  QCOMPARE(overlay->direction(), QString("worst"));
  QCOMPARE(overlay->shownDirection(), QString::fromStdString(d.load.label));
  QCOMPARE(overlay->arrowCount(), carrying);
  QCOMPARE(overlay->node()->whichChild.getValue(), SO_SWITCH_ALL);
  QVERIFY2(overlay->summary().contains(d.held ? " held" : "not held"), qPrintable(overlay->summary()));
  QApplication::processEvents();
  const QImage shown = view->renderToImage(QSize(kWidth, kHeight));
  // Pixels change around the middle of every arrow in the view.
  int inView = 0, changed = 0;
  for (const HoldContactForce& f : d.forces) {
    const double size_N = f.force_W_N.norm();
    if (size_N <= 1e-12) continue;
    const double length_mm = holdForceArrowLength_mm(size_N);
    const QPoint middle = test::projectToImage(view->camera(), f.p_W_mm - 0.5 * length_mm * f.force_W_N / size_N,
                                               QSize(kWidth, kHeight));
    if (!QRect(0, 0, kWidth, kHeight).contains(middle)) continue;
    ++inView;
    changed += test::differingAround(shown, hidden, middle, 4) > 4;
  }
  QVERIFY(inView >= 2);
  QCOMPARE(changed, inView);

  zMinus->trigger();
  QCOMPARE(overlay->shownDirection(), QString("z-"));
  int carryingZ = 0;
  for (const HoldContactForce& f : hold.directions[5].forces) carryingZ += f.force_W_N.norm() > 1e-12;
  QCOMPARE(overlay->arrowCount(), carryingZ);
  off->trigger();
  QCOMPARE(overlay->arrowCount(), 0);
  QCOMPARE(overlay->node()->whichChild.getValue(), SO_SWITCH_NONE);
  w.document()->undoStack()->setClean();
}

QTEST_MAIN(TstUiHoldForcesGl)
#include "tst_ui_hold_forces_gl.moc"
