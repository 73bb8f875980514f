#pragma once
// Soft-contact inspector dock: everything the soft-finger pipeline computed for the selected contact
// (GraspAnalysis::selectedContact) — neighbourhood radius and sizes, both sides' curvature source (GraspIt! fit,
// osculating jet, exact, ... with the estimator's residual) and fitted paraboloids (a, b, c, RMS residual,
// principal curvatures and radii), the relative radii, the patch semi-axes and peak pressure, the
// torsional limit e_n and μ·N·e_n, and the contact's 4-D wrench edges (fx fy fz τz in the contact frame at
// unit normal force, μ applied). A note replaces the soft fields for point or frictionless contacts.
// The neighbourhood points are recomputed (SoftNeighbourhood API) for the selected contact only and
// highlighted in the viewport. Its combo box selects a contact, so it also works on its own.
#include <QDockWidget>
#include <QHash>
#include <vector>

#include "core/Math.h"

class QComboBox;
class QLabel;
class QTableWidget;
class QTreeWidget;
class QTreeWidgetItem;
class SoSeparator;
class SoSwitch;

namespace sg::app {

class Document;
class GraspAnalysis;

class SoftContactInspector : public QDockWidget {
  Q_OBJECT
 public:
  // overlayRoot: where the highlighted points go (nullptr without a viewport); ref'd while alive.
  SoftContactInspector(GraspAnalysis* analysis, const Document* doc, SoSeparator* overlayRoot,
                       QWidget* parent = nullptr);
  ~SoftContactInspector() override;

  QComboBox* contactCombo() const { return combo_; }
  QTreeWidget* tree() const { return tree_; }
  QTableWidget* edgesTable() const { return edges_; }
  QLabel* noteLabel() const { return note_; }
  // The shown text of a quantity by key (e.g. "kappaMax1", "semiAxisLong"); empty if not shown.
  QString valueText(const QString& key) const;
  // World points (mm) highlighted for the selected contact: both sides' neighbourhoods (contact points first).
  const std::vector<Vec3>& highlightedPoints() const { return points_; }

  void refresh();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  // The quantity column as wide as its names, but leaving the values 80 px or 2/5 of the tree in a narrow dock.
  void fitQuantityColumn();
  void fillContactCombo();
  void showSelected();
  void highlight(const std::vector<Vec3>& points);
  QTreeWidgetItem* addGroup(const QString& title);
  void addValue(QTreeWidgetItem* group, const QString& key, const QString& name, const QString& value);

  GraspAnalysis* analysis_;
  const Document* doc_;
  QComboBox* combo_;
  QLabel* note_;
  QTreeWidget* tree_;
  QTableWidget* edges_;
  QHash<QString, QTreeWidgetItem*> items_;
  std::vector<Vec3> points_;
  SoSeparator* overlayRoot_ = nullptr;
  SoSwitch* highlight_ = nullptr;
};

}  // namespace sg::app
