#include <QJsonArray>

#include "BodyFacts.h"
#include "JsonWriter.h"
#include "ModelNames.h"
#include "ModelReport.h"
#include "model/Kinematics.h"

namespace sg::cli {

ModelTotals computeTotals(const World& world) {
  ModelTotals totals;
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

QJsonObject bodyToJson(const Body& body, const Transform& X_WB, const std::string& label) {
  const BodyFacts facts = computeBodyFacts(body, X_WB);
  QJsonObject geometry{{"file", jsonString(body.geometry.file)},
                       {"resolvedPath", jsonString(body.geometry.resolvedPath)},
                       {"type", jsonString(body.geometry.type)},
                       {"scale", jsonVec(body.geometry.scale)},
                       // the exact primitive's type (src/io/FORMATS.md §Primitives), null for a mesh
                       {"primitive", body.primitive ? QJsonValue(shapeTypeName(body.primitive->shape)) : QJsonValue()}};
  QJsonValue massProperties;  // null for obstacles: they carry no dynamic properties
  if (body.isDynamic())
    massProperties = QJsonObject{{"mass_g", jsonNumber(body.mass_g)},
                                 {"cog_mm", jsonVec(body.cog_mm)},
                                 {"inertiaPerMass_mm2", jsonMatrixRows(body.inertiaPerMass_mm2)},
                                 {"cogFromFile", body.cogFromFile},
                                 {"inertiaFromFile", body.inertiaFromFile}};
  return QJsonObject{
      {"name", jsonString(body.name)},
      {"label", jsonString(label)},
      {"kind", jsonString(bodyKindName(body.kind))},
      {"sourceFile", jsonString(body.sourceFile)},
      {"geometry", geometry},
      {"triangles", static_cast<qint64>(facts.triangles)},
      {"vertices", static_cast<qint64>(facts.vertices)},
      {"material", jsonString(body.material)},
      {"rigid", !body.isSoft()},
      {"youngs_Pa", body.youngs_Pa ? jsonNumber(*body.youngs_Pa) : QJsonValue()},
      {"boundsBody_mm", jsonBox(facts.boundsBody_mm)},
      {"boundsWorld_mm", jsonBox(facts.boundsWorld_mm)},
      {"massProperties", massProperties},
      {"closed", facts.closed},
      {"volume_mm3", facts.volume_mm3 ? jsonNumber(*facts.volume_mm3) : QJsonValue()},
      {"surfaceArea_mm2", jsonNumber(facts.surfaceArea_mm2)},
      {"maxRadius_mm", jsonNumber(body.maxRadius_mm)},
      {"pose", jsonPose(X_WB)},
  };
}

namespace {

QJsonObject dofToJson(const Dof& dof, double value, int index) {
  return QJsonObject{{"index", index},
                     {"type", jsonString(dofTypeName(dof.type))},
                     {"unit", jsonString(dofUnit(dof))},
                     {"value", jsonNumber(value)},
                     {"min", jsonNumber(dof.minValue)},
                     {"max", jsonNumber(dof.maxValue)},
                     {"defaultValue", jsonNumber(dof.defaultValue)},
                     {"defaultVelocity", jsonNumber(dof.defaultVelocity)}};
}

QJsonObject jointToJson(const Joint& joint, int index, const std::vector<double>& dofValues,
                        const JointBreakAway& breakAway) {
  const bool revolute = joint.type == JointType::Revolute;
  const double q = jointValue(joint, dofValues, breakAway);
  QJsonObject out{{"index", index},
                  {"type", jsonString(jointTypeName(joint.type))},
                  {"unit", jsonString(jointUnit(joint))},
                  {"dof", joint.expr.dof},
                  {"ratio", jsonNumber(joint.expr.ratio)},
                  {"offset", jsonNumber(joint.expr.offset)},
                  {"expression", jsonString(dofExpressionText(joint))},
                  {"variable", revolute ? "theta" : "d"},
                  {"value", jsonNumber(q)},
                  {"min", jsonNumber(joint.minValue)},
                  {"max", jsonNumber(joint.maxValue)}};
  if (joint.dh) {
    // The variable DH parameter shows its current value (its constant part + jointValue + offset).
    const DhParameters dh = dhAt(*joint.dh, joint.type, jointMotionValue(joint, dofValues, breakAway));
    out.insert("dh", QJsonObject{{"theta_rad", jsonNumber(dh.theta_rad)},
                                 {"d_mm", jsonNumber(dh.d_mm)},
                                 {"a_mm", jsonNumber(dh.a_mm)},
                                 {"alpha_rad", jsonNumber(dh.alpha_rad)}});
  } else {
    out.insert("origin", jsonPose(joint.X_PJ));
    out.insert("axis", QJsonArray{jsonNumber(joint.axis.x()), jsonNumber(joint.axis.y()), jsonNumber(joint.axis.z())});
    out.insert("childOffset", jsonPose(joint.X_JC));
  }
  return out;
}

}  // namespace

QJsonObject robotToJson(const World& world, int robotIndex) {
  const Robot& robot = world.robots[robotIndex];
  const RobotState& state = world.state.robots.at(robotIndex);
  const std::vector<double>& values = state.dofValues;
  const auto label = [&](int chain, int link) {
    return world.bodyLabel({BodyHandle::Kind::Robot, robotIndex, {chain, link}});
  };
  QJsonArray dofs;
  for (int k = 0; k < static_cast<int>(robot.dofs.size()); ++k) dofs.append(dofToJson(robot.dofs[k], values[k], k));
  QJsonArray chains;
  for (int c = 0; c < static_cast<int>(robot.chains.size()); ++c) {
    const Chain& chain = robot.chains[c];
    QJsonArray joints, links;
    for (int j = 0; j < static_cast<int>(chain.joints.size()); ++j)
      joints.append(jointToJson(chain.joints[j], j, values, breakAwayOf(state, c, j)));
    for (int l = 0; l < static_cast<int>(chain.links.size()); ++l) {
      const Link& link = chain.links[l];
      QJsonObject entry = bodyToJson(link.body, state.X_WL[c][l], label(c, l));
      entry.insert("chain", c);
      entry.insert("link", l);
      entry.insert("dynamicJointType", jsonString(linkJointTypeName(link.jointType)));
      entry.insert("lastJoint", link.lastJoint);
      entry.insert("collisionOff", link.collisionOff);
      links.append(entry);
    }
    QJsonObject entry{{"index", c}, {"base", jsonPose(chain.base)}, {"joints", joints}, {"links", links}};
    if (chain.parent && chain.parent->chain >= 0)
      entry.insert("parent", QJsonObject{{"chain", chain.parent->chain}, {"link", chain.parent->link}});
    chains.append(entry);
  }
  return QJsonObject{{"name", jsonString(robot.name)},
                     {"type", jsonString(robot.type)},
                     {"dbName", jsonString(robot.dbName)},
                     {"sourceFile", jsonString(robot.sourceFile)},
                     {"pose", jsonPose(state.X_WP)},
                     {"dofCount", static_cast<qint64>(robot.dofCount())},
                     {"dofs", dofs},
                     {"eigengraspCount", static_cast<qint64>(robot.eigengrasps.grasps.size())},
                     {"eigengraspFile", jsonString(robot.eigengrasps.sourceFile)},
                     {"virtualContactCount", static_cast<qint64>(robot.virtualContacts.size())},
                     {"approach", robot.approach ? QJsonValue(jsonPose(*robot.approach)) : QJsonValue()},
                     {"palm", bodyToJson(robot.palm, state.X_WP, label(-1, 0))},
                     {"chains", chains}};
}

QJsonObject modelToJson(const LoadedModel& model) {
  const World& world = model.world;
  QJsonArray obstacles, graspables, robots, connections;
  for (int i = 0; i < static_cast<int>(world.obstacles.size()); ++i)
    obstacles.append(bodyToJson(world.obstacles[i], world.state.X_WO[i], world.bodyLabel({BodyHandle::Kind::Obstacle, i, {}})));
  for (int i = 0; i < static_cast<int>(world.graspables.size()); ++i)
    graspables.append(bodyToJson(world.graspables[i], world.state.X_WG[i], world.bodyLabel({BodyHandle::Kind::Graspable, i, {}})));
  for (int r = 0; r < static_cast<int>(world.robots.size()); ++r) robots.append(robotToJson(world, r));
  for (int i = 0; i < static_cast<int>(world.connections.size()); ++i) {
    const Connection& c = world.connections[i];
    connections.append(QJsonObject{
        {"parentRobot", c.parentRobot},
        {"parentChain", c.parentChain},
        {"childRobot", c.childRobot},
        {"offset", jsonPose(c.offset)},
        {"mount", c.mount ? QJsonValue(bodyToJson(*c.mount, world.state.X_WM.at(i), world.bodyLabel({BodyHandle::Kind::Mount, i, {}})))
                          : QJsonValue()}});
  }
  QJsonValue camera;
  if (world.camera)
    camera = QJsonObject{{"position_mm", jsonVec(world.camera->position_mm)},
                         {"orientation_wxyz", jsonQuatWxyz(world.camera->orientation)},
                         {"focalDistance_mm", jsonNumber(world.camera->focalDistance_mm)}};
  const ModelTotals totals = computeTotals(world);
  return QJsonObject{{"file", jsonString(model.path)},
                     {"kind", jsonString(modelFileKindName(model.kind))},
                     {"obstacles", obstacles},
                     {"graspables", graspables},
                     {"robots", robots},
                     {"connections", connections},
                     {"camera", camera},
                     {"totals", QJsonObject{{"bodies", static_cast<qint64>(totals.bodies)},
                                            {"triangles", static_cast<qint64>(totals.triangles)},
                                            {"robots", static_cast<qint64>(totals.robots)},
                                            {"dofs", static_cast<qint64>(totals.dofs)},
                                            {"dynamicMass_g", jsonNumber(totals.dynamicMass_g)}}}};
}

}  // namespace sg::cli
