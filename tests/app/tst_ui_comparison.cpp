// The Comparison dock and the sensitivity plots on the offscreen platform, after an auto-grasp of the default
// world: Quality > Compare Contact Models shows every registered model as a column with the engine's numbers
// (compareModels on the analysis' contacts, run here in process), follows the hand, the overlay checkboxes;
// the sensitivity window sweeps in the background (one series per model, stiffer → smaller soft patch),
// cancels, exports CSV (the engine's table), PNG and SVG.
#include <QAction>
#include <QCheckBox>
#include <QFile>
#include <QImage>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include "../support/AppTestSetup.h"
#include "ComparisonDock.h"
#include "GraspedDefaultWorld.h"
#include "MainWindow.h"
#include "QualityDock.h"
#include "SensitivityWindow.h"
#include "SoftContactInspector.h"
#include "render/PatchOutlineNodes.h"
#include "render/CoinInit.h"

using namespace sg;
using namespace sg::app;

namespace {
QString shortNumber(double v) { return QString::number(v, 'g', 5); }
}  // namespace

class TstUiComparison : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void cleanup();

  void dockShowsEveryModelWithTheEngineNumbers();
  void dockFollowsTheHand();
  void overlayCheckBoxesChooseModels();
  void sweepPlotsEveryModelAndExports();
  void sweepCancels();
  void peakPressureInOneUnit();

 private:
  ComparisonDock* openDock() {
    QAction* show = window_->findChild<QAction*>("actionCompareModels");
    if (!show) return nullptr;
    show->trigger();
    auto* dock = window_->findChild<ComparisonDock*>();
    return dock;
  }

  QTemporaryDir settingsDir_;
  std::unique_ptr<MainWindow> window_;
};

void TstUiComparison::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
  initCoin();
}

void TstUiComparison::init() {
  QSettings("SoftGrasp", "softgrasp").clear();
  window_ = std::make_unique<MainWindow>();
  window_->resize(1200, 800);
  window_->show();
  QVERIFY(test::openAndGraspDefaultWorld(*window_));
}

void TstUiComparison::cleanup() {
  if (window_) window_->document()->undoStack()->setClean();
  window_.reset();
}

void TstUiComparison::dockShowsEveryModelWithTheEngineNumbers() {
  auto* dock = window_->findChild<ComparisonDock*>();
  QVERIFY(dock);
  QVERIFY(!dock->isHidden());  // a tab in the Quality dock's group
  if (!dock->isVisible()) QCOMPARE(dock->comparisonCount(), 0);  // nothing computed while its tab is down
  QVERIFY(openDock());
  QVERIFY(dock->isVisible());
  QTRY_VERIFY_WITH_TIMEOUT(dock->comparison(), 30000);
  const ModelComparison& shown = *dock->comparison();

  // The engine on the analysis' contacts, in process.
  const GraspAnalysis& analysis = *window_->analysis();
  NullProgress progress;
  const World& world = window_->document()->world();
  const ModelComparison engine = compareModels(world, world.state, analysis.contacts(), analysis.graspableIndex(),
                                               analysis.settings().quality, {}, progress);
  QCOMPARE(dock->table()->columnCount(), static_cast<int>(contactModels().size()));
  QCOMPARE(engine.rows.size(), shown.rows.size());
  QVERIFY(engine.rows.size() >= 3);
  QCOMPARE(dock->table()->rowCount(), static_cast<int>(5 * engine.rows.size() + comparisonMeasureNames().size()));
  int patches = 0;
  for (const ModelColumn& column : engine.columns) {
    const QString model = QString::fromStdString(column.model);
    for (std::size_t r = 0; r < engine.rows.size(); ++r) {
      const ComparedContact& cell = column.contacts[r];
      const int row = 5 * static_cast<int>(r);
      QVERIFY(dock->cellText(row, model).startsWith(QString::fromUtf8(toString(cell.kind))));
      if (cell.patchArea_mm2 > 0) {
        ++patches;
        QVERIFY(dock->cellText(row, model).endsWith(QString::fromStdString(cell.patchShape)));
        QCOMPARE(dock->cellText(row + 1, model), shortNumber(cell.patchArea_mm2));
        QCOMPARE(dock->cellText(row + 2, model), shortNumber(cell.normalForce_N));
        QCOMPARE(dock->cellText(row + 3, model), shortNumber(cell.peakPressure_Pa / 1e3));  // kPa
      } else {
        QCOMPARE(dock->cellText(row + 1, model), QStringLiteral("—"));
      }
      if (cell.maxTorsionalFriction_Nmm > 0) QCOMPARE(dock->cellText(row + 4, model), shortNumber(cell.maxTorsionalFriction_Nmm));
    }
    for (std::size_t m = 0; m < engine.measures.size(); ++m) {
      const MeasureValue* v = column.measure(engine.measures[m]);
      QCOMPARE(dock->cellText(static_cast<int>(5 * engine.rows.size() + m), model),
               v->ok ? shortNumber(v->value) : QStringLiteral("n/a"));
    }
  }
  QVERIFY(patches >= 6);  // soft finger and Hertz on each fingertip
  QCOMPARE(dock->table()->verticalHeaderItem(static_cast<int>(5 * engine.rows.size()))->text(),
           measureLabel("epsilon-l1"));
}

