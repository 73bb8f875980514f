#pragma once
// The planner dock's results (PlannerDock.h): one row per grasp of the list (rank, energy, force closure, ε L1,
// volume L1, contacts), sortable by any column; a row knows its grasp's index in the list whatever the order.
#include <QTableWidget>

#include "grasp/planner/GraspList.h"

namespace sg::app {

class PlannerResultsTable : public QTableWidget {
  Q_OBJECT
 public:
  explicit PlannerResultsTable(QWidget* parent = nullptr);

  // Refills the table from `list`, keeping the sort column; `current` (an index in the list, -1: none) selected.
  void showList(const planner::GraspList& list, int current);
  int rowOfGrasp(int index) const;  // -1: not shown
  int graspAtRow(int row) const;    // -1: no such row
  void selectGrasp(int index);      // without graspSelected
  void sortByRank();                // planner order, rank 1 on top

 signals:
  void graspSelected(int index);    // the user picked a row
};

}  // namespace sg::app
