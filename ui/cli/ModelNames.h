#pragma once
// Names and units of model enums and expressions as the CLI prints them (text and JSON alike).
#include <string>

#include "model/Robot.h"

namespace sg::cli {

std::string bodyKindName(BodyKind kind);          // "obstacle", "graspable", "link"
std::string dofTypeName(DofType type);            // "rigid", "breakaway", "compliant"
std::string jointTypeName(JointType type);        // "revolute", "prismatic", "fixed"
std::string linkJointTypeName(LinkJointType type);  // "revolute", "prismatic", "universal", "ball"
std::string dofUnit(const Dof& dof);              // "mm" for prismatic DOFs, else "rad"
std::string jointUnit(const Joint& joint);        // "rad" or "mm"
// The DOF expression as GraspIt! writes it: "d1*0.333333+40" (revolute offsets in degrees, as in files).
std::string dofExpressionText(const Joint& joint);

}  // namespace sg::cli
