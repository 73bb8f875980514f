#include "PoseEditor.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <algorithm>
#include <cmath>

#include "CollisionStoppedEdits.h"
#include "Commands.h"
#include "Document.h"
#include "core/RollPitchYaw.h"

namespace sg::app {

PoseEditor::PoseEditor(Document* doc, QWidget* parent) : QGroupBox(tr("Pose"), parent), doc_(doc) {
  auto* form = new QFormLayout(this);
  const QStringList names{tr("x"), tr("y"), tr("z"), tr("roll"), tr("pitch"), tr("yaw")};
  for (int i = 0; i < 6; ++i) {
    auto* spin = new QDoubleSpinBox(this);
    spin->setObjectName(QStringLiteral("pose_") + names[i]);
    spin->setDecimals(2);
    spin->setRange(i < 3 ? -1e6 : -360, i < 3 ? 1e6 : 360);
    spin->setSuffix(i < 3 ? tr(" mm") : tr("°"));
    spin->setKeyboardTracking(false);
    spin->setSingleStep(i < 3 ? 1.0 : 5.0);
    spin->setMinimumWidth(80);  // not as wide as the ±1e6 range asks: a narrow dock still shows "-1234.56 mm"
    // Arrow steps and Enter (no per-keystroke updates: keyboard tracking is off), and leaving the field.
    connect(spin, &QDoubleSpinBox::valueChanged, this, &PoseEditor::applyFields);
    connect(spin, &QDoubleSpinBox::editingFinished, this, &PoseEditor::applyFields);
    fields_[i] = spin;
    form->addRow(names[i], spin);
  }
  connect(doc_, &Document::selectionChanged, this, &PoseEditor::refresh);
  connect(doc_, &Document::worldChanged, this, [this](ChangeKind k) {
    if (k != ChangeKind::Properties) refresh();
  });
  refresh();
}

void PoseEditor::refresh() {
  const auto& sel = doc_->selection();
  const bool movable = isMovable(sel);
  setEnabled(movable);
  setTitle(robotIndexOf(sel) >= 0 ? tr("Robot pose") : tr("Pose"));
  if (!movable) return;
  const Transform pose = movablePose(doc_->world(), *sel);
  const Vec3 rpy = rollPitchYaw(pose.rotation());
  for (int i = 0; i < 6; ++i) {
    const QSignalBlocker block(fields_[i]);
    fields_[i]->setValue(i < 3 ? pose.translation()[i] : radToDeg(rpy[i - 3]));
  }
}

void PoseEditor::applyFields() {
  const auto& sel = doc_->selection();
  if (!isMovable(sel)) return;
  const Transform current = movablePose(doc_->world(), *sel);
  const Vec3 currentRpy = rollPitchYaw(current.rotation());
  // The fields show 2 decimals: a field the user left alone keeps its exact value, so editing x does not
  // nudge the rotation by rounding.
  std::array<double, 6> exact{};
  for (int i = 0; i < 6; ++i) {
    const double value = i < 3 ? current.translation()[i] : radToDeg(currentRpy[i - 3]);
    const double shown = fields_[i]->value();
    exact[i] = std::abs(shown - std::round(value * 100.0) / 100.0) < 1e-9 ? value : shown;
  }
  const Vec3 t(exact[0], exact[1], exact[2]);
  const Vec3 rpy(degToRad(exact[3]), degToRad(exact[4]), degToRad(exact[5]));
  const Transform pose(fromRollPitchYaw(rpy), t);
  if ((current.translation() - t).norm() < 1e-9 && current.rotation().angularDistance(pose.rotation()) < 1e-9)
    return;  // nothing changed
  // A typed pose obeys Collision Checking as a drag does (CollisionStoppedEdits): the motion stops at the last
  // collision-free pose along the way, and the status bar says so.
  const BodyHandle body = *sel;
  const int robot = robotIndexOf(sel);
  if (auto* edits = CollisionStoppedEdits::of(doc_)) {
    const MotionOutcome outcome = robot >= 0 ? edits->moveRobot(robot, pose) : edits->moveBody(body, pose);
    if (outcome != MotionOutcome::Reached) refresh();  // show where it stopped (or that nothing moved)
    return;
  }
  if (robot >= 0)
    doc_->push(new SetRobotPoseCommand(doc_, robot, pose));
  else
    doc_->push(new SetBodyPoseCommand(doc_, body, pose));
}

}  // namespace sg::app