void TstUiComparison::dockFollowsTheHand() {
  ComparisonDock* dock = openDock();
  QVERIFY(dock);
  QTRY_VERIFY_WITH_TIMEOUT(dock->comparison(), 30000);
  const int before = dock->comparisonCount();
  const auto rowsBefore = dock->comparison()->rows.size();
  QVERIFY(rowsBefore >= 3);
  // Open the hand again: fewer fingertips touch, fewer rows.
  window_->document()->undoStack()->undo();
  window_->analysis()->recompute();
  QTRY_VERIFY_WITH_TIMEOUT(dock->comparisonCount() > before && dock->comparison() &&
                               dock->comparison()->rows.size() < rowsBefore, 30000);
  QCOMPARE(dock->table()->rowCount(),
           static_cast<int>(5 * dock->comparison()->rows.size() + comparisonMeasureNames().size()));
}

void TstUiComparison::overlayCheckBoxesChooseModels() {
  ComparisonDock* dock = openDock();
  QVERIFY(dock);
  QStringList all;
  for (const ContactModel* m : contactModels()) all << QString::fromStdString(m->name());
  QVERIFY(dock->overlayModels().isEmpty());  // none drawn on a fresh start
  QSignalSpy spy(dock, &ComparisonDock::overlayModelsChanged);
  for (const QString& m : all) dock->overlayCheckBox(m)->setChecked(true);
  QCOMPARE(spy.count(), all.size());
  QCOMPARE(dock->overlayModels(), all);
  dock->overlayCheckBox("hertz")->setChecked(false);
  all.removeAll("hertz");
  QCOMPARE(dock->overlayModels(), all);
  dock->setOverlayModel("hertz", true);
  QVERIFY(dock->overlayModels().contains("hertz"));
  QVERIFY(!dock->overlayCheckBox("nonsense"));
}

