#include "grasp/ContactWrenches.h"

#include "core/Error.h"
#include "geometry/MassProperties.h"

namespace sg {

WrenchReference wrenchReferenceFor(const Body& object, const Transform& X_WO, double userLength_mm) {
  WrenchReference r;
  r.objectPose = X_WO;
  r.cog_mm = object.cog_mm;
  r.torqueScale_mm = userLength_mm;
  if (!(r.torqueScale_mm > 0)) r.torqueScale_mm = object.maxRadius_mm;
  if (!(r.torqueScale_mm > 0) && object.mesh) r.torqueScale_mm = maxRadius(*object.mesh, object.cog_mm);
  if (!(r.torqueScale_mm > 0))
    throw Error("cannot scale contact torques: object '" + object.name + "' has no max radius and no mesh");
  return r;
}

Transform objectContactFrame(const ContactSide& side, const Transform& X_WO) {
  const Transform X_OW = X_WO.inverse();
  const Vec3 p_OC = X_OW * side.p_WC_mm;
  const Vec3 n_O = X_OW.applyToVector(side.n_W);
  return contactFrame(p_OC, n_O);
}

std::vector<Vec6> contactWrenches(const ContactSide& side, double mu, const std::vector<Vec6>& edges,
                                  const WrenchReference& ref) {
  const Transform frame = objectContactFrame(side, ref.objectPose);
  const Mat3 R = frame.rotationMatrix();
  const Vec3 tx = R.col(0), ty = R.col(1), n = R.col(2);
  const Vec3 r = frame.translation() - ref.cog_mm;
  std::vector<Vec6> out;
  out.reserve(edges.size());
  for (const Vec6& e : edges) {
    const Vec3 f = n + mu * (e(0) * tx + e(1) * ty);
    Vec6 w;
    w.head<3>() = f;
    w.tail<3>() = (r.cross(f) + mu * e(5) * n) / ref.torqueScale_mm;
    out.push_back(w);
  }
  return out;
}

}  // namespace sg
