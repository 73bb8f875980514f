#include "QualityReport.h"

#include <QJsonArray>

#include "JsonWriter.h"
#include "contact/models/SoftFingerContactModel.h"
#include "grasp/QualityMeasure.h"

namespace sg::cli {

namespace {

QJsonArray jsonVec6(const Vec6& v) {
  QJsonArray a;
  for (int k = 0; k < 6; ++k) a.append(jsonNumber(v[k]));
  return a;
}

QJsonArray jsonVec6List(const std::vector<Vec6>& list) {
  QJsonArray a;
  for (const auto& v : list) a.append(jsonVec6(v));
  return a;
}

std::string vec6Text(const Vec6& v) {
  std::string s = "(";
  for (int k = 0; k < 6; ++k) {
    if (k) s += ", ";
    s += TextPrinter::number(v[k]);
  }
  return s + ")";
}

QJsonObject fitJson(const QuadricFit& f) {
  // status: "ok", "too-few-points", "degenerate" or "unreliable" (statusNote says why, or how the fit was
  // obtained); relativeResidual: the weighted RMS residual over neighbourhoodRadius_mm (src/contact/README.md
  // §Coarse meshes).
  return QJsonObject{{"estimator", jsonString(curvatureEstimatorName(f.estimator))},
                     {"status", jsonString(quadricFitStatusKey(f.status))},
                     {"statusNote", jsonString(f.note)},
                     {"degree", f.degree},
                     {"normals", f.normalCount},
                     {"droppedPoints", f.droppedPoints},
                     {"neighbourhoodRadius_mm", jsonNumber(f.neighbourhoodRadius_mm)},
                     {"weightedResidual_mm", jsonNumber(f.weightedResidual_mm)},
                     {"relativeResidual", jsonNumber(f.relativeResidual)},
                     {"a_per_mm", jsonNumber(f.a)},
                     {"b_per_mm", jsonNumber(f.b)},
                     {"c_per_mm", jsonNumber(f.c)},
                     {"points", f.pointCount},
                     {"rmsResidual_mm", jsonNumber(f.rmsResidual_mm)},
                     {"rmsSlopeResidual", jsonNumber(f.rmsSlopeResidual)},
                     {"kappaMax_per_mm", jsonNumber(f.curvatures.kappaMax_per_mm)},
                     {"kappaMin_per_mm", jsonNumber(f.curvatures.kappaMin_per_mm)},
                     {"directionMax", jsonVec(f.curvatures.directionMax)},
                     {"directionMin", jsonVec(f.curvatures.directionMin)}};
}

// "z = a x² + b y² + c xy: a, b, c 1/mm; curvatures κmax, κmin 1/mm"
std::string fitText(const QuadricFit& f) {
  std::string s = "z = a x² + b y² + c xy with a ";  // built with += (g++ 12 warns falsely on long + chains)
  s += TextPrinter::number(f.a) + ", b ";
  s += TextPrinter::number(f.b) + ", c ";
  s += TextPrinter::number(f.c) + " 1/mm (";
  s += std::to_string(f.pointCount) + " points, rms ";
  s += TextPrinter::number(f.rmsResidual_mm) + " mm); curvatures ";
  s += TextPrinter::number(f.curvatures.kappaMax_per_mm) + ", ";
  s += TextPrinter::number(f.curvatures.kappaMin_per_mm) + " 1/mm (";
  s += std::string(curvatureEstimatorName(f.estimator)) + "), ";
  s += quadricFitStatusKey(f.status);
  if (!f.note.empty()) s += ": " + f.note;
  return s;
}

bool lInfinityNotBuilt(const GraspWrenchSpace& gws) { return gws.type == GwsType::LInfinity && gws.limitExceeded; }

std::string notBuiltReason(const GraspEvaluation& e, const QualitySettings& settings) {
  std::string s = "the Minkowski sum of the ";  // built with += (g++ 12 warns falsely on long + chains)
  s += std::to_string(e.contacts.size()) + " contacts' wrenches needs up to ";
  s += TextPrinter::number(lInfinityPointBound(e)) + " points, above the limit of ";
  s += std::to_string(settings.gws.maxLInfinityPoints) + " for its hull (6-D hulls of thousands of points take";
  s += " seconds to minutes): only volume-linf needs it; epsilon-linf comes from support functions";
  return s;
}

std::string boundsText(const MeasureBounds& b) {
  std::string s = "in [";  // built with += (g++ 12 warns falsely on long + chains)
  s += TextPrinter::number(b.lower) + ", ";
  s += TextPrinter::number(b.upper) + "], gap ";
  s += TextPrinter::number(b.gap()) + ", ";
  s += std::to_string(b.iterations) + " support queries";
  return s;
}

}  // namespace

double lInfinityPointBound(const GraspEvaluation& e) {
  double points = 1;
  for (const auto& c : e.contacts)
    if (!c.wrenches.empty()) points *= static_cast<double>(c.wrenches.size() + 1);
  return points;
}

QJsonObject contactEvaluationJson(const World& world, const GraspEvaluation& e, std::size_t index) {
  const ContactEvaluation& c = e.contacts[index];
  QJsonArray sources;
  for (int i : c.sourceContacts) sources.append(i);
  const ContactSide& side = c.onObject();
  // "contacts": the 0-based indices (`grasp --json` contacts[].index; #index+1 in the text and the GUI's table)
  // of the contacts found that this evaluated contact came from; several when the model merged them.
  QJsonObject o{{"contacts", sources},
                {"merged", sources.size() > 1},
                {"body1", jsonString(world.bodyLabel(c.contact.side1.body))},
                {"body2", jsonString(world.bodyLabel(c.contact.side2.body))},
                {"position_mm", jsonVec(side.p_WC_mm)},
                {"normal", jsonVec(side.n_W)},
                {"separation_mm", jsonNumber(c.contact.separation_mm)},
                {"penetrating", c.contact.penetrating},
                {"depth_mm", jsonNumber(c.contact.depth_mm())},
                {"model", jsonString(toString(c.kind))},
                {"mu", jsonNumber(c.mu)},
                {"torsion_mm", jsonNumber(c.torsion_mm)},
                {"maxTorsionalFriction_Nmm", jsonNumber(c.maxTorsionalFriction_Nmm)},
                {"frictionEdgeCount", static_cast<int>(c.frictionEdges.size())},
                {"frictionEdges", jsonVec6List(c.frictionEdges)},
                {"wrenches", jsonVec6List(c.wrenches)},
                {"note", jsonString(c.note)}};
  if (const SoftContactResult* soft = softContactResult(e.modelResult.get(), index)) {
    const SoftPatch& patch = soft->patch;
    o.insert("soft", QJsonObject{{"neighbourhoodRadius_mm", jsonNumber(soft->neighbourhoodRadius_mm)},
                                 {"neighbourhood1", static_cast<int>(soft->neighbourhoods.side1.size())},
                                 {"neighbourhood2", static_cast<int>(soft->neighbourhoods.side2.size())},
                                 {"fit1", fitJson(soft->fit1)},
                                 {"fit2", fitJson(soft->fit2)},
                                 {"relativeRadiusMin_mm", jsonNumber(patch.relativeRadiusMin_mm)},
                                 {"relativeRadiusMax_mm", jsonNumber(patch.relativeRadiusMax_mm)},
                                 {"flatReplaced", patch.flatReplaced},
                                 {"patchFallback", jsonString(patchFallbackKey(patch.fallback))},
                                 {"patchFallbackReason", jsonString(patch.fallbackReason)},
                                 {"patch", jsonString(patch.model == PatchModel::Hertz ? "hertz" : "elastic-layer")},
                                 {"semiAxisLong_mm", jsonNumber(patch.semiAxisLong_mm)},
                                 {"semiAxisShort_mm", jsonNumber(patch.semiAxisShort_mm)},
                                 {"axisLong", jsonVec(patch.axisLong)},
                                 {"axisShort", jsonVec(patch.axisShort)},
                                 {"penetration_mm", jsonNumber(patch.penetration_mm)},
                                 {"maxPressure_Pa", jsonNumber(patch.maxPressure_Pa)},
                                 {"modulus_Pa", jsonNumber(patch.modulus_Pa)},
                                 {"normalForce_N", jsonNumber(patch.normalForce_N)},
                                 {"torsion_mm", jsonNumber(c.torsion_mm)},
                                 {"maxTorsionalFriction_Nmm", jsonNumber(c.maxTorsionalFriction_Nmm)}});
  }
  return o;
}

QJsonObject hullJson(const GraspEvaluation& e, const GraspWrenchSpace& gws, const GraspQuality& q,
                     const QualitySettings& settings) {
  if (lInfinityNotBuilt(gws))
    return QJsonObject{{"built", false},
                       {"status", "not built"},
                       {"message", jsonString(notBuiltReason(e, settings))},
                       {"pointsNeeded", lInfinityPointBound(e)},
                       {"pointLimit", static_cast<double>(settings.gws.maxLInfinityPoints)}};
  QJsonObject o{{"built", q.hullStatus == HullStatus::Ok},
                {"status", jsonString(toString(q.hullStatus))},
                {"points", static_cast<double>(gws.inputPointCount)},
                {"facets", q.facetCount}};
  if (q.hullStatus != HullStatus::Ok) o.insert("message", jsonString(q.message));
  return o;
}

void printContactEvaluation(TextPrinter& out, const World& world, const GraspEvaluation& e, std::size_t index) {
  const ContactEvaluation& c = e.contacts[index];
  const ContactSide& side = c.onObject();
  const ContactSide& other = c.objectIsSide1 ? c.contact.side2 : c.contact.side1;
  std::string numbers;  // the contacts found it came from, numbered from 1 as in the GUI's contacts table
  for (int i : c.sourceContacts) numbers += (numbers.empty() ? "#" : "+#") + std::to_string(i + 1);
  if (c.sourceContacts.size() > 1) numbers += " (merged)";
  out.line(numbers + " " + world.bodyLabel(other.body) + ": at " + TextPrinter::vec(side.p_WC_mm) + " mm, normal " +
           TextPrinter::vec(side.n_W) + ", " + toString(c.kind) + ", mu " + TextPrinter::number(c.mu) +
           (c.contact.penetrating ? ", penetrating, depth " + TextPrinter::number(c.contact.depth_mm()) + " mm" : ""));
  TextPrinter::Indent detail(out);
  if (const SoftContactResult* soft = softContactResult(e.modelResult.get(), index)) {
    const SoftPatch& p = soft->patch;
    out.field("neighbourhood", "r " + TextPrinter::number(soft->neighbourhoodRadius_mm) + " mm, " +
                                   std::to_string(soft->neighbourhoods.side1.size()) + " + " +
                                   std::to_string(soft->neighbourhoods.side2.size()) + " points");
    out.field("fit " + world.bodyLabel(c.contact.side1.body), fitText(soft->fit1));
    out.field("fit " + world.bodyLabel(c.contact.side2.body), fitText(soft->fit2));
    out.field("relative radii", TextPrinter::number(p.relativeRadiusMin_mm) + ", " +
                                    TextPrinter::number(p.relativeRadiusMax_mm) + " mm" +
                                    (p.flatReplaced ? " (flat replaced)" : ""));
    if (p.fallback != PatchFallback::None)
      out.field("patch fallback", std::string(patchFallbackKey(p.fallback)) + ": " + p.fallbackReason);
    std::string patch = TextPrinter::number(p.semiAxisLong_mm) + " x ";
    patch += TextPrinter::number(p.semiAxisShort_mm) + " mm along ";
    patch += TextPrinter::vec(p.axisLong) + " and ";
    patch += TextPrinter::vec(p.axisShort) + " at ";
    patch += TextPrinter::number(p.normalForce_N) + " N, penetration ";
    patch += TextPrinter::number(p.penetration_mm) + " mm";
    out.field("patch", patch);
    out.field("max torsional friction", TextPrinter::number(c.maxTorsionalFriction_Nmm) + " N·mm (e_n " +
                                            TextPrinter::number(c.torsion_mm) + " mm)");
  }
  if (!c.note.empty()) out.field("note", c.note);
  // One convention with the application's inspector: the edge wrench at unit normal force, mu applied,
  // f = n + mu (e0 t_x + e1 t_y) (so fz = 1), tz = mu e5. (JSON "frictionEdges" keeps the raw directions.)
  out.field("friction edges", std::to_string(c.frictionEdges.size()) +
                                  " (contact frame, unit normal force, mu applied: fx fy fz tz)");
  {
    TextPrinter::Indent list(out);
    for (const auto& edge : c.frictionEdges)
      out.line(TextPrinter::number(c.mu * edge[0]) + " " + TextPrinter::number(c.mu * edge[1]) + " 1 " +
               TextPrinter::number(c.mu * edge[5]));
  }
  out.field("wrenches", std::to_string(c.wrenches.size()) + " (object frame, torques / torque scale)");
  TextPrinter::Indent list(out);
  for (const auto& w : c.wrenches) out.line(vec6Text(w));
}

void printHull(TextPrinter& out, const char* label, const GraspEvaluation& e, const GraspWrenchSpace& gws,
               const GraspQuality& q, const QualitySettings& settings) {
  if (lInfinityNotBuilt(gws)) {
    out.field(label, "not built: " + notBuiltReason(e, settings));
    return;
  }
  std::string text = std::to_string(gws.inputPointCount) + " points, " + std::to_string(q.facetCount) + " facets";
  if (q.hullStatus != HullStatus::Ok) {
    // The message often starts with the status itself: say it once.
    const std::string status = toString(q.hullStatus);
    std::string message = q.message;
    if (message.rfind(status, 0) == 0) message = message.substr(status.size());
    while (!message.empty() && (message.front() == ':' || message.front() == ' ')) message.erase(0, 1);
    text += " (" + status + (message.empty() ? "" : ": " + message) + ")";
  }
  out.field(label, text);
}

QJsonObject measuresJson(const GraspEvaluation& e) {
  QJsonObject o;
  for (const MeasureValue& m : e.measures) {
    const QualityMeasure* q = findQualityMeasure(m.measure);
    // A measure without a value (no contacts, a hull not built) has "value": null, never a stand-in 0.
    QJsonObject v{{"label", jsonString(q ? q->label() : m.measure)},
                  {"value", m.ok ? jsonNumber(m.value) : QJsonValue(QJsonValue::Null)},
                  {"ok", m.ok}};
    if (!m.message.empty()) v.insert("message", jsonString(m.message));
    if (m.bounds) {
      v.insert("lowerBound", jsonNumber(m.bounds->lower));
      v.insert("upperBound", jsonNumber(m.bounds->upper));
      v.insert("gap", jsonNumber(m.bounds->gap()));
      v.insert("iterations", m.bounds->iterations);
      v.insert("converged", m.bounds->converged);
      v.insert("status", jsonString(m.bounds->status));
      v.insert("weakestDirection", jsonVec6(m.bounds->weakestDirection));
    }
    o.insert(QString::fromStdString(m.measure), v);
  }
  return o;
}

QJsonObject evaluationJson(const World& world, const GraspEvaluation& e, const QualitySettings& settings) {
  QJsonArray list;
  for (std::size_t i = 0; i < e.contacts.size(); ++i) list.append(contactEvaluationJson(world, e, i));
  // Each measure's value once (in "measures"); the hulls only say how they were built, and only when a
  // requested measure built them (the volumes).
  QJsonObject hulls;
  if (e.l1Built) hulls.insert("l1", hullJson(e, e.l1, e.l1Quality, settings));
  if (e.lInfinityBuilt) hulls.insert("lInfinity", hullJson(e, e.lInfinity, e.lInfinityQuality, settings));
  return QJsonObject{{"contactModel", jsonString(e.contactModel)},
                     {"torqueScale_mm", jsonNumber(e.reference.torqueScale_mm)},
                     {"contacts", list},
                     {"forceClosure", e.forceClosure()},
                     {"measures", measuresJson(e)},
                     {"hulls", hulls}};
}

void printEvaluation(TextPrinter& out, const World& world, const GraspEvaluation& e, std::size_t contactsFound,
                     const QualitySettings& settings) {
  const ContactModel* model = findContactModel(e.contactModel);
  out.field("contact model", model ? model->label() + " (" + e.contactModel + ")" : e.contactModel);
  out.field("torque scale", TextPrinter::number(e.reference.torqueScale_mm) + " mm");
  out.field("contacts", std::to_string(e.contacts.size()) + " on the object (" + std::to_string(contactsFound) +
                            " found)");
  {
    TextPrinter::Indent inner(out);
    for (std::size_t i = 0; i < e.contacts.size(); ++i) printContactEvaluation(out, world, e, i);
  }
  out.field("force closure", e.forceClosure() ? "yes" : "no");
  if (e.l1Built) printHull(out, "L1 hull", e, e.l1, e.l1Quality, settings);
  if (e.lInfinityBuilt) printHull(out, "Linf hull", e, e.lInfinity, e.lInfinityQuality, settings);
  out.field("measures", std::to_string(e.measures.size()));
  TextPrinter::Indent inner(out);
  for (const MeasureValue& m : e.measures) {
    const QualityMeasure* q = findQualityMeasure(m.measure);
    std::string text = TextPrinter::number(m.value);
    if (!m.ok) text = "not available" + (m.message.empty() ? std::string() : ": " + m.message);
    else if (m.bounds) text += " (" + boundsText(*m.bounds) + (m.message.empty() ? "" : "; " + m.message) + ")";
    out.field((q ? q->label() : m.measure) + " [" + m.measure + "]", text);
  }
}

}  // namespace sg::cli
