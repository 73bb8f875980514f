#include "sim/ConvexPieces.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <mutex>

#include <HACD/hacdHACD.h>

#include "core/Error.h"
#include "geometry/MassProperties.h"
#include "sim/DecompositionCache.h"
#include "sim/PrimitiveFit.h"

namespace sg::sim {

double ConvexPieces::volumeError() const {
  return meshVolume_mm3 > 0 ? (piecesVolume_mm3 - meshVolume_mm3) / meshVolume_mm3 : 0.0;
}

namespace {

double hullVolume_mm3(const std::vector<HACD::Vec3<HACD::Real>>& points, const std::vector<HACD::Vec3<long>>& tris) {
  TriangleMesh hull;
  for (const auto& p : points) hull.vertices.emplace_back(p.X(), p.Y(), p.Z());
  for (const auto& t : tris)
    hull.triangles.push_back({static_cast<std::uint32_t>(t.X()), static_cast<std::uint32_t>(t.Y()),
                              static_cast<std::uint32_t>(t.Z())});
  hull.finalize();
  const auto props = computeMassProperties(hull);
  return props ? props->volume_mm3 : 0.0;
}

// Convex when every vertex lies behind (or on) every triangle's plane, within `tolerance_mm`.
bool isConvexMesh(const TriangleMesh& mesh, double tolerance_mm) {
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const Vec3& a = mesh.triangleVertex(t, 0);
    const Vec3& n = mesh.faceNormals[t];
    for (const Vec3& v : mesh.vertices)
      if (n.dot(v - a) > tolerance_mm) return false;
  }
  return true;
}

// Marks a piece that is a tessellated box, sphere or cylinder (PrimitiveFit.h).
void recognisePrimitive(ConvexPiece& piece, double exact_mm, const DecompositionSettings& settings) {
  if (const auto fit = fitPrimitive(piece.vertices, piece.triangles, exact_mm, settings.primitiveTolerance)) {
    piece.primitive = fit->primitive;
    piece.primitiveDeviation_mm = fit->deviation_mm;
  }
}

// Connected components of the mesh, vertices welded by position (readers may repeat a vertex per triangle).
// Two triangles are connected across an edge that exactly these two share: closed solids that touch along an edge
// or at a corner (an Inventor link's cube and cylinder, whose tessellations share a side edge) stay apart, so
// each can be convex (and a primitive) on its own.
std::vector<TriangleMesh> components(const TriangleMesh& mesh) {
  std::map<std::array<long long, 3>, std::uint32_t> welded;
  std::vector<std::uint32_t> weldId(mesh.vertices.size());
  const double quantum_mm = 1e-6 * std::max(mesh.bounds.size().norm(), 1e-9);
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3 q = mesh.vertices[i] / quantum_mm;
    const std::array<long long, 3> key{std::llround(q.x()), std::llround(q.y()), std::llround(q.z())};
    weldId[i] = welded.emplace(key, static_cast<std::uint32_t>(welded.size())).first->second;
  }
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> edgeTriangles;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (std::size_t c = 0; c < 3; ++c) {
      const std::uint32_t a = weldId[mesh.triangles[t][c]], b = weldId[mesh.triangles[t][(c + 1) % 3]];
      edgeTriangles[std::minmax(a, b)].push_back(static_cast<std::uint32_t>(t));
    }
  std::vector<std::uint32_t> parent(mesh.triangles.size());
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<std::uint32_t>(i);
  auto find = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const auto& [edge, tris] : edgeTriangles)
    if (tris.size() == 2) parent[find(tris[1])] = find(tris[0]);
  std::map<std::uint32_t, std::size_t> componentOf;
  std::vector<TriangleMesh> out;
  std::vector<std::map<std::uint32_t, std::uint32_t>> local;
  for (std::size_t ti = 0; ti < mesh.triangles.size(); ++ti) {
    const auto& t = mesh.triangles[ti];
    const std::uint32_t root = find(static_cast<std::uint32_t>(ti));
    const auto [it, added] = componentOf.emplace(root, out.size());
    if (added) {
      out.emplace_back();
      local.emplace_back();
    }
    TriangleMesh& part = out[it->second];
    auto& ids = local[it->second];
    TriangleMesh::Triangle tri{};
    for (std::size_t c = 0; c < 3; ++c) {
      const std::uint32_t w = weldId[t[c]];
      const auto [v, fresh] = ids.emplace(w, static_cast<std::uint32_t>(part.vertices.size()));
      if (fresh) part.vertices.push_back(mesh.vertices[t[c]]);
      tri[c] = v->second;
    }
    part.triangles.push_back(tri);
  }
  for (TriangleMesh& part : out) part.finalize();
  return out;
}

