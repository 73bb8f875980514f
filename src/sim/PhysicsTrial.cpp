#include "sim/PhysicsTrial.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/Error.h"
#include "sim/SimModel.h"
#include "sim/SimUnits.h"

namespace sg::sim {

int TrialResult::heldCount() const {
  return static_cast<int>(std::count_if(directions.begin(), directions.end(), [](const DirectionTrial& d) { return d.held; }));
}

double TrialResult::score() const {
  return directions.empty() ? 0.0 : static_cast<double>(heldCount()) / static_cast<double>(directions.size());
}

namespace {

Transform bodyPose_mm(const mjData* d, int body) {
  const mjtNum* q = d->xquat + 4 * body;
  const mjtNum* p = d->xpos + 3 * body;
  return Transform(Quat(q[0], q[1], q[2], q[3]), Vec3(p[0], p[1], p[2]) / kMetresPerMm);
}

Vec3 comPosition_mm(const mjData* d, int body) {
  const mjtNum* p = d->xipos + 3 * body;
  return Vec3(p[0], p[1], p[2]) / kMetresPerMm;
}

// Velocity (m/s, world frame) of body `body` at world point p (m): linear velocity at its centre of mass plus
// ω × (p − com).
Vec3 pointVelocity(const mjModel* m, const mjData* d, int body, const Vec3& p) {
  mjtNum v[6];
  mj_objectVelocity(m, d, mjOBJ_BODY, body, v, 0);
  const Vec3 w(v[0], v[1], v[2]), lin(v[3], v[4], v[5]);
  const Vec3 com(d->xipos[3 * body], d->xipos[3 * body + 1], d->xipos[3 * body + 2]);
  return lin + w.cross(p - com);
}

class Recorder {
 public:
  explicit Recorder(const SimModel& sim) : sim_(sim) {}

  // The phase starts now: displacement and rotation are measured from here.
  void begin() {
    X_PO0_ = X_PO();
    com_P0_ = comInPalm();
  }

  TrialSample sample(double t_s) const {
    const mjModel* m = sim_.model();
    const mjData* d = sim_.data();
    TrialSample s;
    s.t_s = t_s;
    s.X_PO = X_PO();
    s.displacement_mm = (comInPalm() - com_P0_).norm();
    const Quat dq = s.X_PO.rotation() * X_PO0_.rotation().inverse();
    s.rotation_deg = Eigen::AngleAxisd(dq.normalized()).angle() * 180.0 / std::numbers::pi;
    s.dofValues = sim_.dofValues();
    s.links.assign(sim_.layout().handBodies.size(), {});
    // Per hand body: contact points summed weighted by normal force, and unweighted (m).
    std::vector<Vec3> weighted(s.links.size(), Vec3::Zero()), plain(s.links.size(), Vec3::Zero());
    std::vector<double> pushing(s.links.size(), 0.0);
    for (int c = 0; c < d->ncon; ++c) {
      const mjContact& con = d->contact[c];
      // MuJoCo may swap a pair's geoms (by geom type): the force in the contact frame acts on geom2.
      const int body1 = m->geom_bodyid[con.geom1], body2 = m->geom_bodyid[con.geom2];
      const bool objectSecond = body2 == sim_.objectBody();
      if (!objectSecond && body1 != sim_.objectBody()) continue;
      const int handBody = objectSecond ? body1 : body2;
      const int hand = sim_.handIndexOfBody(handBody);
      if (hand < 0) continue;
      mjtNum f[6];
      mj_contactForce(m, d, c, f);
      const Vec3 n(con.frame[0], con.frame[1], con.frame[2]);
      const Vec3 t1(con.frame[3], con.frame[4], con.frame[5]), t2(con.frame[6], con.frame[7], con.frame[8]);
      const double sign = objectSecond ? 1.0 : -1.0;
      LinkContactSample& link = s.links[static_cast<std::size_t>(hand)];
      link.force_W_N += sign * (f[0] * n + f[1] * t1 + f[2] * t2);
      const Vec3 p(con.pos[0], con.pos[1], con.pos[2]);
      weighted[static_cast<std::size_t>(hand)] += std::max(0.0, f[0]) * p;
      pushing[static_cast<std::size_t>(hand)] += std::max(0.0, f[0]);
      plain[static_cast<std::size_t>(hand)] += p;
      link.normal_N += f[0];
      ++link.contacts;
      const Vec3 rel = pointVelocity(m, d, sim_.objectBody(), p) - pointVelocity(m, d, handBody, p);
      const Vec3 tangential = rel - rel.dot(n) * n;
      link.slip_mm_s = std::max(link.slip_mm_s, tangential.norm() / kMetresPerMm);
    }
    for (std::size_t i = 0; i < s.links.size(); ++i) {
      LinkContactSample& link = s.links[i];
      if (link.contacts == 0) continue;
      // The normal-force-weighted mean; the plain mean when no contact pushes yet.
      const Vec3 p = pushing[i] > 0 ? Vec3(weighted[i] / pushing[i]) : Vec3(plain[i] / link.contacts);
      link.p_W_mm = p / kMetresPerMm;
    }
    return s;
  }

