#include "contact/ContactCache.h"

#include <algorithm>
#include <cstring>

#include "contact/PairContacts.h"
#include "geometry/BvhCache.h"

namespace sg {

namespace {

// Bit for bit: −0 and +0 may lead a query down different branches, and NaN never matches (a fresh query).
bool sameBits(const double* a, const double* b, std::size_t n) { return std::memcmp(a, b, n * sizeof(double)) == 0; }
bool samePose(const Transform& a, const Transform& b) {
  return sameBits(a.rotation().coeffs().data(), b.rotation().coeffs().data(), 4) &&
         sameBits(a.translation().data(), b.translation().data(), 3);
}
bool sameDouble(double a, double b) { return sameBits(&a, &b, 1); }

bool samePrimitive(const std::optional<Primitive>& a, const std::optional<Primitive>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  if (a->shape.index() != b->shape.index() || !samePose(a->X_BS, b->X_BS)) return false;
  // Every shape is plain doubles (Shapes.h): compared as such.
  return std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        static_assert(sizeof(T) % sizeof(double) == 0 || sizeof(T) == 1, "a shape of doubles");
        const T& y = std::get<T>(b->shape);
        return sizeof(T) < sizeof(double) ||
               sameBits(reinterpret_cast<const double*>(&x), reinterpret_cast<const double*>(&y),
                        sizeof(T) / sizeof(double));
      },
      a->shape);
}

// Every field of the options the query reads (ProximityContacts.h); a new field must be added here.
bool sameOptions(const ContactQueryOptions& a, const ContactQueryOptions& b) {
  static_assert(sizeof(ContactQueryOptions) == 7 * sizeof(double), "ContactQueryOptions changed: compare its new field");
  return sameDouble(a.threshold_mm, b.threshold_mm) && sameDouble(a.duplicateRadius_mm, b.duplicateRadius_mm) &&
         a.compact == b.compact && sameDouble(a.normalGroupCosine, b.normalGroupCosine) &&
         sameDouble(a.minPointSpacing_mm, b.minPointSpacing_mm) &&
         sameDouble(a.collinearTolerance_mm, b.collinearTolerance_mm) && a.keepRawPoints == b.keepRawPoints &&
         a.acceptIntersecting == b.acceptIntersecting;
}

// What a pair's query depends on. The meshes are held, so an address can never be reused by another mesh
// while it is compared (meshes are immutable, BvhCache.h).
struct PairKey {
  BodyPair pair;
  std::shared_ptr<const TriangleMesh> meshA, meshB;
  std::optional<Primitive> primitiveA, primitiveB;
  Transform X_WA, X_WB;
  ContactQueryOptions options;  // keepRawPoints: whether raw points were asked for
};

bool sameKey(const PairKey& k, const World& world, const WorldState& state, const BodyPair& pair,
             const ContactQueryOptions& options) {
  if (!(k.pair == pair)) return false;
  const Body& a = world.body(pair.first);
  const Body& b = world.body(pair.second);
  return samePose(k.X_WA, X_WB(state, pair.first)) && samePose(k.X_WB, X_WB(state, pair.second)) &&
         k.meshA == a.mesh && k.meshB == b.mesh && sameOptions(k.options, options) &&
         samePrimitive(k.primitiveA, a.primitive) && samePrimitive(k.primitiveB, b.primitive);
}

}  // namespace

struct ContactCache::Impl {
  struct Entry {
    PairKey key;
    PairQueryResult result;
  };
  std::vector<Entry> entries;  // the last call's pairs, in its order
  std::vector<bool> reused;
};

ContactCache::ContactCache() : impl_(std::make_unique<Impl>()) {}
ContactCache::~ContactCache() = default;
ContactCache::ContactCache(ContactCache&&) noexcept = default;
ContactCache& ContactCache::operator=(ContactCache&&) noexcept = default;

void ContactCache::clear() {
  if (!impl_) impl_ = std::make_unique<Impl>();  // a moved-from cache
  impl_->entries.clear();
  impl_->reused.clear();
}

const std::vector<bool>& ContactCache::reusedInLastCall() const {
  static const std::vector<bool> none;
  return impl_ ? impl_->reused : none;
}

std::vector<Contact> findContacts(const World& world, const WorldState& state, const std::vector<BodyPair>& pairs,
                                  const CollisionSettings& settings, ContactCache& cache,
                                  std::vector<RawPairContacts>* raw) {
  if (!cache.impl_) cache.clear();
  ContactCache::Impl& impl = *cache.impl_;
  ContactQueryOptions options = settings.contacts;
  options.keepRawPoints = raw != nullptr;
  std::vector<ContactCache::Impl::Entry> next;
  next.reserve(pairs.size());
  impl.reused.assign(pairs.size(), false);
  std::vector<Contact> out;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const BodyPair& pair = pairs[i];
    // Usually the same pairs in the same order as last time: look at slot i first.
    auto old = impl.entries.end();
    if (i < impl.entries.size() && impl.entries[i].key.pair == pair)
      old = impl.entries.begin() + static_cast<std::ptrdiff_t>(i);
    else
      old = std::find_if(impl.entries.begin(), impl.entries.end(), [&](const auto& e) { return e.key.pair == pair; });
    if (old != impl.entries.end() && sameKey(old->key, world, state, pair, options)) {
      next.push_back(std::move(*old));
      impl.reused[i] = true;
    } else {
      const Body& a = world.body(pair.first);
      const Body& b = world.body(pair.second);
      PairKey key{pair, a.mesh, b.mesh, a.primitive, b.primitive, X_WB(state, pair.first), X_WB(state, pair.second),
                  options};
      const std::shared_ptr<const Bvh> bvhA = bvhFor(a.mesh), bvhB = bvhFor(b.mesh);
      const PairSide sa{a.primitive ? &*a.primitive : nullptr, bvhA.get(), key.X_WA};
      const PairSide sb{b.primitive ? &*b.primitive : nullptr, bvhB.get(), key.X_WB};
      next.push_back({std::move(key), queryPair(sa, sb, settings, raw != nullptr)});
    }
    appendPairContacts(world, pair, next.back().result, settings.contacts.threshold_mm, out, raw, false);
  }
  impl.entries = std::move(next);
  return out;
}

}  // namespace sg
