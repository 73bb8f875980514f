#pragma once
// Edits the pose of the selected movable element: x y z (mm) and roll/pitch/yaw (degrees,
// R = Rz(yaw)·Ry(pitch)·Rx(roll), core/RollPitchYaw.h). A robot body edits its robot's pose. Changes go through commands.
#include <QGroupBox>
#include <array>

#include "core/Transform.h"

class QDoubleSpinBox;

namespace sg::app {

class Document;

class PoseEditor : public QGroupBox {
  Q_OBJECT
 public:
  explicit PoseEditor(Document* doc, QWidget* parent = nullptr);

  // 0..2: x y z (mm), 3..5: roll pitch yaw (deg).
  QDoubleSpinBox* field(int i) const { return fields_.at(i); }
  // Pushes the pose shown in the fields (no-op when nothing movable is selected or nothing changed).
  void applyFields();
  void refresh();

 private:
  Document* doc_;
  std::array<QDoubleSpinBox*, 6> fields_{};
};

}  // namespace sg::app
