#pragma once
// A loaded MuJoCo model and its data for one trial (README.md §Model): the MJCF of a SimLayout handed to
// mj_loadXML through MuJoCo's virtual file system (no file on disk), the DOF drives set up
// (README.md §Actuators), and the joints at the state's values. Owns mjModel and mjData; not copyable.
#include <memory>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

#include "sim/MjcfBuilder.h"
#include "sim/PairList.h"
#include "sim/SphereHullCollision.h"

namespace sg::sim {

class SimModel {
 public:
  // Throws sg::Error with MuJoCo's message when the model does not compile.
  explicit SimModel(SimLayout layout);
  ~SimModel();
  SimModel(const SimModel&) = delete;
  SimModel& operator=(const SimModel&) = delete;

  const mjModel* model() const { return model_; }
  mjData* data() { return data_; }
  const mjData* data() const { return data_; }
  const SimLayout& layout() const { return layout_; }

  int objectBody() const { return objectBody_; }
  int palmBody() const { return palmBody_; }          // -1 without a hand
  // Hand body index (SimLayout::handBodies) of a MuJoCo body, −1 for bodies that are not a hand link.
  int handIndexOfBody(int mjBody) const;
  int bodyId(const std::string& name) const;          // throws sg::Error for an unknown name
  int jointId(const std::string& name) const;

  // qpos/qvel/ctrl/forces back to the state the layout was built from (hand joints at the state's values,
  // object at its pose, at rest), time 0.
  void reset();
  // mj_forward and mj_step with this step's pair list (PairList.h): call these, never MuJoCo's directly.
  void forward();
  void step();
  const PairList& pairList() const { return pairList_; }
  // The hulls of the exact sphere–mesh contact (SphereHullCollision.h); null when TrialSettings::exactSphereMesh
  // is off.
  const SphereHullCollider* sphereHulls() const { return sphereHulls_.get(); }
  // MuJoCo ran out of room for contacts or constraint rows since the last reset (MjcfBuilder.h: arena).
  bool arenaOverflowed() const;
  // DOF values (rad or mm, as the robot's DOFs) read from the leader joints.
  std::vector<double> dofValues() const;

 private:
  void setUpDrives();

  SimLayout layout_;
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  PairList pairList_;
  std::unique_ptr<SphereHullCollider> sphereHulls_;
  int objectBody_ = -1, palmBody_ = -1;
  std::vector<int> handIndex_;                         // per MuJoCo body
  std::vector<int> leaderQposAdr_;                     // per SimLayout::dofs entry
};

}  // namespace sg::sim
