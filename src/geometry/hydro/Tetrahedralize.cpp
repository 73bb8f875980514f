// Tetrahedral meshing of closed triangle meshes through Gmsh's C API, loaded on demand (GmshApi.h; README.md
// §Meshing): the surface is handed over as a discrete surface (kept as it is, not remeshed), bounded into a
// volume and meshed by HXT.
#include "geometry/hydro/Tetrahedralize.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/Error.h"
#include "geometry/hydro/GmshApi.h"

namespace sg {

namespace {

// Called in the meshing child (below), which starts from the parent's state: Gmsh never initialised.
// No config files, no terminal output, one thread.
void setOption(const GmshApi& g, const char* name, double value) {
  int ierr = 0;
  g.optionSetNumber(name, value, &ierr);
  checkGmsh(g, ierr, name);
}

void initializeGmsh(const GmshApi& g, int algorithm3D) {
  int ierr = 0;
  g.initialize(0, nullptr, /*readConfigFiles=*/0, &ierr);
  checkGmsh(g, ierr, "gmshInitialize");
  setOption(g, "General.Terminal", 0);
  setOption(g, "General.Verbosity", 0);
  setOption(g, "General.NumThreads", 1);
  setOption(g, "Mesh.Algorithm3D", algorithm3D);
  // The mesher's output as it is: Gmsh's tet optimiser takes seconds per thousand tets here and barely
  // improves the worst tets, which are fixed by the kept boundary triangles (README.md §Meshing).
  setOption(g, "Mesh.Optimize", 0);
}

// An array Gmsh allocated for its caller, released with gmshFree.
template <typename T>
struct GmshArray {
  explicit GmshArray(const GmshApi& g) : api(&g) {}
  GmshArray(const GmshArray&) = delete;
  GmshArray& operator=(const GmshArray&) = delete;
  ~GmshArray() { api->free(data); }
  const T& operator[](std::size_t i) const { return data[i]; }
  const GmshApi* api;
  T* data = nullptr;
  std::size_t size = 0;
};

// The surface with exactly coincident vertices merged (readers may repeat them per face), degenerate
// triangles dropped.
struct WeldedSurface {
  std::vector<Vec3> points;
  std::vector<std::array<std::size_t, 3>> triangles;
};

WeldedSurface weld(const TriangleMesh& mesh) {
  WeldedSurface w;
  std::map<std::array<double, 3>, std::size_t> index;
  std::vector<std::size_t> remap(mesh.vertices.size());
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3& v = mesh.vertices[i];
    const auto [it, added] = index.try_emplace({v.x(), v.y(), v.z()}, w.points.size());
    if (added) w.points.push_back(v);
    remap[i] = it->second;
  }
  for (const auto& t : mesh.triangles) {
    const std::array<std::size_t, 3> r = {remap[t[0]], remap[t[1]], remap[t[2]]};
    if (r[0] != r[1] && r[1] != r[2] && r[0] != r[2]) w.triangles.push_back(r);
  }
  return w;
}

// Every edge must be used once in each direction (closed, 2-manifold along edges, consistently oriented).
void requireClosed(const WeldedSurface& w) {
  std::map<std::pair<std::size_t, std::size_t>, int> directed;
  for (const auto& t : w.triangles)
    for (int k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
  std::size_t open = 0, inconsistent = 0;
  for (const auto& [edge, count] : directed) {
    const auto back = directed.find({edge.second, edge.first});
    if (count > 1) ++inconsistent;
    else if (back == directed.end()) ++open;
  }
  if (open > 0)
    throw Error("cannot tetrahedralise an open surface: " + std::to_string(open) +
                " edges border only one triangle (the mesh must be closed)");
  if (inconsistent > 0)
    throw Error("cannot tetrahedralise the surface: " + std::to_string(inconsistent) +
                " edges are used twice in the same direction (inconsistent orientation or non-manifold)");
}

double signedVolume6(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).dot((c - a).cross(d - a));
}

// The tets of the current Gmsh model, positively oriented, renumbered to the vertices they use; flat ones
// are counted, not kept.
struct ReadTets {
  VolumeMesh mesh;
  std::size_t flatDropped = 0;
};

ReadTets readTets(const GmshApi& g) {
  GmshArray<std::size_t> tags(g);
  GmshArray<double> xyz(g), parametric(g);
  int ierr = 0;
  // All nodes (dim -1, tag -1), without the boundary's, with parametric coordinates: gmsh::model::mesh::getNodes's
  // defaults.
  g.meshGetNodes(&tags.data, &tags.size, &xyz.data, &xyz.size, &parametric.data, &parametric.size, -1, -1,
                 /*includeBoundary=*/0, /*returnParametricCoord=*/1, &ierr);
  checkGmsh(g, ierr, "gmshModelMeshGetNodes");
  std::unordered_map<std::size_t, std::size_t> nodeOfTag;
  for (std::size_t i = 0; i < tags.size; ++i) nodeOfTag.emplace(tags[i], i);
  GmshArray<std::size_t> tetTags(g), tetNodes(g);
  g.meshGetElementsByType(4 /* 4-node tetrahedron */, &tetTags.data, &tetTags.size, &tetNodes.data, &tetNodes.size,
                          /*tag=*/-1, /*task=*/0, /*numTasks=*/1, &ierr);
  checkGmsh(g, ierr, "gmshModelMeshGetElementsByType");
  if (tetTags.size == 0) throw Error("Gmsh produced no tetrahedra");

  ReadTets result;
  VolumeMesh& out = result.mesh;
  std::vector<std::int64_t> used(tags.size, -1);  // Gmsh node → output vertex
  // Gmsh run off the main thread was seen to return coincident duplicate nodes: merge them by position.
  std::map<std::array<double, 3>, std::uint32_t> byPosition;
  auto vertexOf = [&](std::size_t tag) -> std::uint32_t {
    const auto it = nodeOfTag.find(tag);
    if (it == nodeOfTag.end()) throw Error("Gmsh returned a tetrahedron with an unknown node");
    const std::size_t i = it->second;
    if (used[i] < 0) {
      const auto [at, added] = byPosition.try_emplace({xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]},
                                                      static_cast<std::uint32_t>(out.vertices_mm.size()));
      if (added) out.vertices_mm.emplace_back(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
      used[i] = at->second;
    }
    return static_cast<std::uint32_t>(used[i]);
  };
  out.tets.reserve(tetTags.size);
  for (std::size_t t = 0; t < tetTags.size; ++t) {
    VolumeMesh::Tet tet;
    for (int k = 0; k < 4; ++k) tet[k] = vertexOf(tetNodes[4 * t + k]);
    const auto& v = out.vertices_mm;
    const double vol6 = signedVolume6(v[tet[0]], v[tet[1]], v[tet[2]], v[tet[3]]);
    // A flat sliver holds no volume and has no field gradient. "Flat" up to round-off: a volume within a few
    // ulps of the edges' cube has no reliable sign, and either vertex order could then measure negative.
    double edge2 = 0;
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) edge2 = std::max(edge2, (v[tet[a]] - v[tet[b]]).squaredNorm());
    if (std::abs(vol6) <= 1e-12 * edge2 * std::sqrt(edge2)) {
      ++result.flatDropped;
      continue;
    }
    if (vol6 < 0) std::swap(tet[1], tet[2]);
    out.tets.push_back(tet);
  }
  return result;
}

