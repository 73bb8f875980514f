// softgrasp-cli contact WORLD [--model M] [--robot N] [--graspable N] [--approach [MM]] [--autograsp]
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
#include "ModelInput.h"
#include "TextPrinter.h"
#include "Warnings.h"
#include "contact/models/HydroelasticContactModel.h"
#include "core/Error.h"

namespace sg::cli {

namespace {

std::string labelOf(const World& world, int index) {
  const auto handles = world.bodyHandles();
  if (index < 0 || index >= static_cast<int>(handles.size())) return "?";
  return world.bodyLabel(handles[static_cast<std::size_t>(index)]);
}

QJsonObject surfaceJson(const World& world, const ContactSurface& s, double indentation_mm, SurfaceSource source) {
  QJsonObject o;
  o.insert("source", jsonString(toString(source)));
  o.insert("bodyM", jsonString(labelOf(world, s.bodyM)));
  o.insert("bodyN", jsonString(labelOf(world, s.bodyN)));
  o.insert("nCompliant", s.nCompliant);
  o.insert("triangulated", s.triangulated);
  o.insert("indentation_mm", jsonNumber(indentation_mm));
  o.insert("polygonCount", static_cast<int>(s.polygons.size()));
  o.insert("area_mm2", jsonNumber(s.area_mm2));
  o.insert("normalForce_N", jsonNumber(s.normalForce_N));
  o.insert("peakPressure_Pa", jsonNumber(s.peakPressure_Pa));
  o.insert("force_N", jsonVec(s.force_W_N));
  o.insert("centreOfPressure_mm", jsonVec(s.centreOfPressure_W_mm));
  o.insert("moment_Nmm", jsonVec(s.moment_W_Nmm));
  o.insert("torsionalLimit_Nmm", jsonNumber(s.torsionalLimit_Nmm));
  QJsonArray polygons;
  for (const ContactPolygon& p : s.polygons) {
    QJsonObject q;
    QJsonArray vertices, pressures;
    for (const Vec3& v : p.p_WV_mm) vertices.append(jsonVec(v));
    for (double v : p.pressure_Pa) pressures.append(jsonNumber(v));
    q.insert("vertices_mm", vertices);
    q.insert("pressures_Pa", pressures);
    q.insert("normal", jsonVec(p.n_W));
    q.insert("pressureGradient_Pa_per_mm", jsonVec(p.gradP_W_Pa_per_mm));
    q.insert("area_mm2", jsonNumber(p.area_mm2));
    q.insert("centroid_mm", jsonVec(p.centroid_W_mm));
    polygons.append(q);
  }
  o.insert("polygons", polygons);
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
  LoadedModel model = loadModelFile(args.positional(0), loadOptionsFrom(args));
  AnalysisRequest request = analysisRequest(args, model, /*closeByDefault=*/false);
  const std::string modelName = args.value("--model").value_or("hydroelastic");
  const ContactModel* contactModel = findContactModel(modelName);
  if (!contactModel) throw UsageError("--model: expected " + contactModelNames() + ", got '" + modelName + "'");
  request.contactModels = {contactModel->name()};
  request.measures.clear();
  if (model.world.graspables.empty()) throw Error("no graspable body to evaluate", model.path);
  Warnings warnings;
  warnings.addLoadWarnings(model.world);
  World& world = model.world;
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
    QJsonObject doc;
    doc.insert("file", jsonString(model.path));
    doc.insert("graspable", jsonString(object));
    doc.insert("model", jsonString(contactModel->name()));
    doc.insert("contactsFound", static_cast<int>(result.contacts.size()));
    if (result.motion.approach.run) doc.insert("approach", jsonString(approachOutcome(result.motion)));
    QJsonArray contacts;
    if (modelResult)
      for (std::size_t i = 0; i < modelResult->contacts.size(); ++i) {
        const ModelContact& m = modelResult->contacts[i];
        QJsonObject c;
        QJsonArray sources;
        for (int s : m.sourceContacts) sources.append(s);
        c.insert("sourceContacts", sources);
        c.insert("body", jsonString(world.bodyLabel(m.objectIsSide1 ? m.contact.side2.body : m.contact.side1.body)));
        c.insert("position_mm", jsonVec(m.onObject().p_WC_mm));
        c.insert("separation_mm", jsonNumber(m.contact.separation_mm));
        c.insert("penetrating", m.contact.penetrating);
        c.insert("depth_mm", jsonNumber(m.contact.depth_mm()));
        c.insert("kind", jsonString(toString(m.kind)));
        c.insert("mu", jsonNumber(m.mu));
        c.insert("torsion_mm", jsonNumber(m.torsion_mm));
        c.insert("maxTorsionalFriction_Nmm", jsonNumber(m.maxTorsionalFriction_Nmm));
        c.insert("patchShape", jsonString(m.patchShape));
        c.insert("patchArea_mm2", jsonNumber(m.patchArea_mm2));
        c.insert("normalForce_N", jsonNumber(m.normalForce_N));
        c.insert("peakPressure_Pa", jsonNumber(m.peakPressure_Pa));
        if (hydro) c.insert("surface", hydro->surfaceOfContact[i]);
        if (hydro && hydro->surfaceOfContact[i] >= 0)
          c.insert("surfaceSource", jsonString(toString(hydro->source[static_cast<std::size_t>(hydro->surfaceOfContact[i])])));
        if (!m.note.empty()) c.insert("note", jsonString(m.note));
        contacts.append(c);
      }
    doc.insert("contacts", contacts);
    QJsonArray surfaces;
    if (hydro)
      for (std::size_t k = 0; k < hydro->surfaces.size(); ++k)
        surfaces.append(surfaceJson(world, hydro->surfaces[k], hydro->indentation_mm[k], hydro->source[k]));
    doc.insert("surfaces", surfaces);
    doc.insert("warnings", warnings.json());
    writeJson(std::cout, doc);
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
    "contacts on one graspable body and evaluates them under one contact model (--model, default\n"
    "hydroelastic). Per contact it prints the model's patch: area, normal force, peak pressure, torsional\n"
    "limit. Under the hydroelastic model every contact surface between a compliant body (body XML\n"
    "<hydroelastic>) and the graspable is printed with its totals (area, normal force, peak pressure, net\n"
    "force, centre of pressure, moment, torsional limit) and its polygons (vertices in mm, pressures in Pa).\n"
    "Bodies that interpenetrate give the surface of their actual overlap and its force (source \"from\n"
    "overlap\"); bodies apart or only touching are pressed together until the surface carries the nominal\n"
    "normal force (--force, default 5 N; source \"pressed to force\"). A pair that touches or overlaps has\n"
    "one contact, at its deepest point, marked penetrating with its depth. --triangulated fans the polygons\n"
    "into triangles.",
    [] {
      CommandSyntax syntax{{{"WORLD", "world XML"}},
                           {{"--model", "M", "contact model: " + contactModelNames() + " (default hydroelastic)"},
                            analysis_options::robot(), analysis_options::graspable(), hand_options::approach(),
                            hand_options::autograsp(false), hand_options::threshold(),
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
