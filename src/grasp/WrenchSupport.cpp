#include "grasp/WrenchSupport.h"
#include "grasp/ExactConePoint.h"

#include <cmath>
#include <limits>

namespace sg {

SupportPoint supportL1(const std::vector<std::vector<Vec6>>& perContact, const Vec6& u) {
  SupportPoint s;
  s.h = -std::numeric_limits<double>::infinity();
  for (const auto& ws : perContact)
    for (const Vec6& w : ws) {
      const double v = w.dot(u);
      if (v > s.h) { s.h = v; s.w = w; }
    }
  return s;
}

SupportPoint supportLInfinity(const std::vector<std::vector<Vec6>>& perContact, const Vec6& u) {
  SupportPoint s;  // h = 0, w = 0: the sum starts from the origin
  for (const auto& ws : perContact) {
    double best = 0;  // {0} belongs to every contact's set
    const Vec6* arg = nullptr;
    for (const Vec6& w : ws) {
      const double v = w.dot(u);
      if (v > best) { best = v; arg = &w; }
    }
    if (arg) { s.h += best; s.w += *arg; }
  }
  return s;
}

ExactContactCone exactConeFor(const ContactSide& side, double mu, double torsion_mm, const WrenchReference& ref) {
  const Transform frame = objectContactFrame(side, ref.objectPose);
  const Mat3 R = frame.rotationMatrix();
  ExactContactCone c;
  c.p_OC_mm = frame.translation() - ref.cog_mm;
  c.t1_O = R.col(0);
  c.t2_O = R.col(1);
  c.n_O = R.col(2);
  c.mu = mu;
  c.torsion_mm = torsion_mm > 0 ? torsion_mm : 0;
  return c;
}

ExactConeSupport supportExactConeAt(const ExactContactCone& c, double rho, const Vec6& u) {
  // w·u = f·g + τ_n (u_τ·n)/ρ with g = u_f + (u_τ × p)/ρ, since (p × f)·u_τ = f·(u_τ × p).
  const Vec3 uf = u.head<3>(), ut = u.tail<3>();
  const Vec3 g = uf + ut.cross(c.p_OC_mm) / rho;
  const double an = g.dot(c.n_O), a1 = g.dot(c.t1_O), a2 = g.dot(c.t2_O);
  const double a3 = ut.dot(c.n_O) / rho;
  const double en = c.torsion_mm;
  // Maximise x·a1 + y·a2 + z·(e_n a3) over the unit ball: (x, y, z) ∝ (a1, a2, e_n a3).
  const double r = std::sqrt(a1 * a1 + a2 * a2 + en * en * a3 * a3);
  double x = 0, y = 0, z = 0;
  if (r > 0) { x = a1 / r; y = a2 / r; z = en * a3 / r; }
  ExactConeSupport s;
  s.point.h = an + c.mu * r;
  s.xyz = Vec3(x, y, z);
  s.point.w = exactConePoint(c, rho, s.xyz);
  return s;
}

SupportPoint supportExactCone(const ExactContactCone& c, double rho, const Vec6& u) {
  return supportExactConeAt(c, rho, u).point;
}

Vec6 exactConePoint(const ExactContactCone& c, double rho, const Vec3& xyz) {
  const Vec3 f = c.n_O + c.mu * (xyz.x() * c.t1_O + xyz.y() * c.t2_O);
  Vec6 w;
  w.head<3>() = f;
  w.tail<3>() = (c.p_OC_mm.cross(f) + c.mu * c.torsion_mm * xyz.z() * c.n_O) / rho;
  return w;
}

SupportPoint supportExactL1(const std::vector<ExactContactCone>& cones, double rho, const Vec6& u) {
  SupportPoint s;
  s.h = -std::numeric_limits<double>::infinity();
  for (const auto& c : cones) {
    const SupportPoint p = supportExactCone(c, rho, u);
    if (p.h > s.h) s = p;
  }
  return s;
}

SupportPoint supportExactLInfinity(const std::vector<ExactContactCone>& cones, double rho, const Vec6& u) {
  SupportPoint s;
  for (const auto& c : cones) {
    const SupportPoint p = supportExactCone(c, rho, u);
    if (p.h > 0) { s.h += p.h; s.w += p.w; }
  }
  return s;
}

}  // namespace sg
