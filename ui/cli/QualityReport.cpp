#include "QualityReport.h"

#include "contact/models/SoftFingerContactModel.h"
#include "grasp/AnalysisJson.h"
#include "grasp/QualityMeasure.h"

namespace sg::cli {

namespace {

std::string vec6Text(const Vec6& v) {
  std::string s = "(";
  for (int k = 0; k < 6; ++k) {
    if (k) s += ", ";
    s += TextPrinter::number(v[k]);
  }
  return s + ")";
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

std::string boundsText(const MeasureBounds& b) {
  std::string s = "in [";  // built with += (g++ 12 warns falsely on long + chains)
  s += TextPrinter::number(b.lower) + ", ";
  s += TextPrinter::number(b.upper) + "], gap ";
  s += TextPrinter::number(b.gap()) + ", ";
  s += std::to_string(b.iterations) + " support queries";
  return s;
}

}  // namespace

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
  if (lInfinityHullNotBuilt(gws)) {
    out.field(label, "not built: " + lInfinityNotBuiltReason(e, settings));
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
