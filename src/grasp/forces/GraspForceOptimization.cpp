#include "grasp/forces/GraspForceOptimization.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

#include "ClpSimplex.hpp"
#include "core/Error.h"
#include "grasp/WrenchSupport.h"
#include "grasp/forces/FrictionPolytope.h"
#include "grasp/forces/HandJacobian.h"

namespace sg {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// One generator of a contact's linearised set: unit normal force plus a boundary point of the friction set.
struct Generator {
  int contact = 0;
  Vec3 force_O = Vec3::Zero();   // N per unit weight λ, object frame
  double torsion_Nmm = 0;        // moment about the normal per unit λ
  Vec6 wrench = Vec6::Zero();    // [force; moment about the CoG / ρ]
  std::vector<double> dofLoad;   // per loaded DOF row: τ_j / E_j per unit λ
};

// What the LP needs, built once per polytope scale (inscribed: 1, circumscribed: 1/r).
struct Problem {
  std::vector<Generator> generators;
  double torqueScale_mm = 1;
};

// Per contact, what does not depend on the polytope.
struct ContactFrame {
  ExactContactCone cone;         // object frame
  BodyHandle pusher;
  std::vector<Vec3> linear_O, angular_O;  // per loaded DOF row
};

struct LpSolution {
  bool balanced = false;
  double t = kInfinity;
  std::vector<double> lambda;
};

const char* const kDirectionNames[] = {"x+", "x-", "y+", "y-", "z+", "z-"};

bool soft(const ContactEvaluation& c) { return c.torsion_mm > 0 && c.mu > 0; }

Problem buildProblem(const std::vector<ContactEvaluation>& contacts, const std::vector<ContactFrame>& frames,
                     const FrictionPolytope& disc, const FrictionPolytope& ball, bool circumscribed,
                     double torqueScale_mm) {
  Problem p;
  p.torqueScale_mm = torqueScale_mm;
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const ExactContactCone& k = frames[c].cone;
    const bool isSoft = soft(contacts[c]);
    const FrictionPolytope& poly = isSoft ? ball : disc;
    const double scale = circumscribed ? 1.0 / poly.inradius : 1.0;
    const std::vector<Vec3> frictionless = {Vec3::Zero()};
    for (const Vec3& q : k.mu > 0 ? poly.points : frictionless) {
      Generator g;
      g.contact = static_cast<int>(c);
      g.force_O = k.n_O + scale * k.mu * (q.x() * k.t1_O + q.y() * k.t2_O);
      g.torsion_Nmm = isSoft ? scale * k.mu * k.torsion_mm * q.z() : 0.0;
      const Vec3 moment = k.p_OC_mm.cross(g.force_O) + g.torsion_Nmm * k.n_O;
      g.wrench << g.force_O, moment / torqueScale_mm;
      for (std::size_t j = 0; j < frames[c].linear_O.size(); ++j)
        g.dofLoad.push_back(frames[c].linear_O[j].dot(g.force_O) + frames[c].angular_O[j].dot(g.torsion_Nmm * k.n_O));
      p.generators.push_back(std::move(g));
    }
  }
  return p;
}

