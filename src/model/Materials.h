#pragma once
// The material list and its static/kinetic friction tables. Defaults are GraspIt!'s
// (frictionless, glass, metal, plastic, wood, rubber, stone) — src/model/README.md §Materials and friction.
#include <optional>
#include <string>
#include <vector>

#include "core/Math.h"

namespace sg {

class MaterialTable {
 public:
  MaterialTable();  // GraspIt!'s defaults
  static MaterialTable graspitDefaults() { return {}; }

  std::size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }
  std::optional<int> indexOf(const std::string& name) const;
  bool contains(const std::string& name) const { return indexOf(name).has_value(); }

  double staticFriction(int a, int b) const { return muStatic_(a, b); }
  double kineticFriction(int a, int b) const { return muKinetic_(a, b); }
  // By name; throws sg::Error on an unknown material.
  double staticFriction(const std::string& a, const std::string& b) const;
  double kineticFriction(const std::string& a, const std::string& b) const;

  // Adds a material (friction with every other set to `mu`/`muK` until changed). Returns its index.
  int addMaterial(const std::string& name, double mu = 0.5, double muK = 0.4);
  void setFriction(int a, int b, double muS, double muK);  // symmetric

 private:
  std::vector<std::string> names_;
  MatX muStatic_, muKinetic_;
};

}  // namespace sg
