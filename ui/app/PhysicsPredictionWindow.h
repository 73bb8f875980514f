#pragma once
// Measures vs Physics (Grasp > Measures vs Physics…): the table of `softgrasp-cli compare --against-physics`
// (src/sim/README.md §Measures against physics), opened from its --json document or its --csv, read by
// ui/shared/PhysicsPredictionTable.h. Shows the rows (model, measure, grasps, no value, successes, ROC AUC,
// Spearman ρ) and two Qt Charts grouped bar charts in tabs, ROC AUC and Spearman ρ per measure with one bar set
// per contact model (in the model's colour, as the comparison overlay); an undefined value is an empty bar and
// "undefined" in the table. Export: the shown chart as PNG or SVG (Qt SVG's generator), atomically.
#include <QWidget>
#include <optional>

#include "PhysicsPredictionTable.h"

class QChart;
class QChartView;
class QLabel;
class QPushButton;
class QTableWidget;
class QTabWidget;

namespace sg::app {

class PhysicsPredictionWindow : public QWidget {
  Q_OBJECT
 public:
  enum class Statistic { Auc, Spearman };

  explicit PhysicsPredictionWindow(QWidget* parent = nullptr);

  // Loads the file (JSON or CSV); false with `error` (naming the file and the problem) when it cannot, the
  // window keeping what it showed.
  bool openFile(const QString& path, QString* error);
  // openFile with the error in a warning dialog (the Open… button, the menu).
  bool openFileReporting(const QString& path);
  // The Open… button: a file chooser, then openFileReporting.
  void chooseFile();

  const std::optional<shared::PredictionTable>& table() const { return table_; }
  const QString& path() const { return path_; }
  QChart* chart(Statistic which) const;
  QChartView* chartView(Statistic which) const;
  QTabWidget* tabs() const { return tabs_; }
  QTableWidget* tableWidget() const { return rowsTable_; }
  QLabel* statusLabel() const { return status_; }

  // The chart of `which` as PNG or SVG; exportChart picks by the suffix (".svg": SVG, else PNG) and exports the
  // chart of the current tab. False with `error` set on failure.
  bool exportPng(const QString& path, Statistic which, QString* error) const;
  bool exportSvg(const QString& path, Statistic which, QString* error) const;
  bool exportChart(const QString& path, QString* error) const;

 private:
  void showTable();
  void plot(Statistic which);
  Statistic currentStatistic() const;

  std::optional<shared::PredictionTable> table_;
  QString path_;
  QTabWidget* tabs_;
  QChartView* aucView_;
  QChartView* spearmanView_;
  QTableWidget* rowsTable_;
  QLabel* status_;
  QPushButton* open_;
  QPushButton* export_;
};

}  // namespace sg::app
