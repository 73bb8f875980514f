// softgrasp-cli quality MODEL [--robot N] [--graspable N] [--approach MM] [--no-close] [--contact-model M]
//                            [--patch layer|hertz] [--force N] [--edges M] [--torque-length MM]
//                            [--linf-limit N] [--json] [--model-root DIR]...
// Closes a hand (as `grasp` does, unless --no-close), then evaluates the grasp of one graspable body with the
// soft-finger model: per contact the neighbourhood, fitted paraboloids, relative radii, patch and torsional
// friction limit, and for the grasp the L1 and L∞ wrench spaces' ε, volume and force closure.
#include <iostream>

#include "CommandRegistry.h"
#include "ExitCodes.h"
#include "JsonWriter.h"
#include "ModelInput.h"
#include "TextPrinter.h"
#include "contact/ContactDetection.h"
#include "grasp/AutoGrasp.h"
#include "grasp/GraspEvaluation.h"

namespace sg::cli {

namespace {

double numberOption(const ParsedArgs& args, const std::string& option, double fallback, bool integer = false) {
  const auto text = args.value(option);
  if (!text) return fallback;
  const std::vector<double> v = parseNumberList(option, *text);
  if (v.size() != 1 || !(v[0] > 0) || (integer && v[0] != static_cast<double>(static_cast<long long>(v[0]))))
    throw UsageError(option + ": expected one positive " + (integer ? "integer" : "number") + ", got '" + *text + "'");
  return v[0];
}

int indexOption(const ParsedArgs& args, const std::string& option) {
  const auto text = args.value(option);
  if (!text) return 0;
  const auto v = parseNumberList(option, *text);
  if (v.size() != 1 || v[0] < 0 || v[0] != static_cast<int>(v[0]))
    throw UsageError(option + ": expected an index, got '" + *text + "'");
  return static_cast<int>(v[0]);
}

std::string modelName(FrictionType f) {
  switch (f) {
    case FrictionType::Frictionless: return "frictionless";
    case FrictionType::PointWithFriction: return "point-with-friction";
    case FrictionType::SoftFinger: return "soft-finger";
  }
  return "unknown";
}

QualitySettings settingsFrom(const ParsedArgs& args) {
  QualitySettings s;
  if (const auto m = args.value("--contact-model")) {
    if (*m == "auto") s.contactModel = ContactModelChoice::Auto;
    else if (*m == "point") s.contactModel = ContactModelChoice::AllPoint;
    else if (*m == "soft") s.contactModel = ContactModelChoice::AllSoft;
    else if (*m == "frictionless") s.contactModel = ContactModelChoice::AllFrictionless;
    else throw UsageError("--contact-model: expected auto, point, soft or frictionless, got '" + *m + "'");
  }
  if (const auto p = args.value("--patch")) {
    if (*p == "layer") s.soft.patch.model = PatchModel::ElasticLayer;
    else if (*p == "hertz") s.soft.patch.model = PatchModel::Hertz;
    else throw UsageError("--patch: expected layer or hertz, got '" + *p + "'");
  }
  s.soft.patch.normalForce_N = numberOption(args, "--force", s.soft.patch.normalForce_N);
  s.edges.pointContactEdges = static_cast<int>(numberOption(args, "--edges", s.edges.pointContactEdges, true));
  s.torqueLength_mm = numberOption(args, "--torque-length", 0);
  s.gws.maxLInfinityPoints =
      static_cast<std::size_t>(numberOption(args, "--linf-limit", static_cast<double>(s.gws.maxLInfinityPoints), true));
  return s;
}

QJsonValue qualityJson(const GraspWrenchSpace& gws, const GraspQuality& q) {
  QJsonArray weakest;
  for (int k = 0; k < 6; ++k) weakest.append(jsonNumber(q.worstCaseWrench(k)));
  return QJsonObject{{"type", jsonString(toString(gws.type))},
                     {"hull", jsonString(toString(q.hullStatus))},
                     {"built", !gws.limitExceeded && q.hullStatus == HullStatus::Ok},
                     {"message", jsonString(q.message)},
                     {"points", static_cast<double>(gws.inputPointCount)},
                     {"facets", q.facetCount},
                     {"forceClosure", q.forceClosure},
                     {"epsilon", jsonNumber(q.epsilon)},
                     {"epsilonGraspIt", jsonNumber(q.epsilonGraspIt)},
                     {"volume", jsonNumber(q.volume)},
                     {"worstCaseWrench", weakest}};
}

QJsonObject contactJson(const World& world, const ContactEvaluation& c) {
  QJsonArray sources;
  for (int i : c.sourceContacts) sources.append(i);
  QJsonObject o{{"contacts", sources},
                {"body1", jsonString(world.bodyLabel(c.contact.side1.body))},
                {"body2", jsonString(world.bodyLabel(c.contact.side2.body))},
                {"position_mm", jsonVec(c.objectIsSide1 ? c.contact.side1.position_mm : c.contact.side2.position_mm)},
                {"normal", jsonVec(c.objectIsSide1 ? c.contact.side1.normal : c.contact.side2.normal)},
                {"model", jsonString(modelName(c.model))},
                {"mu", jsonNumber(c.mu)},
                {"frictionEdges", static_cast<int>(c.frictionEdges.size())},
                {"note", jsonString(c.note)}};
  if (c.soft) {
    auto fit = [](const QuadricFit& f) {
      return QJsonObject{{"a_per_mm", jsonNumber(f.a)}, {"b_per_mm", jsonNumber(f.b)}, {"c_per_mm", jsonNumber(f.c)},
                         {"points", f.pointCount}, {"rmsResidual_mm", jsonNumber(f.rmsResidual_mm)},
                         {"kappaMax_per_mm", jsonNumber(f.curvatures.kappaMax_per_mm)},
                         {"kappaMin_per_mm", jsonNumber(f.curvatures.kappaMin_per_mm)},
                         {"directionMax", jsonVec(f.curvatures.directionMax)}};
    };
    o.insert("soft", QJsonObject{{"neighbourhoodRadius_mm", jsonNumber(c.neighbourhoodRadius_mm)},
                                 {"neighbourhood1", c.neighbourhoodSize1},
                                 {"neighbourhood2", c.neighbourhoodSize2},
                                 {"fit1", fit(c.fit1)},
                                 {"fit2", fit(c.fit2)},
                                 {"relativeRadiusMin_mm", jsonNumber(c.patch.relativeRadiusMin_mm)},
                                 {"relativeRadiusMax_mm", jsonNumber(c.patch.relativeRadiusMax_mm)},
                                 {"flatReplaced", c.patch.flatReplaced},
                                 {"patch", jsonString(c.patch.model == PatchModel::Hertz ? "hertz" : "elastic-layer")},
                                 {"semiAxisLong_mm", jsonNumber(c.patch.semiAxisLong_mm)},
                                 {"semiAxisShort_mm", jsonNumber(c.patch.semiAxisShort_mm)},
                                 {"axisLong", jsonVec(c.patch.axisLong)},
                                 {"penetration_mm", jsonNumber(c.patch.penetration_mm)},
                                 {"normalForce_N", jsonNumber(c.patch.normalForce_N)},
                                 {"torsion_mm", jsonNumber(c.torsion_mm)},
                                 {"maxTorsionalFriction_Nmm", jsonNumber(c.maxTorsionalFriction_Nmm)}});
  }
  return o;
}

void printQuality(TextPrinter& out, const char* label, const GraspWrenchSpace& gws, const GraspQuality& q) {
  if (gws.limitExceeded) {
    out.field(label, "not built (" + q.message + ")");
    return;
  }
  std::string text = "epsilon " + TextPrinter::number(q.epsilon) + ", volume " + TextPrinter::number(q.volume) +
                     ", force closure " + (q.forceClosure ? "yes" : "no");
  if (q.hullStatus != HullStatus::Ok) text += " (" + std::string(toString(q.hullStatus)) + ")";
  out.field(label, text);
}

int runQuality(const ParsedArgs& args) {
  LoadedModel model = loadModelFile(args.positional(0), loadOptionsFrom(args));
  World& world = model.world;
  const int graspable = indexOption(args, "--graspable");
  if (graspable >= static_cast<int>(world.graspables.size()))
    throw UsageError("--graspable: " + model.path + " has " + std::to_string(world.graspables.size()) +
                     " graspable body(ies)");
  const int robot = indexOption(args, "--robot");
  const QualitySettings settings = settingsFrom(args);

  AutoGraspSettings grasp;
  if (robot < static_cast<int>(world.robots.size())) {
    if (args.has("--approach")) findInitialContact(world, robot, numberOption(args, "--approach", 0), grasp.motion);
    if (!args.has("--no-close")) autoGrasp(world, robot, grasp);
  } else if (!world.robots.empty() || args.has("--robot")) {
    throw UsageError("--robot: " + model.path + " has " + std::to_string(world.robots.size()) + " robot(s)");
  }
  const std::vector<Contact> contacts = findAllContacts(world, grasp.motion.collision);
  const GraspEvaluation e = evaluateGrasp(world, contacts, graspable, settings);
  const std::string object = world.bodyLabel({BodyHandle::Kind::Graspable, graspable, {}});

  if (args.has("--json")) {
    QJsonArray list;
    for (const auto& c : e.contacts) list.append(contactJson(world, c));
    writeJson(std::cout, QJsonObject{{"file", jsonString(model.path)},
                                     {"graspable", jsonString(object)},
                                     {"torqueScale_mm", jsonNumber(e.reference.torqueScale_mm)},
                                     {"contactsFound", static_cast<int>(contacts.size())},
                                     {"contacts", list},
                                     {"l1", qualityJson(e.l1, e.l1Quality)},
                                     {"lInfinity", qualityJson(e.lInfinity, e.lInfinityQuality)}});
    return kExitOk;
  }
  TextPrinter out(std::cout);
  out.line("grasp of " + object);
  TextPrinter::Indent indent(out);
  out.field("torque scale", TextPrinter::number(e.reference.torqueScale_mm) + " mm");
  out.field("contacts", std::to_string(e.contacts.size()) + " on the object (" + std::to_string(contacts.size()) +
                            " found)");
  {
    TextPrinter::Indent inner(out);
    for (const auto& c : e.contacts) {
      const ContactSide& side = c.objectIsSide1 ? c.contact.side1 : c.contact.side2;
      const ContactSide& other = c.objectIsSide1 ? c.contact.side2 : c.contact.side1;
      out.line(world.bodyLabel(other.body) + ": at " + TextPrinter::vec(side.position_mm) + " mm, " +
               modelName(c.model) + ", mu " + TextPrinter::number(c.mu) + ", " +
               std::to_string(c.frictionEdges.size()) + " edges");
      TextPrinter::Indent detail(out);
      if (c.soft) {
        out.field("neighbourhood", "r " + TextPrinter::number(c.neighbourhoodRadius_mm) + " mm, " +
                                       std::to_string(c.neighbourhoodSize1) + " + " +
                                       std::to_string(c.neighbourhoodSize2) + " points");
        std::string curvatures = "(";  // built with += (g++ 12 warns falsely on "literal" + string chains)
        curvatures += TextPrinter::number(c.fit1.curvatures.kappaMax_per_mm) + ", ";
        curvatures += TextPrinter::number(c.fit1.curvatures.kappaMin_per_mm) + ") and (";
        curvatures += TextPrinter::number(c.fit2.curvatures.kappaMax_per_mm) + ", ";
        curvatures += TextPrinter::number(c.fit2.curvatures.kappaMin_per_mm) + ") 1/mm";
        out.field("curvatures", curvatures);
        out.field("relative radii", TextPrinter::number(c.patch.relativeRadiusMin_mm) + ", " +
                                        TextPrinter::number(c.patch.relativeRadiusMax_mm) + " mm" +
                                        (c.patch.flatReplaced ? " (flat replaced)" : ""));
        out.field("patch", TextPrinter::number(c.patch.semiAxisLong_mm) + " x " +
                               TextPrinter::number(c.patch.semiAxisShort_mm) + " mm at " +
                               TextPrinter::number(c.patch.normalForce_N) + " N");
        out.field("max torsional friction", TextPrinter::number(c.maxTorsionalFriction_Nmm) + " N·mm");
      }
      if (!c.note.empty()) out.field("note", c.note);
    }
  }
  printQuality(out, "L1", e.l1, e.l1Quality);
  printQuality(out, "Linf", e.lInfinity, e.lInfinityQuality);
  return kExitOk;
}

const RegisterCommand registerQuality{Command{
    "quality",
    "evaluate a grasp: soft contacts, wrench spaces, epsilon and volume",
    "Loads a world file, closes the hand as `grasp` does (unless --no-close), finds the contacts and\n"
    "evaluates the grasp of one graspable body: soft-finger contacts where a body is elastic (neighbourhood,\n"
    "paraboloid fits, relative radii, contact patch at the normal force, torsional friction), friction\n"
    "edges, contact wrenches (torques divided by the object's max radius) and the L1 and L-infinity grasp\n"
    "wrench spaces with epsilon, volume and force closure.",
    CommandSyntax{{{"MODEL", "world XML"}},
                  {{"--robot", "N", "which robot to close (default 0)"},
                   {"--graspable", "N", "which graspable body to evaluate (default 0)"},
                   {"--approach", "MM", "first approach the object along the approach direction, at most MM"},
                   {"--no-close", "", "evaluate the contacts as they are"},
                   {"--contact-model", "M", "auto (default), point, soft or frictionless"},
                   {"--patch", "P", "soft patch model: layer (GraspIt!'s elastic layer, default) or hertz"},
                   {"--force", "N", "normal force of the soft patch in newtons (default 5)"},
                   {"--edges", "M", "friction-cone edges of a point contact (default 8)"},
                   {"--torque-length", "MM", "torque scale (default: the object's max radius)"},
                   {"--linf-limit", "N", "largest Minkowski sum built for the L-infinity space (default 2000)"},
                   common_options::json(),
                   common_options::modelRoot()}},
    runQuality}};

}  // namespace

}  // namespace sg::cli
