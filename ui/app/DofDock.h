#pragma once
// Drives the fingers: for the selected robot (or the first one), a slider and spin box per DOF
// (degrees for revolute DOFs, mm for prismatic ones, range from the model) and one per eigengrasp
// amplitude. Every change pushes a SetDofValuesCommand; one slider drag is one undo step.
#include <QDockWidget>
#include <utility>
#include <vector>

#include "model/Robot.h"

class QSlider;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;

namespace sg::app {

class Document;

class DofDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit DofDock(Document* doc, QWidget* parent = nullptr);

  int robotIndex() const { return robot_; }  // -1: no robot
  int dofRowCount() const { return static_cast<int>(dofRows_.size()); }
  int eigenRowCount() const { return static_cast<int>(eigenRows_.size()); }
  QSlider* dofSlider(int dof) const { return dofRows_.at(dof).slider; }
  QDoubleSpinBox* dofSpinBox(int dof) const { return dofRows_.at(dof).spin; }
  QSlider* eigenSlider(int i) const { return eigenRows_.at(i).slider; }
  QDoubleSpinBox* eigenSpinBox(int i) const { return eigenRows_.at(i).spin; }

  static constexpr int kSliderSteps = 1000;

  // Height (px) that shows the title and every row without scrolling (for the default layout).
  int contentHeight() const;

 private:
  struct Row {
    QSlider* slider = nullptr;
    QDoubleSpinBox* spin = nullptr;
    double min = 0, max = 0;   // in model units (rad, mm, amplitude)
    double displayScale = 1;   // model → display (rad → deg)
  };

  int chooseRobot() const;
  void rebuild();
  void refreshValues();
  Row makeRow(QGridLayout* grid, int gridRow, const QString& name, double min, double max, double displayScale,
              const QString& suffix);
  void connectRow(Row& row, int index, bool eigen);
  void setFromRow(int index, bool eigen, double modelValue);

  Document* doc_;
  QWidget* body_ = nullptr;
  QLabel* title_ = nullptr;
  int robot_ = -1;
  std::vector<Row> dofRows_, eigenRows_;
  int gesture_ = 0;  // non-zero while a slider is held
};

}  // namespace sg::app