// Runs the mesher on Gmsh's (empty) model.
VolumeMesh meshWithGmsh(const GmshApi& g, const WeldedSurface& w, bool inward, double hint_mm) {
  int ierr = 0;
  g.modelAdd("softgrasp", &ierr);
  checkGmsh(g, ierr, "gmshModelAdd");
  int surface = g.modelAddDiscreteEntity(2, /*tag=*/-1, nullptr, 0, &ierr);
  checkGmsh(g, ierr, "gmshModelAddDiscreteEntity");
  std::vector<std::size_t> nodeTags(w.points.size());
  std::vector<double> coords;
  coords.reserve(3 * w.points.size());
  for (std::size_t i = 0; i < w.points.size(); ++i) {
    nodeTags[i] = i + 1;
    coords.insert(coords.end(), {w.points[i].x(), w.points[i].y(), w.points[i].z()});
  }
  g.meshAddNodes(2, surface, nodeTags.data(), nodeTags.size(), coords.data(), coords.size(), nullptr, 0, &ierr);
  checkGmsh(g, ierr, "gmshModelMeshAddNodes");
  std::vector<std::size_t> triangleNodes;
  triangleNodes.reserve(3 * w.triangles.size());
  for (const auto& t : w.triangles) {
    if (inward) triangleNodes.insert(triangleNodes.end(), {t[0] + 1, t[2] + 1, t[1] + 1});
    else triangleNodes.insert(triangleNodes.end(), {t[0] + 1, t[1] + 1, t[2] + 1});
  }
  g.meshAddElementsByType(surface, 2 /* 3-node triangle */, nullptr, 0, triangleNodes.data(), triangleNodes.size(),
                          &ierr);
  checkGmsh(g, ierr, "gmshModelMeshAddElementsByType");
  int loop = g.geoAddSurfaceLoop(&surface, 1, /*tag=*/-1, &ierr);
  checkGmsh(g, ierr, "gmshModelGeoAddSurfaceLoop");
  g.geoAddVolume(&loop, 1, /*tag=*/-1, &ierr);
  checkGmsh(g, ierr, "gmshModelGeoAddVolume");
  g.geoSynchronize(&ierr);
  checkGmsh(g, ierr, "gmshModelGeoSynchronize");
  setOption(g, "Mesh.MeshSizeMin", 0);
  setOption(g, "Mesh.MeshSizeMax", hint_mm > 0 ? hint_mm : 1e22);
  g.meshGenerate(3, &ierr);
  checkGmsh(g, ierr, "gmshModelMeshGenerate", "is the surface self-intersecting?");

  // HXT without the optimiser may leave a flat sliver on a planar part of the boundary; dropping it would leave
  // a gap, so the optimiser (slow, hence only then) runs once and the mesh is read again.
  ReadTets out = readTets(g);
  if (out.flatDropped > 0) {
    g.meshOptimize("", /*force=*/1, /*niter=*/1, nullptr, 0, &ierr);
    checkGmsh(g, ierr, "gmshModelMeshOptimize");
    out = readTets(g);
    if (out.flatDropped > 0) throw Error("Gmsh left " + std::to_string(out.flatDropped) + " flat tetrahedra");
  }
  if (out.mesh.tets.empty()) throw Error("Gmsh produced only flat tetrahedra");
  return std::move(out.mesh);
}

