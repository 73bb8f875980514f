#pragma once
// Sensitivity plots (Comparison dock > Sensitivity Plots…): the engine's sweep (src/grasp/SensitivitySweep.h) of
// Young's modulus (log axis), the patch normal force or μ over every registered contact model, on the grasp the
// live analysis had when Run was pressed, computed in the background (JobRunner) with a progress bar and Cancel.
// One Qt Charts line chart at a time: ε L1, ε L∞, exact-cone ε, the mean patch area or the mean torsional limit
// against the parameter, one series per model in its own colour (the comparison overlay's, by model name); the
// y axis of an area or torsional limit starts at 0. Export: the table as CSV (SweepTable::csv, the CLI's
// `compare --sweep ... --csv`) and the chart as PNG or SVG (Qt SVG's generator).
#include <QWidget>
#include <cstdint>
#include <memory>
#include <optional>

#include "grasp/SensitivitySweep.h"

class QChart;
class QChartView;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace sg::app {

class Document;
class GraspAnalysis;
class JobRunner;

// What the chart plots of a sweep point.
enum class SweepQuantity { EpsilonL1, EpsilonLInfinity, EpsilonExact, PatchArea, TorsionalLimit };

// The plotted value of `point` (nullopt: not available, e.g. a failed model or an uncomputed ε).
std::optional<double> sweepQuantity(const SweepTable& table, const SweepPoint& point, SweepQuantity quantity);
// True for the quantities that cannot be negative (areas, torsional limits): their y axis starts at 0.
bool sweepQuantityIsNonNegative(SweepQuantity quantity);

class SensitivityWindow : public QWidget {
  Q_OBJECT
 public:
  SensitivityWindow(GraspAnalysis* analysis, const Document* doc, QWidget* parent = nullptr);
  ~SensitivityWindow() override;

  // The controls (tests drive them): parameter key ("youngs", "force", "mu"), range and count.
  void setSweep(SweepParameter parameter, double from, double to, int count);
  void setQuantity(SweepQuantity quantity);
  // Starts the sweep on the analysis' current grasp; false when there is none (status says why).
  bool run();
  void cancel();
  bool running() const { return running_; }

  const SweepTable* table() const { return table_.get(); }
  QChart* chart() const { return chart_; }
  QChartView* chartView() const { return view_; }
  QProgressBar* progressBar() const { return progress_; }
  QLabel* statusLabel() const { return status_; }
  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }

  // Writes the table as CSV / the chart as PNG or SVG (atomically); false with `error` set on failure.
  bool exportCsv(const QString& path, QString* error) const;
  bool exportPng(const QString& path, QString* error) const;
  bool exportSvg(const QString& path, QString* error) const;
  // PNG or SVG by the file's suffix (".svg": SVG, anything else: PNG).
  bool exportChart(const QString& path, QString* error) const;

 signals:
  // A sweep finished (table() set), was cancelled or failed.
  void sweepFinished();
  void sweepCancelled();
  void sweepFailed(const QString& error);

 private:
  void replot();
  void setRunning(bool on);
  void rangeForParameter();

  GraspAnalysis* analysis_;
  const Document* doc_;
  JobRunner* jobs_;
  std::uint64_t generation_ = 0;
  bool running_ = false;
  std::shared_ptr<const SweepTable> table_;
  SweepQuantity quantity_ = SweepQuantity::EpsilonL1;

  QComboBox* parameter_;
  QLineEdit* from_;
  QLineEdit* to_;
  QSpinBox* count_;
  QComboBox* quantityBox_;
  QPushButton* run_;
  QPushButton* cancel_;
  QPushButton* exportCsv_;
  QPushButton* exportPng_;
  QProgressBar* progress_;
  QLabel* status_;
  QChart* chart_;
  QChartView* view_;
};

}  // namespace sg::app