void TstUiComparison::sweepPlotsEveryModelAndExports() {
  ComparisonDock* dock = openDock();
  QVERIFY(dock);
  dock->sensitivityButton()->click();
  auto* plots = window_->findChild<SensitivityWindow*>();
  QVERIFY(plots);
  QVERIFY(plots->isVisible());
  plots->setSweep(SweepParameter::YoungsModulus, 1e5, 1e9, 5);
  plots->setQuantity(SweepQuantity::PatchArea);
  QSignalSpy finished(plots, &SensitivityWindow::sweepFinished);
  QVERIFY(plots->run());
  QVERIFY(plots->running());
  QVERIFY(!plots->runButton()->isEnabled() && plots->cancelButton()->isEnabled());
  QVERIFY(finished.wait(60000));
  QVERIFY(!plots->running());
  QCOMPARE(plots->progressBar()->value(), 1000);
  const SweepTable& table = *plots->table();
  QCOMPARE(table.points.size(), 5 * contactModels().size());

  // One series per model; the soft finger's mean area falls with stiffness, point for point as in the table.
  QCOMPARE(plots->chart()->series().size(), static_cast<qsizetype>(contactModels().size()));
  auto seriesOf = [plots](const QString& model) -> QLineSeries* {
    for (QAbstractSeries* s : plots->chart()->series())
      if (s->name() == model) return qobject_cast<QLineSeries*>(s);
    return nullptr;
  };
  QLineSeries* soft = seriesOf("soft-finger");
  QVERIFY(soft);
  QCOMPARE(soft->count(), 5);
  for (int k = 1; k < soft->count(); ++k) {
    QVERIFY(soft->at(k).x() > soft->at(k - 1).x());
    QVERIFY(soft->at(k).y() < soft->at(k - 1).y());
  }
  QCOMPARE(soft->at(0).y(), table.series("soft-finger")[0]->meanPatchArea_mm2);
  // Every model its own colour, the same as in the overlay and the dock (soft finger and penalty shared
  // one: the palette repeated); an area's axis starts at 0, not below.
  QSet<QRgb> colours;
  for (QAbstractSeries* s : plots->chart()->series()) {
    const auto* line = qobject_cast<QLineSeries*>(s);
    QVERIFY(line);
    const auto c = comparisonColour(s->name().toStdString());
    QCOMPARE(line->pen().color().rgb(), QColor::fromRgbF(c[0], c[1], c[2]).rgb());
    colours.insert(line->pen().color().rgb());
  }
  QCOMPARE(colours.size(), static_cast<qsizetype>(contactModels().size()));
  auto yAxis = [plots] { return qobject_cast<QValueAxis*>(plots->chart()->axes(Qt::Vertical).front()); };
  double smallest = 1e300, largest = 0;
  for (const SweepPoint& p : table.points)
    if (p.ok && p.patches > 0) {
      smallest = std::min(smallest, p.meanPatchArea_mm2);
      largest = std::max(largest, p.meanPatchArea_mm2);
    }
  QVERIFY(smallest > 0 && smallest < 0.05 * (largest - smallest));  // a range that padded below 0 before
  QVERIFY(yAxis());
  QCOMPARE(yAxis()->min(), 0.0);
  QVERIFY(yAxis()->max() >= largest);
  plots->setQuantity(SweepQuantity::TorsionalLimit);
  QCOMPARE(yAxis()->min(), 0.0);
  QVERIFY(seriesOf("point"));
  QCOMPARE(seriesOf("point")->count(), 0);  // point contacts have no patch
  plots->setQuantity(SweepQuantity::EpsilonL1);
  QCOMPARE(seriesOf("point")->count(), 5);
  QCOMPARE(plots->chart()->axes(Qt::Horizontal).front()->type(), QAbstractAxis::AxisTypeLogValue);

  QTemporaryDir dir;
  QString error;
  QVERIFY2(plots->exportCsv(dir.filePath("sweep.csv"), &error), qPrintable(error));
  QFile csv(dir.filePath("sweep.csv"));
  QVERIFY(csv.open(QIODevice::ReadOnly));
  QCOMPARE(csv.readAll(), QByteArray::fromStdString(table.csv()));
  QVERIFY2(plots->exportPng(dir.filePath("sweep.png"), &error), qPrintable(error));
  const QImage png(dir.filePath("sweep.png"));
  QVERIFY(!png.isNull() && png.width() >= 100);
  // SVG by the suffix: an SVG document carrying the chart's drawing (paths) and its axis text.
  QVERIFY2(plots->exportChart(dir.filePath("sweep.svg"), &error), qPrintable(error));
  QFile svgFile(dir.filePath("sweep.svg"));
  QVERIFY(svgFile.open(QIODevice::ReadOnly));
  const QByteArray svg = svgFile.readAll();
  QVERIFY(svg.contains("<svg") && svg.contains("</svg>"));
  QVERIFY(svg.contains("<path") || svg.contains("<polyline"));
  QVERIFY(!plots->exportChart(dir.filePath("no-such-dir/sweep.svg"), &error) && !error.isEmpty());
  QVERIFY(!plots->exportCsv(dir.filePath("missing/dir/sweep.csv"), &error));
  QVERIFY(!error.isEmpty());
}