// min t subject to Σ λ_g w_g = −load, |Σ λ_g a_gj| ≤ t (rows already divided by E_j), λ, t ≥ 0; then, with t
// held at its optimum, the least total normal force (which makes the forces unique in the usual cases).
LpSolution solveLp(const Problem& p, std::size_t dofRows, const Vec6& load, bool leastForce) {
  const int nGen = static_cast<int>(p.generators.size());
  const int nCols = nGen + 1, nRows = 6 + 2 * static_cast<int>(dofRows);
  std::vector<CoinBigIndex> starts{0};
  std::vector<int> rows;
  std::vector<double> values;
  for (const Generator& g : p.generators) {
    for (int r = 0; r < 6; ++r)
      if (g.wrench[r] != 0) {
        rows.push_back(r);
        values.push_back(g.wrench[r]);
      }
    for (std::size_t j = 0; j < dofRows; ++j)
      if (g.dofLoad[j] != 0) {
        rows.push_back(6 + 2 * static_cast<int>(j));
        values.push_back(g.dofLoad[j]);
        rows.push_back(7 + 2 * static_cast<int>(j));
        values.push_back(-g.dofLoad[j]);
      }
    starts.push_back(static_cast<CoinBigIndex>(rows.size()));
  }
  for (std::size_t j = 0; j < 2 * dofRows; ++j) {  // the t column: a·λ − t ≤ 0, −a·λ − t ≤ 0
    rows.push_back(6 + static_cast<int>(j));
    values.push_back(-1.0);
  }
  starts.push_back(static_cast<CoinBigIndex>(rows.size()));
  std::vector<double> colLower(static_cast<std::size_t>(nCols), 0.0);
  std::vector<double> colUpper(static_cast<std::size_t>(nCols), kInfinity);
  std::vector<double> objective(static_cast<std::size_t>(nCols), 0.0);
  objective.back() = 1.0;
  std::vector<double> rowLower(static_cast<std::size_t>(nRows), -kInfinity);
  std::vector<double> rowUpper(static_cast<std::size_t>(nRows), 0.0);
  for (int r = 0; r < 6; ++r) rowLower[static_cast<std::size_t>(r)] = rowUpper[static_cast<std::size_t>(r)] = -load[r];

  ClpSimplex lp;
  lp.setLogLevel(0);
  lp.loadProblem(nCols, nRows, starts.data(), rows.data(), values.data(), colLower.data(), colUpper.data(),
                 objective.data(), rowLower.data(), rowUpper.data());
  lp.scaling(0);
  lp.dual();
  // Clp's status 0 can still mean "optimal for the scaled problem only" (secondary status 2–4): finish with the
  // primal simplex from that basis, as Clp's own ClpSolve does.
  if (lp.status() == 0 && lp.secondaryStatus() != 0) lp.primal(1);
  LpSolution out;
  if (lp.status() == 1) return out;  // primal infeasible: no forces in the sets balance the load
  if (lp.status() != 0) throw Error("grasp force optimisation: the LP solver (Clp) stopped with status " +
                                    std::to_string(lp.status()));
  const double* x = lp.primalColumnSolution();
  out.balanced = true;
  out.t = std::max(0.0, x[nGen]);
  out.lambda.assign(x, x + nGen);
  if (!leastForce) return out;
  lp.setColumnUpper(nGen, out.t * (1 + 1e-9) + 1e-12);
  lp.setObjectiveCoefficient(nGen, 0.0);
  for (int g = 0; g < nGen; ++g) lp.setObjectiveCoefficient(g, 1.0);  // λ = the generator's normal force (N)
  lp.primal();
  if (lp.status() == 0) {
    const double* y = lp.primalColumnSolution();
    out.lambda.assign(y, y + nGen);
    out.t = std::max(0.0, y[nGen]);
  }
  return out;
}

HoldContactForce contactForce(const ContactEvaluation& c, const ContactFrame& f) {
  HoldContactForce out;
  out.pusher = f.pusher;
  out.p_W_mm = c.onObject().p_WC_mm;
  out.n_W = c.onObject().n_W;
  return out;
}

