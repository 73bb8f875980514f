#include "PlannerChart.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace sg::app {

namespace {

constexpr int kTallChart_px = 160;  // a live plot this high has room for its axis titles

// Fixed decimals from the tick step (one more than the step's first significant digit needs, at most 4): "%g" gave
// ticks near zero such as "1.78e-15" or "0.00123" that a narrow side axis elided to "…", and the plotted range (so
// the tick values) depends on when the timer sampled the run.
void setStepLabelFormat(QValueAxis* axis) {
  const double step = (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1);
  const int decimals = step > 0 ? std::clamp(static_cast<int>(std::ceil(-std::log10(step))) + 1, 0, 4) : 0;
  const QString format = QStringLiteral("%.%1f").arg(decimals);
  if (axis->labelFormat() != format) axis->setLabelFormat(format);
}

}  // namespace

PlannerChart::PlannerChart(QWidget* parent) : QChartView(parent) {
  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  chart->setBackgroundRoundness(0);
  // Short names: a legend wider than the dock elides them (the axis titles say "energy" and "ε").
  currentSeries_ = new QLineSeries;
  currentSeries_->setName(tr("current"));
  bestSeries_ = new QLineSeries;
  bestSeries_->setName(tr("best"));
  epsilonSeries_ = new QLineSeries;
  epsilonSeries_->setName(tr("ε"));
  for (QLineSeries* s : {currentSeries_, bestSeries_, epsilonSeries_}) chart->addSeries(s);
  // Short labels in a smaller font, few ticks: in a dock a few hundred pixels wide the default format and five
  // ticks per axis left every label elided to "…".
  QFont labels = chart->font();
  labels.setPointSizeF(std::max(6.0, labels.pointSizeF() * 0.8));
  axisX_ = new QValueAxis;
  axisX_->setTitleText(tr("iteration"));
  axisX_->setLabelFormat("%.0f");
  axisEnergy_ = new QValueAxis;
  axisEnergy_->setTitleText(tr("energy"));
  axisEpsilon_ = new QValueAxis;
  axisEpsilon_->setTitleText(tr("ε"));
  for (QValueAxis* a : {axisX_, axisEnergy_, axisEpsilon_}) {
    a->setLabelsFont(labels);
    a->setTitleFont(labels);
  }
  chart->legend()->setFont(labels);
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisEnergy_, Qt::AlignLeft);
  chart->addAxis(axisEpsilon_, Qt::AlignRight);
  for (QLineSeries* s : {currentSeries_, bestSeries_, epsilonSeries_}) s->attachAxis(axisX_);
  currentSeries_->attachAxis(axisEnergy_);
  bestSeries_->attachAxis(axisEnergy_);
  epsilonSeries_->attachAxis(axisEpsilon_);
  setChart(chart);
  setObjectName("plannerChart");
  // Room for two ticks a side, the titles and the legend at the smaller font; the splitter gives more when it can.
  setMinimumSize(120, 110);
  setRenderHint(QPainter::Antialiasing);
  setToolTip(tr("Chain 0's current energy and the best energy so far (left axis) and the best grasp's ε (right "
                "axis) against the iteration"));
  connect(chart, &QChart::plotAreaChanged, this, &PlannerChart::fitTicks);
  fitTicks(chart->plotArea());
}

void PlannerChart::clear() {
  currentSeries_->clear();
  bestSeries_->clear();
  epsilonSeries_->clear();
}

int PlannerChart::sampleCount() const { return static_cast<int>(currentSeries_->count()); }

void PlannerChart::add(const planner::AnnealingMonitor::Snapshot& snapshot) {
  for (const planner::AnnealingMonitor::Sample& s : snapshot.samples) {
    currentSeries_->append(static_cast<double>(s.iteration), s.current);
    bestSeries_->append(static_cast<double>(s.iteration), s.best);
  }
  for (const planner::AnnealingMonitor::QualitySample& q : snapshot.quality)
    epsilonSeries_->append(static_cast<double>(q.iteration), q.value);
  if (!snapshot.samples.empty() || !snapshot.quality.empty()) rescale();
}

void PlannerChart::rescale() {
  double xMax = 1, eMin = 0, eMax = 1, epsMax = 0;
  bool first = true;
  for (QLineSeries* s : {currentSeries_, bestSeries_})
    for (const QPointF& p : s->points()) {
      xMax = std::max(xMax, p.x());
      if (first) eMin = eMax = p.y();
      first = false;
      eMin = std::min(eMin, p.y());
      eMax = std::max(eMax, p.y());
    }
  for (const QPointF& p : epsilonSeries_->points()) {
    xMax = std::max(xMax, p.x());
    epsMax = std::max(epsMax, p.y());
  }
  if (eMax - eMin < 1e-9) eMax = eMin + 1;
  axisX_->setRange(0, xMax);
  axisEnergy_->setRange(eMin, eMax);
  axisEpsilon_->setRange(0, epsMax > 0 ? epsMax * 1.1 : 1);
  setStepLabelFormat(axisEnergy_);
  setStepLabelFormat(axisEpsilon_);
}

// Qt Charts gives each tick label 1/n of its axis (less padding) and elides a label that does not fit to "…", so
// the tick counts follow the plot's size: every label gets its text's height (y) or width (x) and some air.
void PlannerChart::fitTicks(const QRectF& plot) {
  constexpr double kPadding_px = 2 * 5 + 4;  // Qt Charts' label padding on both sides, and a margin
  const QFontMetricsF metrics(axisX_->labelsFont());
  const auto ticks = [](double room, double label) {
    return std::clamp(static_cast<int>(room / (label + kPadding_px)), 2, 6);
  };
  const int y = ticks(plot.height(), metrics.height());
  const double widestX = metrics.horizontalAdvance(QString::number(std::max(std::abs(axisX_->max()), 100000.0), 'f', 0));
  const int x = ticks(plot.width(), widestX);
  // A short chart drops the axis titles (the tooltip says what is plotted): the plot keeps the height two ticks
  // need, the side axes the width of their labels.
  const bool tall = height() >= kTallChart_px;
  for (QValueAxis* a : {axisX_, axisEnergy_, axisEpsilon_})
    if (a->isTitleVisible() != tall) a->setTitleVisible(tall);
  if (axisEnergy_->tickCount() != y) axisEnergy_->setTickCount(y);
  if (axisEpsilon_->tickCount() != y) axisEpsilon_->setTickCount(y);
  if (axisX_->tickCount() != x) axisX_->setTickCount(x);
  setStepLabelFormat(axisEnergy_);
  setStepLabelFormat(axisEpsilon_);
}

}  // namespace sg::app
