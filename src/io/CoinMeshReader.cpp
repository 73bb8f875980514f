// Open Inventor (.iv) and VRML 1/2 (.wrl) through Coin: the file is parsed into a scene graph and an
// SoCallbackAction collects every triangle Coin generates for its shapes, mapped through the action's
// model matrix (in-file transforms, SoUnits and scales baked in, as GraspIt! does). Primitives are
// tessellated with the file's own Complexity; polygons follow the file's ShapeHints. Coin trusts the
// file's indices, so shapes are checked first (MeshCoinShapeCheck.h) and bad ones are an error.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <Inventor/actions/SoCallbackAction.h>
#include <Inventor/errors/SoDebugError.h>
#include <Inventor/errors/SoReadError.h>
#include <Inventor/lists/SbStringList.h>
#include <Inventor/nodes/SoCone.h>
#include <Inventor/nodes/SoCube.h>
#include <Inventor/nodes/SoCylinder.h>
#include <Inventor/nodes/SoIndexedNurbsCurve.h>
#include <Inventor/nodes/SoIndexedNurbsSurface.h>
#include <Inventor/nodes/SoNurbsCurve.h>
#include <Inventor/nodes/SoNurbsSurface.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoShape.h>
#include <Inventor/nodes/SoSphere.h>
#include <Inventor/SoDB.h>
#include <Inventor/SoInput.h>
#include <Inventor/SoPrimitiveVertex.h>
#include <Inventor/VRMLnodes/SoVRMLGroup.h>

#include "core/Parse.h"
#include "io/InventorGuard.h"
#include "io/MeshIO.h"
#include "io/MeshCoinShapeCheck.h"
#include "io/MeshReaderSupport.h"
#include "io/LoadedFiles.h"

namespace sg {

namespace {

// Coin is not thread-safe; every read holds this lock (Coin's error handlers are global too).
std::mutex& coinMutex() {
  static std::mutex m;
  return m;
}

void ensureCoinInitialized() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!SoDB::isInitialized()) SoDB::init();
  });
}

// Whether a message of Coin's is about an image it could not read: SoTexture2/3, SoImage, cube maps and VRML
// ImageTexture post "Could not read texture/image file ...", SbImage "couldn't find ...", simage its notes.
bool isImageProblem(const std::string& message) {
  std::string m = message;
  for (char& c : m) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* key : {"texture file", "image file", "sbimage::", "simage"})
    if (m.find(key) != std::string::npos) return true;
  return false;
}

// The image name in such a message: the first quoted text, else what follows the last ": ".
std::string imageNameOf(const std::string& message) {
  for (const char q : {'\'', '"'}) {
    const auto a = message.find(q);
    const auto b = a == std::string::npos ? a : message.find(q, a + 1);
    if (b != std::string::npos) return message.substr(a + 1, b - a - 1);
  }
  const auto colon = message.rfind(": ");
  return colon == std::string::npos ? std::string() : std::string(trim(message.substr(colon + 2)));
}

// Why the image `name`, named in `file`, could not be read: missing, or there but not decodable.
std::string imageProblemText(const std::string& name, const std::string& file, const std::string& coinMessage) {
  namespace fs = std::filesystem;
  if (name.empty()) return "an image could not be read (Coin: " + coinMessage + "); the geometry is loaded without it";
  std::vector<fs::path> candidates{fs::path(name)};
  if (!fs::path(name).is_absolute()) candidates.insert(candidates.begin(), fs::path(file).parent_path() / name);
  for (const auto& c : candidates) {
    std::error_code ec;
    if (!fs::is_regular_file(c, ec)) continue;
    return "texture '" + name + "' (" + fs::absolute(c, ec).lexically_normal().string() +
           ") could not be decoded (Coin reads JPEG, PNG and most other images through the simage library, "
           "libsimage); the geometry is loaded without it";
  }
  return "texture '" + name + "' not found next to the file; the geometry is loaded without it";
}

// Collects Coin's read errors for the duration of one read instead of printing them.
class ReadErrorCapture {
 public:
  ReadErrorCapture()
      : oldRead_(SoReadError::getHandlerCallback()), oldReadData_(SoReadError::getHandlerData()),
        oldDebug_(SoDebugError::getHandlerCallback()), oldDebugData_(SoDebugError::getHandlerData()) {
    SoReadError::setHandlerCallback(&ReadErrorCapture::collect, this);
    SoDebugError::setHandlerCallback(&ReadErrorCapture::collect, this);
  }
  ~ReadErrorCapture() {
    SoReadError::setHandlerCallback(oldRead_, oldReadData_);
    SoDebugError::setHandlerCallback(oldDebug_, oldDebugData_);
  }
  ReadErrorCapture(const ReadErrorCapture&) = delete;
  ReadErrorCapture& operator=(const ReadErrorCapture&) = delete;