ConvexPieces decomposeComponent(const TriangleMesh& mesh, const DecompositionSettings& settings);

// decomposeComponent through the directory of SOFTGRASP_CACHE_DIR when it is set (DecompositionCache.h): HACD is
// most of a process's first physics trial on a non-convex mesh (the mug: ~3 s, README.md §Decomposition cache).
ConvexPieces decomposeComponentCached(const TriangleMesh& part, const DecompositionSettings& settings) {
  const auto dir = decompositionCacheDir();
  if (!dir) return decomposeComponent(part, settings);
  const std::filesystem::path file = *dir / decompositionCacheFileName(part, settings);
  if (auto cached = readCachedDecomposition(file, part, settings)) return std::move(*cached);
  ConvexPieces pieces = decomposeComponent(part, settings);
  writeCachedDecomposition(file, part, settings, pieces);
  return pieces;
}

ConvexPieces decompose(const TriangleMesh& mesh, const DecompositionSettings& settings) {
  if (mesh.empty()) throw Error("convex decomposition: the mesh has no triangles");
  ConvexPieces out;
  if (const auto props = computeMassProperties(mesh)) out.meshVolume_mm3 = props->volume_mm3;
  const double tolerance_mm = 1e-6 * mesh.bounds.size().norm();
  for (const TriangleMesh& part : components(mesh)) {
    if (part.empty()) continue;
    if (isConvexMesh(part, tolerance_mm)) {
      ConvexPiece piece;
      piece.vertices = part.vertices;
      for (const auto& t : part.triangles)
        piece.triangles.push_back({static_cast<int>(t[0]), static_cast<int>(t[1]), static_cast<int>(t[2])});
      recognisePrimitive(piece, tolerance_mm, settings);
      if (const auto props = computeMassProperties(part)) out.piecesVolume_mm3 += props->volume_mm3;
      out.pieces.push_back(std::move(piece));
      continue;
    }
    ConvexPieces parts = decomposeComponentCached(part, settings);
    out.piecesVolume_mm3 += parts.piecesVolume_mm3;
    for (ConvexPiece& p : parts.pieces) out.pieces.push_back(std::move(p));
  }
  if (out.pieces.empty()) throw Error("convex decomposition returned no piece with a volume");
  return out;
}

