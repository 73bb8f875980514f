#pragma once
// Properties of the selected body: name, material (from the world's material table), mass (g),
// Young's modulus (Pa; empty = rigid, otherwise > 0), geometry file, triangle count, max radius (mm),
// and its pose. Every edit goes through a command.
#include <QDockWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace sg::app {

class Document;
class PoseEditor;

class PropertiesDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit PropertiesDock(Document* doc, QWidget* parent = nullptr);

  QComboBox* materialBox() const { return material_; }
  QDoubleSpinBox* massBox() const { return mass_; }
  QLineEdit* youngsEdit() const { return youngs_; }
  QLabel* youngsStatus() const { return youngsStatus_; }
  PoseEditor* poseEditor() const { return pose_; }

  // Push the edited value (no-op if unchanged). applyYoungs returns false (and pushes nothing) when the
  // text is neither empty nor a number > 0.
  void applyMaterial();
  void applyMass();
  bool applyYoungs();

 private:
  void refresh();

  Document* doc_;
  QLabel* name_;
  QComboBox* material_;
  QDoubleSpinBox* mass_;
  QLineEdit* youngs_;
  QLabel* youngsStatus_;
  QLabel* geometry_;
  QLabel* triangles_;
  QLabel* radius_;
  PoseEditor* pose_;
};

}  // namespace sg::app