  // The first message, on one line, without Coin's prefix and location suffix; empty if none.
  std::string firstMessage() const { return messageOf(first_); }
  // The line Coin reported for the first message, 0 if none.
  int firstLine() const { return lineOf(first_); }

  // Whether Coin posted a read error (not just a warning) during the read. Coin reads each included file
  // (File, Inline) with its own input and, when that fails, drops the node with a read error but still
  // returns the including file's scene: without this check part of the model would vanish silently.
  bool readErrorPosted() const { return !firstRead_.empty(); }
  std::string firstReadErrorMessage() const { return messageOf(firstRead_); }
  int firstReadErrorLine() const { return lineOf(firstRead_); }
  // The file Coin named in its first read error ("Occurred at line N in FILE"), empty if none.
  std::string firstReadErrorFile() const { return fileOf(firstRead_); }

  // One warning per image (texture) Coin could not read: "FILE:LINE: texture 'NAME' ...", `topFile` standing
  // in when Coin names no file.
  std::vector<std::string> imageWarnings(const std::string& topFile) const {
    std::vector<std::string> out;
    for (const std::string& raw : images_) {
      std::string file = fileOf(raw);
      if (file.empty()) file = topFile;
      const int line = lineOf(raw);
      std::string w = file;
      if (line > 0) w += ":" + std::to_string(line);
      w += ": " + imageProblemText(imageNameOf(messageOf(raw)), file, messageOf(raw));
      if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
    }
    return out;
  }

 private:
  static std::string messageOf(std::string m) {
    if (m.rfind("Coin read error: ", 0) == 0) m.erase(0, 17);
    if (auto at = m.find("Occurred at line"); at != std::string::npos) m.erase(at);
    return std::string(trim(m));
  }
  static std::string fileOf(const std::string& raw) {
    const auto at = raw.find("Occurred at line");
    if (at == std::string::npos) return {};
    const auto in = raw.find(" in ", at);
    if (in == std::string::npos) return {};
    std::string f(trim(std::string_view(raw).substr(in + 4)));
    if (f.size() >= 2 && (f.front() == '\'' || f.front() == '"') && f.back() == f.front()) f = f.substr(1, f.size() - 2);
    return f;
  }
  static int lineOf(const std::string& raw) {
    const auto at = raw.find("Occurred at line");
    if (at == std::string::npos) return 0;
    const auto rest = splitWhitespace(std::string_view(raw).substr(at + 16));
    if (rest.empty()) return 0;
    const auto line = parseInt(rest[0]);
    return line && *line > 0 ? *line : 0;
  }

  static void collect(const SoError* error, void* data) {
    auto* self = static_cast<ReadErrorCapture*>(data);
    std::string s = error->getDebugString().getString();
    for (char& c : s)
      if (c == '\n' || c == '\r') c = ' ';
    s = std::string(trim(s));
    // A texture is decoration: an image Coin cannot read becomes a warning, never a load error. SbImage's
    // own "couldn't find" and simage's notes come with the read error that names the node and line.
    if (isImageProblem(s)) {
      if (error->isOfType(SoReadError::getClassTypeId())) self->images_.push_back(s);
      return;
    }
    if (self->first_.empty()) self->first_ = s;
    if (self->firstRead_.empty() && error->isOfType(SoReadError::getClassTypeId())) self->firstRead_ = s;
  }

  std::vector<std::string> images_;  // raw read errors about images Coin could not read
  SoErrorCB* oldRead_;
  void* oldReadData_;
  SoErrorCB* oldDebug_;
  void* oldDebugData_;
  std::string first_;
  std::string firstRead_;
};

// Adds the file's directory to Coin's search path (for SoFile / Inline) while alive.
class SearchDirectory {
 public:
  explicit SearchDirectory(const std::string& path) {
    dir_ = std::filesystem::path(path).parent_path().string();
    if (!dir_.empty()) SoInput::addDirectoryFirst(dir_.c_str());
  }
  ~SearchDirectory() {
    if (!dir_.empty()) SoInput::removeDirectory(dir_.c_str());
  }
  SearchDirectory(const SearchDirectory&) = delete;
  SearchDirectory& operator=(const SearchDirectory&) = delete;

