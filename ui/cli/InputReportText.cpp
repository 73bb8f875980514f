#include "BodyFacts.h"
#include "ModelNames.h"
#include "InputReport.h"
#include "TextPrinter.h"
#include "model/Kinematics.h"

namespace sg::cli {

namespace {

using P = TextPrinter;

std::string range(double lo, double hi, const std::string& unit) {
  return std::string("[") + P::number(lo) + ", " + P::number(hi) + "] " + unit;
}

// "theta = d0+10, d 5 mm, a 30 mm, alpha 0 rad" for a DH joint; origin, axis and child offset otherwise.
std::string jointGeometryText(const Joint& jt) {
  if (!jt.dh) {
    const Vec3& u = jt.axis;
    return std::string("q = ") + dofExpressionText(jt) + ", origin " + P::pose(jt.X_PJ) + ", axis (" + P::number(u.x()) +
           " " + P::number(u.y()) + " " + P::number(u.z()) + "), child " + P::pose(jt.X_JC);
  }
  const DhParameters& dh = *jt.dh;
  const bool revolute = jt.type == JointType::Revolute;
  const std::string variable = revolute ? "theta" : "d";
  std::string text = revolute ? std::string("d ") + P::number(dh.d_mm) + " mm" : std::string("theta ") + P::number(dh.theta_rad) + " rad";
  text += std::string(", a ") + P::number(dh.a_mm) + " mm, alpha " + P::number(dh.alpha_rad) + " rad";
  return variable + " = " + dofExpressionText(jt) + ", " + text;
}

void printBody(TextPrinter& out, const Body& body, const Transform& X_WB, const std::string& label) {
  const BodyFacts facts = computeBodyFacts(body, X_WB);
  out.line(bodyKindName(body.kind) + " " + label + (body.sourceFile.empty() ? "" : std::string("  (") + body.sourceFile + ")"));
  TextPrinter::Indent indent(out);
  out.field("geometry", body.geometry.file + " (" + body.geometry.type + "), " +
                            (body.primitive ? std::string("exact ") + shapeTypeName(body.primitive->shape) + ", " : "") +
                            std::to_string(facts.triangles) + " triangles, " + std::to_string(facts.vertices) +
                            " vertices");
  out.field("material", body.material + ", " +
                            (body.isSoft() ? std::string("Young's modulus ") + P::number(*body.youngs_Pa) + " Pa" : "rigid"));
  out.field("bounds (body)", P::box(facts.boundsBody_mm));
  out.field("bounds (world)", P::box(facts.boundsWorld_mm));
  if (body.isDynamic()) {
    out.field("mass", P::number(body.mass_g) + " g");
    out.field("cog", P::vec(body.cog_mm) + " mm" + (body.cogFromFile ? " (from file)" : " (computed)"));
    const Mat3& I = body.inertiaPerMass_mm2;
    out.field("inertia/mass", P::vec(I.row(0).transpose()) + " " + P::vec(I.row(1).transpose()) + " " +
                                  P::vec(I.row(2).transpose()) + " mm²" +
                                  (body.inertiaFromFile ? " (from file)" : " (computed)"));
  }
  out.field("volume", facts.volume_mm3 ? P::number(*facts.volume_mm3) + " mm³" : "mesh not closed");
  out.field("max radius", P::number(body.maxRadius_mm) + " mm");
  out.field("pose", P::pose(X_WB));
}

void printRobot(TextPrinter& out, const World& world, int robotIndex) {
  const Robot& robot = world.robots[robotIndex];
  const RobotState& state = world.state.robots.at(robotIndex);
  const std::vector<double>& values = state.dofValues;
  out.line(std::string("robot ") + robot.name + " (" + robot.type + ")" + (robot.sourceFile.empty() ? "" : std::string("  (") + robot.sourceFile + ")"));
  TextPrinter::Indent indent(out);
  out.field("pose", P::pose(state.X_WP));
  out.field("DOFs", std::to_string(robot.dofCount()));
  {
    TextPrinter::Indent dofIndent(out);
    for (std::size_t k = 0; k < robot.dofs.size(); ++k) {
      const Dof& d = robot.dofs[k];
      const std::string unit = dofUnit(d);
      out.line(std::string("d") + std::to_string(k) + ": " + dofTypeName(d.type) + ", value " + P::number(values[k]) + " " + unit +
               ", range " + range(d.minValue, d.maxValue, unit) + ", default velocity " + P::number(d.defaultVelocity));
    }
  }
  out.field("eigengrasps", std::to_string(robot.eigengrasps.grasps.size()));
  out.field("virtual contacts", std::to_string(robot.virtualContacts.size()));
  for (std::size_t c = 0; c < robot.chains.size(); ++c) {
    const Chain& chain = robot.chains[c];
    const std::string parent = chain.parent && chain.parent->chain >= 0
                                   ? " on chain " + std::to_string(chain.parent->chain) + " link " +
                                         std::to_string(chain.parent->link)
                                   : std::string();
    out.line(std::string("chain ") + std::to_string(c) + parent + ": base " + P::pose(chain.base));
    TextPrinter::Indent chainIndent(out);
    for (std::size_t j = 0; j < chain.joints.size(); ++j) {
      const Joint& jt = chain.joints[j];
      out.line(std::string("joint ") + std::to_string(j) + ": " + jointTypeName(jt.type) + ", " + jointGeometryText(jt) +
               ", value " + P::number(jointValue(jt, values, breakAwayOf(state, c, j))) + " " + jointUnit(jt) + ", limits " +
               range(jt.minValue, jt.maxValue, jointUnit(jt)));
    }
    for (std::size_t l = 0; l < chain.links.size(); ++l)
      out.line(std::string("link ") + std::to_string(l) + " (" + linkJointTypeName(chain.links[l].jointType) + ", after joint " +
               std::to_string(chain.links[l].lastJoint) + "): " + P::pose(state.X_WL[c][l]));
  }
  for (const auto& ref : robot.bodyRefs())
    printBody(out, robot.body(ref), X_WB(state, ref), world.bodyLabel({BodyHandle::Kind::Robot, robotIndex, ref}));
}

}  // namespace

void printInputFileText(std::ostream& stream, const InputFile& input) {
  const World& world = input.world;
  TextPrinter out(stream);
  out.line(inputFileKindName(input.kind) + " " + input.path);
  TextPrinter::Indent indent(out);
  if (world.camera)
    out.field("camera", std::string("position ") + P::vec(world.camera->position_mm) + " mm, orientation wxyz " +
                            P::quatWxyz(world.camera->orientation) + ", focal distance " +
                            P::number(world.camera->focalDistance_mm) + " mm");
  for (int i = 0; i < static_cast<int>(world.obstacles.size()); ++i)
    printBody(out, world.obstacles[i], world.state.X_WO[i], world.bodyLabel({BodyHandle::Kind::Obstacle, i, {}}));
  for (int i = 0; i < static_cast<int>(world.graspables.size()); ++i)
    printBody(out, world.graspables[i], world.state.X_WG[i], world.bodyLabel({BodyHandle::Kind::Graspable, i, {}}));
  for (int r = 0; r < static_cast<int>(world.robots.size()); ++r) printRobot(out, world, r);
  for (int i = 0; i < static_cast<int>(world.connections.size()); ++i) {
    const Connection& c = world.connections[i];
    out.line(std::string("connection: robot ") + std::to_string(c.childRobot) + " mounted on chain " +
             std::to_string(c.parentChain) + " of robot " + std::to_string(c.parentRobot) + ", offset " +
             P::pose(c.offset));
    if (c.mount) {
      TextPrinter::Indent mountIndent(out);
      printBody(out, *c.mount, world.state.X_WM.at(i), world.bodyLabel({BodyHandle::Kind::Mount, i, {}}));
    }
  }
  const WorldTotals t = computeTotals(world);
  out.line(std::string("totals: ") + std::to_string(t.bodies) + " bodies, " + std::to_string(t.triangles) + " triangles, " +
           std::to_string(t.robots) + " robots, " + std::to_string(t.dofs) + " DOFs, dynamic mass " +
           P::number(t.dynamicMass_g) + " g");
}

}  // namespace sg::cli
