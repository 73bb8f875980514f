#include "contact/ContactCache.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "contact/MotionBound.h"
#include "contact/PairContacts.h"
#include "geometry/BvhCache.h"
#include "geometry/SeparationBound.h"
#include "geometry/ShapePairs.h"

namespace sg {

namespace {

// Bit for bit: −0 and +0 may lead a query down different branches, and NaN never matches (a fresh query).
bool sameBits(const double* a, const double* b, std::size_t n) { return std::memcmp(a, b, n * sizeof(double)) == 0; }
bool sameCachedPose(const Transform& a, const Transform& b) {
  return sameBits(a.rotation().coeffs().data(), b.rotation().coeffs().data(), 4) &&
         sameBits(a.translation().data(), b.translation().data(), 3);
}
bool sameDouble(double a, double b) { return sameBits(&a, &b, 1); }

bool samePrimitive(const std::optional<Primitive>& a, const std::optional<Primitive>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  if (a->shape.index() != b->shape.index() || !sameCachedPose(a->X_BS, b->X_BS)) return false;
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

// Everything but the poses: a distance bound certified for these meshes, primitives and options stays valid.
bool sameGeometry(const PairKey& k, const World& world, const BodyPair& pair, const ContactQueryOptions& options) {
  if (!(k.pair == pair)) return false;
  const Body& a = world.body(pair.first);
  const Body& b = world.body(pair.second);
  return k.meshA == a.mesh && k.meshB == b.mesh && sameOptions(k.options, options) &&
         samePrimitive(k.primitiveA, a.primitive) && samePrimitive(k.primitiveB, b.primitive);
}

constexpr double kCacheInf = std::numeric_limits<double>::infinity();
// A pair is skipped only while its bound, less the motion since its reference, exceeds threshold + this: it
// covers the rounding of the bound and of the motion (~1e-10 mm) and the round-off margin the queries accept
// beyond the threshold (geometry/ContactAcceptance.h: below 1e-3 mm for scenes up to 1.7e10 mm), as
// PairScreen.cpp's kMargin_mm does.
constexpr double kCacheMargin_mm = 1e-3;
// How far beyond that limit a bound is certified (the cap of meshSeparationBound): a dragged hand's updates
// move a link by tenths of a millimetre, and a small cap keeps the certificate's traversal shallow.
constexpr double kLookahead_mm = 1;
// After a failed certificate the pair's next 2^failures − 1 (at most this many) empty results try none.
constexpr int kMaxWait = 8;

struct Ball {
  Vec3 center = Vec3::Zero();
  double radius_mm = 0;
  bool unbounded = false;
};

}  // namespace

struct ContactCache::Impl {
  struct Entry {
    PairKey key;  // the poses of `result`
    std::shared_ptr<const Bvh> bvhA, bvhB;
    Ball ballA, ballB;
    bool exact = false;  // the pair has a closed form (ShapePairs.h)
    bool known = false;  // `result` holds the answer at the key's poses
    PairQueryResult result;
    bool lastEmpty = false;  // the last query found no contact
    // The distance bound: at poses refA, refB the pair was at least lower_mm apart.
    bool bounded = false;
    double lower_mm = 0;
    Transform refA, refB;
    // For the motion bound, at the reference: the balls' centres in the world and each in the other body's
    // frame, and the relative rotation q_A* q_B (PairScreen.h keeps the same).
    Vec3 refCenterA_W = Vec3::Zero(), refCenterB_W = Vec3::Zero(), refCenterB_A = Vec3::Zero(),
         refCenterA_B = Vec3::Zero();
    Quat refRotationAB = Quat::Identity();
    int failures = 0, wait = 0;  // certificates failed in a row; empty results before the next try
    // Triangle pairs that intersected in the last colliding queries of these BVHs (PairContacts.h): a pair
    // pressed into another stays colliding while dragged, and one intersection test then settles a query.
    PairWitnesses witnesses;
  };
  std::vector<Entry> entries;  // the last call's pairs, in its order
  std::vector<bool> reused, apart;
};

namespace {

using Entry = ContactCache::Impl::Entry;

// How far any point of one body can have come toward the other since the reference poses: the bodies' own
// motions (summed) and, when that does not keep the bound above `limit`, the smaller with the relative motion of
// either ball in the other body's frame (the distance depends on the relative pose only). src/contact/README.md
// §Pair screening, the same rule.
double movedSinceReference(const Entry& e, const Transform& X_WA, const Transform& X_WB, double limit) {
  const auto own = [](const Ball& ball, const Transform& ref, const Transform& X, const Vec3& refCenter_W) {
    if (sameCachedPose(ref, X)) return 0.0;
    if (ball.unbounded) return kCacheInf;
    return maxDisplacement((X * ball.center - refCenter_W).norm(), sinHalfAngle(ref.rotation(), X.rotation()),
                           ball.radius_mm);
  };
  double moved = own(e.ballA, e.refA, X_WA, e.refCenterA_W) + own(e.ballB, e.refB, X_WB, e.refCenterB_W);
  if (e.lower_mm - moved > limit) return moved;
  const Quat qA = X_WA.rotation().conjugate();
  const double turn = sinHalfAngle(e.refRotationAB, qA * X_WB.rotation());
  if (!e.ballB.unbounded) {  // B's ball in A's frame
    const Vec3 now = qA * (X_WB * e.ballB.center - X_WA.translation());
    moved = std::min(moved, maxDisplacement((now - e.refCenterB_A).norm(), turn, e.ballB.radius_mm));
  }
  if (!e.ballA.unbounded) {  // A's ball in B's frame
    const Vec3 now = X_WB.rotation().conjugate() * (X_WA * e.ballA.center - X_WB.translation());
    moved = std::min(moved, maxDisplacement((now - e.refCenterA_B).norm(), turn, e.ballA.radius_mm));
  }
  return moved;
}

// Tries to certify that the pair is farther apart than `limit` at its current poses (PairScreen::measure: the
// closed form, else meshSeparationBound with a small cap); on success the entry keeps the bound and poses.
bool certifyApart(Entry& e, double limit) {
  if (e.ballA.unbounded && e.ballB.unbounded) return false;
  const PairSide a{e.key.primitiveA ? &*e.key.primitiveA : nullptr, e.bvhA.get(), e.key.X_WA};
  const PairSide b{e.key.primitiveB ? &*e.key.primitiveB : nullptr, e.bvhB.get(), e.key.X_WB};
  double lower = -kCacheInf;
  bool measured = false;
  if (e.exact)
    if (const auto r = exactSeparation(a, b)) {
      lower = r->colliding ? 0.0 : std::max(0.0, r->separation_mm);
      measured = true;
    }
  if (!measured) {
    // An empty mesh bounds nothing (meshSeparationBound gives +∞ for it) while a closed form may still report
    // contacts of its body: no certificate then.
    if (e.bvhA->empty() || e.bvhB->empty()) return false;
    lower = meshSeparationBound(*e.bvhA, e.key.X_WA, *e.bvhB, e.key.X_WB, limit + kLookahead_mm);
  }
  if (lower > limit) {
    e.bounded = true;
    e.lower_mm = lower;
    e.refA = e.key.X_WA;
    e.refB = e.key.X_WB;
    e.refCenterA_W = e.refA * e.ballA.center;
    e.refCenterB_W = e.refB * e.ballB.center;
    e.refCenterB_A = e.refA.rotation().conjugate() * (e.refCenterB_W - e.refA.translation());
    e.refCenterA_B = e.refB.rotation().conjugate() * (e.refCenterA_W - e.refB.translation());
    e.refRotationAB = e.refA.rotation().conjugate() * e.refB.rotation();
    e.failures = 0;
    return true;
  }
  e.failures = std::min(e.failures + 1, 4);
  e.wait = std::min(kMaxWait, (1 << e.failures) - 1);
  return false;
}

}  // namespace

ContactCache::ContactCache() : impl_(std::make_unique<Impl>()) {}
ContactCache::~ContactCache() = default;
ContactCache::ContactCache(ContactCache&&) noexcept = default;
ContactCache& ContactCache::operator=(ContactCache&&) noexcept = default;

void ContactCache::clear() {
  if (!impl_) impl_ = std::make_unique<Impl>();  // a moved-from cache
  impl_->entries.clear();
  impl_->reused.clear();
  impl_->apart.clear();
}

const std::vector<bool>& ContactCache::reusedInLastCall() const {
  static const std::vector<bool> none;
  return impl_ ? impl_->reused : none;
}

const std::vector<bool>& ContactCache::certifiedApartInLastCall() const {
  static const std::vector<bool> none;
  return impl_ ? impl_->apart : none;
}

std::vector<Contact> findContacts(const World& world, const WorldState& state, const std::vector<BodyPair>& pairs,
                                  const CollisionSettings& settings, ContactCache& cache,
                                  std::vector<RawPairContacts>* raw) {
  if (!cache.impl_) cache.clear();
  ContactCache::Impl& impl = *cache.impl_;
  ContactQueryOptions options = settings.contacts;
  options.keepRawPoints = raw != nullptr;
  const double limit = settings.contacts.threshold_mm + kCacheMargin_mm;
  // Usually the same pairs in the same order as last time: then the entries are updated in place.
  const bool sameOrder = impl.entries.size() == pairs.size() &&
                         std::equal(pairs.begin(), pairs.end(), impl.entries.begin(),
                                    [](const BodyPair& p, const Entry& e) { return p == e.key.pair; });
  std::vector<Entry> next;
  if (!sameOrder) next.reserve(pairs.size());
  impl.reused.assign(pairs.size(), false);
  impl.apart.assign(pairs.size(), false);
  std::vector<Contact> out;
  const auto freshEntry = [&](const BodyPair& pair, const Transform& X_WA, const Transform& X_WBb) {
    const Body& a = world.body(pair.first);
    const Body& b = world.body(pair.second);
    Entry e;
    e.key = {pair, a.mesh, b.mesh, a.primitive, b.primitive, X_WA, X_WBb, options};
    e.bvhA = bvhFor(a.mesh);
    e.bvhB = bvhFor(b.mesh);
    const Primitive* pa = a.primitive ? &*a.primitive : nullptr;
    const Primitive* pb = b.primitive ? &*b.primitive : nullptr;
    e.ballA = ballOf<Ball>(*e.bvhA, pa);
    e.ballB = ballOf<Ball>(*e.bvhB, pb);
    e.exact = hasExactPairQuery({pa, e.bvhA.get(), {}}, {pb, e.bvhB.get(), {}});
    return e;
  };
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const BodyPair& pair = pairs[i];
    const Transform& X_WA = X_WB(state, pair.first);
    const Transform& X_WBb = X_WB(state, pair.second);
    Entry* slot = nullptr;
    if (sameOrder) {
      slot = &impl.entries[i];
      if (!sameGeometry(slot->key, world, pair, options)) *slot = freshEntry(pair, X_WA, X_WBb);
    } else {
      const auto old =
          std::find_if(impl.entries.begin(), impl.entries.end(), [&](const auto& e) { return e.key.pair == pair; });
      if (old != impl.entries.end() && sameGeometry(old->key, world, pair, options)) next.push_back(std::move(*old));
      else next.push_back(freshEntry(pair, X_WA, X_WBb));
      slot = &next.back();
    }
    Entry& e = *slot;
    if (e.known && sameCachedPose(e.key.X_WA, X_WA) && sameCachedPose(e.key.X_WB, X_WBb)) {
      impl.reused[i] = true;
    } else {
      e.key.X_WA = X_WA;
      e.key.X_WB = X_WBb;
      e.known = true;
      if (e.bounded && e.lower_mm - movedSinceReference(e, X_WA, X_WBb, limit) > limit) {
        e.result = {};  // farther apart than the threshold: what the query would find
        impl.apart[i] = true;
      } else {
        e.bounded = false;
        // A pair that had no contact last time is likely still apart: certify that first (about one collision
        // test), and query only when it fails.
        const bool tried = e.lastEmpty && e.wait == 0;
        if (tried && certifyApart(e, limit)) {
          e.result = {};
          impl.apart[i] = true;
        } else {
          const PairSide sa{e.key.primitiveA ? &*e.key.primitiveA : nullptr, e.bvhA.get(), X_WA};
          const PairSide sb{e.key.primitiveB ? &*e.key.primitiveB : nullptr, e.bvhB.get(), X_WBb};
          e.result = queryPair(sa, sb, settings, raw != nullptr, &e.witnesses);
          e.lastEmpty = e.result.points.empty() && !e.result.penetrating;
          if (e.lastEmpty && !tried) {
            if (e.wait > 0) --e.wait;
            else certifyApart(e, limit);  // for the next call
          }
        }
      }
    }
    appendPairContacts(world, pair, e.result, settings.contacts.threshold_mm, out, raw, false);
  }
  if (!sameOrder) impl.entries = std::move(next);
  return out;
}

}  // namespace sg
