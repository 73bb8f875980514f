// Body XML (src/io/FORMATS.md §Body) and bare meshes loaded as bodies; the inline-body writer.
#include <cmath>
#include <filesystem>
#include <memory>
#include <string_view>

#include "core/Parse.h"
#include "geometry/MassProperties.h"
#include "geometry/ShapeTessellation.h"
#include "io/BodyXml.h"
#include "io/NumberChecks.h"
#include "io/MeshIO.h"
#include "io/ModelIO.h"
#include "io/TransformXml.h"

namespace sg {

namespace {

constexpr double kMaxScale = 1e6;  // larger geometry scales are certainly a mistake
constexpr const char* kPrimitiveTypes = "sphere, ellipsoid, cylinder, cone, box, torus, capsule or halfspace";

std::string lowercase(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool isXmlPath(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".xml";
}

double checkedScale(const xml::Element& e, const std::string& file) {
  const double s = xml::number(e, file);
  if (!(s > 0) || s > kMaxScale)
    throw xml::errorAt(file, e, xml::tagOf(e) + " must be in (0, 1e6], found " + formatDouble(s));
  return s;
}

double checkedPositive(const xml::Element& e, const std::string& file, const char* unit) {
  const double v = xml::number(e, file);
  if (!(v > 0)) throw xml::errorAt(file, e, xml::tagOf(e) + " must be > 0 " + unit + ", found " + formatDouble(v));
  return v;
}

// Reads <geometryScaling> or <geometryScalingX/Y/Z> into `g`.
void readScale(const xml::Element& root, const std::string& file, GeometrySource& g) {
  if (const auto* s = xml::child(root, "geometryScaling")) {
    g.scale = Vec3::Constant(checkedScale(*s, file));
    g.hasScale = true;
    g.scaleWasUniform = true;
    return;
  }
  const char* names[3] = {"geometryScalingX", "geometryScalingY", "geometryScalingZ"};
  for (int i = 0; i < 3; ++i)
    if (const auto* s = xml::child(root, names[i])) {
      g.scale[i] = checkedScale(*s, file);
      g.hasScale = true;
      g.scaleWasUniform = false;
    }
}

// <geometryOffset> holds a <transform>; its own children are accepted as the transform too.
Transform readOffset(const xml::Element& offset, const std::string& file) {
  if (const auto* t = xml::child(offset, "transform")) return xml::parseTransform(*t, file);
  return xml::parseTransform(offset, file);
}

MeshFormat formatFor(const std::optional<std::string>& typeAttr, const std::string& resolved,
                     const xml::Element& e, const std::string& file) {
  // No type attribute: GraspIt! assumes Inventor; the extension is the better guess when it is known.
  if (!typeAttr || std::string(trim(*typeAttr)).empty()) {
    const MeshFormat byExtension = meshFormatFromPath(resolved);
    return byExtension == MeshFormat::Unknown ? MeshFormat::Inventor : byExtension;
  }
  const MeshFormat f = meshFormatFromType(*typeAttr);
  if (f == MeshFormat::Unknown)
    throw xml::errorAt(file, e, "unknown geometry type '" + *typeAttr +
                                    "' (expected Inventor, off, ply, stl or obj)");
  return f;
}

// Reads the mesh and bakes scale and offset in: p_body = Offset·Scale·p_file.
// An Inventor file holding a single primitive node also gives that primitive (body frame) in `primitive`;
// images its file could not read (textures) are appended to `warnings`.
std::shared_ptr<const TriangleMesh> loadGeometry(const GeometrySource& g, MeshFormat format,
                                                 const std::string& referencingFile, int line,
                                                 std::optional<Primitive>* primitive,
                                                 std::vector<std::string>* warnings) {
  const std::string where =
      xml::concat({"geometry of ", referencingFile, line > 0 ? ":" : "", line > 0 ? std::to_string(line) : ""});
  TriangleMesh mesh;
  try {
    if (format == MeshFormat::Inventor) {
      InventorGeometry ig = readInventorGeometry(g.resolvedPath);
      mesh = std::move(ig.mesh);
      if (warnings) warnings->insert(warnings->end(), ig.warnings.begin(), ig.warnings.end());
      if (ig.primitive) {
        const Transform off = g.offset.value_or(Transform::identity());
        const Mat3 A = off.rotationMatrix() * g.scale.asDiagonal();
        if (auto p = transformedPrimitive(*ig.primitive, A, off.translation(), 1e-6); p && primitive) *primitive = *p;
      }
    } else {
      mesh = readMesh(g.resolvedPath, format);
    }
    if (g.hasScale || g.offset) {
      const Transform off = g.offset.value_or(Transform::identity());
      mesh.transform(off.rotationMatrix(), off.translation(), g.scale);
    }
  } catch (const Error& e) {
    throw e.withFile(g.resolvedPath).withContext(where);
  }
  if (mesh.empty()) throw Error("the mesh has no triangles", g.resolvedPath, 0, where);
  return std::make_shared<const TriangleMesh>(std::move(mesh));
}

// <primitive type="..." .../> (FORMATS.md §Primitives): the shape in its own frame.
Shape readPrimitiveElement(const xml::Element& e, const std::string& file) {
  const auto type = xml::attribute(e, "type");
  if (!type) throw xml::errorAt(file, e, "<primitive> needs a type attribute (" + std::string(kPrimitiveTypes) + ")");
  auto num = [&](const char* name) {
    const auto v = xml::attributeNumber(e, name, file);
    if (!v) throw xml::errorAt(file, e, "<primitive type=\"" + *type + "\"> needs the attribute " + name);
    return *v;
  };
  auto vec = [&](const char* name) {
    const auto a = xml::attribute(e, name);
    const auto v = a ? parseDoubleList(*a) : std::nullopt;
    if (!a) throw xml::errorAt(file, e, "<primitive type=\"" + *type + "\"> needs the attribute " + name);
    if (!v || v->size() != 3)
      throw xml::errorAt(file, e, std::string("attribute ") + name + " of <primitive> must be three finite numbers, found '" +
                                      *a + "'");
    return Vec3((*v)[0], (*v)[1], (*v)[2]);
  };
  const std::string t = lowercase(std::string(trim(*type)));
  Shape shape;
  if (t == "sphere") shape = Sphere{num("radius")};
  else if (t == "ellipsoid") shape = Ellipsoid{vec("semiAxes")};
  else if (t == "cylinder") shape = Cylinder{num("radius"), num("height")};
  else if (t == "cone") shape = Cone{num("radius"), num("height")};
  else if (t == "box") shape = Box{vec("size")};
  else if (t == "torus") shape = Torus{num("majorRadius"), num("minorRadius")};
  else if (t == "capsule") shape = Capsule{num("radius"), num("length")};
  else if (t == "halfspace") shape = HalfSpace{};
  else throw xml::errorAt(file, e, "unknown primitive type '" + *type + "' (expected " + kPrimitiveTypes + ")");
  const std::string problem = shapeProblem(shape);
  if (!problem.empty()) throw xml::errorAt(file, e, "<primitive type=\"" + t + "\">: " + problem);
  return shape;
}

std::string primitiveXml(const Shape& shape) {
  auto attr = [](const char* name, double v) { return xml::concat({" ", name, "=\"", formatDouble(v), "\""}); };
  auto attr3 = [](const char* name, const Vec3& v) {
    return xml::concat({" ", name, "=\"", xml::joinNumbers(v.data(), 3), "\""});
  };
  std::string a;
  if (const auto* x = std::get_if<Sphere>(&shape)) a = attr("radius", x->radius_mm);
  else if (const auto* el = std::get_if<Ellipsoid>(&shape)) a = attr3("semiAxes", el->semiAxes_mm);
  else if (const auto* cy = std::get_if<Cylinder>(&shape)) a = attr("radius", cy->radius_mm) + attr("height", cy->height_mm);
  else if (const auto* co = std::get_if<Cone>(&shape)) a = attr("radius", co->radius_mm) + attr("height", co->height_mm);
  else if (const auto* bo = std::get_if<Box>(&shape)) a = attr3("size", bo->size_mm);
  else if (const auto* to = std::get_if<Torus>(&shape))
    a = attr("majorRadius", to->majorRadius_mm) + attr("minorRadius", to->minorRadius_mm);
  else if (const auto* ca = std::get_if<Capsule>(&shape)) a = attr("radius", ca->radius_mm) + attr("length", ca->length_mm);
  return xml::concat({"<primitive type=\"", shapeTypeName(shape), "\"", a, "/>"});
}

// <hydroelastic modulus="…" margin="…" resolutionHint="…" slabThickness="…"/> (FORMATS.md §Hydroelastic): every
// attribute optional; the modulus falls back to <youngs> (checked by the caller, which knows whether there is one).
HydroelasticProperties readHydroelasticElement(const xml::Element& e, const std::string& file) {
  static const char* const kNames[] = {"modulus", "margin", "resolutionHint", "slabThickness"};
  for (const auto* a = e.FirstAttribute(); a; a = a->Next()) {
    bool known = false;
    for (const char* n : kNames) known = known || std::string_view(a->Name()) == n;
    if (!known)
      throw xml::errorAt(file, e, std::string("unknown attribute '") + a->Name() +
                                      "' of <hydroelastic> (expected modulus, margin, resolutionHint, slabThickness)");
  }
  // Non-numbers and NaN are refused by attributeNumber; here the ranges.
  auto value = [&](const char* name, bool positive, const char* unit) -> std::optional<double> {
    const auto v = xml::attributeNumber(e, name, file);
    if (v && (positive ? !(*v > 0) : !(*v >= 0)))
      throw xml::errorAt(file, e, std::string("attribute ") + name + " of <hydroelastic> must be " +
                                      (positive ? "> 0 " : ">= 0 ") + unit + ", found " + formatDouble(*v));
    return v;
  };
  HydroelasticProperties h;
  h.modulus_Pa = value("modulus", true, "Pa");
  h.margin_mm = value("margin", false, "mm").value_or(0.0);
  h.resolutionHint_mm = value("resolutionHint", false, "mm").value_or(0.0);
  h.slabThickness_mm = value("slabThickness", false, "mm").value_or(0.0);
  return h;
}

std::string hydroelasticXml(const HydroelasticProperties& h) {
  auto attr = [](const char* name, double v) { return xml::concat({" ", name, "=\"", formatDouble(v), "\""}); };
  std::string a;
  if (h.modulus_Pa) a += attr("modulus", *h.modulus_Pa);
  if (h.margin_mm != 0) a += attr("margin", h.margin_mm);
  if (h.resolutionHint_mm != 0) a += attr("resolutionHint", h.resolutionHint_mm);
  if (h.slabThickness_mm != 0) a += attr("slabThickness", h.slabThickness_mm);
  return xml::concat({"<hydroelastic", a, "/>"});
}

// The body-frame primitive and its tessellation: p_body = Offset·Scale·p_shape.
void buildPrimitiveGeometry(Body& body, const std::string& file, const xml::Element& e) {
  const GeometrySource& g = body.geometry;
  const Transform off = g.offset.value_or(Transform::identity());
  const auto p = transformedPrimitive(Primitive{*g.primitive, Transform::identity()},
                                      off.rotationMatrix() * g.scale.asDiagonal(), off.translation());
  if (!p)
    throw xml::errorAt(file, e, std::string("a ") + shapeTypeName(*g.primitive) +
                                    " cannot be scaled non-uniformly (geometryScalingX/Y/Z) and stay one");
  body.primitive = *p;
  body.mesh = std::make_shared<const TriangleMesh>(tessellatePrimitive(*p));
}

}  // namespace

namespace xmlio {

// CoG, inertia and maxRadius; values from the file win, the rest comes from the exact primitive or the mesh.
void completeMassProperties(Body& body) {
  const TriangleMesh& mesh = *body.mesh;
  auto mp = computeMassProperties(mesh);
  if (body.primitive) {
    mp.reset();
    if (const auto exact = shapeMassProperties(body.primitive->shape)) {
      const Mat3 R = body.primitive->X_BS.rotationMatrix();
      mp = MeshMassProperties{exact->volume_mm3, body.primitive->X_BS * exact->centroid_mm,
                              R * exact->inertiaPerMass_mm2 * R.transpose()};
    }
  }
  // An open or flat mesh has no volume: fall back to the bounding-box centre and a true identity.
  const Vec3 centroid = mp ? mp->centroid_mm : mesh.bounds.center();
  if (!body.cogFromFile) body.cog_mm = centroid;
  if (!body.inertiaFromFile) {
    Mat3 I = mp ? mp->inertiaPerMass_mm2 : Mat3::Identity();
    if (mp && body.cogFromFile) {
      // Parallel-axis shift so the inertia is about the CoG the file gives.
      const Vec3 d = body.cog_mm - centroid;
      I += d.squaredNorm() * Mat3::Identity() - d * d.transpose();
    }
    body.inertiaPerMass_mm2 = I;
  }
  body.maxRadius_mm = maxRadius(mesh, body.cog_mm);
}

Body readBodyElement(const xml::Element& root, const std::string& file, const std::string& baseDir,
                     BodyKind kind, const MaterialTable& materials, const PathResolver& resolver) {
  Body body;
  body.kind = kind;

  GeometrySource& g = body.geometry;
  const xml::Element* primitiveElement = xml::child(root, "primitive");
  const xml::Element* geomFile = xml::child(root, "geometryFile");
  if (primitiveElement && geomFile)
    throw xml::errorAt(file, *primitiveElement, "a body has either <geometryFile> or <primitive>, not both");
  MeshFormat format = MeshFormat::Unknown;
  if (primitiveElement) {
    g.primitive = readPrimitiveElement(*primitiveElement, file);
    g.type = "primitive";
    body.name = shapeTypeName(*g.primitive);
  } else {
    const xml::Element& geom = xml::requireChild(root, "geometryFile", file);
    const std::string geomName = xml::text(geom);
    if (geomName.empty()) throw xml::errorAt(file, geom, "<geometryFile> is empty");
    g.file = geomName;
    g.resolvedPath = resolver.require(geomName, baseDir, file, xml::lineOf(geom));
    format = formatFor(xml::attribute(geom, "type"), g.resolvedPath, geom, file);
    g.type = meshTypeName(format);
    body.name = fileStem(geomName);
  }
  readScale(root, file, g);
  if (const auto* off = xml::child(root, "geometryOffset")) g.offset = readOffset(*off, file);

  if (const auto* m = xml::child(root, "material")) {
    body.material = xml::text(*m);
    if (!materials.contains(body.material)) {
      std::string known;
      for (const auto& n : materials.names()) known += (known.empty() ? "" : ", ") + n;
      throw xml::errorAt(file, *m, "unknown material '" + body.material + "' (known: " + known + ")");
    }
  }
  if (const auto* y = xml::child(root, "youngs")) body.youngs_Pa = checkedPositive(*y, file, "Pa");
  const auto* nc = xml::child(root, "normalCompliance");
  const auto* sc = xml::child(root, "shearCompliance");
  if ((nc == nullptr) != (sc == nullptr))
    throw xml::errorAt(file, nc ? *nc : *sc, "<normalCompliance> and <shearCompliance> must be given together");
  if (nc) {
    body.normalCompliance = checkedPositive(*nc, file, "");
    body.shearCompliance = checkedPositive(*sc, file, "");
  }
  if (const auto* h = xml::child(root, "hydroelastic")) {
    body.hydroelastic = readHydroelasticElement(*h, file);
    if (!body.hydroelastic->modulus_Pa && !body.youngs_Pa)
      throw xml::errorAt(file, *h, "a hydroelastic body needs a modulus: give <hydroelastic modulus=\"…\"> (Pa) or "
                                   "<youngs>");
  }
  if (const auto* fob = xml::child(root, "useFlockOfBirds"))
    body.flockOfBirds = static_cast<int>(xml::boundedNumber(*fob, file, 1e9, ""));

  if (body.isDynamic()) {
    if (const auto* m = xml::child(root, "mass")) body.mass_g = checkedPositive(*m, file, "g");
    if (const auto* c = xml::child(root, "cog")) {
      body.cog_mm = xml::vec3(*c, file);
      for (int i = 0; i < 3; ++i) xml::requireMagnitude(file, *c, body.cog_mm[i], xml::kMaxLength_mm, "value", "mm");
      body.cogFromFile = true;
    }
    if (const auto* in = xml::child(root, "inertia_matrix")) {
      const auto v = xml::numbers(*in, file, 9);
      body.inertiaPerMass_mm2 << v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8];  // row order
      body.inertiaFromFile = true;
    }
  }

