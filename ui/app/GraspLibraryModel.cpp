#include "GraspLibraryModel.h"

#include <cmath>
#include <limits>

#include "core/NumberFormat.h"

namespace sg::app {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString libraryNumber(double v) {
  return std::isfinite(v) ? QString::fromStdString(formatDouble(v)) : QStringLiteral("-");
}
}  // namespace

GraspLibraryModel::GraspLibraryModel(QObject* parent) : QAbstractTableModel(parent) {}

void GraspLibraryModel::setRows(std::vector<store::GraspRow> rows, const QString& measure) {
  beginResetModel();
  rows_ = std::move(rows);
  measure_ = measure;
  endResetModel();
  emit headerDataChanged(Qt::Horizontal, kValue, kValue);
}

int GraspLibraryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int GraspLibraryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumns; }

QVariant GraspLibraryModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  if (role != Qt::DisplayRole && role != kSortRole) return {};
  const store::GraspRow& r = rows_[static_cast<std::size_t>(index.row())];
  const bool sort = role == kSortRole;
  switch (index.column()) {
    case kId: return sort ? QVariant(static_cast<double>(r.id)) : QVariant(QString::number(r.id));
    case kRobot: return QString::fromStdString(r.robot);
    case kObject: return QString::fromStdString(r.object);
    case kModel: return QString::fromStdString(r.primaryModel);
    case kRank: return sort ? QVariant(static_cast<double>(r.grasp.rank)) : QVariant(QString::number(r.grasp.rank));
    case kEnergy: {
      const double e = r.grasp.energy.value_or(kNaN);
      return sort ? QVariant(e) : QVariant(libraryNumber(e));
    }
    case kForceClosure:
      return sort ? QVariant(r.grasp.forceClosure ? 1.0 : 0.0) : QVariant(r.grasp.forceClosure ? tr("yes") : tr("no"));
    case kValue: {
      const double v = r.value.value_or(kNaN);
      return sort ? QVariant(v) : QVariant(libraryNumber(v));
    }
    case kRun: return QString::fromStdString(r.run);
    default: return {};
  }
}

QVariant GraspLibraryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
    case kId: return tr("Id");
    case kRobot: return tr("Robot");
    case kObject: return tr("Object");
    case kModel: return tr("Model");
    case kRank: return tr("Rank");
    case kEnergy: return tr("Energy");
    case kForceClosure: return tr("FC");
    case kValue: return measure_.isEmpty() ? tr("Value") : measure_;
    case kRun: return tr("Run");
    default: return {};
  }
}

}  // namespace sg::app
