#include "model/EigenGraspMap.h"

#include "core/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sg {

VecX eigenGraspOrigin(const Robot& robot) {
  const auto D = static_cast<Eigen::Index>(robot.dofs.size());
  if (robot.eigengrasps.hasOrigin && robot.eigengrasps.origin.size() == D) return robot.eigengrasps.origin;
  VecX o(D);
  for (Eigen::Index k = 0; k < D; ++k) o[k] = 0.5 * (robot.dofs[k].minValue + robot.dofs[k].maxValue);
  return o;
}

VecX eigenGraspNorm(const Robot& robot) {
  const auto D = static_cast<Eigen::Index>(robot.dofs.size());
  if (robot.eigengrasps.norm.size() == D) return robot.eigengrasps.norm;
  return VecX::Ones(D);
}

static MatX eigenMatrix(const Robot& robot) {
  const auto& g = robot.eigengrasps.grasps;
  const auto D = static_cast<Eigen::Index>(robot.dofs.size());
  MatX E(static_cast<Eigen::Index>(g.size()), D);
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (g[i].direction.size() != D) throw Error("eigengrasp " + std::to_string(i) + " has the wrong dimension");
    E.row(static_cast<Eigen::Index>(i)) = g[i].direction.transpose();
  }
  return E;
}

std::vector<double> dofsToAmplitudes(const Robot& robot, const std::vector<double>& dofValues) {
  const MatX E = eigenMatrix(robot);
  VecX x = Eigen::Map<const VecX>(dofValues.data(), static_cast<Eigen::Index>(dofValues.size()));
  if (x.size() != E.cols()) throw Error("expected " + std::to_string(E.cols()) + " DOF values");
  const VecX y = (x - eigenGraspOrigin(robot)).cwiseQuotient(eigenGraspNorm(robot));
  const VecX a = (E * E.transpose()).ldlt().solve(E * y);
  return {a.data(), a.data() + a.size()};
}

std::vector<double> amplitudesToDofs(const Robot& robot, const std::vector<double>& amplitudes) {
  const MatX E = eigenMatrix(robot);
  VecX a = Eigen::Map<const VecX>(amplitudes.data(), static_cast<Eigen::Index>(amplitudes.size()));
  if (a.size() != E.rows()) throw Error("expected " + std::to_string(E.rows()) + " eigengrasp amplitudes");
  const VecX x = (E.transpose() * a).cwiseProduct(eigenGraspNorm(robot)) + eigenGraspOrigin(robot);
  return {x.data(), x.data() + x.size()};
}

EigenGraspSet identityEigenGrasps(const Robot& robot) {
  EigenGraspSet set;
  const auto D = static_cast<Eigen::Index>(robot.dofs.size());
  for (Eigen::Index k = 0; k < D; ++k) {
    EigenGrasp g;
    g.direction = VecX::Unit(D, k);
    set.grasps.push_back(g);
  }
  set.norm = VecX::Ones(D);
  return set;
}

bool eigengraspsUsable(const Robot& robot) {
  if (robot.eigengrasps.empty() || robot.dofs.empty()) return false;
  const auto D = static_cast<Eigen::Index>(robot.dofs.size());
  for (const auto& g : robot.eigengrasps.grasps)
    if (g.direction.size() != D) return false;
  return true;
}

std::pair<double, double> eigenAmplitudeRange(const Robot& robot, int i) {
  const EigenGrasp& g = robot.eigengrasps.grasps.at(static_cast<std::size_t>(i));
  if (g.minAmplitude && g.maxAmplitude && *g.minAmplitude < *g.maxAmplitude) return {*g.minAmplitude, *g.maxAmplitude};
  const VecX o = eigenGraspOrigin(robot), s = eigenGraspNorm(robot);
  double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
  for (Eigen::Index k = 0; k < g.direction.size() && k < o.size(); ++k) {
    const double step = g.direction[k] * s[k];  // DOF k moves by `step` per unit amplitude
    if (std::abs(step) < 1e-12) continue;
    double a = (robot.dofs[k].minValue - o[k]) / step, b = (robot.dofs[k].maxValue - o[k]) / step;
    if (a > b) std::swap(a, b);
    lo = std::max(lo, a);
    hi = std::min(hi, b);
  }
  if (!(lo < hi) || !std::isfinite(lo) || !std::isfinite(hi)) return {-1.0, 1.0};
  return {lo, hi};
}

}  // namespace sg