constexpr int kHxt = 10, kDelaunay = 1;  // Gmsh's Mesh.Algorithm3D
constexpr int kChildTimeout_s = 600;      // a mesher still running after this is stopped

struct ChildOutcome {
  std::optional<VolumeMesh> mesh;
  std::string error;  // why there is no mesh
};

// The child's answer on the pipe: 'M', vertex and tet counts (uint64), the coordinates (double), the tets'
// vertex indices (uint32); or 'E' and a message.
template <typename T>
void append(std::string& out, const T* data, std::size_t count) {
  out.append(reinterpret_cast<const char*>(data), count * sizeof(T));
}

std::string encodeMesh(const VolumeMesh& m) {
  std::string out = "M";
  const std::uint64_t counts[2] = {m.vertices_mm.size(), m.tets.size()};
  append(out, counts, 2);
  for (const Vec3& v : m.vertices_mm) append(out, v.data(), 3);
  for (const auto& t : m.tets) append(out, t.data(), 4);
  return out;
}

std::optional<VolumeMesh> decodeMesh(const std::string& in) {
  std::uint64_t counts[2] = {0, 0};
  if (in.size() < 1 + sizeof counts || in[0] != 'M') return std::nullopt;
  std::memcpy(counts, in.data() + 1, sizeof counts);
  if (counts[0] > in.size() || counts[1] > in.size() ||
      in.size() != 1 + sizeof counts + counts[0] * 3 * sizeof(double) + counts[1] * 4 * sizeof(std::uint32_t))
    return std::nullopt;
  VolumeMesh m;
  m.vertices_mm.resize(counts[0]);
  m.tets.resize(counts[1]);
  const char* at = in.data() + 1 + sizeof counts;
  for (Vec3& v : m.vertices_mm) {
    std::memcpy(v.data(), at, 3 * sizeof(double));
    at += 3 * sizeof(double);
  }
  for (auto& t : m.tets) {
    std::memcpy(t.data(), at, 4 * sizeof(std::uint32_t));
    at += 4 * sizeof(std::uint32_t);
  }
  return m;
}

// What the child runs: Gmsh (loaded by the parent), and its answer encoded (errors included: nothing may escape
// the child).
std::string meshAndEncode(const GmshApi& g, const WeldedSurface& w, bool inward, double hint_mm, int algorithm3D) {
  try {
    initializeGmsh(g, algorithm3D);
    return encodeMesh(meshWithGmsh(g, w, inward, hint_mm));
  } catch (const Error& e) {
    return "E" + e.message();
  } catch (const std::exception& e) {
    return std::string("EGmsh: ") + e.what();
  } catch (...) {
    return "EGmsh raised an unknown error; is the surface self-intersecting?";
  }
}

