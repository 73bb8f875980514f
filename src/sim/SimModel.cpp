#include "sim/SimModel.h"

#include <algorithm>
#include <cmath>
#include <mutex>

#include "core/Error.h"
#include "sim/CollisionPrefilter.h"

namespace sg::sim {

namespace {

mjModel* loadFromMemory(const std::string& mjcf) {
  const char* kName = "softgrasp_trial.xml";
  char error[1000] = "";
  // One model compiled at a time: MuJoCo's XML parser and compiler are not documented as thread-safe, and
  // `compare --against-physics` runs trials on several threads (each with its own mjModel and mjData).
  static std::mutex compileMutex;
  std::lock_guard lock(compileMutex);
  // One virtual file system for every load, under the lock (an mjVFS is 2 MB that mj_defaultVFS and
  // mj_deleteVFS clear; README.md §Cost): the file is added for the load and deleted after it.
  static const std::unique_ptr<mjVFS, void (*)(mjVFS*)> vfs([] {
    auto* v = new mjVFS;
    mj_defaultVFS(v);
    return v;
  }(), [](mjVFS* v) {
    mj_deleteVFS(v);
    delete v;
  });
  if (mj_makeEmptyFileVFS(vfs.get(), kName, static_cast<int>(mjcf.size())) != 0)
    throw Error("MuJoCo: cannot make the in-memory model file");
  const int file = mj_findFileVFS(vfs.get(), kName);
  std::copy(mjcf.begin(), mjcf.end(), static_cast<char*>(vfs->filedata[file]));
  mjModel* model = mj_loadXML(kName, vfs.get(), error, sizeof error);
  mj_deleteFileVFS(vfs.get(), kName);
  if (!model) throw Error(std::string("MuJoCo could not load the trial model: ") + error);
  return model;
}

}  // namespace

SimModel::SimModel(SimLayout layout)
    : layout_(std::move(layout)),
      model_((installCollisionPrefilter(), loadFromMemory(layout_.mjcf))),
      pairList_(model_, layout_.pairSlots, layout_.pairList) {
  writeGeomBoxes(model_, layout_.collisionPrefilter);
  if (layout_.exactSphereMesh) sphereHulls_ = std::make_unique<SphereHullCollider>(model_);
  data_ = mj_makeData(model_);
  if (!data_) {
    pairList_.restore(model_);
    mj_deleteModel(model_);
    throw Error("MuJoCo: out of memory for the trial data");
  }
  objectBody_ = bodyId(layout_.objectBody);
  palmBody_ = layout_.robot >= 0 ? bodyId("palm") : -1;
  handIndex_.assign(static_cast<std::size_t>(model_->nbody), -1);
  for (std::size_t i = 0; i < layout_.handBodies.size(); ++i)
    handIndex_[static_cast<std::size_t>(bodyId(layout_.handBodies[i].mjBody))] = static_cast<int>(i);
  for (const SimDof& d : layout_.dofs) leaderQposAdr_.push_back(model_->jnt_qposadr[jointId(d.joint)]);
  setUpDrives();
  reset();
}

SimModel::~SimModel() {
  sphereHulls_.reset();  // unregistered before the model it is keyed by is freed
  mj_deleteData(data_);
  pairList_.restore(model_);
  mj_deleteModel(model_);
}

void SimModel::forward() {
  pairList_.prepare(model_, data_);
  mj_forward(model_, data_);
  pairList_.finish(model_, data_, false);
}

void SimModel::step() {
  pairList_.prepare(model_, data_);
  mj_step(model_, data_);
  pairList_.finish(model_, data_, true);
}

int SimModel::bodyId(const std::string& name) const {
  const int id = mj_name2id(model_, mjOBJ_BODY, name.c_str());
  if (id < 0) throw Error("trial model has no body '" + name + "'");
  return id;
}

int SimModel::jointId(const std::string& name) const {
  const int id = mj_name2id(model_, mjOBJ_JOINT, name.c_str());
  if (id < 0) throw Error("trial model has no joint '" + name + "'");
  return id;
}

int SimModel::handIndexOfBody(int mjBody) const {
  return mjBody >= 0 && mjBody < model_->nbody ? handIndex_[static_cast<std::size_t>(mjBody)] : -1;
}

// README.md §Actuators: a closing DOF pushes with a constant force (bias term) of its full effort; a holding DOF
// is a PD on the actuator length, its gains capped so the explicit integrator stays stable at this timestep.
void SimModel::setUpDrives() {
  const double dt = model_->opt.timestep;
  mj_setConst(model_, data_);
  for (std::size_t i = 0; i < layout_.dofs.size(); ++i) {
    const SimDof& d = layout_.dofs[i];
    const int a = mj_name2id(model_, mjOBJ_ACTUATOR, d.actuator.c_str());
    if (a < 0) throw Error("trial model has no actuator '" + d.actuator + "'");
    mjtNum* gain = model_->actuator_gainprm + a * mjNGAIN;
    mjtNum* bias = model_->actuator_biasprm + a * mjNBIAS;
    gain[0] = 0;
    if (d.closing) {
      bias[0] = d.closeSign * d.effort_SI;
      bias[1] = 0;
      bias[2] = 0;
      continue;
    }
    const int dofAdr = model_->jnt_dofadr[jointId(d.joint)];
    const double inertia = model_->dof_M0[dofAdr] / (d.gear * d.gear);  // in actuator coordinates
    const double kp = std::min(d.kp_SI, inertia * std::pow(0.25 / dt, 2));
    const double kd = std::min(d.kd_SI, 0.5 * inertia / dt);
    bias[1] = -kp;
    bias[2] = -kd;
    bias[0] = 0;  // the target is set in reset()
  }
}

void SimModel::reset() {
  mj_resetData(model_, data_);
  for (const SimJoint& j : layout_.joints) data_->qpos[model_->jnt_qposadr[jointId(j.name)]] = j.q_SI;
  for (std::size_t i = 0; i < layout_.dofs.size(); ++i) {
    const SimDof& d = layout_.dofs[i];
    if (d.closing) continue;
    const int a = mj_name2id(model_, mjOBJ_ACTUATOR, d.actuator.c_str());
    mjtNum* bias = model_->actuator_biasprm + a * mjNBIAS;
    // Hold the actuator length the state starts at: force = kp·(L0 − L) − kd·L̇.
    bias[0] = -bias[1] * d.gear * data_->qpos[leaderQposAdr_[i]];
  }
  forward();
}

bool SimModel::arenaOverflowed() const {
  return data_->warning[mjWARN_CONTACTFULL].number > 0 || data_->warning[mjWARN_CNSTRFULL].number > 0;
}

std::vector<double> SimModel::dofValues() const {
  std::vector<double> out;
  if (layout_.robot < 0) return out;
  for (std::size_t i = 0; i < layout_.dofs.size(); ++i) {
    const SimDof& d = layout_.dofs[i];
    if (static_cast<std::size_t>(d.dof) >= out.size()) out.resize(static_cast<std::size_t>(d.dof) + 1, 0.0);
    // v = (q_l/u_l − o_l)/r_l in the robot's units; gear = u_v/(u_l·r_l), so gear·q_l = u_v·(v + o_l/r_l).
    out[static_cast<std::size_t>(d.dof)] = data_->qpos[leaderQposAdr_[i]] * d.gear / d.unit_SI - d.offsetPerRatio;
  }
  return out;
}

}  // namespace sg::sim