// The forces, torques and residuals of a balanced direction from the LP's generator weights.
void fillForces(HoldDirection& dir, const LpSolution& in, const Problem& inner, const GraspEvaluation& grasp,
                const std::vector<ContactFrame>& frames, const std::vector<std::size_t>& rowDof,
                const std::vector<HoldDof>& dofs, const WrenchReference& ref) {
  const HoldLoad& load = dir.load;
  for (std::size_t c = 0; c < grasp.contacts.size(); ++c) {
    dir.forces.push_back(contactForce(grasp.contacts[c], frames[c]));
    dir.forces.back().contact = static_cast<int>(c);
  }
  std::vector<Vec3> force_O(grasp.contacts.size(), Vec3::Zero());
  std::vector<double> torsion(grasp.contacts.size(), 0.0);
  Vec3 sumForce = load.force_O_N, sumMoment = load.torque_O_Nmm;
  for (std::size_t g = 0; g < inner.generators.size(); ++g) {
    const Generator& gen = inner.generators[g];
    const auto c = static_cast<std::size_t>(gen.contact);
    force_O[c] += in.lambda[g] * gen.force_O;
    torsion[c] += in.lambda[g] * gen.torsion_Nmm;
  }
  for (std::size_t c = 0; c < grasp.contacts.size(); ++c) {
    const ExactContactCone& k = frames[c].cone;
    HoldContactForce& f = dir.forces[c];
    f.force_W_N = ref.objectPose.rotationMatrix() * force_O[c];
    f.normal_N = force_O[c].dot(k.n_O);
    const Vec3 tangential = force_O[c] - f.normal_N * k.n_O;
    f.tangential_N = tangential.norm();
    f.torsion_Nmm = torsion[c];
    if (f.normal_N > 0 && k.mu > 0) {
      const double z = k.torsion_mm > 0 ? f.torsion_Nmm / (k.mu * k.torsion_mm) : 0.0;
      f.frictionUse = std::sqrt(std::pow(tangential.dot(k.t1_O) / k.mu, 2) +
                                std::pow(tangential.dot(k.t2_O) / k.mu, 2) + z * z) / f.normal_N;
    }
    sumForce += force_O[c];
    sumMoment += k.p_OC_mm.cross(force_O[c]) + f.torsion_Nmm * k.n_O;
    for (std::size_t r = 0; r < rowDof.size(); ++r)
      dir.dofTorques[rowDof[r]] += dofs[rowDof[r]].effort *
                                   (frames[c].linear_O[r].dot(force_O[c]) +
                                    frames[c].angular_O[r].dot(f.torsion_Nmm * k.n_O));
  }
  dir.residualForce_N = sumForce.norm();
  dir.residualTorque_Nmm = sumMoment.norm();
}

void checkInputs(const GraspEvaluation& grasp, const std::vector<HoldLoad>& loads, const HoldSettings& s) {
  if (grasp.contacts.empty())
    throw Error("grasp force optimisation: the grasp has no contacts, so nothing can hold the object");
  if (s.tangentEdges < 3 || s.torsionLatitudes < 1 || !std::isfinite(s.gravity_m_per_s2) || s.gravity_m_per_s2 < 0)
    throw Error("grasp force optimisation: bad settings (at least 3 tangent edges, 1 torsion latitude, gravity ≥ 0)");
  for (const HoldLoad& l : loads)
    if (!l.force_O_N.allFinite() || !l.torque_O_Nmm.allFinite())
      throw Error("grasp force optimisation: the load '" + l.label + "' is not finite");
  for (const ContactEvaluation& c : grasp.contacts)
    if (!std::isfinite(c.mu) || c.mu < 0 || !std::isfinite(c.torsion_mm) || c.torsion_mm < 0)
      throw Error("grasp force optimisation: a contact has no finite friction coefficient or torsional limit");
}

}  // namespace

const std::vector<std::string>& holdDirectionNames() {
  static const std::vector<std::string> names(std::begin(kDirectionNames), std::end(kDirectionNames));
  return names;
}