 private:
  std::string dir_;
};

// Unreferences a Coin node on scope exit.
struct NodeRef {
  SoNode* node = nullptr;
  explicit NodeRef(SoNode* n) : node(n) { if (node) node->ref(); }
  ~NodeRef() { if (node) node->unref(); }
  NodeRef(const NodeRef&) = delete;
  NodeRef& operator=(const NodeRef&) = delete;
};

// What the traversal gathers: the triangle soup, or the first shape whose data would make Coin crash; and
// the shapes met, so a file holding a single primitive node can become an exact primitive.
struct Extraction {
  TriangleMesh mesh;
  std::string badShape;
  int shapeCount = 0;
  std::optional<Primitive> primitive;  // of the first shape, in the file frame, when it is a whole primitive
  std::vector<std::string> warnings;   // images (textures) Coin could not read
};

// A single-precision field value as the decimal the file most likely wrote (7 significant digits).
double fromFloat(float f) { return parseDouble(formatGeneral(static_cast<double>(f), 7)).value_or(f); }

// Coin's primitive node (axis y, centred) as a Primitive in its own node frame, if it is a closed solid (all
// parts of a cylinder or cone on).
std::optional<Primitive> nodePrimitive(const SoNode* node) {
  // Shapes.h's axial shapes use z: rotate z onto Coin's y.
  const Transform zToY = Transform::fromAxisAngle(Vec3::UnitX(), -kPi / 2);
  if (node->isOfType(SoSphere::getClassTypeId()))
    return Primitive{Sphere{fromFloat(static_cast<const SoSphere*>(node)->radius.getValue())}, Transform::identity()};
  if (node->isOfType(SoCube::getClassTypeId())) {
    const auto* c = static_cast<const SoCube*>(node);
    return Primitive{Box{Vec3(fromFloat(c->width.getValue()), fromFloat(c->height.getValue()), fromFloat(c->depth.getValue()))}, Transform::identity()};
  }
  if (node->isOfType(SoCylinder::getClassTypeId())) {
    const auto* c = static_cast<const SoCylinder*>(node);
    if (c->parts.getValue() != SoCylinder::ALL) return std::nullopt;
    return Primitive{Cylinder{fromFloat(c->radius.getValue()), fromFloat(c->height.getValue())}, zToY};
  }
  if (node->isOfType(SoCone::getClassTypeId())) {
    const auto* c = static_cast<const SoCone*>(node);
    if (c->parts.getValue() != SoCone::ALL) return std::nullopt;
    return Primitive{Cone{fromFloat(c->bottomRadius.getValue()), fromFloat(c->height.getValue())}, zToY};
  }
  return std::nullopt;
}

void notePrimitive(Extraction& out, SoCallbackAction* action, const SoNode* node) {
  if (++out.shapeCount > 1) {
    out.primitive.reset();
    return;
  }
  const auto p = nodePrimitive(node);
  if (!p || !shapeProblem(p->shape).empty()) return;
  const SbMatrix& m = action->getModelMatrix();  // row-vector convention: p' = p·M
  Mat3 A;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) A(r, c) = fromFloat(m[c][r]);
  out.primitive = transformedPrimitive(*p, A, Vec3(fromFloat(m[3][0]), fromFloat(m[3][1]), fromFloat(m[3][2])), 1e-6);
}

SoCallbackAction::Response checkShape(void* data, SoCallbackAction* action, const SoNode* node) {
  auto* out = static_cast<Extraction*>(data);
  // Coin tessellates NURBS through GLU, which needs an OpenGL context: without a display it crashes.
  for (const SoType t : {SoNurbsSurface::getClassTypeId(), SoIndexedNurbsSurface::getClassTypeId(),
                         SoNurbsCurve::getClassTypeId(), SoIndexedNurbsCurve::getClassTypeId()})
    if (node->isOfType(t)) {
      out->badShape = std::string(node->getTypeId().getName().getString()) +
                      ": NURBS need OpenGL to be tessellated and are not supported; convert them to a mesh";
      return SoCallbackAction::ABORT;
    }
  const std::string problem =
      node->isOfType(SoVertexShape::getClassTypeId())
          ? meshio::inventorShapeProblem(action, static_cast<const SoVertexShape*>(node))
          : meshio::vrmlShapeProblem(node);
  if (problem.empty()) {
    notePrimitive(*out, action, node);
    return SoCallbackAction::CONTINUE;
  }
  out->badShape = std::string(node->getTypeId().getName().getString()) + ": " + problem;
  return SoCallbackAction::ABORT;
}

