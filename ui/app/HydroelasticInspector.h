#pragma once
// Hydroelastic surface inspector: what the hydroelastic contact model computed for one contact surface
// (geometry/hydro/ContactSurface.h) — the bodies, area (mm²), total normal force (N), peak pressure (kPa,
// as the overlay's colour bar), polygon count, centre of pressure, net force and moment, torsional limit.
// HydroelasticSurfacePage shows a HydroelasticModelResult given to it (tests feed hand-built ones);
// HydroelasticInspector is the dock that feeds it the live analysis' result when the contact model is
// "hydroelastic" and follows the selected contact (GraspAnalysis::selectedContact) to its surface.
#include <QDockWidget>
#include <QHash>
#include <memory>

class QComboBox;
class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace sg {
struct HydroelasticModelResult;
struct World;
}  // namespace sg

namespace sg::app {

class Document;
class GraspAnalysis;

class HydroelasticSurfacePage : public QWidget {
  Q_OBJECT
 public:
  explicit HydroelasticSurfacePage(QWidget* parent = nullptr);

  // The surfaces to show (null: none, with `why` as the note); bodies are named from `world` (may be null:
  // "body #i"). Shows the first non-empty surface.
  void setResult(std::shared_ptr<const HydroelasticModelResult> result, const World* world,
                 const QString& why = {});
  // Shows surface `index` of the result (-1 or out of range: none).
  void showSurface(int index);
  int shownSurface() const { return shown_; }

  QComboBox* surfaceCombo() const { return combo_; }
  QLabel* noteLabel() const { return note_; }
  QTreeWidget* tree() const { return tree_; }
  // The shown text of a quantity by key ("area", "normalForce", "peakPressure", "polygons", "centreOfPressure",
  // ...); empty if not shown.
  QString valueText(const QString& key) const;

 private:
  QString bodyName(int index) const;
  QTreeWidgetItem* addGroup(const QString& title);
  void addValue(QTreeWidgetItem* group, const QString& key, const QString& name, const QString& value);

  std::shared_ptr<const HydroelasticModelResult> result_;
  const World* world_ = nullptr;
  int shown_ = -1;
  QComboBox* combo_;
  QLabel* note_;
  QTreeWidget* tree_;
  QHash<QString, QTreeWidgetItem*> items_;
};

class HydroelasticInspector : public QDockWidget {
  Q_OBJECT
 public:
  HydroelasticInspector(GraspAnalysis* analysis, const Document* doc, QWidget* parent = nullptr);

  HydroelasticSurfacePage* page() const { return page_; }
  void refresh();

 private:
  void followSelectedContact();

  GraspAnalysis* analysis_;
  const Document* doc_;
  HydroelasticSurfacePage* page_;
};

}  // namespace sg::app
