#pragma once
// A contact model's self-description (src/contact/ContactModel.h: ContactModelResult::describeContact and
// describe, an sg::Json tree with unit-suffixed keys) shown as a tree without knowing the model: objects become
// groups, arrays of objects numbered groups, numbers and vectors values. quantityLabel / quantityValue are the
// one place that reads the unit suffixes ("peakPressure_Pa" → "peak pressure (kPa)", the value in kPa: the
// application's pressure unit, as the overlay's colour bar).
#include <QString>
#include <QTreeWidget>

namespace sg {
class Json;
}

namespace sg::app {

// "peakPressure_Pa" → "peak pressure (kPa)", "area_mm2" → "area (mm²)", "kappaMax_per_mm" → "kappa max (1/mm)",
// "fit1" → "fit 1"; a key without a known unit suffix keeps its words ("relativeResidual" → "relative residual").
QString quantityLabel(const QString& key);
// The value shown for `value` under `key`: numbers (and vectors of numbers, "(x, y, z)") converted to the label's
// unit (Pa → kPa), 6 significant digits, C format; booleans "yes"/"no"; strings as they are.
QString quantityValue(const QString& key, const Json& value);

class ModelResultView : public QTreeWidget {
  Q_OBJECT
 public:
  explicit ModelResultView(QWidget* parent = nullptr);

  // Replaces the tree: a "Contact" group with `contact`'s members, a "Model" group with `model`'s (groups with
  // nothing in them are left out). Arrays of objects show at most kMaxArrayItems items, then "… n more".
  void setDescription(const Json& contact, const Json& model);
  void clearDescription();

  // The shown value of the quantity at `path` ("contact/peakPressure_Pa", "model/surfaces/0/area_mm2"); empty
  // if not shown.
  QString valueText(const QString& path) const;
  // The shown label of the quantity at `path`; empty if not shown.
  QString labelText(const QString& path) const;

  static constexpr int kMaxArrayItems = 50;

 private:
  void addMembers(QTreeWidgetItem* parent, const QString& path, const Json& object);
  void addValue(QTreeWidgetItem* parent, const QString& path, const QString& key, const Json& value);
  QTreeWidgetItem* itemAt(const QString& path) const;
};

}  // namespace sg::app