 private:
  Transform X_PO() const {
    const Transform X_WO = bodyPose_mm(sim_.data(), sim_.objectBody());
    return sim_.palmBody() >= 0 ? bodyPose_mm(sim_.data(), sim_.palmBody()).inverse() * X_WO : X_WO;
  }
  Vec3 comInPalm() const {
    const Vec3 com_W = comPosition_mm(sim_.data(), sim_.objectBody());
    return sim_.palmBody() >= 0 ? bodyPose_mm(sim_.data(), sim_.palmBody()).inverse() * com_W : com_W;
  }

  const SimModel& sim_;
  Transform X_PO0_;
  Vec3 com_P0_ = Vec3::Zero();
};

bool finiteState(const mjModel* m, const mjData* d) {
  for (int i = 0; i < m->nq; ++i)
    if (!std::isfinite(d->qpos[i])) return false;
  for (int i = 0; i < m->nv; ++i)
    if (!std::isfinite(d->qvel[i])) return false;
  return true;
}

// Steps `seconds` of simulated time, recording a sample every `every` steps (and at the start and end).
// Returns false when the state stopped being finite.
bool simulate(SimModel& sim, const Recorder& rec, double seconds, long every, std::vector<TrialSample>& samples) {
  const mjModel* m = sim.model();
  mjData* d = sim.data();
  const double dt = m->opt.timestep;
  const long steps = std::lround(seconds / dt);
  samples.push_back(rec.sample(0.0));
  for (long k = 1; k <= steps; ++k) {
    sim.step();
    if (!finiteState(m, d)) return false;
    if (k % every == 0 || k == steps) samples.push_back(rec.sample(static_cast<double>(k) * dt));
  }
  return true;
}

// The trial proper on a model built for it (both runTrial overloads; a separate name so that callgrind's
// --toggle-collect='sg::sim::runTrial*' never sees one runTrial nested in the other).
TrialResult simulateTrial(SimModel& sim, const World& world, const WorldState& state, const TrialRequest& request,
                          ProgressSink& progress) {
  const mjModel* m = sim.model();
  mjData* d = sim.data();

  TrialResult result;
  result.robot = request.robot;
  result.graspable = request.graspable;
  result.objectLabel = world.bodyLabel({BodyHandle::Kind::Graspable, request.graspable, {}});
  for (const SimHandBody& b : sim.layout().handBodies) result.bodyLabels.push_back(b.label);
  if (request.robot >= 0) result.X_WP = state.robots[static_cast<std::size_t>(request.robot)].X_WP;
  result.settings = request.settings;
  result.objectPieces = sim.layout().objectPieces;
  result.objectVolumeError = sim.layout().objectVolumeError;

  const std::size_t phases = request.settings.directions.size() + 1;
  const long every = std::max(1L, std::lround(request.settings.sampleInterval_s / request.settings.timestep_s));
  Recorder rec(sim);
  rec.begin();
  progress.report(0.0, "settling the grasp");
  const bool settled = simulate(sim, rec, request.settings.settle_s, every, result.settle);
  // The settled state, restored before each pull: positions, velocities, actuator states and the solver's warm
  // start (so each pull starts bit for bit the same), not MuJoCo's whole arena.
  const std::vector<mjtNum> settledQpos(d->qpos, d->qpos + m->nq), settledQvel(d->qvel, d->qvel + m->nv),
      settledAct(d->act, d->act + m->na), settledWarm(d->qacc_warmstart, d->qacc_warmstart + m->nv);
  const mjtNum settledTime = d->time;

  const int object = sim.objectBody();
  const double weight_N = sim.layout().objectMass_kg * request.settings.gravity_mps2;
  for (std::size_t i = 0; i < request.settings.directions.size(); ++i) {
    throwIfCancelled(progress);
    progress.report(static_cast<double>(i + 1) / static_cast<double>(phases),
                    "pulling along " + request.settings.directions[i].name());
    DirectionTrial dir;
    dir.direction = request.settings.directions[i];
    std::copy(settledQpos.begin(), settledQpos.end(), d->qpos);
    std::copy(settledQvel.begin(), settledQvel.end(), d->qvel);
    std::copy(settledAct.begin(), settledAct.end(), d->act);
    std::copy(settledWarm.begin(), settledWarm.end(), d->qacc_warmstart);
    d->time = settledTime;
    mju_zero(d->xfrc_applied, 6 * m->nbody);
    sim.forward();
    // The object's axis at the settled pose, fixed in the world for the whole pull.
    const Transform X_WO = bodyPose_mm(d, object);
    dir.pull_W = X_WO.applyToVector(dir.direction.unit_O());
    for (int k = 0; k < 3; ++k) d->xfrc_applied[6 * object + k] = weight_N * dir.pull_W[k];
    rec.begin();
    const bool finite = settled && simulate(sim, rec, request.settings.duration_s, every, dir.samples);
    dir.diverged = !finite;
    for (const TrialSample& s : dir.samples) {
      dir.displacement_mm = std::max(dir.displacement_mm, s.displacement_mm);
      dir.rotation_deg = std::max(dir.rotation_deg, s.rotation_deg);
    }
    dir.finalDisplacement_mm = dir.samples.empty() ? 0.0 : dir.samples.back().displacement_mm;
    dir.held = finite && dir.displacement_mm < request.settings.heldDisplacement_mm &&
               dir.rotation_deg < request.settings.heldRotation_deg;
    result.directions.push_back(std::move(dir));
  }
  progress.report(1.0, "trial done");
  return result;
}

// The model was built for this request and not stepped since its reset (the trial's results depend on both).
void checkBuiltFor(const SimModel& sim, const TrialRequest& request) {
  const SimLayout& layout = sim.layout();
  const TrialSettings& s = request.settings;
  if (layout.robot != request.robot || layout.graspable != request.graspable)
    throw Error("physics trial: the model was built for robot " + std::to_string(layout.robot) + " and graspable " +
                std::to_string(layout.graspable) + ", the trial asks for robot " + std::to_string(request.robot) +
                " and graspable " + std::to_string(request.graspable));
  const mjOption& opt = sim.model()->opt;
  if (opt.timestep != s.timestep_s || opt.impratio != s.impratio || layout.collisionPrefilter != s.collisionPrefilter ||
      layout.pairList != s.pairList || layout.exactSphereMesh != s.exactSphereMesh)
    throw Error("physics trial: the model was built with other settings (timestep, impratio or collision options) "
                "than the trial's");
  if (sim.data()->time != 0)
    throw Error("physics trial: the model has been stepped since it was built or reset");
}

// MjcfBuilder.h (arena): the compact arena first, the full one only when it overflowed.
TrialResult compactFirst(const World& world, const WorldState& state, const TrialRequest& request,
                         ProgressSink& progress, int contactCapacity) {
  validateTrialSettings(request.settings);
  {
    SimModel sim(buildMjcf(world, state, request.robot, request.graspable, request.settings, contactCapacity));
    TrialResult result = simulateTrial(sim, world, state, request, progress);
    if (!sim.arenaOverflowed() || contactCapacity >= kFullContactCapacity) return result;
  }
  SimModel sim(buildMjcf(world, state, request.robot, request.graspable, request.settings, kFullContactCapacity));
  TrialResult result = simulateTrial(sim, world, state, request, progress);
  result.fullArena = true;
  return result;
}

}  // namespace

TrialResult runTrial(const World& world, const WorldState& state, const TrialRequest& request, ProgressSink& progress) {
  return compactFirst(world, state, request, progress, kCompactContactCapacity);
}

TrialResult trialCompactFirst(const World& world, const WorldState& state, const TrialRequest& request,
                              ProgressSink& progress, int contactCapacity) {
  return compactFirst(world, state, request, progress, contactCapacity);
}

TrialResult runTrial(SimModel& sim, const World& world, const WorldState& state, const TrialRequest& request,
                     ProgressSink& progress) {
  validateTrialSettings(request.settings);
  checkBuiltFor(sim, request);
  TrialResult result = simulateTrial(sim, world, state, request, progress);
  if (sim.arenaOverflowed() && sim.layout().contactCapacity < kFullContactCapacity)
    throw Error("physics trial: MuJoCo ran out of room for contacts in a model built for " +
                std::to_string(sim.layout().contactCapacity) + " (build it for kFullContactCapacity)");
  return result;
}

}  // namespace sg::sim
