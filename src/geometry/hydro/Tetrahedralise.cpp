// Tetrahedral meshing of closed triangle meshes through Gmsh's C++ API (README.md §Meshing): the surface is
// handed over as a discrete surface (kept as it is, not remeshed), bounded into a volume and meshed by HXT.
#include "geometry/hydro/Tetrahedralise.h"

#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include <gmsh.h>

#include "core/Error.h"

namespace sg {

namespace {

// Gmsh is one process-wide model behind global state: one caller at a time.
std::mutex& gmshMutex() {
  static std::mutex m;
  return m;
}

// Called with the mutex held. Initialised once and never finalised (finalising at exit races other
// static destructors; the OS frees it). No config files, no terminal output, one thread.
void initialiseGmsh() {
  static bool done = false;
  if (done) return;
  gmsh::initialize(0, nullptr, /*readConfigFiles=*/false);
  gmsh::option::setNumber("General.Terminal", 0);
  gmsh::option::setNumber("General.Verbosity", 0);
  gmsh::option::setNumber("General.NumThreads", 1);
  // HXT: honours the size limit inside a volume bounded by a discrete surface (Gmsh's older Delaunay mesher
  // keeps the coarsest fill there whatever the size).
  gmsh::option::setNumber("Mesh.Algorithm3D", 10);
  // HXT's Delaunay output as it is: Gmsh's tet optimiser takes seconds per thousand tets here and barely
  // improves the worst tets, which are fixed by the kept boundary triangles (README.md §Meshing).
  gmsh::option::setNumber("Mesh.Optimize", 0);
  done = true;
}

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

ReadTets readTets() {
  std::vector<std::size_t> tags;
  std::vector<double> xyz, parametric;
  gmsh::model::mesh::getNodes(tags, xyz, parametric);
  std::unordered_map<std::size_t, std::size_t> nodeOfTag;
  for (std::size_t i = 0; i < tags.size(); ++i) nodeOfTag.emplace(tags[i], i);
  std::vector<std::size_t> tetTags, tetNodes;
  gmsh::model::mesh::getElementsByType(4 /* 4-node tetrahedron */, tetTags, tetNodes);
  if (tetTags.empty()) throw Error("Gmsh produced no tetrahedra");

  ReadTets result;
  VolumeMesh& out = result.mesh;
  std::vector<std::int64_t> used(tags.size(), -1);  // Gmsh node → output vertex
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
  out.tets.reserve(tetTags.size());
  for (std::size_t t = 0; t < tetTags.size(); ++t) {
    VolumeMesh::Tet tet;
    for (int k = 0; k < 4; ++k) tet[k] = vertexOf(tetNodes[4 * t + k]);
    const auto& v = out.vertices_mm;
    const double vol6 = signedVolume6(v[tet[0]], v[tet[1]], v[tet[2]], v[tet[3]]);
    if (vol6 == 0) {  // a flat sliver holds no volume and has no field gradient
      ++result.flatDropped;
      continue;
    }
    if (vol6 < 0) std::swap(tet[1], tet[2]);
    out.tets.push_back(tet);
  }
  return result;
}

// Runs the mesher on the current (cleared) Gmsh model; the caller holds the mutex.
VolumeMesh meshWithGmsh(const WeldedSurface& w, bool inward, double hint_mm) {
  gmsh::model::add("softgrasp");
  const int surface = gmsh::model::addDiscreteEntity(2);
  std::vector<std::size_t> nodeTags(w.points.size());
  std::vector<double> coords;
  coords.reserve(3 * w.points.size());
  for (std::size_t i = 0; i < w.points.size(); ++i) {
    nodeTags[i] = i + 1;
    coords.insert(coords.end(), {w.points[i].x(), w.points[i].y(), w.points[i].z()});
  }
  gmsh::model::mesh::addNodes(2, surface, nodeTags, coords);
  std::vector<std::size_t> triangleNodes;
  triangleNodes.reserve(3 * w.triangles.size());
  for (const auto& t : w.triangles) {
    if (inward) triangleNodes.insert(triangleNodes.end(), {t[0] + 1, t[2] + 1, t[1] + 1});
    else triangleNodes.insert(triangleNodes.end(), {t[0] + 1, t[1] + 1, t[2] + 1});
  }
  gmsh::model::mesh::addElementsByType(surface, 2 /* 3-node triangle */, {}, triangleNodes);
  const int loop = gmsh::model::geo::addSurfaceLoop({surface});
  gmsh::model::geo::addVolume({loop});
  gmsh::model::geo::synchronize();
  gmsh::option::setNumber("Mesh.MeshSizeMin", 0);
  gmsh::option::setNumber("Mesh.MeshSizeMax", hint_mm > 0 ? hint_mm : 1e22);
  gmsh::model::mesh::generate(3);

  // HXT without the optimiser may leave a flat sliver on a planar part of the boundary; dropping it would leave
  // a gap, so the optimiser (slow, hence only then) runs once and the mesh is read again.
  ReadTets out = readTets();
  if (out.flatDropped > 0) {
    gmsh::model::mesh::optimize("", /*force=*/true);
    out = readTets();
    if (out.flatDropped > 0) throw Error("Gmsh left " + std::to_string(out.flatDropped) + " flat tetrahedra");
  }
  if (out.mesh.tets.empty()) throw Error("Gmsh produced only flat tetrahedra");
  return std::move(out.mesh);
}

}  // namespace

VolumeMesh tetrahedraliseClosedMesh(const TriangleMesh& surface, double hint_mm) {
  if (!(hint_mm >= 0) || !std::isfinite(hint_mm))
    throw Error("the tetrahedral mesh's resolution hint must be a finite number >= 0 mm");
  const WeldedSurface w = weld(surface);
  if (w.triangles.size() < 4) throw Error("cannot tetrahedralise a surface with fewer than 4 triangles");
  requireClosed(w);
  double volume6 = 0;
  for (const auto& t : w.triangles) volume6 += w.points[t[0]].dot(w.points[t[1]].cross(w.points[t[2]]));
  if (volume6 == 0) throw Error("cannot tetrahedralise a surface that encloses no volume");

  std::lock_guard<std::mutex> lock(gmshMutex());
  initialiseGmsh();
  gmsh::clear();
  try {
    VolumeMesh mesh = meshWithGmsh(w, /*inward=*/volume6 < 0, hint_mm);
    gmsh::clear();
    return mesh;
  } catch (const Error& e) {
    gmsh::clear();
    throw Error("tetrahedral meshing failed: " + e.message());
  } catch (const std::exception& e) {  // Gmsh's API throws std::string or exceptions, depending on the call
    gmsh::clear();
    throw Error(std::string("tetrahedral meshing failed (Gmsh: ") + e.what() + ")");
  } catch (const std::string& e) {
    gmsh::clear();
    throw Error("tetrahedral meshing failed (Gmsh: " + e + "; is the surface self-intersecting?)");
  } catch (...) {
    gmsh::clear();
    throw Error("tetrahedral meshing failed (Gmsh raised an unknown error; is the surface self-intersecting?)");
  }
}

}  // namespace sg
