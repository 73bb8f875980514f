#pragma once
// The grasp planner's search state (PLANNER.md §Search state): hand pose in one of GraspIt!'s position
// spaces plus the posture (eigengrasp amplitudes, or DOF values for a hand without eigengrasps), mapped to
// a palm pose X_WP and DOF values; the state distance; the hand energies evaluated on a per-thread
// WorldState of one const World. The space is in HandSearchSpace.cpp, the energies (HandEvaluator) in
// HandEnergy.cpp.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contact/CollisionSettings.h"
#include "geometry/Bvh.h"
#include "geometry/Proximity.h"
#include "grasp/Analysis.h"
#include "grasp/planner/Annealing.h"
#include "model/World.h"
#include "model/WorldState.h"

namespace sg {
struct MeshTopology;
}

namespace sg::planner {

enum class PositionSpace { AxisAngle, Approach, Ellipsoid, Complete };
enum class PostureSpace { Eigen, Dof };
enum class EnergyKind { Contacts, PotentialQuality, GuidedPotentialQuality, AutoGraspQuality, StrictAutoGrasp };

const char* toString(PositionSpace space);   // "axis-angle", "approach", "ellipsoid", "complete"
// "contacts", "potential-quality", "guided-potential-quality", "autograsp-quality", "strict-autograsp"
const char* toString(EnergyKind energy);
std::vector<std::string> energyNames();
std::vector<std::string> positionSpaceNames();
PositionSpace positionSpaceFromString(const std::string& name);  // sg::Error for an unknown name
EnergyKind energyFromString(const std::string& name);

// Everything that maps search variables to a hand configuration; built once per run (no Qt, plain data).
struct HandSearchSpace {
  int robot = 0, graspable = 0;
  PositionSpace position = PositionSpace::AxisAngle;
  PostureSpace posture = PostureSpace::Eigen;
  Transform X_WR;              // reference frame: the object's pose moved to its CoG
  Transform X_WA0;             // the hand's approach frame at the start (approach space origin)
  Transform X_PA;              // approach frame in palm coordinates (identity when the robot has none)
  double distanceScale_mm = 200;  // the object's maxRadius (200 without one)
  std::size_t positionCount = 0;  // the first variables are the position, the rest the posture
  std::vector<SearchVariable> variables;  // ranges, jumps, start values (the hand's current configuration)

  // Palm pose and DOF values (unclamped) for variables x.
  Transform approachFrame(const std::vector<double>& x) const;   // X_WA
  Transform palmPose(const std::vector<double>& x) const { return approachFrame(x) * X_PA.inverse(); }
  std::vector<double> dofValues(const World& world, const std::vector<double>& x) const;
  // max(|Δ origin of the approach frames| / distanceScale, 0.5·|Δ rotation angle| / π).
  double distance(const std::vector<double>& a, const std::vector<double>& b) const;
};

// The space for robot `robot` and graspable `graspable` of `world` in `state`, start values from the
// hand's configuration in `state`. sg::Error for invalid indices.
HandSearchSpace makeSearchSpace(const World& world, const WorldState& state, int robot, int graspable,
                                PositionSpace position);

// A frame whose z axis is the unit vector `z`, x chosen deterministically: the ellipsoid space's surface frames
// and the potential-quality energy's friction-cone edges.
Quat frameWithZ(const Vec3& z);

// One probe of the hand near the object (PLANNER.md §Energies): its point p (on the hand), outward unit normal
// n, the nearest object point q and the probe's friction coefficient.
struct HandProbe {
  Vec3 p_W_mm = Vec3::Zero(), n_W = Vec3::UnitZ(), q_W_mm = Vec3::Zero();
  double mu = 0;
  double distance() const { return (q_W_mm - p_W_mm).norm(); }
  // n · (q − p)/|q − p| (1 when p = q).
  double alignment() const;
};

// Hand contacts energy: (1/N) Σ [dᵢ + 50·(1 − nᵢ·p̂ᵢ)]; 0 without probes.
double contactsEnergyOf(const std::vector<HandProbe>& probes);
// The potential-quality scale sf(d, cosθ): 0 when cosθ < 0.7 or d > 50 mm, else cos(π·d/50) + 1.
double potentialScale(double distance_mm, double cosAngle);
// Potential quality: probes with sf > 0.25 count; with ≥ 3, the convex hull of their friction-cone edge forces
// (8 edges, μ of the probe; just the normal when μ = 0) each scaled by sf; E = −ε (ε: distance from the origin
// to the nearest facet) when the origin is inside, else +1 (also with fewer than 3 probes or a flat hull).
double potentialQualityEnergyOf(const std::vector<HandProbe>& probes);

constexpr double kStrictApproach_mm = 30;   // strict auto-grasp: approach this far before closing
constexpr double kStrictNoGrasp = 1e8;      // strict auto-grasp energy when volume and ε are both 0

struct EnergySettings {
  EnergyKind kind = EnergyKind::Contacts;
  bool presetContacts = true;          // contacts energy: the robot's virtual contacts when it has any
  std::string measure = "epsilon-l1";  // auto-grasp quality: the measure that ranks force-closure grasps
  AnalysisRequest analysis;            // collision settings, contact model, quality settings (measures unused)
  AutoGraspSettings autoGrasp;         // how the hand closes
};

// One thread's evaluator: a scratch WorldState copied from the start state, reset for every evaluation, so
// an energy depends on x only. Legal = no collision of the hand with anything.
class HandEvaluator final : public StateEvaluator {
 public:
  HandEvaluator(const World& world, const WorldState& start, const HandSearchSpace& space,
                const EnergySettings& settings);
  std::optional<double> energy(const std::vector<double>& x) override;
  // The contacts energy stops once `test` rejects the candidate (+∞); the other energies evaluate fully.
  std::optional<double> energy(const std::vector<double>& x, AcceptanceTest& test) override;
  // Puts the hand at x (pose and clamped DOFs) in the scratch state; false when it collides.
  bool place(const std::vector<double>& x);
  double contactsEnergy();                       // of the placed hand
  double contactsEnergy(AcceptanceTest& test);   // the same number, or +∞ once `test` rejects it
  double potentialQualityEnergy();               // of the placed hand
  double autoGraspQualityEnergy();               // closes the placed hand (changes the scratch state)
  // True when closing the placed hand (auto-grasp) cannot end with a contact on the object, by the bodies'
  // reach (model/README.md §Reach bound): autoGraspQualityEnergy is then 1 without closing.
  bool closingMissesObject() const;
  double strictAutoGraspEnergy();                // approaches and closes the placed hand
  // The placed hand's probes (virtual contacts, or one per link) and their nearest object points.
  std::vector<HandProbe> probes();
  // How many probes the hand has, and probe k of the placed hand (nullopt: a link without a distance).
  std::size_t probeCount() const;
  std::optional<HandProbe> probeAt(std::size_t k);
  // A lower bound (mm, ≥ 0) of probe k's distance to the object: its bounding sphere's gap to the object's.
  double probeFloor(std::size_t k) const;
  // Closes the placed hand as the energy does (strict: approach first; others: auto-grasp only).
  void close();
  // After a closing (the scratch state): the palm translation (world frame, mm) that balances a closing
  // stopped by one link while another missed the object (PLANNER.md §Final stage, "Centring"): u·(g − g₀)/2,
  // g the smallest gap in (threshold, maxGap_mm] of a link not touching, u the unit vector from it towards
  // the object, g₀ the smallest gap of the touching links. nullopt when no link touches or none is that near.
  std::optional<Vec3> centringShift(double maxGap_mm) const;
  // Of the last autoGraspQualityEnergy(): whether it closed the hand (false when closingMissesObject skipped the
  // closing: the scratch state then holds the placed hand), and the centroid of the grasp's contact points on
  // the object (nullopt without contacts).
  bool lastScoreClosed() const { return lastScoreClosed_; }
  const std::optional<Vec3>& lastContactCentroid_W() const { return lastContactCentroid_W_; }
  // ... and the unit axis a (up to sign) most parallel to its contacts' normals: the largest eigenvector of
  // Σ nᵢ nᵢᵀ (a parallel jaw's closing axis once both pads touch); nullopt without contacts.
  const std::optional<Vec3>& lastContactNormalAxis_W() const { return lastContactNormalAxis_W_; }
  const WorldState& scratch() const { return scratch_; }
  WorldState& scratch() { return scratch_; }

