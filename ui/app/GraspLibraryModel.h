#pragma once
// The Grasp Library's table (GraspLibraryDock.h): the grasps a store query returned (src/store/GraspStore.h),
// one row each. Display text goes through NumberFormat (C locale); Qt::UserRole holds the raw value (numbers
// as doubles, "-" cells as NaN) so a QSortFilterProxyModel sorts numerically.
#include <QAbstractTableModel>
#include <QString>
#include <vector>

#include "store/GraspStore.h"

namespace sg::app {

class GraspLibraryModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { kId, kRobot, kObject, kModel, kRank, kEnergy, kForceClosure, kValue, kRun, kColumns };
  static constexpr int kSortRole = Qt::UserRole;

  explicit GraspLibraryModel(QObject* parent = nullptr);

  // Replaces the rows; `measure` heads the value column ("" = no measure queried).
  void setRows(std::vector<store::GraspRow> rows, const QString& measure);
  const store::GraspRow& grasp(int row) const { return rows_[static_cast<std::size_t>(row)]; }
  const std::vector<store::GraspRow>& grasps() const { return rows_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<store::GraspRow> rows_;
  QString measure_;
};

}  // namespace sg::app
