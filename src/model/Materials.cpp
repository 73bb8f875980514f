#include "model/Materials.h"

#include "core/Error.h"

namespace sg {

MaterialTable::MaterialTable() {
  names_ = {"frictionless", "glass", "metal", "plastic", "wood", "rubber", "stone"};
  // Upper triangles of GraspIt!'s tables, row by row.
  const double s[7][7] = {{0, 0, 0, 0, 0, 0, 0},          {0, 0.2, 0.2, 0.2, 0.3, 1.0, 0.3},
                          {0, 0, 0.2, 0.2, 0.3, 1.0, 0.4}, {0, 0, 0, 0.3, 0.4, 1.0, 0.4},
                          {0, 0, 0, 0, 0.4, 1.0, 0.6},     {0, 0, 0, 0, 0, 2.0, 1.5},
                          {0, 0, 0, 0, 0, 0, 0.7}};
  const double k[7][7] = {{0, 0, 0, 0, 0, 0, 0},          {0, 0.1, 0.1, 0.1, 0.2, 0.9, 0.2},
                          {0, 0, 0.1, 0.1, 0.2, 0.9, 0.3}, {0, 0, 0, 0.2, 0.3, 0.9, 0.3},
                          {0, 0, 0, 0, 0.3, 0.9, 0.5},     {0, 0, 0, 0, 0, 1.9, 1.4},
                          {0, 0, 0, 0, 0, 0, 0.6}};
  muStatic_.setZero(7, 7);
  muKinetic_.setZero(7, 7);
  for (int i = 0; i < 7; ++i)
    for (int j = i; j < 7; ++j) {
      muStatic_(i, j) = muStatic_(j, i) = s[i][j];
      muKinetic_(i, j) = muKinetic_(j, i) = k[i][j];
    }
}

std::optional<int> MaterialTable::indexOf(const std::string& name) const {
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return static_cast<int>(i);
  return std::nullopt;
}

static int require(const MaterialTable& t, const std::string& name) {
  auto i = t.indexOf(name);
  if (!i) throw Error("unknown material '" + name + "'");
  return *i;
}

double MaterialTable::staticFriction(const std::string& a, const std::string& b) const {
  return staticFriction(require(*this, a), require(*this, b));
}
double MaterialTable::kineticFriction(const std::string& a, const std::string& b) const {
  return kineticFriction(require(*this, a), require(*this, b));
}

int MaterialTable::addMaterial(const std::string& name, double mu, double muK) {
  if (auto i = indexOf(name)) return *i;
  names_.push_back(name);
  const auto n = static_cast<Eigen::Index>(names_.size());
  muStatic_.conservativeResize(n, n);
  muKinetic_.conservativeResize(n, n);
  muStatic_.row(n - 1).setConstant(mu);
  muStatic_.col(n - 1).setConstant(mu);
  muKinetic_.row(n - 1).setConstant(muK);
  muKinetic_.col(n - 1).setConstant(muK);
  return static_cast<int>(n - 1);
}

void MaterialTable::setFriction(int a, int b, double muS, double muK) {
  muStatic_(a, b) = muStatic_(b, a) = muS;
  muKinetic_(a, b) = muKinetic_(b, a) = muK;
}

}  // namespace sg