// Gmsh runs in a forked child process: its HXT mesher was seen to crash (SIGSEGV in hxtRefineTetrahedra) on
// ordinary closed surfaces (a torus at a hint finer than its triangles), and a crash there must not take
// the application down. The child also keeps Gmsh's process-wide state out of this process, so calls from
// several threads need no lock. A child that dies, or runs longer than kChildTimeout_s, is an error here.
ChildOutcome meshInChild(const GmshApi& g, const WeldedSurface& w, bool inward, double hint_mm, int algorithm3D) {
  const std::string mesher = std::string("Gmsh's ") + (algorithm3D == kHxt ? "HXT" : "Delaunay") + " mesher";
  int fds[2];
  if (pipe(fds) != 0) return {std::nullopt, "cannot create a pipe for " + mesher + ": " + std::strerror(errno)};
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {std::nullopt, "cannot start " + mesher + ": " + std::strerror(errno)};
  }
  if (pid == 0) {  // the child: mesh, write, leave without running this process's exit handlers
    close(fds[0]);
    // A crash in Gmsh ends the child quietly: the parent's crash reporters (Qt Test's stack dump, the
    // sanitizers' reports) would describe a failure the parent handles.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, SIG_DFL);
    const std::string answer = meshAndEncode(g, w, inward, hint_mm, algorithm3D);
    for (std::size_t done = 0; done < answer.size();) {
      const ssize_t n = write(fds[1], answer.data() + done, answer.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string answer;
  std::vector<char> buffer(1 << 16);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kChildTimeout_s);
  bool timedOut = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timedOut = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    const ssize_t n = read(fds[0], buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the end of the answer (or a read error: the answer is then incomplete)
    answer.append(buffer.data(), static_cast<std::size_t>(n));
  }
  close(fds[0]);
  if (timedOut) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut)
    return {std::nullopt, mesher + " ran longer than " + std::to_string(kChildTimeout_s) +
                              " s and was stopped (is the resolution hint much finer than the body?)"};
  if (WIFSIGNALED(status))
    return {std::nullopt, mesher + " crashed (signal " + std::to_string(WTERMSIG(status)) + ", " +
                              strsignal(WTERMSIG(status)) + ")"};
  if (!answer.empty() && answer[0] == 'E') return {std::nullopt, mesher + ": " + answer.substr(1)};
  std::optional<VolumeMesh> mesh = decodeMesh(answer);
  if (!mesh) return {std::nullopt, mesher + " ended without a complete answer"};
  return {std::move(mesh), {}};
}

}  // namespace

VolumeMesh tetrahedralizeClosedMesh(const TriangleMesh& surface, double hint_mm) {
  if (!(hint_mm >= 0) || !std::isfinite(hint_mm))
    throw Error("the tetrahedral mesh's resolution hint must be a finite number >= 0 mm");
  const WeldedSurface w = weld(surface);
  if (w.triangles.size() < 4) throw Error("cannot tetrahedralise a surface with fewer than 4 triangles");
  requireClosed(w);
  double volume6 = 0;
  for (const auto& t : w.triangles) volume6 += w.points[t[0]].dot(w.points[t[1]].cross(w.points[t[2]]));
  if (volume6 == 0) throw Error("cannot tetrahedralise a surface that encloses no volume");

  // Loaded here, once per process, before the children fork: they inherit the mapped library, and a missing
  // library is one clear error rather than two failed meshers.
  const GmshApi& g = gmshApi();
  // HXT honours the size cap inside a volume bounded by a discrete surface; Gmsh's older Delaunay mesher is
  // the fallback where HXT crashes or leaves flat tets (README.md §Meshing).
  const ChildOutcome hxt = meshInChild(g, w, /*inward=*/volume6 < 0, hint_mm, kHxt);
  if (hxt.mesh) return std::move(*hxt.mesh);
  const ChildOutcome delaunay = meshInChild(g, w, /*inward=*/volume6 < 0, hint_mm, kDelaunay);
  if (delaunay.mesh) return std::move(*delaunay.mesh);
  throw Error("tetrahedral meshing failed: " + hxt.error + "; " + delaunay.error);
}

}  // namespace sg
