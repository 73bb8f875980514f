// The Planner dock in the main window at 1600×1000, 1280×800 and 800×600 under an X server (Start,
// Cancel and the results table only appeared after resizing; the live plot's axis labels all read "…"). On the
// default world, brought forward with Grasp > Planner: Start, Cancel and the results table (its header and two
// rows' height) lie wholly inside every clipping parent, the dock and the window; after a short run the plot
// shows (its tab is raised by Start) and none of its labels — axis two ticks an axis, titles, legend — is elided.
#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QDir>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QComboBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "../support/AppTestSetup.h"
#include "GraspedDefaultWorld.h"
#include "MainWindow.h"
#include "PlannerDock.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {

// Empty when `local` (in `w`'s coordinates) is wholly on screen: every ancestor up to `window` shows all of it.
QString offScreen(const QWidget* w, const QRect& local, const QWidget* window) {
  if (!w->isVisible()) return QStringLiteral("not visible");
  if (local.isEmpty()) return QStringLiteral("empty geometry");
  QRect r = local, clipped = local;
  for (const QWidget* x = w; x != window && x->parentWidget(); x = x->parentWidget()) {
    clipped = clipped.intersected(x->rect()).translated(x->pos());
    r.translate(x->pos());
  }
  clipped = clipped.intersected(window->rect());
  if (clipped == r) return {};
  return QString("%1×%2 at (%3,%4), only %5×%6 on screen")
      .arg(r.width()).arg(r.height()).arg(r.x()).arg(r.y()).arg(clipped.width()).arg(clipped.height());
}

}  // namespace

class TstUiPlannerLayoutGl : public QObject {
  Q_OBJECT

 public:
  static void initMain() { test::prepareGlApplication(); }

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::useTemporarySettings(settingsDir_);
    if (!test::onX11()) QSKIP(test::kNeedsX);
  }
  void runControlsTableAndPlotAreVisible_data();
  void runControlsTableAndPlotAreVisible();

 private:
  QTemporaryDir settingsDir_;
};

void TstUiPlannerLayoutGl::runControlsTableAndPlotAreVisible_data() {
  QTest::addColumn<QSize>("size");
  QTest::newRow("1600x1000") << QSize(1600, 1000);
  QTest::newRow("1280x800") << QSize(1280, 800);
  QTest::newRow("800x600") << QSize(800, 600);
}

void TstUiPlannerLayoutGl::runControlsTableAndPlotAreVisible() {
  QFETCH(QSize, size);
  MainWindow w;
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(w.openWorldFile(test::defaultWorldPath()));
  w.resize(size);
  QTest::qWait(100);
  QApplication::processEvents();
  QCOMPARE(w.size(), size);
  w.findChild<QAction*>("actionPlanner")->trigger();  // Grasp > Planner
  QTest::qWait(100);
  QApplication::processEvents();
  QCOMPARE(w.size(), size);  // the dock's needs did not grow the window
  auto* dock = w.findChild<PlannerDock*>(QStringLiteral("plannerDock"));
  QVERIFY(dock && dock->isVisible());

  QStringList problems;
  auto check = [&](const QString& what, const QWidget* widget, const QRect& local) {
    const QString why = offScreen(widget, local, &w);
    if (!why.isEmpty()) problems << what + ": " + why;
  };
  for (const char* name : {"plannerStartButton", "plannerPauseButton", "plannerCancelButton", "plannerApplyButton"}) {
    auto* b = dock->findChild<QPushButton*>(name);
    QVERIFY(b);
    check(name, b, b->rect());
    // The whole text fits (not cut by a squeezed button).
    if (b->fontMetrics().horizontalAdvance(b->text()) + 8 > b->width())
      problems << QString("%1: text '%2' cut at %3 px").arg(name, b->text()).arg(b->width());
  }
  auto* table = dock->findChild<QTableWidget*>("plannerResultsTable");
  QVERIFY(table);
  check("results table", table, table->rect());
  const int twoRows = table->horizontalHeader()->height() + 2 * table->verticalHeader()->defaultSectionSize();
  if (table->height() < twoRows) problems << QString("results table %1 px high, < header + 2 rows (%2)").arg(table->height()).arg(twoRows);
  QVERIFY2(problems.isEmpty(), qPrintable(QString("at %1×%2:\n  ").arg(size.width()).arg(size.height()) + problems.join("\n  ")));

  // A short run on the default world; Start raises the plot.
  dock->findChild<QSpinBox*>("plannerStepsSpin")->setValue(30300);
  dock->findChild<QSpinBox*>("plannerThreadsSpin")->setValue(2);
  QSignalSpy finished(dock, &PlannerDock::runFinished);
  QVERIFY(dock->start());
  QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
  QVERIFY(dock->plottedSamples() > 1);
  auto* view = dock->findChild<QChartView*>("plannerChart");
  QVERIFY(view);
  QCOMPARE(dock->findChild<QTabWidget*>("plannerTabs")->currentWidget(), view);
  QApplication::processEvents();
  check("plot", view, view->rect());
  check("results table after the run", table, table->rect());
  QVERIFY(table->rowCount() >= 1);
  check("results row 1", table->viewport(), table->visualItemRect(table->item(0, 0)));

  const QString dir = sg::test::qInBuildTree("screenshots");
  QVERIFY(QDir().mkpath(dir));
  QVERIFY(w.grab().toImage().save(QString("%1/planner_%2x%3.png").arg(dir).arg(size.width()).arg(size.height())));

  // Every text of the chart: whole, not "…"-elided (Qt Charts elides a label that does not fit its room).
  int labels = 0;
  QStringList texts;
  for (QGraphicsItem* item : view->scene()->items()) {
    auto* text = dynamic_cast<QGraphicsTextItem*>(item);
    if (!text || !text->isVisible()) continue;
    const QString t = text->toPlainText();
    if (t.isEmpty()) continue;
    ++labels;
    texts << t;
    if (t.contains(QStringLiteral("...")) || t.contains(QChar(0x2026))) problems << QString("chart text '%1' elided").arg(t);
  }
  // Two ticks an axis at least and the legend; the axis titles where the plot is tall enough for them (a short one
  // says what it plots in its tooltip).
  QVERIFY2(labels >= 3 * 2 + 3, qPrintable(texts.join(", ")));
  for (const char* legend : {"current", "best", "ε"}) QVERIFY2(texts.contains(QString::fromUtf8(legend)), legend);
  if (view->height() >= 160)
    for (const char* title : {"iteration", "energy"}) QVERIFY2(texts.contains(QString::fromUtf8(title)), title);
  QVERIFY(!view->toolTip().isEmpty());
  QVERIFY2(problems.isEmpty(), qPrintable(QString("at %1×%2:\n  ").arg(size.width()).arg(size.height()) + problems.join("\n  ")));
  w.document()->undoStack()->setClean();
}

QTEST_MAIN(TstUiPlannerLayoutGl)
#include "tst_ui_planner_layout_gl.moc"
