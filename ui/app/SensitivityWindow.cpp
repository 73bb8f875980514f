#include "SensitivityWindow.h"

#include <QComboBox>
#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QShortcut>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>
#include <cmath>

#include "ChartExport.h"
#include "ComparisonDock.h"
#include "core/Error.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "JobEnds.h"
#include "JobRunner.h"
#include "render/PatchOutlineNodes.h"

namespace sg::app {

namespace {

const char* measureOf(SweepQuantity q) {
  switch (q) {
    case SweepQuantity::EpsilonL1: return "epsilon-l1";
    case SweepQuantity::EpsilonLInfinity: return "epsilon-linf";
    case SweepQuantity::EpsilonExact: return "epsilon-exact";
    default: return nullptr;
  }
}

QString quantityLabel(SweepQuantity q) {
  switch (q) {
    case SweepQuantity::EpsilonL1: return QObject::tr("ε L1");
    case SweepQuantity::EpsilonLInfinity: return QObject::tr("ε L∞");
    case SweepQuantity::EpsilonExact: return QObject::tr("ε exact cone");
    case SweepQuantity::PatchArea: return QObject::tr("mean patch area (mm²)");
    case SweepQuantity::TorsionalLimit: return QObject::tr("mean torsional limit (N·mm)");
  }
  return {};
}

QString parameterLabel(SweepParameter p) {
  switch (p) {
    case SweepParameter::YoungsModulus: return QObject::tr("Young's modulus (Pa)");
    case SweepParameter::NormalForce: return QObject::tr("normal force (N)");
    case SweepParameter::Friction: return QObject::tr("μ");
  }
  return {};
}

std::optional<double> parseNumber(const QLineEdit* edit) {
  bool ok = false;
  const double v = QLocale::c().toDouble(edit->text().trimmed(), &ok);
  if (!ok) return std::nullopt;
  return v;
}

}  // namespace

bool sweepQuantityIsNonNegative(SweepQuantity quantity) {
  return quantity == SweepQuantity::PatchArea || quantity == SweepQuantity::TorsionalLimit;
}

std::optional<double> sweepQuantity(const SweepTable& table, const SweepPoint& point, SweepQuantity quantity) {
  if (!point.ok) return std::nullopt;
  if (const char* measure = measureOf(quantity)) {
    for (std::size_t k = 0; k < table.measures.size(); ++k)
      if (table.measures[k] == measure) return point.measures[k];
    return std::nullopt;
  }
  if (quantity == SweepQuantity::PatchArea) return point.patches > 0 ? std::optional(point.meanPatchArea_mm2) : std::nullopt;
  return point.meanTorsionalLimit_Nmm > 0 ? std::optional(point.meanTorsionalLimit_Nmm) : std::nullopt;
}

SensitivityWindow::SensitivityWindow(GraspAnalysis* analysis, const Document* doc, QWidget* parent)
    : QWidget(parent, Qt::Window), analysis_(analysis), doc_(doc), jobs_(new JobRunner(this)) {
  setObjectName("sensitivityWindow");
  setWindowTitle(tr("Sensitivity Plots"));
  auto* layout = new QVBoxLayout(this);

  auto* controls = new QHBoxLayout;
  parameter_ = new QComboBox(this);
  parameter_->setObjectName("sweepParameter");
  for (SweepParameter p : {SweepParameter::YoungsModulus, SweepParameter::NormalForce, SweepParameter::Friction})
    parameter_->addItem(parameterLabel(p), static_cast<int>(p));
  from_ = new QLineEdit(this);
  to_ = new QLineEdit(this);
  count_ = new QSpinBox(this);
  count_->setRange(2, 200);
  count_->setValue(9);
  quantityBox_ = new QComboBox(this);
  quantityBox_->setObjectName("sweepQuantity");
  for (SweepQuantity q : {SweepQuantity::EpsilonL1, SweepQuantity::EpsilonLInfinity, SweepQuantity::EpsilonExact,
                          SweepQuantity::PatchArea, SweepQuantity::TorsionalLimit})
    quantityBox_->addItem(quantityLabel(q), static_cast<int>(q));
  controls->addWidget(parameter_);
  controls->addWidget(new QLabel(tr("from"), this));
  controls->addWidget(from_);
  controls->addWidget(new QLabel(tr("to"), this));
  controls->addWidget(to_);
  controls->addWidget(new QLabel(tr("values"), this));
  controls->addWidget(count_);
  controls->addWidget(new QLabel(tr("plot"), this));
  controls->addWidget(quantityBox_);
  layout->addLayout(controls);

  chart_ = new QChart;
  chart_->legend()->setAlignment(Qt::AlignBottom);
  view_ = new QChartView(chart_, this);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumSize(480, 320);
  layout->addWidget(view_, 1);

  auto* buttons = new QHBoxLayout;
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  run_ = new QPushButton(tr("Run"), this);
  cancel_ = new QPushButton(tr("Cancel"), this);
  exportCsv_ = new QPushButton(tr("Export CSV…"), this);
  exportPng_ = new QPushButton(tr("Export Chart…"), this);
  exportPng_->setToolTip(tr("The chart as a PNG image or an SVG drawing (by the file name's suffix)"));
  buttons->addWidget(progress_, 1);
  buttons->addWidget(run_);
  buttons->addWidget(cancel_);
  buttons->addWidget(exportCsv_);
  buttons->addWidget(exportPng_);
  layout->addLayout(buttons);
  layout->addWidget(status_);

  connect(parameter_, &QComboBox::currentIndexChanged, this, &SensitivityWindow::rangeForParameter);
  connect(quantityBox_, &QComboBox::currentIndexChanged, this, [this] {
    quantity_ = static_cast<SweepQuantity>(quantityBox_->currentData().toInt());
    replot();
  });
  connect(run_, &QPushButton::clicked, this, [this] { run(); });
  connect(cancel_, &QPushButton::clicked, this, &SensitivityWindow::cancel);
  // Esc cancels a running sweep, as Cancel does (nothing when none runs); the main window's Esc does too.
  auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
  escape->setObjectName("sweepEscapeShortcut");
  connect(escape, &QShortcut::activated, this, &SensitivityWindow::cancel);
  auto exportTo = [this](bool csv) {
    const QString path = QFileDialog::getSaveFileName(this, csv ? tr("Export Sweep Data") : tr("Export Chart"),
                                                      csv ? QStringLiteral("sweep.csv") : QStringLiteral("sweep.png"),
                                                      csv ? tr("CSV (*.csv)") : tr("PNG (*.png);;SVG (*.svg)"));
    if (path.isEmpty()) return;
    QString error;
    if (!(csv ? exportCsv(path, &error) : exportChart(path, &error)))
      status_->setText(tr("Could not write %1: %2").arg(path, error));
    else
      status_->setText(tr("Exported %1").arg(path));
  };
  connect(exportCsv_, &QPushButton::clicked, this, [exportTo] { exportTo(true); });
  connect(exportPng_, &QPushButton::clicked, this, [exportTo] { exportTo(false); });

  connect(jobs_, &JobRunner::progress, this, [this](std::uint64_t tag, double fraction, const QString& message) {
    if (tag != generation_) return;
    progress_->setValue(static_cast<int>(std::lround(fraction * 1000)));
    status_->setText(message);
  });
  connect(jobs_, &JobRunner::finished, this, [this](std::uint64_t tag, const std::any& result) {
    if (tag != generation_) return;
    const auto* t = JobRunner::resultAs<std::shared_ptr<const SweepTable>>(result);
    table_ = t ? *t : nullptr;
    setRunning(false);
    progress_->setValue(1000);
    status_->setText(tr("%1 points").arg(table_ ? table_->points.size() : 0));
    replot();
    emit sweepFinished();
  });
  connectJobEnds(jobs_, this,
                 {&generation_, [this] { setRunning(false); }, status_, tr("Sweep failed: %1"),
                  [this] { emit sweepCancelled(); }, [this](const QString& error) { emit sweepFailed(error); }});
  rangeForParameter();
  setRunning(false);
  replot();
}

SensitivityWindow::~SensitivityWindow() = default;

void SensitivityWindow::rangeForParameter() {
  const auto p = static_cast<SweepParameter>(parameter_->currentData().toInt());
  switch (p) {
    case SweepParameter::YoungsModulus: from_->setText("1e5"); to_->setText("1e9"); break;
    case SweepParameter::NormalForce: from_->setText("1"); to_->setText("20"); break;
    case SweepParameter::Friction: from_->setText("0.1"); to_->setText("1.5"); break;
  }
}

void SensitivityWindow::setSweep(SweepParameter parameter, double from, double to, int count) {
  parameter_->setCurrentIndex(parameter_->findData(static_cast<int>(parameter)));
  from_->setText(QLocale::c().toString(from, 'g', 17));
  to_->setText(QLocale::c().toString(to, 'g', 17));
  count_->setValue(count);
}

void SensitivityWindow::setQuantity(SweepQuantity quantity) {
  quantityBox_->setCurrentIndex(quantityBox_->findData(static_cast<int>(quantity)));
}

void SensitivityWindow::setRunning(bool on) {
  running_ = on;
  run_->setEnabled(!on);
  cancel_->setEnabled(on);
  exportCsv_->setEnabled(!on && table_);
  exportPng_->setEnabled(!on && table_);
}

bool SensitivityWindow::run() {
  const auto parameter = static_cast<SweepParameter>(parameter_->currentData().toInt());
  const auto from = parseNumber(from_), to = parseNumber(to_);
  if (!from || !to) {
    status_->setText(tr("The range needs two numbers."));
    return false;
  }
  SweepRequest request;
  request.parameter = parameter;
  try {
    request.values = sweepValues(parameter, *from, *to, count_->value());
  } catch (const Error& e) {
    status_->setText(QString::fromStdString(e.message()));
    return false;
  }
  std::optional<GraspSnapshot> snapshot = snapshotGrasp(*doc_, *analysis_);
  if (!snapshot) {
    status_->setText(tr("No grasp to sweep: the world has no graspable body."));
    return false;
  }
  const std::uint64_t tag = ++generation_;
  setRunning(true);
  progress_->setValue(0);
  status_->setText(tr("Sweeping…"));
  jobs_->submit(tag, [s = std::move(*snapshot), request](ProgressSink& progress) -> std::any {
    auto t = std::make_shared<const SweepTable>(
        runSweep(*s.world, s.state, s.contacts, s.graspable, s.settings, request, progress));
    return std::shared_ptr<const SweepTable>(t);
  });
  return true;
}

void SensitivityWindow::cancel() {
  if (!running_) return;
  jobs_->cancel();
  if (!jobs_->busy()) {  // the job was still waiting: dropped without an outcome
    setRunning(false);
    status_->setText(tr("Cancelled"));
    emit sweepCancelled();
  }
}

void SensitivityWindow::replot() {
  chart_->removeAllSeries();
  for (QAbstractAxis* axis : chart_->axes()) {
    chart_->removeAxis(axis);
    delete axis;
  }
  chart_->setTitle(quantityLabel(quantity_));
  if (!table_) return;
  QAbstractAxis* x = nullptr;
  if (sweepIsLogarithmic(table_->parameter)) {
    auto* log = new QLogValueAxis;
    log->setBase(10);
    log->setLabelFormat("%.0e");
    x = log;
  } else {
    auto* lin = new QValueAxis;
    lin->setLabelFormat("%g");
    x = lin;
  }
  x->setTitleText(parameterLabel(table_->parameter));
  auto* y = new QValueAxis;
  y->setTitleText(quantityLabel(quantity_));
  y->setLabelFormat("%.3g");
  chart_->addAxis(x, Qt::AlignBottom);
  chart_->addAxis(y, Qt::AlignLeft);
  double lo = 0, hi = 0;
  bool any = false;
  for (std::size_t k = 0; k < table_->models.size(); ++k) {
    auto* series = new QLineSeries;
    series->setName(QString::fromStdString(table_->models[k]));
    const auto c = comparisonColour(std::string_view(table_->models[k]));  // as the overlay and the dock
    series->setPen(QPen(QColor::fromRgbF(c[0], c[1], c[2]), 2));
    series->setPointsVisible(true);
    for (const SweepPoint* p : table_->series(table_->models[k])) {
      const auto v = sweepQuantity(*table_, *p, quantity_);
      if (!v) continue;
      series->append(p->value, *v);
      lo = any ? std::min(lo, *v) : *v;
      hi = any ? std::max(hi, *v) : *v;
      any = true;
    }
    chart_->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
  }
  if (any) {
    const double pad = hi > lo ? 0.05 * (hi - lo) : std::max(1e-12, 0.05 * std::abs(hi));
    // An area or a torsional limit is never negative: its axis starts at 0 (ε may be, below force closure).
    const double bottom = sweepQuantityIsNonNegative(quantity_) ? 0.0 : std::min(0.0, lo - pad);
    y->setRange(bottom, std::max(hi + pad, bottom + 1e-12));
  }
  if (!table_->points.empty()) x->setRange(table_->points.front().value, table_->points.back().value);
}

bool SensitivityWindow::exportCsv(const QString& path, QString* error) const {
  if (!table_) {
    if (error) *error = tr("no sweep yet");
    return false;
  }
  QSaveFile file(path);
  const std::string csv = table_->csv();
  if (!file.open(QIODevice::WriteOnly) || file.write(csv.data(), static_cast<qint64>(csv.size())) < 0 || !file.commit()) {
    if (error) *error = file.errorString();
    return false;
  }
  return true;
}

bool SensitivityWindow::exportPng(const QString& path, QString* error) const {
  return saveWidgetPng(view_, path, error);
}

bool SensitivityWindow::exportSvg(const QString& path, QString* error) const {
  return saveWidgetSvg(view_, tr("SoftGrasp sensitivity sweep"), path, error);
}

bool SensitivityWindow::exportChart(const QString& path, QString* error) const {
  return saveWidgetImage(view_, tr("SoftGrasp sensitivity sweep"), path, error);
}

}  // namespace sg::app
