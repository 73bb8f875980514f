#pragma once
// Re-expressing a robot of general joints (URDF-like) as GraspIt! can write it (README.md §DH conversion):
// DH joints only, one moving joint per link, chains off the palm.
#include "model/Robot.h"

namespace sg {

// The same robot with DH joints: each chain's moving joints get DH parameters by the common-normal construction
// (base frame on the first axis), fixed joints are folded away (their links' geometry joins the body before them:
// the previous link, or the palm at the start of a chain), and every link mesh (collision and visual), centre of
// mass, inertia and virtual contact is re-expressed in its DH link frame, so every body's world geometry is the
// same at every DOF value. Merged bodies add their masses and get CoG and inertia from the merged mesh. Collision
// pairs follow the links they name. Throws sg::Error for a chain hanging off a link (GraspIt! chains hang off the
// palm) and for a moving joint no link follows.
Robot toDhRobot(const Robot& robot);

}  // namespace sg
