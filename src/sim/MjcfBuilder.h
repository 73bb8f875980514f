#pragma once
// MJCF text for one trial, built in memory from a world and a state (README.md §Model): the hand (palm fixed in
// the world, one body per joint, links' geometry and mass on them), the graspable as a free body, contacts
// between hand and object only, coupled joints as equality constraints, one actuator per DOF. SI units
// (SimUnits.h). Obstacles are left out: the trial is hand and object alone.
#include <string>
#include <vector>

#include "model/World.h"
#include "sim/TrialSettings.h"

namespace sg::sim {

// How a DOF is driven: a closing DOF (auto-grasp moves it: defaultVelocity ≠ 0) pushes with its full effort
// towards closing; any other DOF holds its value with its PD gains, the force clamped to its effort.
struct SimDof {
  int dof = 0;
  std::string joint;          // MuJoCo name of the leader joint (the first joint the DOF drives)
  std::string actuator;
  bool closing = false;
  double closeSign = 0;       // +1/−1: the direction closing moves the DOF value
  double effort_SI = 0;       // N (prismatic DOF) or N·m
  double kp_SI = 0, kd_SI = 0;  // per m or rad of the DOF, as written (SimModel caps them, README.md §Actuators)
  double gear = 1;            // actuator length = DOF value (SI) + constant
  double unit_SI = 1;         // SI per robot unit of the DOF value (1e-3 for mm, 1 for rad)
  double offsetPerRatio = 0;  // leader joint's offset / ratio (robot units): DOF value = gear·q/unit_SI − this
};

// One MuJoCo hinge or slide joint and the robot joint it stands for.
struct SimJoint {
  std::string name;
  int chain = 0, joint = 0;
  bool prismatic = false;
  double min_SI = 0, max_SI = 0;  // motion limits (rad or m): the joint's limits plus its offset
  double q_SI = 0;                // motion at the state's DOF values
};

// A hand body and the MuJoCo body its link is on (links sit on the body of their last joint, at X_JC).
struct SimHandBody {
  BodyRef ref;
  std::string label;              // World::bodyLabel
  std::string mjBody;
};

struct SimLayout {
  std::string mjcf;
  int robot = -1;                 // -1: no hand (the object falls freely)
  int graspable = 0;
  std::string objectBody = "object";
  double objectMass_kg = 0;
  std::vector<SimHandBody> handBodies;  // palm first, then links (Robot::bodyRefs order)
  std::vector<SimJoint> joints;
  std::vector<SimDof> dofs;
  std::size_t objectPieces = 0;   // convex geoms of the object
  double objectVolumeError = 0;   // ConvexPieces::volumeError of the object's mesh (0 for a primitive)
  bool collisionPrefilter = true;  // TrialSettings::collisionPrefilter
  bool pairList = true;            // TrialSettings::pairList
  bool exactSphereMesh = true;     // TrialSettings::exactSphereMesh
  int pairSlots = 0;               // placeholder <pair>s declared as room for the per-step pair list (PairList.h)
  int contactCapacity = 0;         // MuJoCo's arena: room for this many contacts (nconmax) and 4 rows each (njmax)
};

// MuJoCo's arena (README.md §Cost, "Arena"): the compiler, mj_makeData and mj_resetData touch all of it, and it
// grows with njmax², so a trial runs in the compact arena first and again in the full one (the size every trial
// had before) only when the compact one overflows; without an overflow the two give the same trajectory bit for bit.
inline constexpr int kFullContactCapacity = 200;
inline constexpr int kCompactContactCapacity = 100;

// Throws sg::Error (with the world's file) when the graspable or robot index is out of range, the state does
// not fit the world, or a DOF that closes has no effort (maxEffort ≤ 0).
SimLayout buildMjcf(const World& world, const WorldState& state, int robot, int graspable,
                    const TrialSettings& settings, int contactCapacity = kFullContactCapacity);

}  // namespace sg::sim
