#include "grasp/forces/HoldJson.h"

#include "core/JsonGeometry.h"

namespace sg {

namespace {

Json member(Json object, std::initializer_list<std::pair<std::string, Json>> members) {
  for (const auto& [key, value] : members) object.set(key, value);
  return object;
}

Json directionJson(const World& world, const HoldResult& result, const HoldDirection& d) {
  Json torques = Json::array();
  for (std::size_t k = 0; k < result.dofs.size(); ++k) torques.push(Json(d.dofTorques[k]));
  Json forces = Json::array();
  for (const HoldContactForce& f : d.forces)
    forces.push(member(Json::object(), {{"contact", jsonCount(static_cast<std::size_t>(f.contact))},
                                        {"body", Json(world.bodyLabel(f.pusher))},
                                        {"point_mm", jsonVec(f.p_W_mm)},
                                        {"normal", jsonVec(f.n_W)},
                                        {"force_N", jsonVec(f.force_W_N)},
                                        {"normalForce_N", Json(f.normal_N)},
                                        {"tangentialForce_N", Json(f.tangential_N)},
                                        {"torsion_Nmm", Json(f.torsion_Nmm)},
                                        {"frictionUse", Json(f.frictionUse)}}));
  return member(Json::object(), {{"direction", Json(d.load.label)},
                                 {"force_N", jsonVec(d.load.force_O_N)},
                                 {"torque_Nmm", jsonVec(d.load.torque_O_Nmm)},
                                 {"balanced", Json(d.balanced)},
                                 {"held", Json(d.held)},
                                 {"effortRatio", Json(d.effortRatio)},
                                 {"effortRatioLowerBound", Json(d.effortRatioLower)},
                                 {"margin", Json(d.margin)},
                                 {"loadFactor", Json(d.loadFactor)},
                                 {"residualForce_N", Json(d.residualForce_N)},
                                 {"residualTorque_Nmm", Json(d.residualTorque_Nmm)},
                                 {"dofTorques", torques},
                                 {"forces", forces}});
}

}  // namespace

Json holdJson(const World& world, const HoldResult& result) {
  Json dofs = Json::array();
  for (const HoldDof& d : result.dofs)
    dofs.push(member(Json::object(), {{"robot", Json(d.robotName)},
                                      {"dof", jsonCount(static_cast<std::size_t>(d.dof))},
                                      {"unit", Json(d.prismatic ? "N" : "N·mm")},
                                      {"effort", Json(d.effort)}}));
  Json directions = Json::array();
  for (const HoldDirection& d : result.directions) directions.push(directionJson(world, result, d));
  const Json polytope = member(Json::object(), {{"pointContactEdges", Json(result.pointEdges)},
                                                {"pointContactInradius", Json(result.pointInradius)},
                                                {"softContactPoints", Json(result.softPoints)},
                                                {"softContactInradius", Json(result.softInradius)}});
  return member(Json::object(),
                {{"contactModel", Json(result.contactModel)},
                 {"heldAll", Json(result.heldAll())},
                 {"worst", result.worst >= 0 ? Json(result.directions[static_cast<std::size_t>(result.worst)].load.label)
                                             : Json(nullptr)},
                 {"frictionPolytope", polytope},
                 {"dofs", dofs},
                 {"directions", directions}});
}

}  // namespace sg
