#include "geometry/BvhCache.h"

#include <mutex>
#include <unordered_map>

namespace sg {

namespace {
struct Entry {
  std::weak_ptr<const TriangleMesh> mesh;
  std::shared_ptr<const Bvh> bvh;
};
std::mutex cacheMutex;
std::unordered_map<const TriangleMesh*, Entry>& cache() {
  static std::unordered_map<const TriangleMesh*, Entry> c;
  return c;
}
}  // namespace

std::shared_ptr<const Bvh> bvhFor(const std::shared_ptr<const TriangleMesh>& mesh) {
  static const auto emptyBvh = std::make_shared<const Bvh>();
  if (!mesh) return emptyBvh;
  {
    std::lock_guard lock(cacheMutex);
    auto it = cache().find(mesh.get());
    if (it != cache().end() && !it->second.mesh.expired() && it->second.mesh.lock() == mesh) return it->second.bvh;
  }
  auto bvh = std::make_shared<const Bvh>(*mesh);  // built outside the lock
  std::lock_guard lock(cacheMutex);
  // Sweep entries of freed meshes now and then so the cache cannot grow without bound.
  for (auto it = cache().begin(); it != cache().end();)
    it = it->second.mesh.expired() ? cache().erase(it) : std::next(it);
  cache()[mesh.get()] = Entry{mesh, bvh};
  return bvh;
}

void clearBvhCache() {
  std::lock_guard lock(cacheMutex);
  cache().clear();
}

std::size_t bvhCacheSize() {
  std::lock_guard lock(cacheMutex);
  return cache().size();
}

}  // namespace sg
