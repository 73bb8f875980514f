
#include "BodyFacts.h"
#include "JsonWriter.h"
#include "ModelNames.h"
#include "InputReport.h"
#include "model/Kinematics.h"

namespace sg::cli {

WorldTotals computeTotals(const World& world) {
  WorldTotals totals;
  totals.robots = world.robots.size();
  for (const auto& r : world.robots) totals.dofs += r.dofCount();
  for (const auto& handle : world.bodyHandles()) {
    const Body& b = world.body(handle);
    ++totals.bodies;
    totals.triangles += b.triangleCount();
    if (b.isDynamic()) totals.dynamicMass_g += b.mass_g;
  }
  return totals;
}

Json bodyToJson(const Body& body, const Transform& X_WB, const std::string& label) {
  const BodyFacts facts = computeBodyFacts(body, X_WB);
  Json geometry = jsonObject({{"file", Json(body.geometry.file)},
                              {"resolvedPath", Json(body.geometry.resolvedPath)},
                              {"type", Json(body.geometry.type)},
                              {"scale", jsonVec(body.geometry.scale)},
                       // the exact primitive's type (src/io/FORMATS.md §Primitives), null for a mesh
                       {"primitive", body.primitive ? Json(shapeTypeName(body.primitive->shape)) : Json()}});
  Json massProperties;  // null for obstacles: they carry no dynamic properties
  if (body.isDynamic())
    massProperties = jsonObject({{"mass_g", Json(body.mass_g)},
                                 {"cog_mm", jsonVec(body.cog_mm)},
                                 {"inertiaPerMass_mm2", jsonMatrixRows(body.inertiaPerMass_mm2)},
                                 {"cogFromFile", body.cogFromFile},
                                 {"inertiaFromFile", body.inertiaFromFile}});
  return jsonObject({
      {"name", Json(body.name)},
      {"label", Json(label)},
      {"kind", Json(bodyKindName(body.kind))},
      {"sourceFile", Json(body.sourceFile)},
      {"geometry", geometry},
      {"triangles", jsonCount(facts.triangles)},
      {"vertices", jsonCount(facts.vertices)},
      {"material", Json(body.material)},
      {"rigid", !body.isSoft()},
      {"youngs_Pa", body.youngs_Pa ? Json(*body.youngs_Pa) : Json()},
      {"boundsBody_mm", jsonBox(facts.boundsBody_mm)},
      {"boundsWorld_mm", jsonBox(facts.boundsWorld_mm)},
      {"massProperties", massProperties},
      {"closed", facts.closed},
      {"volume_mm3", facts.volume_mm3 ? Json(*facts.volume_mm3) : Json()},
      {"surfaceArea_mm2", Json(facts.surfaceArea_mm2)},
      {"maxRadius_mm", Json(body.maxRadius_mm)},
      {"pose", jsonPose(X_WB)},
  });
}

namespace {

Json dofToJson(const Dof& dof, double value, int index) {
  return jsonObject({{"index", index},
                     {"type", Json(dofTypeName(dof.type))},
                     {"unit", Json(dofUnit(dof))},
                     {"value", Json(value)},
                     {"min", Json(dof.minValue)},
                     {"max", Json(dof.maxValue)},
                     {"defaultValue", Json(dof.defaultValue)},
                     {"defaultVelocity", Json(dof.defaultVelocity)}});
}

Json jointToJson(const Joint& joint, int index, const std::vector<double>& dofValues,
                        const JointBreakAway& breakAway) {
  const bool revolute = joint.type == JointType::Revolute;
  const double q = jointValue(joint, dofValues, breakAway);
  Json out = jsonObject({{"index", index},
                         {"type", Json(jointTypeName(joint.type))},
                         {"unit", Json(jointUnit(joint))},
                         {"dof", joint.expr.dof},
                         {"ratio", Json(joint.expr.ratio)},
                         {"offset", Json(joint.expr.offset)},
                         {"expression", Json(dofExpressionText(joint))},
                         {"variable", revolute ? "theta" : "d"},
                         {"value", Json(q)},
                         {"min", Json(joint.minValue)},
                         {"max", Json(joint.maxValue)}});
  if (joint.dh) {
    // The variable DH parameter shows its current value (its constant part + jointValue + offset).
    const DhParameters dh = dhAt(*joint.dh, joint.type, jointMotionValue(joint, dofValues, breakAway));
    out.set("dh", jsonObject({{"theta_rad", Json(dh.theta_rad)},
                              {"d_mm", Json(dh.d_mm)},
                              {"a_mm", Json(dh.a_mm)},
                              {"alpha_rad", Json(dh.alpha_rad)}}));
  } else {
    out.set("origin", jsonPose(joint.X_PJ));
    out.set("axis", jsonVec(joint.axis));
    out.set("childOffset", jsonPose(joint.X_JC));
  }
  return out;
}

}  // namespace

Json robotToJson(const World& world, int robotIndex) {
  const Robot& robot = world.robots[robotIndex];
  const RobotState& state = world.state.robots.at(robotIndex);
  const std::vector<double>& values = state.dofValues;
  const auto label = [&](int chain, int link) {
    return world.bodyLabel({BodyHandle::Kind::Robot, robotIndex, {chain, link}});
  };
  Json dofs = Json::array();
  for (int k = 0; k < static_cast<int>(robot.dofs.size()); ++k) dofs.push(dofToJson(robot.dofs[k], values[k], k));
  Json chains = Json::array();
  for (int c = 0; c < static_cast<int>(robot.chains.size()); ++c) {
    const Chain& chain = robot.chains[c];
    Json joints = Json::array(), links = Json::array();
    for (int j = 0; j < static_cast<int>(chain.joints.size()); ++j)
      joints.push(jointToJson(chain.joints[j], j, values, breakAwayOf(state, c, j)));
    for (int l = 0; l < static_cast<int>(chain.links.size()); ++l) {
      const Link& link = chain.links[l];
      Json entry = bodyToJson(link.body, state.X_WL[c][l], label(c, l));
      entry.set("chain", c);
      entry.set("link", l);
      entry.set("dynamicJointType", Json(linkJointTypeName(link.jointType)));
      entry.set("lastJoint", link.lastJoint);
      entry.set("collisionOff", link.collisionOff);
      links.push(entry);
    }
    Json entry = jsonObject({{"index", c}, {"base", jsonPose(chain.base)}, {"joints", joints}, {"links", links}});
    if (chain.parent && chain.parent->chain >= 0)
      entry.set("parent", jsonObject({{"chain", chain.parent->chain}, {"link", chain.parent->link}}));
    chains.push(entry);
  }
  return jsonObject({{"name", Json(robot.name)},
                     {"type", Json(robot.type)},
                     {"dbName", Json(robot.dbName)},
                     {"sourceFile", Json(robot.sourceFile)},
                     {"pose", jsonPose(state.X_WP)},
                     {"dofCount", jsonCount(robot.dofCount())},
                     {"dofs", dofs},
                     {"eigengraspCount", jsonCount(robot.eigengrasps.grasps.size())},
                     {"eigengraspFile", Json(robot.eigengrasps.sourceFile)},
                     {"virtualContactCount", jsonCount(robot.virtualContacts.size())},
                     {"approach", robot.approach ? Json(jsonPose(*robot.approach)) : Json()},
                     {"palm", bodyToJson(robot.palm, state.X_WP, label(-1, 0))},
                     {"chains", chains}});
}

Json inputFileToJson(const InputFile& input) {
  const World& world = input.world;
  Json obstacles = Json::array(), graspables = Json::array(), robots = Json::array(), connections = Json::array();
  for (int i = 0; i < static_cast<int>(world.obstacles.size()); ++i)
    obstacles.push(bodyToJson(world.obstacles[i], world.state.X_WO[i], world.bodyLabel({BodyHandle::Kind::Obstacle, i, {}})));
  for (int i = 0; i < static_cast<int>(world.graspables.size()); ++i)
    graspables.push(bodyToJson(world.graspables[i], world.state.X_WG[i], world.bodyLabel({BodyHandle::Kind::Graspable, i, {}})));
  for (int r = 0; r < static_cast<int>(world.robots.size()); ++r) robots.push(robotToJson(world, r));
  for (int i = 0; i < static_cast<int>(world.connections.size()); ++i) {
    const Connection& c = world.connections[i];
    connections.push(jsonObject({
        {"parentRobot", c.parentRobot},
        {"parentChain", c.parentChain},
        {"childRobot", c.childRobot},
        {"offset", jsonPose(c.offset)},
        {"mount", c.mount ? Json(bodyToJson(*c.mount, world.state.X_WM.at(i), world.bodyLabel({BodyHandle::Kind::Mount, i, {}})))
                          : Json()}}));
  }
  Json camera;
  if (world.camera)
    camera = jsonObject({{"position_mm", jsonVec(world.camera->position_mm)},
                         {"orientation_wxyz", jsonQuatWxyz(world.camera->orientation)},
                         {"focalDistance_mm", Json(world.camera->focalDistance_mm)}});
  const WorldTotals totals = computeTotals(world);
  return jsonObject({{"file", Json(input.path)},
                     {"kind", Json(inputFileKindName(input.kind))},
                     {"obstacles", obstacles},
                     {"graspables", graspables},
                     {"robots", robots},
                     {"connections", connections},
                     {"camera", camera},
                     {"totals", jsonObject({{"bodies", jsonCount(totals.bodies)},
                                            {"triangles", jsonCount(totals.triangles)},
                                            {"robots", jsonCount(totals.robots)},
                                            {"dofs", jsonCount(totals.dofs)},
                                            {"dynamicMass_g", Json(totals.dynamicMass_g)}})}});
}

}  // namespace sg::cli
