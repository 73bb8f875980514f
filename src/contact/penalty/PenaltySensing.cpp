#include "contact/penalty/PenaltySensing.h"

#include "contact/ContactDetection.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "model/WorldState.h"

namespace sg {

PenaltySensing penaltySensing(const Contact& contact, const Vec3& v1, const Vec3& v2, const PenaltySettings& s) {
  checkPenaltySettings(s);
  PenaltySensing out;
  out.contact = contact;
  const Vec3 n1 = contact.side1.n_W.normalized();  // into body 1: the direction body 2 pushes it
  out.signal = contact.separation_mm <= 0;
  out.penetration_mm = std::max(-contact.separation_mm, 0.0);
  out.penetrationRate_mm_per_s = (v2 - v1).dot(n1);
  const Vec3 rel = v1 - v2;
  out.slip_W_mm_per_s = rel - rel.dot(n1) * n1;
  out.normalForce_N = penaltyNormalForce_N(out.penetration_mm, out.penetrationRate_mm_per_s, s);
  out.normalForce_W_N = out.normalForce_N * n1;
  out.muEffective = stickSlipMu(out.slip_W_mm_per_s.norm(), contact.muStatic, contact.muKinetic,
                                s.criticalVelocity_mm_per_s);
  out.frictionForce_W_N = stickSlipFriction_N(out.slip_W_mm_per_s, out.normalForce_N, contact.muStatic,
                                              contact.muKinetic, s.criticalVelocity_mm_per_s);
  out.frictionForce_N = out.frictionForce_W_N.norm();
  return out;
}

PenaltySensing sensePenaltyPair(const World& world, const WorldState& state, const BodyHandle& a,
                                const BodyHandle& b, const PenaltySettings& settings, const WorldState* ahead,
                                double dt_s) {
  checkPenaltySettings(settings);
  if (ahead && !(dt_s > 0)) throw Error("penalty sensing: the time step must be > 0 s, found " + formatDouble(dt_s));
  const PairSensing pair = sensePair(world, state, a, b);
  ContactPoint point;
  point.p_WCa_mm = pair.frameA.translation();
  point.p_WCb_mm = pair.frameB.translation();
  point.nA_W = pair.frameA.applyToVector(Vec3::UnitZ());
  point.nB_W = pair.frameB.applyToVector(Vec3::UnitZ());
  point.distance_mm = pair.separation_mm;
  Contact contact = makeContact(world, a, b, point);
  contact.penetrating = pair.colliding;  // touching or overlapping: the deepest point, as findContacts
  Vec3 v1 = Vec3::Zero(), v2 = Vec3::Zero();
  if (ahead) {
    auto velocity = [&](const BodyHandle& h, const Vec3& p) {
      const Vec3 later = X_WB(*ahead, h) * (X_WB(state, h).inverse() * p);
      return Vec3((later - p) / dt_s);
    };
    v1 = velocity(a, point.p_WCa_mm);
    v2 = velocity(b, point.p_WCb_mm);
  }
  return penaltySensing(contact, v1, v2, settings);
}

}  // namespace sg
