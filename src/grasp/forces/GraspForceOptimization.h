#pragma once
// GraspIt!'s grasp force optimisation, the static counterpart of a physics trial (FORCES.md): for a grasp (one
// contact model's evaluation) and wrenches to resist (the object's weight along each object-frame axis, or any
// wrench), the contact forces inside each contact's friction set (the point contact's cone or the soft finger's
// elliptic limit surface, WrenchSupport.h ExactContactCone) that balance the wrench with the least joint effort:
// the smallest t with |τ_j| ≤ t·E_j for every DOF j the contacts load (τ = hand Jacobianᵀ × contact forces,
// E_j = Dof::maxEffort × 1e-6, GraspIt!'s unit). The grasp holds the wrench when t ≤ 1. The friction sets are
// linearised (FrictionPolytope.h) and the linear programme solved by COIN-OR Clp; an inscribed polytope gives t
// (its forces lie in the exact sets: a certified "held"), the circumscribed one a lower bound on the exact t.
// Plain data, no Qt; the same input gives the same output.
#include <string>
#include <vector>

#include "grasp/GraspEvaluation.h"
#include "model/World.h"

namespace sg {

struct HoldSettings {
  int tangentEdges = 16;        // vertices of the polygon inscribed in each friction circle (r = cos(π/16))
  int torsionLatitudes = 3;     // soft contacts: latitudes per hemisphere of the limit-surface polytope
  double gravity_m_per_s2 = 9.81;
};

// A wrench to resist, applied to the object at its centre of mass: force (N) and moment (N·mm), object frame.
struct HoldLoad {
  std::string label;            // "x+" (gravity along +x of the object), ..., or "wrench"
  Vec3 force_O_N = Vec3::Zero();
  Vec3 torque_O_Nmm = Vec3::Zero();
};

// The object's weight m·g (mass in g → kg) pulling along each named object-frame axis direction: names from
// "x+", "x-", "y+", "y-", "z+", "z-"; "all" = the six. sg::Error for an unknown name or a mass that is not
// positive and finite.
std::vector<HoldLoad> weightLoads(const Body& object, const std::vector<std::string>& directions,
                                  double gravity_m_per_s2 = 9.81);
const std::vector<std::string>& holdDirectionNames();  // x+, x-, y+, y-, z+, z-

// One contact's share at the optimum.
struct HoldContactForce {
  int contact = -1;             // index into GraspEvaluation::contacts
  BodyHandle pusher;            // the body that pushes on the object (a hand link, the palm, or a fixture)
  Vec3 p_W_mm = Vec3::Zero();   // the contact point on the object, world frame
  Vec3 n_W = Vec3::UnitZ();     // unit normal into the object
  Vec3 force_W_N = Vec3::Zero();  // the force on the object, world frame
  double normal_N = 0;          // its normal component (≥ 0)
  double tangential_N = 0;      // the size of its tangential part
  double torsion_Nmm = 0;       // the moment about the normal (soft contacts)
  // How far into its exact friction set: √((f_t/μ)² + (τ_n/(μ e_n))²)/f_n; ≤ 1 inside (0 for no force).
  double frictionUse = 0;
};

struct HoldDirection {
  HoldLoad load;
  bool balanced = false;        // some forces in the (inscribed) friction sets balance the load, any effort
  bool held = false;            // balanced with t ≤ 1: every loaded DOF within its maxEffort
  double effortRatio = 0;       // t at the optimum (inscribed polytopes); +∞ when not balanced
  double effortRatioLower = 0;  // t with the circumscribed polytopes: the exact sets' t lies in [lower, t]
  double margin = 0;            // 1 − t: the share of the busiest DOF's effort left (negative: not held)
  double loadFactor = 0;        // 1/t: how many times the load the grasp holds (the problem is homogeneous)
  std::vector<HoldContactForce> forces;    // parallel to the evaluation's contacts (empty when not balanced)
  std::vector<double> dofTorques;          // parallel to HoldResult::dofs: the generalised forces (N·mm or N)
  double residualForce_N = 0;   // |Σ contact forces + load force|
  double residualTorque_Nmm = 0;  // |Σ contact moments about the CoG + load moment|
};

struct HoldDof {
  int robot = 0, dof = 0;
  std::string robotName;
  bool prismatic = false;       // effort and torque in N (else N·mm)
  double effort = 0;            // maxEffort × 1e-6
};

struct HoldResult {
  std::string contactModel;
  double mass_g = 0, weight_N = 0;
  int pointEdges = 0, softPoints = 0;          // generators per point / soft contact
  double pointInradius = 1, softInradius = 1;  // the polytopes' r (FrictionPolytope.h)
  std::vector<HoldDof> dofs;                   // every DOF of every robot a contact is on (palm contacts load none)
  std::vector<HoldDirection> directions;       // one per load, in order
  int worst = -1;                              // the direction with the largest effortRatio (−1: none)
  bool heldAll() const;
};

// The optimisation for every load. `object` is the graspable the evaluation is of (its mass gives weight_N;
// 0 when massless). sg::Error naming the problem for: a grasp without contacts, a non-finite load, a hand DOF a
// contact loads without a positive finite maxEffort, a contact without a finite μ, bad settings.
HoldResult analyzeHold(const World& world, const WorldState& state, const GraspEvaluation& grasp,
                       const Body& object, const std::vector<HoldLoad>& loads, const HoldSettings& settings = {});

}  // namespace sg