void collectTriangle(void* data, SoCallbackAction* action, const SoPrimitiveVertex* v1,
                     const SoPrimitiveVertex* v2, const SoPrimitiveVertex* v3) {
  TriangleMesh* mesh = &static_cast<Extraction*>(data)->mesh;
  const SbMatrix& toWorld = action->getModelMatrix();
  const auto base = static_cast<std::uint32_t>(mesh->vertices.size());
  for (const SoPrimitiveVertex* v : {v1, v2, v3}) {
    SbVec3f w;
    toWorld.multVecMatrix(v->getPoint(), w);
    mesh->vertices.emplace_back(w[0], w[1], w[2]);
  }
  // A mirroring matrix turns counter-clockwise into clockwise; swap to keep the outward winding.
  if (toWorld.det3() < 0) mesh->triangles.push_back({base, base + 2, base + 1});
  else mesh->triangles.push_back({base, base + 1, base + 2});
}

}  // namespace

InventorGeometry readInventorGeometry(const std::string& path) {
  meshio::requireReadableFile(path);
  std::lock_guard<std::mutex> lock(coinMutex());
  ensureCoinInitialized();

  Extraction out;
  {
    ReadErrorCapture errors;
    SearchDirectory searchDir(path);
    {
      // Refuse what would make Coin crash or hang, following includes as Coin will (InventorGuard.h).
      std::vector<std::string> dirs;
      const SbStringList& coinDirs = SoInput::getDirectories();
      for (int i = 0; i < coinDirs.getLength(); ++i) dirs.emplace_back(coinDirs[i]->getString());
      try {
        meshio::checkInventorImport(path, dirs);
      } catch (const Error& e) {
        if (e.file() == path) throw;
        throw e.withContext("included from " + path);
      }
    }
    SoInput in;
    if (!in.openFile(path.c_str(), TRUE)) throw Error("Coin cannot open geometry file", path);
    noteLoadedFile(path);
    if (!in.isValidFile()) throw Error("not an Open Inventor or VRML file (no valid header)", path);
    SoNode* rootNode = nullptr;
    if (in.isFileVRML2()) rootNode = SoDB::readAllVRML(&in);
    else rootNode = SoDB::readAll(&in);
    NodeRef root(rootNode);
    in.closeFile();
    if (!root.node) {
      const std::string why = errors.firstMessage();
      throw Error("cannot parse Open Inventor/VRML file" + (why.empty() ? std::string() : ": " + why), path,
                  errors.firstLine());
    }
    out.warnings = errors.imageWarnings(path);
    if (errors.readErrorPosted()) {
      // The top-level file parsed, so the error came from an included file that Coin skipped.
      std::string file = errors.firstReadErrorFile();
      if (file.empty()) file = path;
      Error e("an included Open Inventor/VRML file could not be read (Coin would skip it): " +
                  errors.firstReadErrorMessage(),
              file, errors.firstReadErrorLine());
      throw file == path ? e : e.withContext("included from " + path);
    }
    SoCallbackAction action;
    action.addPreCallback(SoShape::getClassTypeId(), &checkShape, &out);
    action.addTriangleCallback(SoShape::getClassTypeId(), &collectTriangle, &out);
    action.apply(root.node);
    if (!out.badShape.empty()) throw Error("invalid shape data: " + out.badShape, path);
    // Coin recovers from some problems (e.g. a missing referenced file); name them if nothing was found.
    if (out.mesh.triangles.empty() && !errors.firstMessage().empty())
      throw Error("no triangles in Open Inventor/VRML file (Coin reported: " + errors.firstMessage() + ")", path,
                  errors.firstLine());
  }
  // Coin computes in single precision: seam and pole copies of a vertex differ by a few float ulps, so
  // merge within 1e-6 of the model's extent (well above float noise, far below any real feature).
  meshio::mergeCoincidentVertices(out.mesh, 1e-6);
  InventorGeometry g;
  g.mesh = meshio::finalizeOrThrow(std::move(out.mesh), path);
  if (out.shapeCount == 1) g.primitive = out.primitive;
  g.warnings = std::move(out.warnings);
  return g;
}

TriangleMesh readInventorMesh(const std::string& path) { return readInventorGeometry(path).mesh; }

}  // namespace sg
