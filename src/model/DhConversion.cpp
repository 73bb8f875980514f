#include "model/DhConversion.h"

#include <cmath>
#include <map>

#include "core/Error.h"
#include "geometry/MassProperties.h"
#include "model/Kinematics.h"

namespace sg {

namespace {

constexpr double kParallel = 1e-9;   // |u × v| below this: parallel (or coincident) axes
constexpr double kCoincident = 1e-9; // mm: axes this close intersect

struct AxisLine {
  Vec3 point;  // mm, palm frame, at motion 0
  Vec3 dir;    // unit
};

Transform frameOf(const Vec3& origin, const Vec3& x, const Vec3& z) {
  Mat3 R;
  R.col(0) = x;
  R.col(1) = z.cross(x);
  R.col(2) = z;
  return Transform::fromMatrix(R, origin);
}

// A frame on the axis, z along it, x as close to `xHint` as the axis allows.
Transform frameOnAxis(const AxisLine& axis, const Vec3& xHint) {
  Vec3 x = xHint - xHint.dot(axis.dir) * axis.dir;
  if (x.norm() < 1e-6) x = Vec3::UnitY() - Vec3::UnitY().dot(axis.dir) * axis.dir;
  if (x.norm() < 1e-6) x = Vec3::UnitZ() - Vec3::UnitZ().dot(axis.dir) * axis.dir;
  return frameOf(axis.point, x.normalized(), axis.dir);
}

// The DH step from frame L (z along the current joint's axis) to the next frame: z along `next`, x along the
// common normal of the two axes (any perpendicular for intersecting or coincident ones), origin on `next`.
DhParameters commonNormal(const Transform& L, const AxisLine& next, Transform& result) {
  const Mat3 R = L.rotationMatrix();
  const Vec3 o = L.translation(), x = R.col(0), u = R.col(2), v = next.dir;
  const Vec3 w = u.cross(v);
  double s = 0;  // distance along u from o to the foot of the common normal
  Vec3 c1 = o, c2;
  Vec3 xNext;
  if (w.norm() > kParallel) {
    const Vec3 r = o - next.point;
    const double b = u.dot(v), d = u.dot(r), e = v.dot(r), den = 1 - b * b;
    s = (b * e - d) / den;
    const double t = (e - b * d) / den;
    c1 = o + s * u;
    c2 = next.point + t * v;
    const Vec3 n = c2 - c1;
    xNext = n.norm() > kCoincident ? Vec3(n.normalized()) : Vec3(w.normalized());
  } else {
    c2 = next.point + (o - next.point).dot(v) * v;  // the normal through o
    const Vec3 n = c2 - c1;
    xNext = n.norm() > kCoincident ? Vec3(n.normalized()) : x;
  }
  // Exactly perpendicular to u (rounding), so Rz(theta) can reach it.
  xNext = (xNext - xNext.dot(u) * u).normalized();
  DhParameters dh;
  dh.theta_rad = std::atan2(xNext.dot(u.cross(x)), xNext.dot(x));
  dh.d_mm = s;
  dh.a_mm = (c2 - c1).dot(xNext);
  dh.alpha_rad = std::atan2(v.dot(xNext.cross(u)), u.dot(v));
  result = L * dhTransform(dh.theta_rad, dh.d_mm, dh.a_mm, dh.alpha_rad);
  return dh;
}

std::shared_ptr<const TriangleMesh> movedMesh(const std::shared_ptr<const TriangleMesh>& mesh, const Transform& T) {
  if (!mesh) return mesh;
  TriangleMesh m = *mesh;
  m.transform(T.rotationMatrix(), T.translation());
  return std::make_shared<const TriangleMesh>(std::move(m));
}

// Re-expresses `body` in a frame where its old frame is T.
void moveBody(Body& body, const Transform& T) {
  body.mesh = movedMesh(body.mesh, T);
  body.visualMesh = movedMesh(body.visualMesh, T);
  body.cog_mm = T * body.cog_mm;
  const Mat3 R = T.rotationMatrix();
  body.inertiaPerMass_mm2 = R * body.inertiaPerMass_mm2 * R.transpose();
}

Mat3 parallelAxis(const Vec3& d) { return d.squaredNorm() * Mat3::Identity() - d * d.transpose(); }

// Adds `guest` (its frame is T in the host's frame) to `host`: meshes appended, masses added, CoG and inertia of
// the union (parallel-axis theorem).
void mergeInto(Body& host, Body guest, const Transform& T) {
  moveBody(guest, T);
  const auto join = [](const std::shared_ptr<const TriangleMesh>& a, const std::shared_ptr<const TriangleMesh>& b) {
    TriangleMesh m = a ? *a : TriangleMesh{};
    if (b) m.append(*b);
    m.finalize();
    return std::make_shared<const TriangleMesh>(std::move(m));
  };
  if (host.visualMesh || guest.visualMesh)
    host.visualMesh = join(host.visualMesh ? host.visualMesh : host.mesh, guest.visualMesh ? guest.visualMesh : guest.mesh);
  const bool hostHasGeometry = host.mesh && !host.mesh->empty();
  const bool guestHasGeometry = guest.mesh && !guest.mesh->empty();
  host.mesh = join(host.mesh, guest.mesh);
  if (guestHasGeometry) {
    const double m1 = hostHasGeometry ? host.mass_g : 0.0, m2 = guest.mass_g, m = m1 + m2;
    const Vec3 c = (m1 * host.cog_mm + m2 * guest.cog_mm) / m;
    host.inertiaPerMass_mm2 = (m1 * (host.inertiaPerMass_mm2 + parallelAxis(host.cog_mm - c)) +
                               m2 * (guest.inertiaPerMass_mm2 + parallelAxis(guest.cog_mm - c))) / m;
    host.cog_mm = c;
    host.mass_g = m;
    host.collisionEnabled = host.collisionEnabled || guest.collisionEnabled;
    if (!hostHasGeometry) {
      host.material = guest.material;
      host.youngs_Pa = guest.youngs_Pa;
      host.colour = guest.colour;
      host.collisionEnabled = guest.collisionEnabled;
    }
  }
  host.maxRadius_mm = host.mesh->empty() ? 0.0 : maxRadius(*host.mesh, host.cog_mm);
}

}  // namespace

Robot toDhRobot(const Robot& in) {
  Robot out = in;
  out.chains.clear();
  std::map<std::pair<int, int>, std::pair<BodyRef, Transform>> moved;  // old (chain, link) -> new ref, new-from-old
  for (std::size_t c = 0; c < in.chains.size(); ++c) {
    const Chain& chain = in.chains[c];
    if (chain.parent && chain.parent->chain >= 0)
      throw Error("robot '" + in.name + "': chain " + std::to_string(c) + " hangs off chain " +
                  std::to_string(chain.parent->chain) + " link " + std::to_string(chain.parent->link) +
                  "; GraspIt! chains hang off the palm");
    // Joint axes and frames after each joint at motion 0, palm frame.
    std::vector<Transform> after(chain.joints.size());
    std::vector<AxisLine> axes;
    std::vector<int> moving;
    Transform F = chain.base;
    for (std::size_t k = 0; k < chain.joints.size(); ++k) {
      const Joint& j = chain.joints[k];
      const Transform J = F * j.X_PJ;
      if (j.type != JointType::Fixed) {
        axes.push_back({J.translation(), J.applyToVector(j.axis).normalized()});
        moving.push_back(static_cast<int>(k));
      }
      F = J * j.X_JC;
      after[k] = F;
    }
    Chain nc;
    std::vector<Transform> L(moving.size());
    if (!moving.empty()) {
      nc.base = frameOnAxis(axes[0], chain.base.rotationMatrix().col(0));
      Transform prev = nc.base;
      for (std::size_t i = 0; i < moving.size(); ++i) {
        DhParameters dh;
        if (i + 1 < moving.size()) {
          dh = commonNormal(prev, axes[i + 1], L[i]);
        } else {
          L[i] = prev;  // the last link frame: the last joint's frame, turned by the joint
        }
        const Joint& oj = chain.joints[moving[i]];
        Joint nj = fromDh(dh, oj.type, oj.expr, oj.minValue, oj.maxValue);
        nj.viscousFriction = oj.viscousFriction;
        nj.coulombFriction = oj.coulombFriction;
        nj.springStiffness = oj.springStiffness;
        nj.restValue = oj.restValue;
        nc.joints.push_back(nj);
        prev = L[i];
      }
    }
    const int newChain = static_cast<int>(out.chains.size());
    std::vector<int> linkOfJoint(moving.size(), -1);
    for (std::size_t l = 0; l < chain.links.size(); ++l) {
      const Link& link = chain.links[l];
      const Transform P = link.lastJoint >= 0 && link.lastJoint < static_cast<int>(after.size()) ? after[link.lastJoint]
                                                                                                 : chain.base;
      int host = -1;
      for (std::size_t i = 0; i < moving.size(); ++i)
        if (moving[i] <= link.lastJoint) host = static_cast<int>(i);
      if (host < 0) {
        mergeInto(out.palm, link.body, P);
        moved[{static_cast<int>(c), static_cast<int>(l)}] = {BodyRef{-1, 0}, P};
        continue;
      }
      const Transform T = L[host].inverse() * P;
      if (linkOfJoint[host] < 0) {
        if (host != static_cast<int>(nc.links.size()))
          throw Error("robot '" + in.name + "': chain " + std::to_string(c) + " joint " + std::to_string(moving[nc.links.size()]) +
                      " moves no link; GraspIt! links follow one joint each");
        Link nl = link;
        nl.lastJoint = host;
        nl.jointType = chain.joints[moving[host]].type == JointType::Prismatic ? LinkJointType::Prismatic
                                                                                : LinkJointType::Revolute;
        moveBody(nl.body, T);
        linkOfJoint[host] = static_cast<int>(nc.links.size());
        nc.links.push_back(std::move(nl));
      } else {
        mergeInto(nc.links[linkOfJoint[host]].body, link.body, T);
      }
      moved[{static_cast<int>(c), static_cast<int>(l)}] = {BodyRef{newChain, linkOfJoint[host]}, T};
    }
    if (moving.empty()) continue;
    if (nc.links.size() != moving.size())
      throw Error("robot '" + in.name + "': chain " + std::to_string(c) + " joint " +
                  std::to_string(moving[nc.links.size()]) + " moves no link; GraspIt! links follow one joint each");
    out.chains.push_back(std::move(nc));
  }

  const auto newRef = [&](const BodyRef& r) {
    return r.chain < 0 ? BodyRef{-1, 0} : moved.at({r.chain, r.link}).first;
  };
  out.disabledPairs.clear();
  for (const auto& [a, b] : in.disabledPairs) {
    const BodyRef na = newRef(a), nb = newRef(b);
    if (na == nb) continue;
    bool known = false;
    for (const auto& [x, y] : out.disabledPairs) known = known || (x == na && y == nb) || (x == nb && y == na);
    if (!known) out.disabledPairs.emplace_back(na, nb);
  }
  for (auto& vc : out.virtualContacts) {
    if (vc.chain < 0) continue;
    const auto& [ref, T] = moved.at({vc.chain, vc.link});
    vc.chain = ref.chain;
    vc.link = ref.link;
    vc.location_mm = T * vc.location_mm;
    vc.frame = T * vc.frame;
    vc.normal = T.applyToVector(vc.normal);
  }
  return out;
}

}  // namespace sg
