#include "sim/MjcfBuilder.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <sstream>

#include "contact/HertzContact.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "model/Kinematics.h"
#include "sim/CollisionPrefilter.h"
#include "sim/ConvexPieces.h"
#include "sim/SimUnits.h"

namespace sg::sim {

namespace {

std::string num(double v) { return formatDouble(v); }
std::string vec(const Vec3& v) { return num(v.x()) + " " + num(v.y()) + " " + num(v.z()); }
std::string posM(const Vec3& p_mm) { return vec(p_mm * kMetresPerMm); }
std::string quat(const Quat& q) { return num(q.w()) + " " + num(q.x()) + " " + num(q.y()) + " " + num(q.z()); }
std::string placement(const Transform& X) {
  return "pos=\"" + posM(X.translation()) + "\" quat=\"" + quat(X.rotation()) + "\"";
}

// One convex geom of a body, in the body frame (mm).
struct GeomSpec {
  std::string type;               // MuJoCo geom type
  std::string size;               // MuJoCo size attribute (m)
  Transform X_BS;                 // shape in body frame
  const ConvexPiece* piece = nullptr;  // mesh pieces
};

struct BodyGeoms {
  std::vector<GeomSpec> geoms;
  std::shared_ptr<const ConvexPieces> pieces;  // keeps `vertices` alive
  double radius_mm = 0;           // local radius of curvature for the Hertz patch (README.md §Friction)
};

std::optional<GeomSpec> primitiveGeom(const Primitive& p) {
  const double s = kMetresPerMm;
  if (const auto* sphere = std::get_if<Sphere>(&p.shape)) return GeomSpec{"sphere", num(sphere->radius_mm * s), p.X_BS};
  if (const auto* box = std::get_if<Box>(&p.shape)) return GeomSpec{"box", vec(box->halfExtents_mm() * s), p.X_BS};
  if (const auto* c = std::get_if<Cylinder>(&p.shape))
    return GeomSpec{"cylinder", num(c->radius_mm * s) + " " + num(0.5 * c->height_mm * s), p.X_BS};
  if (const auto* c = std::get_if<Capsule>(&p.shape))
    return GeomSpec{"capsule", num(c->radius_mm * s) + " " + num(0.5 * c->length_mm * s), p.X_BS};
  if (const auto* e = std::get_if<Ellipsoid>(&p.shape)) return GeomSpec{"ellipsoid", vec(e->semiAxes_mm * s), p.X_BS};
  return std::nullopt;  // cone and torus go through their tessellation
}

double primitiveRadius_mm(const Shape& shape) {
  if (const auto* sphere = std::get_if<Sphere>(&shape)) return sphere->radius_mm;
  if (const auto* c = std::get_if<Cylinder>(&shape)) return c->radius_mm;
  if (const auto* c = std::get_if<Capsule>(&shape)) return c->radius_mm;
  if (const auto* e = std::get_if<Ellipsoid>(&shape)) return e->semiAxes_mm.minCoeff();
  if (const auto* b = std::get_if<Box>(&shape)) return b->halfExtents_mm().minCoeff();
  return 0;
}

BodyGeoms bodyGeoms(const Body& body, bool tessellatedPrimitives) {
  BodyGeoms out;
  if (!body.collisionEnabled) return out;
  if (body.primitive) {
    if (auto g = primitiveGeom(*body.primitive)) {
      out.geoms.push_back(*g);
      out.radius_mm = primitiveRadius_mm(body.primitive->shape);
      return out;
    }
  }
  if (!body.mesh || body.mesh->empty()) return out;
  out.pieces = convexPieces(body.mesh);
  for (const ConvexPiece& piece : out.pieces->pieces) {
    // A tessellated box, sphere or cylinder collides as the MuJoCo primitive (README.md §Geometry).
    const bool usePrimitive =
        piece.primitive && (tessellatedPrimitives || std::holds_alternative<Box>(piece.primitive->shape));
    if (const auto g = usePrimitive ? primitiveGeom(*piece.primitive) : std::nullopt)
      out.geoms.push_back(*g);
    else
      out.geoms.push_back({"mesh", "", Transform{}, &piece});
  }
  // A mesh has no one curvature: half its smallest bounding-box extent stands for it (README.md §Friction).
  out.radius_mm = 0.5 * body.mesh->bounds.size().minCoeff();
  return out;
}

std::string inertial(const Body& body, const Transform& X_mjB) {
  const double mass_kg = body.mass_g * kKgPerGram;
  const Mat3 R = X_mjB.rotationMatrix();
  const Mat3 I = R * (body.inertiaPerMass_mm2 * body.mass_g * kKgM2PerGramMm2) * R.transpose();
  return "<inertial pos=\"" + posM(X_mjB * body.cog_mm) + "\" mass=\"" + num(mass_kg) + "\" fullinertia=\"" +
         num(I(0, 0)) + " " + num(I(1, 1)) + " " + num(I(2, 2)) + " " + num(I(0, 1)) + " " + num(I(0, 2)) + " " +
         num(I(1, 2)) + "\"/>";
}

// Writes a body's geoms (X_mjB: body frame in the MuJoCo body's frame); meshes become assets. Returns the names.
std::vector<std::string> writeGeoms(const BodyGeoms& geoms, const Transform& X_mjB, const std::string& prefix,
                                    const std::string& contact, std::ostringstream& body, std::ostringstream& assets) {
  std::vector<std::string> names;
  for (std::size_t k = 0; k < geoms.geoms.size(); ++k) {
    const GeomSpec& g = geoms.geoms[k];
    const std::string name = prefix + "_g" + std::to_string(k);
    body << "<geom name=\"" << name << "\" type=\"" << g.type << "\" " << contact << " ";
    if (g.piece) {
      assets << "<mesh name=\"" << name << "_mesh\" vertex=\"";
      for (std::size_t i = 0; i < g.piece->vertices.size(); ++i) assets << (i ? " " : "") << posM(g.piece->vertices[i]);
      assets << "\" face=\"";
      for (std::size_t i = 0; i < g.piece->triangles.size(); ++i) {
        const auto& t = g.piece->triangles[i];
        assets << (i ? " " : "") << t[0] << " " << t[1] << " " << t[2];
      }
      assets << "\"/>\n";
      body << "mesh=\"" << name << "_mesh\" " << placement(X_mjB) << "/>\n";
    } else {
      body << "size=\"" << g.size << "\" " << placement(X_mjB * g.X_BS) << "/>\n";
    }
    names.push_back(name);
  }
  return names;
}

// Friction and softness of one hand-body/object pair (README.md §Friction, §Softness).
struct PairParameters {
  double mu = 0, torsion_m = 0, timeconst_s = 0;
};

PairParameters pairParameters(const World& world, const Body& hand, double handRadius_mm, const Body& object,
                              double objectRadius_mm, const TrialSettings& settings) {
  PairParameters p;
  p.mu = world.materials.staticFriction(hand.material, object.material);
  const double minTimeconst_s = 2 * settings.timestep_s;  // MuJoCo's stability floor
  p.timeconst_s = minTimeconst_s;
  p.torsion_m = 1e-5;                                      // MuJoCo's smallest friction (mjMINMU)
  if (!hand.isSoft() && !object.isSoft()) return p;
  const double E_Pa = hertzEffectiveModulus_Pa(hand.youngs_Pa, settings.poisson, object.youngs_Pa, settings.poisson);
  const double inv = (handRadius_mm > 0 ? 1 / handRadius_mm : 0) + (objectRadius_mm > 0 ? 1 / objectRadius_mm : 0);
  if (inv <= 0) return p;
  const double R_mm = 1 / inv;
  const double load_N = std::max(object.mass_g * kKgPerGram * settings.gravity_mps2, 1e-3);
  const double a_mm = hertzEllipse(R_mm, R_mm, load_N, E_Pa).semiAxisLong_mm;
  // Soft finger: τ_max = (3π/16)·μ·a·N for the Hertz pressure (src/contact/README.md), per unit normal force.
  p.torsion_m = std::max(3 * std::numbers::pi / 16 * p.mu * a_mm * kMetresPerMm, 1e-5);
  // Contact stiffness dN/dδ = 2·E*·a at the object's weight; the timeconst whose spring on the object's mass
  // has that stiffness (dmax 0.95, critical damping).
  const double k_Npm = 2 * E_Pa * a_mm * kMetresPerMm;
  const double mass_kg = std::max(object.mass_g * kKgPerGram, 1e-6);
  p.timeconst_s = std::max(1 / (0.95 * std::sqrt(k_Npm / mass_kg)), minTimeconst_s);
  return p;
}

// "c2j1": built by appending (gcc 12 warns falsely about `"c" + std::to_string(...)` chains, -Wrestrict).
std::string twoIndexName(char a, std::size_t i, char b, std::size_t j) {
  std::string out(1, a);
  out += std::to_string(i);
  out += b;
  out += std::to_string(j);
  return out;
}

double unitOf(bool prismatic) { return prismatic ? kMetresPerMm : 1.0; }

}  // namespace

SimLayout buildMjcf(const World& world, const WorldState& state, int robotIndex, int graspable,
                    const TrialSettings& settings, int contactCapacity) {
  validateTrialSettings(settings);
  if (contactCapacity < 1) throw Error("trial model: room for " + std::to_string(contactCapacity) + " contacts");
  requireFits(world, state);
  if (graspable < 0 || graspable >= static_cast<int>(world.graspables.size()))
    throw Error(world.graspables.empty() ? "the world has no graspable body to run a trial on"
                                         : "graspable index " + std::to_string(graspable) + " out of range",
                world.sourceFile);
  if (robotIndex >= static_cast<int>(world.robots.size()))
    throw Error("robot index " + std::to_string(robotIndex) + " out of range", world.sourceFile);

  SimLayout out;
  out.robot = robotIndex;
  out.graspable = graspable;
  out.collisionPrefilter = settings.collisionPrefilter;
  out.pairList = settings.pairList;
  out.exactSphereMesh = settings.exactSphereMesh;
  out.contactCapacity = contactCapacity;
  const Body& object = world.graspables[static_cast<std::size_t>(graspable)];
  if (!(object.mass_g > 0) || !std::isfinite(object.mass_g))
    throw Error("graspable '" + object.name + "' has no mass (" + formatDouble(object.mass_g) + " g)", world.sourceFile);
  out.objectMass_kg = object.mass_g * kKgPerGram;

  std::ostringstream assets, bodies, equality, actuators;
  const BodyGeoms objectGeoms = bodyGeoms(object, settings.tessellatedPrimitives);
  if (objectGeoms.geoms.empty())
    throw Error("graspable '" + object.name + "' has no collision geometry", world.sourceFile);
  out.objectPieces = objectGeoms.geoms.size();
  out.objectVolumeError = objectGeoms.pieces ? objectGeoms.pieces->volumeError() : 0.0;

  // The object: a free body at its pose.
  std::ostringstream objectXml;
  // README.md §Model: the object collides with hand geoms only (contype/conaffinity bits) and leaves the pair's
  // friction, condim and softness to the hand geom (MuJoCo combines friction and condim by max, solref/solimp
  // weighted by solmix: 0 here).
  const std::vector<std::string> objectGeomNames = writeGeoms(objectGeoms, Transform{}, "object",
             "contype=\"0\" conaffinity=\"1\" condim=\"1\" friction=\"0 0 0\" solmix=\"0\"", objectXml, assets);
  bodies << "<body name=\"object\" " << placement(state.X_WG[static_cast<std::size_t>(graspable)]) << ">\n"
         << "<freejoint name=\"object_free\"/>\n" << inertial(object, Transform{}) << "\n" << objectXml.str()
         << "</body>\n";

  std::vector<std::string> handGeomNames;
  if (robotIndex >= 0) {
    const Robot& robot = world.robots[static_cast<std::size_t>(robotIndex)];
    const RobotState& rs = state.robots[static_cast<std::size_t>(robotIndex)];
    checkChainTree(robot);
    std::ostringstream hand;
    auto addBody = [&](const Body& body, const BodyRef& ref, const std::string& mjBody, const Transform& X_mjB,
                       std::ostringstream& xml, const std::string& prefix, bool collides) {
      xml << inertial(body, X_mjB) << "\n";
      if (collides) {
        const BodyGeoms g = bodyGeoms(body, settings.tessellatedPrimitives);
        const PairParameters p = pairParameters(world, body, g.radius_mm, object, objectGeoms.radius_mm, settings);
        const std::vector<std::string> names =
            writeGeoms(g, X_mjB, prefix,
                       "contype=\"1\" conaffinity=\"0\" condim=\"4\" solmix=\"1\" friction=\"" + num(p.mu) + " " +
                           num(p.torsion_m) + " 0.0001\" solref=\"" + num(p.timeconst_s) + " 1\"",
                       xml, assets);
        handGeomNames.insert(handGeomNames.end(), names.begin(), names.end());
      }
      out.handBodies.push_back({ref, world.bodyLabel({BodyHandle::Kind::Robot, robotIndex, ref}), mjBody});
    };

    // Nested bodies need their children written inside them: build each chain's XML from the last joint back.
    // Children chains hanging off a link are written inside that link's body.
    const std::size_t nChains = robot.chains.size();
    std::vector<std::string> chainXml(nChains);
    // Every joint's DOF must exist.
    for (std::size_t c = 0; c < nChains; ++c)
      for (std::size_t j = 0; j < robot.chains[c].joints.size(); ++j) {
        const Joint& jt = robot.chains[c].joints[j];
        if (jt.type == JointType::Fixed || jt.expr.dof < 0) continue;
        if (jt.expr.dof >= static_cast<int>(robot.dofs.size()))
          throw Error("chain " + std::to_string(c) + " joint " + std::to_string(j) + " names DOF " +
                          std::to_string(jt.expr.dof) + " the robot does not have", robot.sourceFile);
      }

    // Chains from last to first, so a child chain's XML exists when its parent link's body is written.
    std::vector<std::vector<std::string>> bodyNames(nChains);
    for (std::size_t c = 0; c < nChains; ++c)
      for (std::size_t j = 0; j < robot.chains[c].joints.size(); ++j)
        bodyNames[c].push_back(twoIndexName('c', c, 'j', j));
    std::map<std::pair<std::size_t, std::size_t>, std::string> extraInBody;  // (chain, joint) → nested XML
    for (std::size_t ci = nChains; ci-- > 0;) {
      const Chain& chain = robot.chains[ci];
      const std::size_t nJ = chain.joints.size();
      if (nJ == 0) throw Error("chain " + std::to_string(ci) + " has no joint", robot.sourceFile);
      // Link per joint body (a link sits on the body of its last joint).
      std::vector<int> linkOfJoint(nJ, -1);
      for (std::size_t l = 0; l < chain.links.size(); ++l) {
        const int lj = chain.links[l].lastJoint;
        if (lj < 0 || lj >= static_cast<int>(nJ))
          throw Error("chain " + std::to_string(ci) + " link " + std::to_string(l) + " has no joint before it",
                      robot.sourceFile);
        linkOfJoint[static_cast<std::size_t>(lj)] = static_cast<int>(l);
      }
      std::string inner;
      for (std::size_t j = nJ; j-- > 0;) {
        const Joint& jt = chain.joints[j];
        const std::string& name = bodyNames[ci][j];
        std::ostringstream xml;
        // Placement in the previous body's frame: X_JC of the previous joint (or the chain base), then X_PJ.
        Transform X_prev = (j == 0) ? chain.base : chain.joints[j - 1].X_JC;
        if (j == 0 && chain.parent && chain.parent->chain >= 0) {
          const Chain& pc = robot.chains[static_cast<std::size_t>(chain.parent->chain)];
          const Link& pl = pc.links.at(static_cast<std::size_t>(chain.parent->link));
          X_prev = pc.joints[static_cast<std::size_t>(pl.lastJoint)].X_JC * chain.base;
        }
        xml << "<body name=\"" << name << "\" " << placement(X_prev * jt.X_PJ) << ">\n";
        if (jt.type != JointType::Fixed && jt.expr.dof >= 0) {
          const bool prismatic = jt.type == JointType::Prismatic;
          const double u = unitOf(prismatic);
          const double q = jointMotionValue(jt, rs.dofValues, breakAwayOf(rs, ci, j));
          SimJoint sj{name + "_joint", static_cast<int>(ci), static_cast<int>(j), prismatic,
                      (jt.minValue + jt.expr.offset) * u, (jt.maxValue + jt.expr.offset) * u, q * u};
          if (sj.min_SI > sj.max_SI) std::swap(sj.min_SI, sj.max_SI);
          xml << "<joint name=\"" << sj.name << "\" type=\"" << (prismatic ? "slide" : "hinge") << "\" axis=\""
              << vec(jt.axis) << "\" limited=\"true\" range=\"" << num(sj.min_SI) << " " << num(sj.max_SI)
              << "\" armature=\"" << num(prismatic ? 0.01 : 1e-4) << "\"/>\n";
          out.joints.push_back(sj);
        }
        if (linkOfJoint[j] >= 0) {
          const Link& link = chain.links[static_cast<std::size_t>(linkOfJoint[j])];
          const BodyRef ref{static_cast<int>(ci), linkOfJoint[j]};
          addBody(link.body, ref, name, jt.X_JC, xml, twoIndexName('c', ci, 'l', static_cast<std::size_t>(linkOfJoint[j])),
                  !link.collisionOff);
        } else {
          // A body between two joints of one link: a small mass keeps MuJoCo's moving bodies massive.
          xml << "<inertial pos=\"0 0 0\" mass=\"0.001\" diaginertia=\"1e-7 1e-7 1e-7\"/>\n";
        }
        if (const auto it = extraInBody.find({ci, j}); it != extraInBody.end()) xml << it->second;
        xml << inner << "</body>\n";
        inner = xml.str();
      }
      if (chain.parent && chain.parent->chain >= 0) {
        const Chain& pc = robot.chains[static_cast<std::size_t>(chain.parent->chain)];
        const auto pj = static_cast<std::size_t>(pc.links.at(static_cast<std::size_t>(chain.parent->link)).lastJoint);
        extraInBody[{static_cast<std::size_t>(chain.parent->chain), pj}] += inner;
      } else {
        chainXml[ci] = inner;
      }
    }
    // The palm, fixed in the world; then the chains hanging off it.
    std::ostringstream palm;
    palm << "<body name=\"palm\" " << placement(rs.X_WP) << ">\n";
    addBody(robot.palm, BodyRef{}, "palm", Transform{}, palm, "palm", robot.palm.collisionEnabled);
    // Palm first, then links in Robot::bodyRefs order.
    std::stable_sort(out.handBodies.begin(), out.handBodies.end(), [](const SimHandBody& a, const SimHandBody& b) {
      return std::pair(a.ref.chain, a.ref.link) < std::pair(b.ref.chain, b.ref.link);
    });
    for (const std::string& xml : chainXml) palm << xml;
    palm << "</body>\n";
    bodies << palm.str();

    // DOFs: leader joint, followers as equality constraints, one actuator.
    std::sort(out.joints.begin(), out.joints.end(),
              [](const SimJoint& a, const SimJoint& b) { return std::pair(a.chain, a.joint) < std::pair(b.chain, b.joint); });
    for (std::size_t d = 0; d < robot.dofs.size(); ++d) {
      const Dof& dof = robot.dofs[d];
      const SimJoint* lead = nullptr;
      const Joint* leadJoint = nullptr;
      for (const SimJoint& sj : out.joints) {
        const Joint& jt = robot.chains[static_cast<std::size_t>(sj.chain)].joints[static_cast<std::size_t>(sj.joint)];
        if (jt.expr.dof != static_cast<int>(d)) continue;
        if (!lead) {
          lead = &sj;
          leadJoint = &jt;
          continue;
        }
        // q_f = u_f·(r_f·v + o_f) with v = (q_l/u_l − o_l)/r_l (README.md §Coupled joints).
        const double ul = unitOf(lead->prismatic), uf = unitOf(sj.prismatic);
        const double a1 = (uf * jt.expr.ratio) / (ul * leadJoint->expr.ratio);
        const double a0 = uf * (jt.expr.offset - jt.expr.ratio * leadJoint->expr.offset / leadJoint->expr.ratio);
        equality << "<joint joint1=\"" << sj.name << "\" joint2=\"" << lead->name << "\" polycoef=\"" << num(a0)
                 << " " << num(a1) << " 0 0 0\" solref=\"" << num(2 * settings.timestep_s) << " 1\"/>\n";
      }
      if (!lead) continue;  // a DOF no joint uses
      if (leadJoint->expr.ratio == 0)
        throw Error("DOF " + std::to_string(d) + " drives its first joint with ratio 0", robot.sourceFile);
      SimDof sd;
      sd.dof = static_cast<int>(d);
      sd.joint = lead->name;
      sd.actuator = "dof" + std::to_string(d);
      sd.closing = dof.defaultVelocity != 0;
      sd.closeSign = dof.defaultVelocity > 0 ? 1 : (dof.defaultVelocity < 0 ? -1 : 0);
      sd.effort_SI = dof.maxEffort * (dof.prismatic ? kNewtonsPerEffortUnitPrismatic : kNewtonMetresPerEffortUnitRevolute);
      const double gainUnit = dof.prismatic ? kKpPrismaticToSi : kKpRevoluteToSi;
      sd.kp_SI = dof.kp * gainUnit;
      sd.kd_SI = dof.kd * gainUnit;
      if (!(sd.effort_SI > 0) || !std::isfinite(sd.effort_SI))
        throw Error("DOF " + std::to_string(d) + " of " + robot.name + " has no effort (maxEffort " +
                        formatDouble(dof.maxEffort) + "): a trial needs every DOF's effort",
                    robot.sourceFile.empty() ? world.sourceFile : robot.sourceFile);
      // Actuator length = DOF value in SI (m or rad) + constant: gear = dv/dq_l (README.md §Actuators).
      sd.gear = unitOf(dof.prismatic) / (unitOf(lead->prismatic) * leadJoint->expr.ratio);
      sd.unit_SI = unitOf(dof.prismatic);
      sd.offsetPerRatio = leadJoint->expr.offset / leadJoint->expr.ratio;
      actuators << "<general name=\"" << sd.actuator << "\" joint=\"" << sd.joint << "\" gear=\"" << num(sd.gear)
                << "\" gaintype=\"fixed\" biastype=\"affine\" gainprm=\"0\" biasprm=\"0 0 0\" forcelimited=\"true\""
                << " forcerange=\"" << num(-sd.effort_SI) << " " << num(sd.effort_SI) << "\"/>\n";
      out.dofs.push_back(sd);
    }
  }

  std::ostringstream xml;
  xml << "<mujoco model=\"softgrasp-trial\">\n"
      << "<compiler angle=\"radian\" inertiafromgeom=\"false\" convexhull=\"false\"/>\n"
      << "<option timestep=\"" << num(settings.timestep_s) << "\" gravity=\"0 0 0\" cone=\"elliptic\" impratio=\""
      << num(settings.impratio) << "\"/>\n"
      // Room for `contactCapacity` contacts of 4 constraint rows each (MjcfBuilder.h: the arena and every reset
      // scale with these). nuser_geom: each geom's box for the collision prefilter (CollisionPrefilter.h), filled
      // in by SimModel.
      << "<size njmax=\"" << 4 * contactCapacity << "\" nconmax=\"" << contactCapacity << "\" nuser_geom=\""
      << kGeomBoxUserSize << "\"/>\n"
      << "<asset>\n" << assets.str() << "</asset>\n"
      << "<worldbody>\n" << bodies.str() << "</worldbody>\n";
  if (!equality.str().empty()) xml << "<equality>\n" << equality.str() << "</equality>\n";
  if (!actuators.str().empty()) xml << "<actuator>\n" << actuators.str() << "</actuator>\n";
  // Room for the per-step pair list (PairList.h): distinct hand–object placeholders, which SimModel sets aside
  // until a step fills them. A step with more pairs to test than slots runs MuJoCo's own loop.
  constexpr std::size_t kPairSlots = 128;
  for (std::size_t h = 0; h < handGeomNames.size() && static_cast<std::size_t>(out.pairSlots) < kPairSlots; ++h)
    for (std::size_t o = 0; o < objectGeomNames.size() && static_cast<std::size_t>(out.pairSlots) < kPairSlots; ++o) {
      xml << (out.pairSlots == 0 ? "<contact>\n" : "") << "<pair geom1=\"" << handGeomNames[h] << "\" geom2=\""
          << objectGeomNames[o] << "\"/>\n";
      ++out.pairSlots;
    }
  if (out.pairSlots > 0) xml << "</contact>\n";
  xml << "</mujoco>\n";
  out.mjcf = xml.str();
  return out;
}

}  // namespace sg::sim
