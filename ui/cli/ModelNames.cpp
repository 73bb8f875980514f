#include "ModelNames.h"

#include <cmath>

#include "core/NumberFormat.h"

namespace sg::cli {

std::string bodyKindName(BodyKind kind) {
  switch (kind) {
    case BodyKind::Obstacle: return "obstacle";
    case BodyKind::Graspable: return "graspable";
    case BodyKind::Link: return "link";
  }
  return "unknown";
}

std::string dofTypeName(DofType type) {
  switch (type) {
    case DofType::Rigid: return "rigid";
    case DofType::BreakAway: return "breakaway";
    case DofType::Compliant: return "compliant";
  }
  return "unknown";
}

std::string jointTypeName(JointType type) {
  switch (type) {
    case JointType::Revolute: return "revolute";
    case JointType::Prismatic: return "prismatic";
    case JointType::Fixed: return "fixed";
  }
  return "unknown";
}

std::string linkJointTypeName(LinkJointType type) {
  switch (type) {
    case LinkJointType::Revolute: return "revolute";
    case LinkJointType::Prismatic: return "prismatic";
    case LinkJointType::Universal: return "universal";
    case LinkJointType::Ball: return "ball";
  }
  return "unknown";
}

std::string dofUnit(const Dof& dof) { return dof.prismatic ? "mm" : "rad"; }

std::string jointUnit(const Joint& joint) { return joint.type == JointType::Prismatic ? "mm" : "rad"; }

namespace {
std::string compactNumber(double value) {  // 10 significant digits hides deg<->rad round-off
  return formatGeneral(value, 10);
}
}  // namespace

std::string dofExpressionText(const Joint& joint) {
  if (joint.type == JointType::Fixed) return "fixed";
  std::string text = std::string("d") + std::to_string(joint.expr.dof);
  if (joint.expr.ratio != 1.0) text += std::string("*") + compactNumber(joint.expr.ratio);
  const double offset = joint.type == JointType::Revolute ? radToDeg(joint.expr.offset) : joint.expr.offset;
  if (std::abs(offset) > 1e-12) text += std::string("+") + compactNumber(offset);
  return text;
}

}  // namespace sg::cli