 private:
  // Closes the placed hand and analyses the grasp under the first requested contact model, no measures yet.
  AnalysisResult analyzeClosedGrasp();
  void approachForStrictEnergy();  // approach ≤ 30 mm; back to the placed pose unless the palm touched
  // The hand's collision test of place(): anyCollision's pairs, BVHs and primitives looked up once (the pairs
  // do not depend on the state), the same pair tests.
  bool handCollides() const;
  const World& world_;
  const WorldState& start_;
  const HandSearchSpace& space_;
  const EnergySettings& settings_;
  WorldState scratch_;
  std::vector<BodyHandle> handBodies_;
  std::shared_ptr<const Bvh> objectBvh_;
  // Live probes' distance queries use the meshes' topologies (geometry/MeshTopology.h), built on first use.
  std::shared_ptr<const MeshTopology> objectTopology_;
  struct LinkProbe {
    BodyRef ref;
    std::shared_ptr<const Bvh> bvh;
    const TriangleMesh* mesh;
    std::shared_ptr<const MeshTopology> topology;
    // The last closest triangle pair to the object: successive states are close, so the next distance query
    // starts from it (temporal coherence; meshDistance returns exactly the cold answer).
    DistanceWarmStart warm;
  };
  std::vector<LinkProbe> links_;                 // live contacts: palm and links with geometry
  struct CollisionPair {
    BodyHandle a, b;
    std::shared_ptr<const Bvh> bvhA, bvhB;
    const Primitive* primitiveA = nullptr;
    const Primitive* primitiveB = nullptr;
    int sphereA = -1, sphereB = -1;  // in spheres_ (mesh bodies without a primitive), else −1
  };
  std::vector<CollisionPair> collisionPairs_;
  // The bodies of mesh–mesh collision pairs with their BVH root spheres (centre in the body frame, radius):
  // pairs whose spheres are apart are skipped (meshesCollide would prune them at the root).
  struct BoundingSphere {
    BodyHandle body;
    Vec3 center_B = Vec3::Zero();
    double radius_mm = 0;
  };
  std::vector<BoundingSphere> spheres_;
  mutable std::vector<Vec3> sphereCenters_W_;  // per handCollides call
  // The contacts energy with an acceptance test: each probe's last term (the evaluation order, largest first),
  // and per evaluation the order and the probes found.
  std::vector<double> lastTerms_;
  std::vector<std::size_t> probeOrder_;
  std::vector<std::optional<HandProbe>> probeSlots_;
  std::vector<double> probeFloors_;
  bool reachCheckable_ = false;  // closingMissesObject applies (see the constructor)
  bool lastScoreClosed_ = false;
  std::optional<Vec3> lastContactCentroid_W_;
  std::optional<Vec3> lastContactNormalAxis_W_;
};

}  // namespace sg::planner
