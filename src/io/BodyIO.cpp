// Body XML (src/io/FORMATS.md §Body) and bare meshes loaded as bodies; the inline-body writer.
#include <cmath>
#include <filesystem>
#include <memory>

#include "core/Parse.h"
#include "geometry/MassProperties.h"
#include "io/BodyXml.h"
#include "io/NumberChecks.h"
#include "io/MeshIO.h"
#include "io/ModelIO.h"
#include "io/TransformXml.h"

namespace sg {

namespace {

constexpr double kMaxScale = 1e6;  // larger geometry scales are certainly a mistake

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
std::shared_ptr<const TriangleMesh> loadGeometry(const GeometrySource& g, MeshFormat format,
                                                 const std::string& referencingFile, int line) {
  const std::string where =
      xml::concat({"geometry of ", referencingFile, line > 0 ? ":" : "", line > 0 ? std::to_string(line) : ""});
  TriangleMesh mesh;
  try {
    mesh = readMesh(g.resolvedPath, format);
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

}  // namespace

namespace xmlio {

void completeMassProperties(Body& body) {
  const TriangleMesh& mesh = *body.mesh;
  const auto mp = computeMassProperties(mesh);
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

  const xml::Element& geom = xml::requireChild(root, "geometryFile", file);
  const std::string geomName = xml::text(geom);
  if (geomName.empty()) throw xml::errorAt(file, geom, "<geometryFile> is empty");
  GeometrySource& g = body.geometry;
  g.file = geomName;
  g.resolvedPath = resolver.require(geomName, baseDir, file, xml::lineOf(geom));
  const MeshFormat format = formatFor(xml::attribute(geom, "type"), g.resolvedPath, geom, file);
  g.type = meshTypeName(format);
  readScale(root, file, g);
  if (const auto* off = xml::child(root, "geometryOffset")) g.offset = readOffset(*off, file);
  body.name = fileStem(geomName);

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

  body.mesh = loadGeometry(g, format, file, xml::lineOf(geom));
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
    body.mesh = loadGeometry(body.geometry, format, absolute, 0);
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
  if (g.resolvedPath.empty() && g.file.empty())
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
  const std::string geomName =
      g.resolvedPath.empty() ? g.file : fileNameForWriting(g.resolvedPath, g.file, baseDir);
  out += xml::concat({pad, "<geometryFile type=\"", xml::escape(g.type), "\">", xml::escape(geomName), "</geometryFile>\n"});
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
