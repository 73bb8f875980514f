#include "store/GraspListRun.h"

#include <cmath>
#include <limits>
#include <unistd.h>

#include "batch/Provenance.h"
#include "core/Error.h"
#include "core/Version.h"
#include "store/Import.h"

namespace sg::store {

std::string insertGraspListRun(GraspStore& store, const std::string& kind, const World& world,
                               const planner::GraspList& list, const std::string& contactModel,
                               const std::string& command, bool withContacts) {
  batch::ProvenanceCache cache;
  const Json provenance = cache.provenance(world, list.robotIndex, list.graspableIndex);
  Json header = planner::graspListToJsonValue(list);
  header.set("grasps", Json::array());  // the spec is how it was planned; the grasps are rows
  header.set("contactModel", contactModel);
  const std::string spec = header.dumpLine();
  RunRecord run;
  run.startedAt = utcNow();
  run.host = hostName();
  run.key = kind + ":" + run.host + ":" + std::to_string(::getpid()) + ":" + run.startedAt;
  run.kind = kind;
  run.softgraspVersion = versionString();
  run.command = command;
  run.settings = spec;
  run.seed = list.seed;
  run.endedAt = run.startedAt;
  run.stopReason = list.stopReason;
  run.rowsTotal = 1;
  run.withContacts = withContacts;
  const RowRecord row = rowFromGraspList(list, provenance, contactModel, 0, 0, spec);
  // Two saves within one second from one process would share a key (and the second be skipped as stored):
  // a numbered suffix keeps each save its own run.
  for (int n = 2; store.run(run.key); ++n)
    run.key = kind + ":" + run.host + ":" + std::to_string(::getpid()) + ":" + run.startedAt + "#" + std::to_string(n);
  const std::int64_t id = store.beginRun(run);
  store.insertRow(id, row);
  store.endRun(id, utcNow(), list.stopReason);
  return run.key;
}

planner::GraspList graspListFromRows(const std::vector<GraspRow>& rows, const Transform& X_WO, int robotIndex,
                                     int graspableIndex) {
  planner::GraspList list;
  list.robotIndex = robotIndex;
  list.graspableIndex = graspableIndex;
  if (!rows.empty()) {
    list.robot = rows.front().robot;
    list.object = rows.front().object;
    list.world = rows.front().world;
  }
  for (const GraspRow& r : rows) {
    if (r.robot != list.robot || r.object != list.object)
      throw Error("the grasps are of more than one robot or object (" + list.robot + " on " + list.object + ", " +
                  r.robot + " on " + r.object + "): a grasp list holds one of each");
    const GraspRecord& g = r.grasp;
    planner::PlannedGrasp p;
    // An unknown energy is NaN in a grasp list (written as null, GraspList.cpp).
    p.energy = g.energy ? *g.energy : std::numeric_limits<double>::quiet_NaN();
    p.variables = g.state;
    p.grasp = {X_WO * g.X_OP, g.dofs, g.breakAway};
    p.preGrasp = {X_WO * g.preGrasp_X_OP, g.preGraspDofs, g.preGraspBreakAway};
    p.forceClosure = g.forceClosure;
    for (const MeasureRecord& m : g.measures) {
      if (m.contactModel != r.primaryModel) continue;
      MeasureValue v;
      v.measure = m.measure;
      v.ok = m.value.has_value();
      v.value = m.value.value_or(0.0);
      if (m.lower && m.upper) {
        MeasureBounds b;
        b.lower = *m.lower;
        b.upper = *m.upper;
        v.bounds = b;
      }
      p.measures.push_back(std::move(v));
    }
    for (const ContactRecord& c : g.contacts)
      p.contacts.push_back({c.handBody, c.otherBody, X_WO * c.p_OC_mm, X_WO.applyToVector(c.n_O)});
    list.grasps.push_back(std::move(p));
  }
  return list;
}

}  // namespace sg::store
