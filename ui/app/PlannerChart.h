#pragma once
// The planner dock's live plot (PlannerDock.h, Qt Charts): chain 0's current energy and the best energy so far
// (left axis) and the best grasp's ε (right axis) against the iteration, fed from the run's AnnealingMonitor
// snapshots. Its tick counts follow its size so that no label is elided; a short plot drops the axis titles.
#include <QChartView>

#include "grasp/planner/Annealing.h"

class QLineSeries;
class QValueAxis;

namespace sg::app {

class PlannerChart : public QChartView {
  Q_OBJECT
 public:
  explicit PlannerChart(QWidget* parent = nullptr);

  void clear();
  // The snapshot's new energy and ε samples; the axes follow them.
  void add(const planner::AnnealingMonitor::Snapshot& snapshot);
  int sampleCount() const;  // points of the current-energy series

 private:
  void rescale();
  void fitTicks(const QRectF& plot);  // tick counts that leave every label its room (no "…")

  QLineSeries* currentSeries_ = nullptr;
  QLineSeries* bestSeries_ = nullptr;
  QLineSeries* epsilonSeries_ = nullptr;
  QValueAxis* axisX_ = nullptr;
  QValueAxis* axisEnergy_ = nullptr;
  QValueAxis* axisEpsilon_ = nullptr;
};

}  // namespace sg::app