ConvexPieces decomposeComponent(const TriangleMesh& mesh, const DecompositionSettings& settings) {
  std::vector<HACD::Vec3<HACD::Real>> points;
  points.reserve(mesh.vertices.size());
  for (const Vec3& v : mesh.vertices) points.emplace_back(v.x(), v.y(), v.z());
  std::vector<HACD::Vec3<long>> triangles;
  triangles.reserve(mesh.triangles.size());
  for (const auto& t : mesh.triangles) triangles.emplace_back(t[0], t[1], t[2]);

  // HACD normalises the mesh into a cube of side ScaleFactor; its concavity is measured in those units.
  constexpr double kScale = 1000.0;
  HACD::HACD hacd;
  hacd.SetPoints(points.data());
  hacd.SetNPoints(points.size());
  hacd.SetTriangles(triangles.data());
  hacd.SetNTriangles(triangles.size());
  hacd.SetScaleFactor(kScale);
  hacd.SetCompacityWeight(0.1);
  hacd.SetVolumeWeight(0.0);
  hacd.SetNClusters(1);
  hacd.SetConcavity(settings.concavity * kScale);
  hacd.SetNVerticesPerCH(static_cast<std::size_t>(settings.maxVerticesPerPiece));
  hacd.SetAddExtraDistPoints(true);
  hacd.SetAddFacesPoints(true);
  hacd.SetAddNeighboursDistPoints(false);
  hacd.SetConnectDist(30.0);
  // A change above that changes the pieces also changes DecompositionCache.cpp's kMagic (files of the old pieces).
  if (!hacd.Compute()) throw Error("convex decomposition (HACD) failed");

  ConvexPieces out;
  if (const auto props = computeMassProperties(mesh)) out.meshVolume_mm3 = props->volume_mm3;
  for (std::size_t c = 0; c < hacd.GetNClusters(); ++c) {
    std::vector<HACD::Vec3<HACD::Real>> hullPoints(hacd.GetNPointsCH(c));
    std::vector<HACD::Vec3<long>> hullTris(hacd.GetNTrianglesCH(c));
    if (hullPoints.size() < 4 || !hacd.GetCH(c, hullPoints.data(), hullTris.data())) continue;
    ConvexPiece piece;
    Vec3 centre = Vec3::Zero();
    for (const auto& p : hullPoints) {
      piece.vertices.emplace_back(p.X(), p.Y(), p.Z());
      centre += piece.vertices.back();
    }
    centre /= static_cast<double>(piece.vertices.size());
    // Outward orientation: the interior point `centre` lies behind every face of a convex hull.
    for (const auto& t : hullTris) {
      std::array<int, 3> tri{static_cast<int>(t.X()), static_cast<int>(t.Y()), static_cast<int>(t.Z())};
      const Vec3& a = piece.vertices[static_cast<std::size_t>(tri[0])];
      const Vec3 n = (piece.vertices[static_cast<std::size_t>(tri[1])] - a).cross(piece.vertices[static_cast<std::size_t>(tri[2])] - a);
      if (n.dot(a - centre) < 0) std::swap(tri[1], tri[2]);
      piece.triangles.push_back(tri);
    }
    out.piecesVolume_mm3 += hullVolume_mm3(hullPoints, hullTris);
    out.pieces.push_back(std::move(piece));
  }
  if (out.pieces.empty()) throw Error("convex decomposition (HACD) returned no piece with a volume");
  return out;
}

struct CacheEntry {
  std::weak_ptr<const TriangleMesh> mesh;
  double concavity = 0;
  int maxVertices = 0;
  double primitiveTolerance = 0;
  std::shared_ptr<const ConvexPieces> pieces;
};

}  // namespace

std::shared_ptr<const ConvexPieces> convexPieces(const std::shared_ptr<const TriangleMesh>& mesh,
                                                 const DecompositionSettings& settings) {
  if (!mesh) throw Error("convex decomposition: no mesh");
  static std::mutex mutex;
  static std::map<const TriangleMesh*, CacheEntry> cache;
  {
    std::lock_guard lock(mutex);
    const auto it = cache.find(mesh.get());
    // The address alone could name a newer mesh after the first was freed: the weak pointer must still own it.
    if (it != cache.end() && !it->second.mesh.expired() && it->second.mesh.lock() == mesh &&
        it->second.concavity == settings.concavity && it->second.maxVertices == settings.maxVerticesPerPiece &&
        it->second.primitiveTolerance == settings.primitiveTolerance)
      return it->second.pieces;
  }
  auto pieces = std::make_shared<const ConvexPieces>(decompose(*mesh, settings));
  std::lock_guard lock(mutex);
  cache[mesh.get()] = {mesh, settings.concavity, settings.maxVerticesPerPiece, settings.primitiveTolerance, pieces};
  return pieces;
}

}  // namespace sg::sim
