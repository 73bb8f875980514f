#include "PlannerResultsTable.h"

#include <QHeaderView>
#include <cmath>

namespace sg::app {

namespace {

enum ResultColumn { kResRank, kResEnergy, kResForceClosure, kResEpsilon, kResVolume, kResContacts, kResColumns };

QTableWidgetItem* numberItem(double value, bool valid = true) {
  auto* item = new QTableWidgetItem;
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (valid && std::isfinite(value)) item->setData(Qt::DisplayRole, value);
  else item->setData(Qt::DisplayRole, QStringLiteral("-"));
  return item;
}

}  // namespace

PlannerResultsTable::PlannerResultsTable(QWidget* parent) : QTableWidget(0, kResColumns, parent) {
  setObjectName("plannerResultsTable");
  setHorizontalHeaderLabels({tr("Rank"), tr("Energy"), tr("FC"), tr("ε L1"), tr("Volume L1"), tr("Contacts")});
  verticalHeader()->hide();
  setSelectionBehavior(QAbstractItemView::SelectRows);
  setSelectionMode(QAbstractItemView::SingleSelection);
  setSortingEnabled(true);
  // QHeaderView's default indicator is descending: without this the table opened with the last rank on top.
  sortByRank();
  horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  // The header and two rows at least.
  setMinimumHeight(horizontalHeader()->sizeHint().height() + 2 * verticalHeader()->defaultSectionSize() +
                   2 * frameWidth());
  connect(this, &QTableWidget::itemSelectionChanged, this, [this] {
    const auto rows = selectionModel()->selectedRows();
    if (!rows.isEmpty()) emit graspSelected(graspAtRow(rows.front().row()));
  });
}

void PlannerResultsTable::sortByRank() { sortByColumn(kResRank, Qt::AscendingOrder); }

void PlannerResultsTable::showList(const planner::GraspList& list, int current) {
  const QSignalBlocker block(this);
  setSortingEnabled(false);
  clearContents();
  setRowCount(static_cast<int>(list.grasps.size()));
  for (std::size_t i = 0; i < list.grasps.size(); ++i) {
    const planner::PlannedGrasp& g = list.grasps[i];
    const int row = static_cast<int>(i);
    auto* rank = numberItem(static_cast<double>(i + 1));
    rank->setData(Qt::UserRole, row);
    setItem(row, kResRank, rank);
    setItem(row, kResEnergy, numberItem(g.energy));
    auto* fc = new QTableWidgetItem(g.forceClosure ? tr("yes") : tr("no"));
    fc->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    setItem(row, kResForceClosure, fc);
    const MeasureValue* eps = g.measure("epsilon-l1");
    const MeasureValue* vol = g.measure("volume-l1");
    setItem(row, kResEpsilon, numberItem(eps ? eps->value : 0, eps && eps->ok));
    setItem(row, kResVolume, numberItem(vol ? vol->value : 0, vol && vol->ok));
    setItem(row, kResContacts, numberItem(static_cast<double>(g.contacts.size())));
  }
  setSortingEnabled(true);
  if (current >= 0) selectRow(rowOfGrasp(current));
}

int PlannerResultsTable::rowOfGrasp(int index) const {
  for (int row = 0; row < rowCount(); ++row)
    if (graspAtRow(row) == index) return row;
  return -1;
}

int PlannerResultsTable::graspAtRow(int row) const {
  const QTableWidgetItem* rank = row >= 0 && row < rowCount() ? item(row, kResRank) : nullptr;
  return rank ? rank->data(Qt::UserRole).toInt() : -1;
}

void PlannerResultsTable::selectGrasp(int index) {
  const QSignalBlocker block(this);
  selectRow(rowOfGrasp(index));
}

}  // namespace sg::app
