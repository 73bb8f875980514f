// softgrasp-cli contact WORLD [--contact-model M] [--robot N] [--graspable N] [--approach [MM]] [--autograsp]
//                            [--threshold MM] [--force N] [--triangulated] [--json] [--model-root DIR]...
// The contacts of one graspable body under one contact model (the engine's analysis, src/grasp/Analysis.h,
// without quality measures): per contact the model's patch (area, normal force, peak pressure, torsional
// limit) and, under the hydroelastic model (src/geometry/hydro/README.md), every contact surface with its
// polygons (vertices, pressures, normals) and totals.
#include <iostream>
#include <optional>

#include "AnalysisOptions.h"
#include "CommandRegistry.h"
#include "ExitCodes.h"
#include "JsonWriter.h"
#include "InputOptions.h"
#include "TextPrinter.h"
#include "Warnings.h"
#include "contact/models/HydroelasticContactModel.h"
#include "core/Error.h"
#include "grasp/AnalysisJson.h"

namespace sg::cli {

namespace {

std::string labelOf(const World& world, int index) {
  const auto handles = world.bodyHandles();
  if (index < 0 || index >= static_cast<int>(handles.size())) return "?";
  return world.bodyLabel(handles[static_cast<std::size_t>(index)]);
}

Json surfaceJson(const World& world, const ContactSurface& s, double indentation_mm, SurfaceSource source) {
  Json o = Json::object();
  o.set("source", Json(toString(source)));
  o.set("bodyM", Json(labelOf(world, s.bodyM)));
  o.set("bodyN", Json(labelOf(world, s.bodyN)));
  o.set("nCompliant", s.nCompliant);
  o.set("triangulated", s.triangulated);
  o.set("indentation_mm", Json(indentation_mm));
  o.set("polygonCount", static_cast<int>(s.polygons.size()));
  o.set("area_mm2", Json(s.area_mm2));
  o.set("normalForce_N", Json(s.normalForce_N));
  o.set("peakPressure_Pa", Json(s.peakPressure_Pa));
  o.set("force_N", jsonVec(s.force_W_N));
  o.set("centreOfPressure_mm", jsonVec(s.centreOfPressure_W_mm));
  o.set("moment_Nmm", jsonVec(s.moment_W_Nmm));
  o.set("torsionalLimit_Nmm", Json(s.torsionalLimit_Nmm));
  Json polygons = Json::array();
  for (const ContactPolygon& p : s.polygons) {
    Json q = Json::object();
    Json vertices = Json::array(), pressures = Json::array();
    for (const Vec3& v : p.p_WV_mm) vertices.push(jsonVec(v));
    for (double v : p.pressure_Pa) pressures.push(Json(v));
    q.set("vertices_mm", vertices);
    q.set("pressures_Pa", pressures);
    q.set("normal", jsonVec(p.n_W));
    q.set("pressureGradient_Pa_per_mm", jsonVec(p.gradP_W_Pa_per_mm));
    q.set("area_mm2", Json(p.area_mm2));
    q.set("centroid_mm", jsonVec(p.centroid_W_mm));
    polygons.push(q);
  }
  o.set("polygons", polygons);
  return o;
}

void printSurface(TextPrinter& out, const World& world, const ContactSurface& s, double indentation_mm,
                  SurfaceSource source) {
  out.field("bodies", labelOf(world, s.bodyM) + " (compliant) / " + labelOf(world, s.bodyN) +
                          (s.nCompliant ? " (compliant)" : " (rigid)"));
  out.field("source", toString(source));
  if (source == SurfaceSource::PressedToForce) out.field("indentation", TextPrinter::number(indentation_mm) + " mm");
  out.field("polygons", std::to_string(s.polygons.size()) + (s.triangulated ? " triangles" : ""));
  out.field("area", TextPrinter::number(s.area_mm2) + " mm^2");
  out.field("normal force", TextPrinter::number(s.normalForce_N) + " N");
  out.field("peak pressure", TextPrinter::number(s.peakPressure_Pa) + " Pa");
  out.field("net force", TextPrinter::vec(s.force_W_N) + " N");
  out.field("centre of pressure", TextPrinter::vec(s.centreOfPressure_W_mm) + " mm");
  out.field("moment about it", TextPrinter::vec(s.moment_W_Nmm) + " N mm");
  out.field("torsional limit", TextPrinter::number(s.torsionalLimit_Nmm) + " N mm");
  for (std::size_t k = 0; k < s.polygons.size(); ++k) {
    const ContactPolygon& p = s.polygons[k];
    out.line("polygon " + std::to_string(k) + ": area " + TextPrinter::number(p.area_mm2) + " mm^2, normal " +
             TextPrinter::vec(p.n_W));
    TextPrinter::Indent indent(out);
    for (std::size_t i = 0; i < p.p_WV_mm.size(); ++i)
      out.line(TextPrinter::vec(p.p_WV_mm[i]) + " mm  " + TextPrinter::number(p.pressure_Pa[i]) + " Pa");
  }
}

int runContact(const ParsedArgs& args) {
  InputFile input = loadInputFile(args.positional(0), loadOptionsFrom(args));
  AnalysisRequest request = analysisRequest(args, input, /*closeByDefault=*/false);
  const std::string modelName = args.value("--contact-model").value_or("hydroelastic");
  const ContactModel* contactModel = findContactModel(modelName);
  if (!contactModel) throw UsageError("--contact-model: expected " + contactModelNames() + ", got '" + modelName + "'");
  request.contactModels = {contactModel->name()};
  request.measures.clear();
  if (input.world.graspables.empty()) throw Error("no graspable body to evaluate", input.path);
  Warnings warnings;
  warnings.addLoadWarnings(input.world);
  World& world = input.world;
  NullProgress progress;
  const AnalysisResult result = runAnalysis(world, request, progress);
  const GraspEvaluation& e = *result.primary();
  const ContactModelResult* modelResult = e.modelResult.get();
  const auto* hydroResult = dynamic_cast<const HydroelasticModelResult*>(modelResult);
  std::optional<HydroelasticModelResult> triangulated;  // --triangulated: the surfaces fanned into triangles
  if (hydroResult && args.has("--triangulated")) {
    triangulated = *hydroResult;
    for (ContactSurface& s : triangulated->surfaces) triangulateContactSurface(s);
  }
  const HydroelasticModelResult* hydro = triangulated ? &*triangulated : hydroResult;
  const std::string object = world.bodyLabel({BodyHandle::Kind::Graspable, result.graspable, {}});

  if (args.has("--json")) {
    Json doc = Json::object();
    doc.set("file", Json(input.path));
    doc.set("graspable", Json(object));
    doc.set("model", Json(contactModel->name()));
    doc.set("contactsFound", static_cast<int>(result.contacts.size()));
    if (result.motion.approach.run) doc.set("approach", Json(approachOutcome(result.motion)));
    Json contacts = Json::array();
    if (modelResult)
      for (std::size_t i = 0; i < modelResult->contacts.size(); ++i) {
        const ModelContact& m = modelResult->contacts[i];
        Json c = Json::object();
        Json sources = Json::array();
        for (int s : m.sourceContacts) sources.push(s);
        c.set("sourceContacts", sources);
        c.set("body", Json(world.bodyLabel(m.objectIsSide1 ? m.contact.side2.body : m.contact.side1.body)));
        c.set("position_mm", jsonVec(m.onObject().p_WC_mm));
        c.set("separation_mm", Json(m.contact.separation_mm));
        c.set("penetrating", m.contact.penetrating);
        c.set("depth_mm", Json(m.contact.depth_mm()));
        c.set("kind", Json(toString(m.kind)));
        c.set("mu", Json(m.mu));
        c.set("torsion_mm", Json(m.torsion_mm));
        c.set("maxTorsionalFriction_Nmm", Json(m.maxTorsionalFriction_Nmm));
        c.set("patchShape", Json(m.patchShape));
        c.set("patchArea_mm2", Json(m.patchArea_mm2));
        c.set("normalForce_N", Json(m.normalForce_N));
        c.set("peakPressure_Pa", Json(m.peakPressure_Pa));
        if (hydro) c.set("surface", hydro->surfaceOfContact[i]);
        if (hydro && hydro->surfaceOfContact[i] >= 0)
          c.set("surfaceSource", Json(toString(hydro->source[static_cast<std::size_t>(hydro->surfaceOfContact[i])])));
        if (!m.note.empty()) c.set("note", Json(m.note));
        contacts.push(c);
      }
    doc.set("contacts", contacts);
    Json surfaces = Json::array();
    if (hydro)
      for (std::size_t k = 0; k < hydro->surfaces.size(); ++k)
        surfaces.push(surfaceJson(world, hydro->surfaces[k], hydro->indentation_mm[k], hydro->source[k]));
    doc.set("surfaces", surfaces);
    // The engine's record of the evaluation (src/grasp/AnalysisJson.h): the fields `quality --json` prints,
    // the model's own data under each contact's "model".
    doc.set("evaluations", jsonArray({evaluationJson(world, e, request.quality)}));
    doc.set("warnings", warnings.json());
    writeJson(std::cout, formats::contact, doc);
    return kExitOk;
  }
  TextPrinter out(std::cout);
  out.line("contacts of " + object + " under " + contactModel->name());
  TextPrinter::Indent indent(out);
  if (result.motion.approach.run) out.field("approach", approachOutcome(result.motion));
  out.field("contacts found", std::to_string(result.contacts.size()));
  if (modelResult)
    for (std::size_t i = 0; i < modelResult->contacts.size(); ++i) {
      const ModelContact& m = modelResult->contacts[i];
      out.line("contact " + std::to_string(i) + " with " +
               world.bodyLabel(m.objectIsSide1 ? m.contact.side2.body : m.contact.side1.body) + ": " + toString(m.kind));
      TextPrinter::Indent inner(out);
      out.field("at", TextPrinter::vec(m.onObject().p_WC_mm) + " mm, " +
                          (m.contact.penetrating ? "penetrating, depth " + TextPrinter::number(m.contact.depth_mm())
                                                 : "gap " + TextPrinter::number(m.contact.separation_mm)) + " mm");
      if (hydro && hydro->surfaceOfContact[i] >= 0)
        out.field("surface", toString(hydro->source[static_cast<std::size_t>(hydro->surfaceOfContact[i])]));
      if (!m.patchShape.empty()) {
        out.field("patch", m.patchShape + ", " + TextPrinter::number(m.patchArea_mm2) + " mm^2");
        out.field("normal force", TextPrinter::number(m.normalForce_N) + " N");
        out.field("peak pressure", TextPrinter::number(m.peakPressure_Pa) + " Pa");
      }
      if (m.kind == ContactKind::SoftFinger) out.field("torsional limit", TextPrinter::number(m.maxTorsionalFriction_Nmm) + " N mm");
      if (!m.note.empty()) out.field("note", m.note);
    }
  if (hydro)
    for (std::size_t k = 0; k < hydro->surfaces.size(); ++k) {
      out.line("surface " + std::to_string(k));
      TextPrinter::Indent inner(out);
      printSurface(out, world, hydro->surfaces[k], hydro->indentation_mm[k], hydro->source[k]);
    }
  return kExitOk;
}

const RegisterCommand registerContact{Command{
    "contact",
    "contacts of a graspable body under one contact model; hydroelastic surfaces with their polygons",
    "Loads a world file, optionally moves the hand (--approach, --autograsp, as for quality), finds the\n"
    "contacts on one graspable body and evaluates them under one contact model (--contact-model, default\n"
    "hydroelastic). Per contact it prints the model's patch: area, normal force, peak pressure, torsional\n"
    "limit. Under the hydroelastic model every contact surface between a compliant body (body XML\n"
    "<hydroelastic>) and the graspable is printed with its totals (area, normal force, peak pressure, net\n"
    "force, centre of pressure, moment, torsional limit) and its polygons (vertices in mm, pressures in Pa).\n"
    "Bodies that interpenetrate give the surface of their actual overlap and its force (source \"from\n"
    "overlap\"); bodies apart or only touching are pressed together until the surface carries the nominal\n"
    "normal force (--force, default 5 N; source \"pressed to force\"). A pair that touches or overlaps has\n"
    "one contact, at its deepest point, marked penetrating with its depth. --triangulated fans the polygons\n"
    "into triangles. --settings reads the threshold, the normal force and the models' own settings as the\n"
    "application stores them (not its contact model: this command's default is hydroelastic).",
    [] {
      CommandSyntax syntax{{{"WORLD", "world XML"}},
                           {{"--contact-model", "M",
                             "contact model: " + contactModelNames() + " (default hydroelastic)", false, false,
                             false, {"--model"}},
                            analysis_options::robot(), analysis_options::graspable(), hand_options::approach(),
                            hand_options::autograsp(false), hand_options::noClose(true), hand_options::threshold(),
                            analysis_options::settings(),
                            {"--force", "N", "nominal normal force of a contact in newtons (default 5)"},
                            {"--triangulated", "", "hydroelastic surfaces as triangles (fanned around polygon centroids)"}}};
      syntax.options.push_back(common_options::json());
      syntax.options.push_back(common_options::modelRoot());
      syntax.options.push_back(common_options::packagePath());
      return syntax;
    }(),
    runContact}};

}  // namespace

}  // namespace sg::cli