std::vector<HoldLoad> weightLoads(const Body& object, const std::vector<std::string>& directions,
                                  double gravity_m_per_s2) {
  if (!std::isfinite(object.mass_g) || object.mass_g <= 0)
    throw Error("the object '" + object.name + "' has no positive mass, so it has no weight to hold");
  if (!std::isfinite(gravity_m_per_s2) || gravity_m_per_s2 <= 0) throw Error("gravity must be positive and finite");
  const double weight_N = object.mass_g * 1e-3 * gravity_m_per_s2;  // g → kg
  std::vector<std::string> names = directions;
  if (names.size() == 1 && names[0] == "all") names = holdDirectionNames();
  std::vector<HoldLoad> out;
  for (const std::string& name : names) {
    const auto& all = holdDirectionNames();
    const auto it = std::find(all.begin(), all.end(), name);
    if (it == all.end())
      throw Error("unknown direction '" + name + "' (expected all or x+, x-, y+, y-, z+, z-)");
    const auto k = static_cast<int>(it - all.begin());
    HoldLoad l;
    l.label = name;
    l.force_O_N[k / 2] = (k % 2 == 0 ? 1.0 : -1.0) * weight_N;
    out.push_back(l);
  }
  return out;
}

bool HoldResult::heldAll() const {
  return !directions.empty() &&
         std::all_of(directions.begin(), directions.end(), [](const HoldDirection& d) { return d.held; });
}