  if (primitiveElement) buildPrimitiveGeometry(body, file, *primitiveElement);
  else body.mesh = loadGeometry(g, format, file, xml::lineOf(*geomFile), &body.primitive, &body.loadWarnings);
  completeMassProperties(body);
  if (!body.cog_mm.allFinite() || !body.inertiaPerMass_mm2.allFinite() || !std::isfinite(body.maxRadius_mm))
    throw xml::errorAt(file, root, "the body's mass properties are not finite (coordinates or CoG too large)");
  return body;
}

Body loadBodyFile(const std::string& path, BodyKind kind, const MaterialTable& materials,
                  const PathResolver& resolver) {
  const std::string absolute = absolutePath(path);
  if (!isXmlPath(absolute)) {
    // A bare mesh: default properties, mm (GraspIt!'s default.xml would scale it by 1000).
    const MeshFormat format = meshFormatFromPath(absolute);
    if (format == MeshFormat::Unknown)
      throw Error("not a body file (expected .xml, .iv, .wrl, .off, .ply, .stl or .obj)", absolute);
    Body body;
    body.kind = kind;
    body.name = fileStem(absolute);
    body.geometry.file = absolute;
    body.geometry.resolvedPath = absolute;
    body.geometry.type = meshTypeName(format);
    body.mesh = loadGeometry(body.geometry, format, absolute, 0, &body.primitive, &body.loadWarnings);
    xmlio::completeMassProperties(body);
    return body;
  }
  tinyxml2::XMLDocument doc;
  xml::loadFile(doc, absolute);
  Body body = readBodyElement(xml::rootOf(doc, absolute), absolute, directoryOf(absolute), kind, materials,
                              resolver);
  body.name = fileStem(absolute);
  body.sourceFile = absolute;
  return body;
}

std::string fileNameForWriting(const std::string& resolvedPath, const std::string& asWritten,
                               const std::string& baseDir) {
  if (!asWritten.empty()) {
    if (const auto again = PathResolver().resolve(asWritten, baseDir)) {
      std::error_code ec;
      if (*again == absolutePath(resolvedPath) || std::filesystem::equivalent(*again, resolvedPath, ec))
        return asWritten;
    }
  }
  return relativePath(resolvedPath, baseDir);
}

std::string bodyContentXml(const Body& body, const std::string& baseDir, int indent) {
  const GeometrySource& g = body.geometry;
  if (g.resolvedPath.empty() && g.file.empty() && !g.primitive)
    throw Error("body '" + body.name + "' has no geometry file to name in the saved file");
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  auto line = [&](const char* tag, const std::string& value) {
    return xml::concat({pad, "<", tag, ">", xml::escape(value), "</", tag, ">\n"});
  };
  std::string out;
  out += line("material", body.material);
  if (body.youngs_Pa) out += line("youngs", formatDouble(*body.youngs_Pa));
  if (body.normalCompliance && body.shearCompliance) {
    out += line("normalCompliance", formatDouble(*body.normalCompliance));
    out += line("shearCompliance", formatDouble(*body.shearCompliance));
  }
  if (body.flockOfBirds) out += line("useFlockOfBirds", std::to_string(*body.flockOfBirds));
  if (body.hydroelastic) out += pad + hydroelasticXml(*body.hydroelastic) + "\n";
  if (g.primitive) {
    out += pad + primitiveXml(*g.primitive) + "\n";
  } else {
    const std::string geomName =
        g.resolvedPath.empty() ? g.file : fileNameForWriting(g.resolvedPath, g.file, baseDir);
    out += xml::concat(
        {pad, "<geometryFile type=\"", xml::escape(g.type), "\">", xml::escape(geomName), "</geometryFile>\n"});
  }
  if (g.hasScale) {
    if (g.scaleWasUniform) {
      out += line("geometryScaling", formatDouble(g.scale.x()));
    } else {
      out += line("geometryScalingX", formatDouble(g.scale.x()));
      out += line("geometryScalingY", formatDouble(g.scale.y()));
      out += line("geometryScalingZ", formatDouble(g.scale.z()));
    }
  }
  if (g.offset)
    out += xml::concat({pad, "<geometryOffset>\n", xml::transformXml(*g.offset, indent + 2), pad, "</geometryOffset>\n"});
  if (body.isDynamic()) {
    out += line("mass", formatDouble(body.mass_g));
    out += line("cog", xml::joinNumbers(body.cog_mm.data(), 3));
    double rows[9];  // row order
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) rows[3 * r + c] = body.inertiaPerMass_mm2(r, c);
    out += line("inertia_matrix", xml::joinNumbers(rows, 9));
  }
  return out;
}

}  // namespace xmlio

Body loadBody(const std::string& path, BodyKind kind, const MaterialTable& materials, const LoadOptions& options) {
  return xmlio::loadBodyFile(path, kind, materials, PathResolver(options));
}

}  // namespace sg