void TstUiComparison::sweepCancels() {
  ComparisonDock* dock = openDock();
  QVERIFY(dock);
  dock->sensitivityButton()->click();
  auto* plots = window_->findChild<SensitivityWindow*>();
  QVERIFY(plots);
  plots->setSweep(SweepParameter::NormalForce, 1, 20, 200);  // minutes of work
  QSignalSpy cancelled(plots, &SensitivityWindow::sweepCancelled);
  QSignalSpy finished(plots, &SensitivityWindow::sweepFinished);
  QVERIFY(plots->run());
  QTRY_VERIFY_WITH_TIMEOUT(plots->progressBar()->value() > 0, 30000);
  plots->cancelButton()->click();
  QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 30000);
  QCOMPARE(finished.count(), 0);
  QVERIFY(!plots->running());
  QVERIFY(!plots->table());
  QVERIFY(plots->runButton()->isEnabled());
  // A bad range is refused before anything runs.
  plots->setSweep(SweepParameter::YoungsModulus, 0, 1e9, 5);
  QVERIFY(!plots->run());
  QVERIFY(!plots->running());
}

// One pressure unit in the GUI: the Soft Contact inspector and the Comparison dock both show a peak
// pressure in kPa, and the same number for the same contact under the same (soft-finger) model.
void TstUiComparison::peakPressureInOneUnit() {
  ComparisonDock* dock = openDock();
  QVERIFY(dock);
  QTRY_VERIFY_WITH_TIMEOUT(dock->comparison(), 30000);
  const ModelComparison& c = *dock->comparison();
  GraspAnalysis* analysis = window_->analysis();
  const int contact = test::firstSoftContact(*analysis);
  QVERIFY(contact >= 0);
  std::size_t row = 0;
  while (row < c.rows.size() && c.rows[row].sourceContact != contact) ++row;
  QVERIFY(row < c.rows.size());
  const int pressureRow = 5 * static_cast<int>(row) + 3;
  const QString dockLabel = dock->table()->verticalHeaderItem(pressureRow)->text();
  QCOMPARE(dockLabel, QString("%1 peak pressure (kPa)").arg(row + 1));

  auto* inspector = window_->findChild<SoftContactInspector*>();
  QVERIFY(inspector);
  analysis->setSelectedContact(contact);
  QString inspectorLabel;
  for (QTreeWidgetItemIterator it(inspector->tree()); *it; ++it)
    if ((*it)->data(0, Qt::UserRole).toString() == "maxPressure") inspectorLabel = (*it)->text(0);
  QCOMPARE(inspectorLabel, QString("Peak pressure (kPa)"));
  const double inInspector = inspector->valueText("maxPressure").toDouble();
  const double inDock = dock->cellText(pressureRow, "soft-finger").toDouble();
  const double engine_kPa = c.column("soft-finger")->contacts[row].peakPressure_Pa / 1e3;
  QVERIFY2(engine_kPa > 1, qPrintable(QString::number(engine_kPa)));  // a soft fingertip presses kPa, not Pa
  QVERIFY2(std::abs(inInspector - engine_kPa) <= 1e-5 * engine_kPa, qPrintable(inspector->valueText("maxPressure")));
  QVERIFY2(std::abs(inDock - engine_kPa) <= 1e-4 * engine_kPa, qPrintable(dock->cellText(pressureRow, "soft-finger")));
}

QTEST_MAIN(TstUiComparison)
#include "tst_ui_comparison.moc"