// Inputs → per-contact frames and Jacobians → one LP pair per load → plain results.
HoldResult analyzeHold(const World& world, const WorldState& state, const GraspEvaluation& grasp,
                       const Body& object, const std::vector<HoldLoad>& loads, const HoldSettings& settings) {
  checkInputs(grasp, loads, settings);
  HoldResult out;
  out.contactModel = grasp.contactModel;
  out.mass_g = std::isfinite(object.mass_g) ? std::max(0.0, object.mass_g) : 0.0;
  out.weight_N = out.mass_g * 1e-3 * settings.gravity_m_per_s2;
  const WrenchReference& ref = grasp.reference;
  const Mat3 R_OW = ref.objectPose.rotationMatrix().transpose();

  // DOF rows: every DOF of every robot a contact is on; loaded = some contact's Jacobian column is not zero.
  std::map<int, std::unique_ptr<HandJacobian>> jacobians;
  std::map<std::pair<int, int>, std::size_t> dofIndex;
  std::vector<ContactFrame> frames(grasp.contacts.size());
  std::vector<PointJacobian> pointJacobians(grasp.contacts.size());
  for (std::size_t c = 0; c < grasp.contacts.size(); ++c) {
    const ContactEvaluation& e = grasp.contacts[c];
    frames[c].cone = exactConeFor(e.onObject(), e.mu, soft(e) ? e.torsion_mm : 0.0, ref);
    frames[c].pusher = e.objectIsSide1 ? e.contact.side2.body : e.contact.side1.body;
    const BodyHandle& h = frames[c].pusher;
    if (h.kind != BodyHandle::Kind::Robot) continue;  // a fixture: it pushes with whatever it takes
    if (h.index < 0 || h.index >= static_cast<int>(world.robots.size()) ||
        h.index >= static_cast<int>(state.robots.size()))
      throw Error("grasp force optimisation: a contact names robot " + std::to_string(h.index) + ", not in the world");
    auto& jac = jacobians[h.index];
    if (!jac) {
      jac = std::make_unique<HandJacobian>(world.robots[static_cast<std::size_t>(h.index)],
                                           state.robots[static_cast<std::size_t>(h.index)]);
      const Robot& robot = world.robots[static_cast<std::size_t>(h.index)];
      for (std::size_t j = 0; j < robot.dofCount(); ++j) {
        dofIndex[{h.index, static_cast<int>(j)}] = out.dofs.size();
        out.dofs.push_back({h.index, static_cast<int>(j), robot.name, robot.dofs[j].prismatic,
                            robot.dofs[j].maxEffort * 1e-6});  // GraspIt!'s 1e-6 N·mm or 1e-6 N
      }
    }
    pointJacobians[c] = jac->at(h.ref, e.onObject().p_WC_mm);
  }
  // Loaded DOFs get a row; one without a positive finite effort cannot hold anything.
  std::vector<std::size_t> rowDof;
  for (std::size_t d = 0; d < out.dofs.size(); ++d) {
    bool loaded = false;
    for (std::size_t c = 0; c < grasp.contacts.size(); ++c) {
      const BodyHandle& h = frames[c].pusher;
      if (h.kind != BodyHandle::Kind::Robot || h.index != out.dofs[d].robot) continue;
      const auto j = static_cast<std::size_t>(out.dofs[d].dof);
      loaded = loaded || pointJacobians[c].linear[j].norm() > 1e-9 || pointJacobians[c].angular[j].norm() > 1e-12;
    }
    if (!loaded) continue;
    if (!std::isfinite(out.dofs[d].effort) || out.dofs[d].effort <= 0)
      throw Error("grasp force optimisation: DOF " + std::to_string(out.dofs[d].dof) + " of robot '" +
                  out.dofs[d].robotName + "' carries contact forces but has no maxEffort (the robot file's <maxEffort>)");
    rowDof.push_back(d);
  }
  for (std::size_t c = 0; c < grasp.contacts.size(); ++c) {
    if (frames[c].pusher.kind != BodyHandle::Kind::Robot) {
      frames[c].linear_O.assign(rowDof.size(), Vec3::Zero());
      frames[c].angular_O.assign(rowDof.size(), Vec3::Zero());
      continue;
    }
    for (std::size_t d : rowDof) {
      const bool same = out.dofs[d].robot == frames[c].pusher.index;
      const auto j = static_cast<std::size_t>(out.dofs[d].dof);
      frames[c].linear_O.push_back(same ? Vec3(R_OW * pointJacobians[c].linear[j] / out.dofs[d].effort) : Vec3::Zero());
      frames[c].angular_O.push_back(same ? Vec3(R_OW * pointJacobians[c].angular[j] / out.dofs[d].effort) : Vec3::Zero());
    }
  }

  const FrictionPolytope disc = discPolytope(settings.tangentEdges);
  // The ball polytope's inradius is an O(n⁴) search: the default one is built once (a thread-safe static).
  static const FrictionPolytope defaultBall = ballPolytope(HoldSettings{}.tangentEdges, HoldSettings{}.torsionLatitudes);
  const bool isDefault = settings.tangentEdges == HoldSettings{}.tangentEdges &&
                         settings.torsionLatitudes == HoldSettings{}.torsionLatitudes;
  const FrictionPolytope ball = isDefault ? defaultBall : ballPolytope(settings.tangentEdges, settings.torsionLatitudes);
  out.pointEdges = static_cast<int>(disc.points.size());
  out.softPoints = static_cast<int>(ball.points.size());
  out.pointInradius = disc.inradius;
  out.softInradius = ball.inradius;
  const Problem inner = buildProblem(grasp.contacts, frames, disc, ball, false, ref.torqueScale_mm);
  const Problem outer = buildProblem(grasp.contacts, frames, disc, ball, true, ref.torqueScale_mm);

  for (const HoldLoad& load : loads) {
    HoldDirection dir;
    dir.load = load;
    Vec6 w;
    w << load.force_O_N, load.torque_O_Nmm / ref.torqueScale_mm;
    const LpSolution lo = solveLp(outer, rowDof.size(), w, false);
    const LpSolution in = solveLp(inner, rowDof.size(), w, true);
    dir.balanced = in.balanced;
    dir.effortRatio = in.t;
    dir.effortRatioLower = lo.t;
    dir.held = in.balanced && in.t <= 1.0;
    dir.margin = in.balanced ? 1.0 - in.t : -kInfinity;
    dir.loadFactor = in.balanced ? (in.t > 0 ? 1.0 / in.t : kInfinity) : 0.0;
    dir.dofTorques.assign(out.dofs.size(), 0.0);
    if (in.balanced) fillForces(dir, in, inner, grasp, frames, rowDof, out.dofs, ref);
    out.directions.push_back(std::move(dir));
  }
  for (std::size_t d = 0; d < out.directions.size(); ++d)
    if (out.worst < 0 || out.directions[d].effortRatio > out.directions[static_cast<std::size_t>(out.worst)].effortRatio)
      out.worst = static_cast<int>(d);
  return out;
}

}  // namespace sg
