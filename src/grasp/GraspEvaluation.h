#pragma once
// One call from contact records to grasp quality (graspit-compat §4–§5): for every contact between the
// graspable and a hand (QualitySettings::handContactsOnly), choose the contact model, run the soft-finger pipeline where it applies (neighbourhoods,
// merging, paraboloid fits, relative curvature, patch, torsion), sample the friction edges, compute the
// wrenches on the object, and build the L1 and L∞ wrench spaces with their ε and volume.
//
// Contact model (ContactModelChoice::Auto): the contact's FrictionType decides, except that a
// PointWithFriction contact with an elastic body becomes a soft finger (GraspIt!: soft contacts when either
// body is elastic); μ = 0 or Frictionless → the normal only; SoftFinger without any elastic body → point
// contact (no modulus to size a patch).
#include <string>
#include <vector>

#include "contact/FrictionEdges.h"
#include "contact/SoftContactModel.h"
#include "grasp/ContactWrenches.h"
#include "grasp/GraspQuality.h"

namespace sg {

enum class ContactModelChoice { Auto, AllPoint, AllSoft, AllFrictionless };

struct QualitySettings {
  ContactModelChoice contactModel = ContactModelChoice::Auto;
  SoftContactSettings soft;               // neighbourhood, fit, patch (normal force 5 N, layer model)
  FrictionEdgeSettings edges;             // 8-edge cones, 20-edge soft limit surface
  double torqueLength_mm = 0;             // ρ; 0 = the object's max radius (GraspIt!)
  bool computeL1 = true;
  bool computeLInfinity = true;
  GwsSettings gws;
  bool gravity = false;                   // GraspIt!'s test term: + 0.5·ẑ_world on every L1 force
  double forceClosureTolerance = 1e-9;
  // Only contacts between the object and a robot body make the grasp (GraspIt!: the grasp of a hand;
  // the table an object stands on is not part of it). False: every contact on the object counts, e.g.
  // fixtures modelled as obstacles.
  bool handContactsOnly = true;
};

struct ContactEvaluation {
  std::vector<int> sourceContacts;        // indices into the input contacts (several after a merge)
  Contact contact;                        // the (surviving) record
  bool objectIsSide1 = true;              // which side lies on the graspable
  FrictionType model = FrictionType::PointWithFriction;
  double mu = 0;
  bool soft = false;                      // the soft fields below are filled
  double neighbourhoodRadius_mm = 0;
  int neighbourhoodSize1 = 0, neighbourhoodSize2 = 0;  // points (contact point(s) + vertices) per side
  QuadricFit fit1, fit2;                  // side 1 / side 2 of `contact`
  RelativeCurvature relative;
  SoftPatch patch;
  double torsion_mm = 0;                  // e_n = τmax/(μN)
  double maxTorsionalFriction_Nmm = 0;    // μ·N·e_n at the patch's normal force
  std::vector<Vec6> frictionEdges;        // contact frame, unit normal force, μ not applied
  std::vector<Vec6> wrenches;             // object frame, torques / ρ
  std::string note;                       // why a soft contact fell back to a point contact, etc.
};

struct GraspEvaluation {
  std::vector<ContactEvaluation> contacts;
  std::vector<int> ignoredContacts;       // input contacts not part of the grasp (not on the graspable, or not by a hand)
  WrenchReference reference;              // object pose, CoG, ρ
  GraspWrenchSpace l1, lInfinity;
  GraspQuality l1Quality, lInfinityQuality;
};

// Throws sg::Error for an invalid graspable index or invalid settings; degenerate grasps (no contacts,
// flat wrench sets) give ε = 0 and forceClosure = false, not errors.
GraspEvaluation evaluateGrasp(const World& world, const std::vector<Contact>& contacts, int graspableIndex,
                              const QualitySettings& settings = {});

// Only ε of the L1 space from ready-made per-contact wrenches (for benchmarks and tools).
double l1Epsilon(const std::vector<std::vector<Vec6>>& perContactWrenches, const GwsSettings& settings = {});

}  // namespace sg
