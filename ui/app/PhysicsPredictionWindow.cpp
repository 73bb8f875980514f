#include "PhysicsPredictionWindow.h"

#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>

#include "core/Error.h"
#include "core/NumberFormat.h"
#include "render/PatchOutlineNodes.h"

#include "ChartExport.h"
namespace sg::app {

namespace {

QChartView* makeView(QWidget* parent, const char* name) {
  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignBottom);
  auto* view = new QChartView(chart, parent);
  view->setObjectName(name);
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumSize(520, 320);
  return view;
}

QString statisticText(const std::optional<double>& v) {
  return v ? QString::fromStdString(formatGeneral(*v, 3)) : QObject::tr("undefined");
}

QTableWidgetItem* item(const QString& text, bool number) {
  auto* i = new QTableWidgetItem(text);
  i->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (number) i->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return i;
}

}  // namespace

PhysicsPredictionWindow::PhysicsPredictionWindow(QWidget* parent) : QWidget(parent, Qt::Window) {
  setObjectName("physicsPredictionWindow");
  setWindowTitle(tr("Measures vs Physics"));
  auto* layout = new QVBoxLayout(this);

  auto* buttons = new QHBoxLayout;
  open_ = new QPushButton(tr("Open…"), this);
  open_->setObjectName("physicsPredictionOpen");
  open_->setToolTip(tr("A table of softgrasp-cli compare --against-physics: its --json document or its --csv"));
  export_ = new QPushButton(tr("Export Chart…"), this);
  export_->setObjectName("physicsPredictionExport");
  export_->setToolTip(tr("The chart shown as a PNG image or an SVG drawing (by the file name's suffix)"));
  export_->setEnabled(false);
  status_ = new QLabel(tr("Open the --json or --csv output of softgrasp-cli compare --against-physics."), this);
  status_->setWordWrap(true);
  buttons->addWidget(open_);
  buttons->addWidget(export_);
  buttons->addWidget(status_, 1);
  layout->addLayout(buttons);

  auto* split = new QSplitter(Qt::Vertical, this);
  tabs_ = new QTabWidget(split);
  aucView_ = makeView(tabs_, "physicsPredictionAuc");
  spearmanView_ = makeView(tabs_, "physicsPredictionSpearman");
  tabs_->addTab(aucView_, tr("ROC AUC"));
  tabs_->addTab(spearmanView_, tr("Spearman ρ"));
  rowsTable_ = new QTableWidget(0, 7, split);
  rowsTable_->setObjectName("physicsPredictionTable");
  rowsTable_->setHorizontalHeaderLabels(
      {tr("model"), tr("measure"), tr("grasps"), tr("no value"), tr("successes"), tr("ROC AUC"), tr("Spearman ρ")});
  rowsTable_->verticalHeader()->setVisible(false);
  rowsTable_->setSortingEnabled(false);
  split->addWidget(tabs_);
  split->addWidget(rowsTable_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addWidget(split, 1);

  connect(open_, &QPushButton::clicked, this, &PhysicsPredictionWindow::chooseFile);
  connect(export_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"),
                                                      currentStatistic() == Statistic::Auc
                                                          ? QStringLiteral("physics-auc.png")
                                                          : QStringLiteral("physics-spearman.png"),
                                                      tr("PNG (*.png);;SVG (*.svg)"));
    if (path.isEmpty()) return;
    QString error;
    if (exportChart(path, &error)) status_->setText(tr("Exported %1").arg(path));
    else QMessageBox::warning(this, tr("Export Chart"), tr("Cannot write %1: %2").arg(path, error));
  });
  resize(760, 640);
}

QChartView* PhysicsPredictionWindow::chartView(Statistic which) const {
  return which == Statistic::Auc ? aucView_ : spearmanView_;
}

QChart* PhysicsPredictionWindow::chart(Statistic which) const { return chartView(which)->chart(); }

PhysicsPredictionWindow::Statistic PhysicsPredictionWindow::currentStatistic() const {
  return tabs_->currentWidget() == spearmanView_ ? Statistic::Spearman : Statistic::Auc;
}

void PhysicsPredictionWindow::chooseFile() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Measures vs Physics Table"), path_,
      tr("compare --against-physics output (*.json *.csv);;JSON (*.json);;CSV (*.csv);;All files (*)"));
  if (!path.isEmpty()) openFileReporting(path);
}

bool PhysicsPredictionWindow::openFileReporting(const QString& path) {
  QString error;
  if (openFile(path, &error)) return true;
  QMessageBox::warning(this, tr("Measures vs Physics"), error);
  return false;
}

bool PhysicsPredictionWindow::openFile(const QString& path, QString* error) {
  try {
    table_ = shared::loadPhysicsPrediction(path.toStdString());
  } catch (const Error& e) {
    // sg::Error's what() names the file (and the line of a JSON syntax error) before the problem.
    if (error) *error = tr("Cannot open the table: %1").arg(QString::fromStdString(e.what()));
    return false;
  }
  path_ = path;
  showTable();
  plot(Statistic::Auc);
  plot(Statistic::Spearman);
  export_->setEnabled(true);
  const shared::PredictionTable& t = *table_;
  QString summary = tr("%1: %2 contact model(s) × %3 measure(s)")
                        .arg(QFileInfo(path).fileName())
                        .arg(t.models().size())
                        .arg(t.measures().size());
  if (t.grasps && t.successes)
    summary += tr(", %1 of %2 grasps succeeded (trial score ≥ %3)")
                   .arg(*t.successes)
                   .arg(*t.grasps)
                   .arg(QString::fromStdString(formatDouble(t.successScore.value_or(0))));
  status_->setText(summary);
  return true;
}

void PhysicsPredictionWindow::showTable() {
  const auto& rows = table_->rows;
  rowsTable_->setRowCount(static_cast<int>(rows.size()));
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const shared::PredictionRow& r = rows[static_cast<std::size_t>(i)];
    rowsTable_->setItem(i, 0, item(QString::fromStdString(r.model), false));
    rowsTable_->setItem(i, 1, item(QString::fromStdString(r.measure), false));
    rowsTable_->setItem(i, 2, item(QString::number(r.grasps), true));
    rowsTable_->setItem(i, 3, item(QString::number(r.missing), true));
    rowsTable_->setItem(i, 4, item(QString::number(r.successes), true));
    rowsTable_->setItem(i, 5, item(statisticText(r.auc), true));
    rowsTable_->setItem(i, 6, item(statisticText(r.spearman), true));
  }
  rowsTable_->resizeColumnsToContents();
}

void PhysicsPredictionWindow::plot(Statistic which) {
  QChart* c = chart(which);
  c->removeAllSeries();
  for (QAbstractAxis* axis : c->axes()) {
    c->removeAxis(axis);
    delete axis;
  }
  const bool auc = which == Statistic::Auc;
  c->setTitle(auc ? tr("ROC AUC of each measure predicting a held grasp (0.5: chance)")
                  : tr("Spearman ρ of each measure with the trial score"));
  const std::vector<std::string> measures = table_->measures();
  auto* series = new QBarSeries;
  for (const std::string& model : table_->models()) {
    auto* set = new QBarSet(QString::fromStdString(model));
    const auto rgb = comparisonColour(std::string_view(model));  // as the overlay, the dock and the sweep plot
    set->setColor(QColor::fromRgbF(rgb[0], rgb[1], rgb[2]));
    for (const std::string& measure : measures) {
      const shared::PredictionRow* r = table_->find(model, measure);
      const std::optional<double> v = r ? (auc ? r->auc : r->spearman) : std::nullopt;
      set->append(v.value_or(0.0));  // undefined: an empty bar (the table says "undefined")
    }
    series->append(set);
  }
  c->addSeries(series);
  auto* x = new QBarCategoryAxis;
  for (const std::string& m : measures) x->append(QString::fromStdString(m));
  auto* y = new QValueAxis;
  y->setRange(auc ? 0.0 : -1.0, 1.0);
  y->setTickCount(auc ? 6 : 5);
  y->setLabelFormat("%.2f");
  y->setTitleText(auc ? tr("ROC AUC") : tr("Spearman ρ"));
  c->addAxis(x, Qt::AlignBottom);
  c->addAxis(y, Qt::AlignLeft);
  series->attachAxis(x);
  series->attachAxis(y);
}

bool PhysicsPredictionWindow::exportPng(const QString& path, Statistic which, QString* error) const {
  if (!table_) {
    if (error) *error = tr("no table open");
    return false;
  }
  return saveWidgetPng(chartView(which), path, error);
}

bool PhysicsPredictionWindow::exportSvg(const QString& path, Statistic which, QString* error) const {
  if (!table_) {
    if (error) *error = tr("no table open");
    return false;
  }
  return saveWidgetSvg(chartView(which),
                       which == Statistic::Auc ? tr("SoftGrasp: ROC AUC of the measures against physics trials")
                                               : tr("SoftGrasp: Spearman rho of the measures against physics trials"),
                       path, error);
}

bool PhysicsPredictionWindow::exportChart(const QString& path, QString* error) const {
  const Statistic which = currentStatistic();
  return QFileInfo(path).suffix().compare(QStringLiteral("svg"), Qt::CaseInsensitive) == 0
             ? exportSvg(path, which, error)
             : exportPng(path, which, error);
}

}  // namespace sg::app
