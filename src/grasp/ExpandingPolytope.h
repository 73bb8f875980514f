#pragma once
// The expanding polytope of the support-function ε solver (src/grasp/SupportEpsilon.cpp; QUALITY.md "ε from
// support functions", step 3): a simplicial polytope grown inside the wrench set by inserting support points, and
// the per-thread workspace it lives in. Internal to SupportEpsilon.cpp (its only includer); a header because the
// polytope is a template over the used dimension, instantiated with the solver.

#include <algorithm>
#include <cmath>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <Eigen/QR>

namespace sg::support_polytope {

constexpr int kMaxDim = 6;
// Packed coordinates (the used dimensions only); fixed capacity, no heap allocation.
using VecD = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxDim, 1>;
using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDim, kMaxDim>;
constexpr double kInf = std::numeric_limits<double>::infinity();

// --- the expanding polytope (QUALITY.md "ε from support functions", step 3) ----------------------------
// A simplicial polytope P ⊆ W around an interior point c, facets oriented away from c. Inserting a point
// q outside P removes the facets q sees (found by a walk from one seen facet) and cones q over the horizon.
// Coordinates are packed into the first d of six (the rest zero), so every vector op is fixed-size.
using P6 = Eigen::Matrix<double, 6, 1>;

// Two cache lines: the first holds what the visibility test reads (normal, offset, the distance it
// writes), the second the links and the marks.
struct alignas(64) Facet {
  P6 n;                           // unit outward normal
  double b;                       // offset: n·x = b on the facet (signed distance of its plane from 0)
  double dist;                    // scratch: distance of the point being inserted (valid when marked)
  std::array<int, kMaxDim> nb;    // nb[k]: the facet across the ridge opposite v[k]
  std::array<int, kMaxDim> v;     // vertices (first d used), ascending ids
  std::array<std::uint8_t, kMaxDim> back;  // back[k]: the slot of facet nb[k] that points back here
  int mark;                       // +round: seen this round; −round: tested, not seen
  bool alive;
  Facet() : n(P6::Zero()), b(0), dist(0), nb{}, v{}, back{}, mark(0), alive(true) {}
  // A slot that tryAdd fills completely (vertices, neighbours, normal) before it is read: only the
  // bookkeeping is set, so growing the array does not zero the whole facet.
  struct Uninitialized {};
  explicit Facet(Uninitialized) : mark(0), alive(false) {}
};
static_assert(sizeof(Facet) == 128, "a facet fills two cache lines");

inline P6 pad(const VecD& x) {
  P6 p = P6::Zero();
  p.head(x.size()) = x;
  return p;
}

// How a support point was found, so that a warm start can find "the same" point of a moved set (QUALITY.md §Warm
// start): the query direction, and for explicit wrenches which wrench of each contact the point sums (the L1
// set: choice[0] = the wrench's column; the L∞ set: per contact its column, −1 for none; unused: −2).
// The exact cones' L1 set also records the point on its contact's cone ((x, y, z), ExactConePoint.h), so that the
// vertex stays the same point of the moved cone: along a fixed direction, a disc's support point jumps across it
// when the disc turns through that direction.
constexpr int kMaxChoices = 16;
struct Origin {
  P6 u = P6::Zero();
  std::array<std::int16_t, kMaxChoices> choice{};
  Eigen::Vector3d xyz = Eigen::Vector3d::Zero();
};

// D = the number of used coordinates (2…6), a compile-time constant so the small loops unroll.
template <int D>
class Polytope {
 public:
  // Clears P, keeping the buffers' capacity (one workspace per thread is reused across calls).
  void reset(double tolVisible) {
    tol_ = tolVisible;
    pts_.clear();
    dirs_.clear();
    steps_.clear();
    reusable_ = true;
    refitFailed_ = false;
    warmStale_ = false;
    facets_.clear();
    free_.clear();
    offsets_.clear();
    fit_.clear();
    epoch_ = 0;
    blockMin_.clear();
    cutoff_ = kInf;
    live_ = 0;
    round_ = 0;
    perturbed_ = 0;
    created_ = 0;
  }

  // d+1 affinely independent points (found along `dirs`, the query directions); c = their centroid.
  bool init(const std::vector<VecD>& simplex, const std::vector<Origin>& origins) {
    c_ = P6::Zero();
    for (std::size_t i = 0; i < simplex.size(); ++i) {
      pts_.push_back(pad(simplex[i]));
      dirs_.push_back(origins[i]);
      steps_.push_back(0);
      c_ += pts_.back();
    }
    c_ /= static_cast<double>(simplex.size());
    for (int i = 0; i <= d_; ++i) {
      Facet f;
      int slot = 0;
      // Facet j omits vertex j; vertex i sits in its slot i (i < j) or i − 1 (i > j).
      for (int j = 0; j <= d_; ++j)
        if (j != i) {
          f.v[static_cast<std::size_t>(slot)] = j;
          f.nb[static_cast<std::size_t>(slot)] = j;
          f.back[static_cast<std::size_t>(slot)] = static_cast<std::uint8_t>(i < j ? i : i - 1);
          ++slot;
        }
      if (!orientByQR(f)) return false;
      facets_.push_back(f);
    }
    growOffsets();
    for (std::size_t i = 0; i < facets_.size(); ++i) setOffset(i, facets_[i].b);
    live_ = d_ + 1;
    return true;
  }

  // The solver has converged before it would pick a facet above the cutoff (its upper bound, which only
  // decreases).
  void setCutoff(double cutoff) { cutoff_ = std::min(cutoff_, cutoff); }

  // The live facet of smallest offset (−1 if every live facet is above the cutoff). ~60 picks per solve
  // against ~8,000 new facets: a heap's pushes and stale pops cost more than picking from the offsets
  // (+∞ in dead slots), and its comparisons are branches the predictor cannot guess. Each block of 64
  // slots keeps a lower bound of its offsets (exact when set, left low when a facet dies), so a pick scans
  // the blocks' bounds and then the lowest block, which it makes exact; if that raised its bound above
  // another block's, it picks again.
  int lowest() {
    for (;;) {
      std::size_t block = 0;
      double bound = kInf;
      for (std::size_t k = 0; k < blockMin_.size(); ++k)
        if (blockMin_[k] < bound) { bound = blockMin_[k]; block = k; }
      if (!(bound < kInf) || !(bound <= cutoff_)) return -1;  // no live facet, or none below the cutoff
      const std::size_t first = block * kBlock, last = std::min(first + kBlock, offsets_.size());
      double best = kInf;
      std::size_t id = first;
      for (std::size_t i = first; i < last; ++i)
        if (offsets_[i] < best) { best = offsets_[i]; id = i; }
      if (best == bound) return static_cast<int>(id);
      blockMin_[block] = best;
    }
  }
  const Facet& facet(int i) const { return facets_[static_cast<std::size_t>(i)]; }
  double distance(int i, const P6& q) const { return facet(i).n.dot(q) - facet(i).b; }
  VecD normal(int i) const { return facet(i).n.head(d_); }

  // Inserts q (the support point along u) if some facet sees it; false if it could not be inserted (P unchanged).
  bool addIfOutside(const VecD& x, const Origin& u) {
    const P6 q = pad(x);
    int best = -1;
    double bestDist = tol_;
    for (std::size_t i = 0; i < facets_.size(); ++i)
      if (facets_[i].alive) {
        const double dist = distance(static_cast<int>(i), q);
        if (dist > bestDist) { bestDist = dist; best = static_cast<int>(i); }
      }
    return best < 0 || add(x, u, best);
  }

  // Inserts q, which `seen` sees, with the visibility tolerance (±). Degenerate input can leave q on (to
  // round-off) the hyperplanes of facets next to the ones it sees, and a new facet through q and a nearby
  // ridge is then thin: its tilt, set by q's round-off distances, can leave a horizon that is not a
  // manifold. Typical: a contact's exact set is an ellipsoid or a disc in a 3-D or 2-D flat, every facet
  // with enough vertices on it contains the whole flat, and each new support point on that contact lies on
  // all of their hyperplanes. Then q is moved towards the interior point c by a relative step in [δ, 2δ),
  // then ten times that (setPerturbation): q' = q + step·(c − q) is still in W (W convex, c ∈ W), so P ⊆ W
  // holds, and q' lies clearly inside those hyperplanes. Last, wider visibility thresholds. False when all
  // fail; P is then unchanged.
  void setPerturbation(double delta) { delta_ = delta; }
  bool add(const VecD& x, const Origin& u, int seen) {
    if (pts_.size() >= kMaxVertices) return false;
    const P6 q0 = pad(x);
    auto attempt = [&](double delta, double t) {
      // The step varies from point to point in [δ, 2δ): one common step would map a flat onto a parallel
      // flat, and the points moved off it would be coplanar again.
      const double golden = 0.6180339887498949 * static_cast<double>(pts_.size());
      const double step = delta * (1 + (golden - std::floor(golden)));
      const P6 q = delta > 0 ? P6(q0 + step * (c_ - q0)) : q0;
      if (!(t < distance(seen, q))) return false;
      pts_.push_back(q);
      if (warmStale_ ? tryAdd<true>(q, seen, t) : tryAdd<false>(q, seen, t)) {
        dirs_.push_back(u);
        steps_.push_back(delta > 0 ? step : 0.0);
        return true;
      }
      pts_.pop_back();
      return false;
    };
    for (const double delta : {0.0, delta_, 10 * delta_}) {
      if (delta != 0 && !(delta_ > 0)) continue;
      for (const double t : {tol_, -tol_}) {
        if (attempt(delta, t)) {
          perturbed_ += delta > 0 ? 1 : 0;
          return true;
        }
        if (refitFailed_) return false;  // a warm polytope that did not survive the move: solve cold
      }
    }
    for (const double t : {1e3 * tol_, -1e3 * tol_})
      if (attempt(0.0, t)) return true;
    return false;
  }
  int perturbedCount() const { return perturbed_; }
  // Facets made by insertions since the last reset (the initial simplex's not counted; rebuilds start over).
  int createdCount() const { return created_; }

  int vertexCount() const { return static_cast<int>(pts_.size()); }
  std::vector<VecD> vertices() const {
    std::vector<VecD> out;
    for (const auto& p : pts_) out.emplace_back(p.head(d_));
    return out;
  }
  int facetCount() const { return live_; }

  // --- warm start (QUALITY.md §Warm start): the polytope of the previous solve, its vertices moved ---------
  // False after a rebuild (its vertices' directions and steps no longer describe them): the next solve is cold.
  bool reusable() const { return reusable_; }
  bool refitFailed() const { return refitFailed_; }  // since markMoved: a stale facet could not be refitted
  void markNotReusable() { reusable_ = false; }
  void setTolerance(double tolVisible) { tol_ = tolVisible; }
  const Origin& origin(int k) const { return dirs_[static_cast<std::size_t>(k)]; }
  double step(int k) const { return steps_[static_cast<std::size_t>(k)]; }
  const P6& vertex(int k) const { return pts_[static_cast<std::size_t>(k)]; }
  // Facet slots (live and dead), a slot's offset (a stale facet's: its lower bound) and whether its plane is exact.
  int slotCount() const { return static_cast<int>(facets_.size()); }
  double bound(int i) const { return offsets_[static_cast<std::size_t>(i)]; }
  bool exact(int i) const { return fit_[static_cast<std::size_t>(i)] == epoch_; }
  void moveVertex(int k, const P6& p) { pts_[static_cast<std::size_t>(k)] = p; }
  void setInterior(const P6& c) { c_ = c; }
  const P6& interior() const { return c_; }

  // After the vertices moved by at most `moved`: every facet keeps its plane, marked stale, its offset replaced by
  // offset − `moved`, a lower bound of its distance from the origin now (each point of it moved by at most that).
  // A stale facet is refitted only when it is needed exact: when it is the lowest (lowestExact: a bound below every
  // other offset) or when an insertion's walk reads it (tryAdd). A drag moves the low facets a little, and the
  // others, most of a smooth set's polytope, are never refitted. No convexity is asked for: QUALITY.md §Warm start
  // explains why the lowest offset still bounds ε.
  // The facets themselves are not touched (~4,700 of 128 bytes on the default grasp's ε L∞, more than a core's
  // L2 cache): a facet is stale when its fit epoch is not the current one, and its bound lives in the offsets
  // array only (its b is the offset of its last refit until it is refitted again).
  void markMoved(double moved) {
    cutoff_ = kInf;
    created_ = 0;
    perturbed_ = 0;
    refitFailed_ = false;
    warmStale_ = true;
    if (++epoch_ == 0) {  // the epoch wrapped around: no fit epoch may equal the current one by chance
      std::fill(fit_.begin(), fit_.end(), 0u);
      epoch_ = 1;
    }
    // x − moved is monotone in x, so each block's bound stays below its offsets (+∞ stays +∞).
    for (double& b : offsets_) b -= moved;
    for (double& b : blockMin_) b -= moved;
  }
  // Right after markMoved: refits every stale facet whose bound lies below the lowest exact offset, in one pass
  // over the offsets rather than by picks (QUALITY.md §Warm start: the picks' block scans cost more than the refits).
  // The threshold E starts at the exact offset of the facet of lowest bound, and every facet whose bound is below
  // the current E is refitted (E takes its offset if lower); afterwards every facet left stale has a bound ≥ E, the
  // lowest exact offset, as lowestExact would leave it. False if a refit failed (as lowestExact's −2).
  bool refitBelowLowest() {
    const int lowestId = lowest();  // the facet of lowest bound (cutoff_ is +∞ after markMoved)
    if (lowestId < 0) return true;
    const auto first = static_cast<std::size_t>(lowestId);
    if (!refitStale(first)) return false;
    double exact = facets_[first].b;
    offsets_[first] = exact;
    blockMin_[first / kBlock] = std::min(blockMin_[first / kBlock], exact);  // its bound may exceed it by round-off
    // Block by block: a block whose bound is not below E holds no candidate (E only falls), and the bounds of the
    // blocks scanned are made exact in the same pass.
    for (std::size_t k = 0; k < blockMin_.size(); ++k) {
      if (!(blockMin_[k] < exact)) continue;
      const std::size_t begin = k * kBlock, end = std::min(begin + kBlock, offsets_.size());
      double lowestInBlock = kInf;
      for (std::size_t i = begin; i < end; ++i) {
        if (offsets_[i] < exact && fit_[i] != epoch_) {
          // A tighter bound first: every point x of the moved facet has n·x ≥ min over its vertices of n·v (n its
          // old unit normal), so |x| ≥ that too; it counts only the moves along n, and most candidates end here.
          const Facet& f = facets_[i];
          double tilted = kInf;
          for (int m = 0; m < d_; ++m)
            tilted = std::min(tilted, f.n.dot(pts_[static_cast<std::size_t>(f.v[static_cast<std::size_t>(m)])]));
          if (tilted > offsets_[i]) offsets_[i] = tilted;
          if (offsets_[i] < exact) {
            if (!refitStale(i)) return false;
            offsets_[i] = facets_[i].b;
            exact = std::min(exact, facets_[i].b);
          }
        }
        lowestInBlock = std::min(lowestInBlock, offsets_[i]);
      }
      blockMin_[k] = lowestInBlock;
    }
    return true;
  }
  // The live facet of smallest offset with an exact plane (−1 none below the cutoff, −2 a stale facet could not
  // be refitted: degenerate, turned by more than 60°, or its offset not positive). A stale offset bounds the exact
  // one from below, so refitting the lowest until it is exact gives the lowest exact offset.
  // A refit raises the facet's offset; rather than pick again over every block, the refits go on inside the block
  // while its lowest offset is stale and below every other block's bound (those refits are the ones a pick over
  // all blocks would make next), then the block's bound is made exact and the pick starts over.
  int lowestExact() {
    for (;;) {
      const int i = lowest();
      if (i < 0) return i;
      if (fit_[static_cast<std::size_t>(i)] == epoch_) return i;
      const std::size_t block = static_cast<std::size_t>(i) / kBlock;
      double others = kInf;
      for (std::size_t k = 0; k < blockMin_.size(); ++k)
        if (k != block) others = std::min(others, blockMin_[k]);
      const std::size_t first = block * kBlock, last = std::min(first + kBlock, offsets_.size());
      for (std::size_t id = static_cast<std::size_t>(i);;) {
        if (!refitStale(id)) return -2;
        offsets_[id] = facets_[id].b;
        double best = kInf;
        for (std::size_t j = first; j < last; ++j)
          if (offsets_[j] < best) { best = offsets_[j]; id = j; }
        blockMin_[block] = best;
        if (!(best <= others) || fit_[id] == epoch_) break;
      }
    }
  }
  // A lower bound of the surface's distance from the origin: the smallest offset, stale facets' bounds included.
  double clearance() const { return minOffset(); }
  // A lower bound of it without a pass over the offsets: the smallest block bound (each ≤ its block's offsets, but
  // left low when a facet dies). After refitBelowLowest every block bound below the lowest exact offset is exact, so
  // on a warm polytope this is the clearance, or below it by what the insertions' dead facets left.
  double blockClearance() const {
    double m = kInf;
    for (const double b : blockMin_) m = std::min(m, b);
    return m;
  }
  // The smallest offset of a live facet (+∞ without facets).
  double minOffset() const {
    // Four running minima: one chain of dependent comparisons would wait on each (a warm ε L∞ solve reads ~5,000).
    std::array<double, 4> m = {kInf, kInf, kInf, kInf};
    const std::size_t n = offsets_.size(), n4 = n - n % 4;
    for (std::size_t i = 0; i < n4; i += 4)
      for (std::size_t j = 0; j < 4; ++j) m[j] = std::min(m[j], offsets_[i + j]);
    for (std::size_t i = n4; i < n; ++i) m[0] = std::min(m[0], offsets_[i]);
    return std::min(std::min(m[0], m[1]), std::min(m[2], m[3]));
  }

  // The plane through f's vertices: the old normal made orthogonal to the edges (modified Gram–Schmidt, twice),
  // accepted if it passes through every vertex to 10⁻³ of the visibility tolerance, else the Householder QR
  // oriented along the old normal. A facet that turned by more than 60° is not the same facet: false.
  bool refitPlane(Facet& f) {
    const P6 old = f.n;
    const P6& p0 = pts_[static_cast<std::size_t>(f.v[0])];
    std::array<P6, kMaxDim> e;
    for (int k = 1; k < d_; ++k) {
      P6 x = pts_[static_cast<std::size_t>(f.v[static_cast<std::size_t>(k)])] - p0;
      for (int pass = 0; pass < 2; ++pass)
        for (int j = 0; j + 1 < k; ++j) x -= e[static_cast<std::size_t>(j)].dot(x) * e[static_cast<std::size_t>(j)];
      const double len = x.norm();
      if (!(len > 0)) return false;
      e[static_cast<std::size_t>(k - 1)] = x / len;
    }
    P6 n = old;
    for (int pass = 0; pass < 2; ++pass)
      for (int j = 0; j + 1 < d_; ++j) n -= e[static_cast<std::size_t>(j)].dot(n) * e[static_cast<std::size_t>(j)];
    const double len = n.norm();
    if (!(len > 0.5)) return false;
    n /= len;
    double b = 0;
    for (int k = 0; k < d_; ++k) b += n.dot(pts_[static_cast<std::size_t>(f.v[static_cast<std::size_t>(k)])]);
    b /= d_;
    double dev = 0;
    for (int k = 0; k < d_; ++k)
      dev = std::max(dev, std::abs(n.dot(pts_[static_cast<std::size_t>(f.v[static_cast<std::size_t>(k)])]) - b));
    if (dev <= 1e-3 * tol_) {
      f.n = n;
      f.b = b;
      return true;
    }
    return orientByQR(f, old) && f.n.dot(old) > 0.5;
  }

 private:
  static constexpr std::size_t kMaxVertices = 65535;  // ridge keys hold 16-bit vertex ids

  // A stale facet's exact plane. The origin must stay strictly behind it: an insertion then cannot change how the
  // surface winds around it (QUALITY.md §Warm start). False (and the polytope unusable) otherwise.
  bool refitStale(std::size_t i) {
    Facet& f = facets_[i];
    if (!refitPlane(f) || !(f.b > tol_)) {
      refitFailed_ = true;
      return false;
    }
    fit_[i] = epoch_;
    return true;
  }

  // Stale: the polytope may hold stale facets (a warm start since markMoved), which the walk refits as it reads
  // them. A cold polytope has none, and its walk is compiled without that check: a possible call in the loop made
  // the compiler reload the buffers at every step (the cold exact-cone solve took 10 % more instructions).
  template <bool Stale>
  bool tryAdd(const P6& q, int seen, double threshold) {
    const int qi = static_cast<int>(pts_.size()) - 1;
    ++round_;
    {
      Facet& f = facets_[static_cast<std::size_t>(seen)];
      f.mark = round_;
      f.dist = f.n.dot(q) - f.b;
    }
    // The walk also lists the horizon ridges (seen facet, slot of the unseen neighbour) in the order the
    // coning below visits them. Both lists have room for every facet / ridge and one more (each step writes
    // its slot whether or not it keeps it): no reallocation in the loop. The steps have no branches on the
    // data: whether a neighbour is seen is a coin toss for the branch predictor, and a wrong guess costs
    // more than the distance computed again for a neighbour already tested (the same expression, so the
    // same value).
    if (visible_.size() <= facets_.size()) visible_.resize(facets_.size() + 1);
    if (horizon_.size() <= facets_.size() * static_cast<std::size_t>(d_))
      horizon_.resize(facets_.size() * static_cast<std::size_t>(d_) + 1);
    std::size_t nVisible = 1, nHorizon = 0;
    visible_[0] = seen;
    for (std::size_t k = 0; k < nVisible; ++k) {
      const int fi = visible_[k];
      const Facet& f = facet(fi);
      for (int s = 0; s < d_; ++s) {
        const int gi = f.nb[static_cast<std::size_t>(s)];
        Facet& fg = facets_[static_cast<std::size_t>(gi)];
        if constexpr (Stale) {
          if (fit_[static_cast<std::size_t>(gi)] != epoch_) {  // the walk reads its plane
            if (!refitStale(static_cast<std::size_t>(gi))) return false;
            setOffset(static_cast<std::size_t>(gi), fg.b);
          }
        }
        const bool wasSeen = fg.mark == round_;
        const double dist = fg.n.dot(q) - fg.b;
        const bool newlySeen = !wasSeen & (dist > threshold);
        const bool onHorizon = !wasSeen & !(dist > threshold);
        fg.dist = dist;
        fg.mark = static_cast<int>(wasSeen | newlySeen) * (2 * round_) - round_;  // ±round_, arithmetic
        visible_[nVisible] = gi;
        nVisible += newlySeen;
        horizon_[nHorizon] = {fi, s};
        nHorizon += onHorizon;
      }
    }
    // Cone q over the horizon (ridges between a seen and an unseen facet). The new facets go into free
    // slots, then new ones, not yet linked from the live facets (so a failure leaves P as it was); their
    // vertices stay ascending (the ridge's, then q, the newest id).
    // Sized once for this insertion (one slot per horizon ridge), written by index: no push_back in the loop.
    if (ids_.size() < nHorizon) { ids_.resize(nHorizon); links_.resize(nHorizon); }
    std::size_t nNew = 0;
    const std::size_t oldSize = facets_.size();
    // No reallocation below; growth is geometric (reserve alone would reallocate to the exact size, copying
    // every facet on each insertion that grows the array, until the thread's workspace is warm).
    if (facets_.capacity() < oldSize + nHorizon) facets_.reserve(std::max(oldSize + nHorizon, 2 * facets_.capacity()));
    std::size_t nextFree = free_.size();
    auto rollBack = [&] {
      for (std::size_t i = 0; i < nNew; ++i) facets_[static_cast<std::size_t>(ids_[i])].alive = false;
      facets_.resize(oldSize);
      return false;
    };
    for (std::size_t h = 0; h < nHorizon; ++h) {
      const auto [fi, s] = horizon_[h];
      const Facet& f = facet(fi);
      {
        const int g = f.nb[static_cast<std::size_t>(s)];
        const Facet& fg = facet(g);
        const int slot = f.back[static_cast<std::size_t>(s)];
        int id;
        if (nextFree > 0) id = free_[--nextFree];
        else { id = static_cast<int>(facets_.size()); facets_.emplace_back(Facet::Uninitialized{}); }
        ids_[nNew] = id;
        links_[nNew] = {g, slot};
        ++nNew;
        Facet& nf = facets_[static_cast<std::size_t>(id)];
        // f's vertices without v[s], in order (an index, not a branch), then q.
        for (int m = 0; m + 1 < d_; ++m) nf.v[static_cast<std::size_t>(m)] = f.v[static_cast<std::size_t>(m + (m >= s))];
        nf.v[static_cast<std::size_t>(d_ - 1)] = qi;
        nf.nb[static_cast<std::size_t>(d_ - 1)] = g;
        nf.back[static_cast<std::size_t>(d_ - 1)] = static_cast<std::uint8_t>(slot);
        nf.alive = false;
        if (!orientFromRidge(nf, f, fg, q) && !orientByQR(nf, P6(f.dist * fg.n - fg.dist * f.n))) return rollBack();
      }
    }
    if (!matchRidges(nNew)) return rollBack();
    // Commit: link the horizon to the new facets, free the seen ones.
    free_.resize(nextFree);
    growOffsets();
    for (std::size_t i = 0; i < nNew; ++i) {
      const int id = ids_[i];
      const auto [g, slot] = links_[i];
      facets_[static_cast<std::size_t>(g)].nb[static_cast<std::size_t>(slot)] = id;
      facets_[static_cast<std::size_t>(g)].back[static_cast<std::size_t>(slot)] = static_cast<std::uint8_t>(d_ - 1);
      Facet& nf = facets_[static_cast<std::size_t>(id)];
      nf.alive = true;
      nf.mark = 0;
      if constexpr (Stale) fit_[static_cast<std::size_t>(id)] = epoch_;  // a cold polytope's epoch is 0 throughout
      setOffset(static_cast<std::size_t>(id), nf.b);
    }
    const std::size_t freeBase = free_.size();
    free_.resize(freeBase + nVisible);
    for (std::size_t k = 0; k < nVisible; ++k) {
      const int fi = visible_[k];
      Facet& dead = facets_[static_cast<std::size_t>(fi)];
      dead.alive = false;
      offsets_[static_cast<std::size_t>(fi)] = kInf;
      free_[freeBase + k] = fi;
    }
    live_ += static_cast<int>(nNew) - static_cast<int>(nVisible);
    created_ += static_cast<int>(nNew);
    return true;
  }

  // The ridges through q: each new facet has d−1 of them, keyed by the d−2 horizon vertices they keep, and
  // each key must occur exactly twice (a manifold horizon). Keys: up to four ascending vertex ids of 16 bits
  // packed into one integer. The sides are sorted by a 16-bit hash of the key, so the two sides of a ridge
  // end up next to each other (two ridges whose keys share a hash are sorted by key). Unlike a hash table,
  // whose "first or second side?" is a coin toss for the branch predictor, no step branches on the data but
  // that rare case. Links are written as ids (ids_), so the facets can be committed into any slots.
  bool matchRidges(std::size_t nNew) {
    const std::size_t n = nNew * static_cast<std::size_t>(d_ - 1);
    if (n % 2 != 0) return false;
    if (sides_.size() < n) { sides_.resize(n); sorted_.resize(n); }
    std::size_t j = 0;
    // The counts of both radix digits (below) are taken as the sides are written.
    std::array<std::uint32_t, 256> start0{}, start1{};
    for (std::size_t i = 0; i < nNew; ++i) {
      const int id = ids_[i];
      const Facet& nf = facets_[static_cast<std::size_t>(id)];
      // Key k packs the horizon vertices v[0…d−2] without v[k], first vertex highest: prefix and suffix
      // packings give all d − 1 keys in O(d).
      std::array<std::uint64_t, kMaxDim + 1> pre, suf;
      pre[0] = 0;
      suf[static_cast<std::size_t>(d_ - 1)] = 0;
      for (int m = 0; m + 1 < d_; ++m)
        pre[static_cast<std::size_t>(m + 1)] =
            (pre[static_cast<std::size_t>(m)] << 16) | static_cast<std::uint64_t>(nf.v[static_cast<std::size_t>(m)] + 1);
      for (int m = d_ - 2; m >= 1; --m)  // suf[m]: v[m…d−2] (suf[0] is never used: a shift of 64)
        suf[static_cast<std::size_t>(m)] = suf[static_cast<std::size_t>(m + 1)] |
            (static_cast<std::uint64_t>(nf.v[static_cast<std::size_t>(m)] + 1) << (16 * (d_ - 2 - m)));
      for (int k = 0; k + 1 < d_; ++k) {
        const std::uint64_t key =
            (k == 0 ? 0 : pre[static_cast<std::size_t>(k)] << (16 * (d_ - 2 - k))) | suf[static_cast<std::size_t>(k + 1)];
        const auto hash = static_cast<std::uint16_t>((key * 0x9E3779B97F4A7C15ull) >> 48);
        sides_[j++] = {key, id, static_cast<std::uint16_t>(k), hash};
        ++start0[hash & 0xFFu];
        ++start1[hash >> 8];
      }
    }
    // LSD radix sort on the hash, two digits of 8 bits.
    for (std::uint32_t c = 0, sum0 = 0, sum1 = 0; c < 256; ++c) {
      const std::uint32_t count0 = start0[c], count1 = start1[c];
      start0[c] = sum0;
      start1[c] = sum1;
      sum0 += count0;
      sum1 += count1;
    }
#pragma GCC unroll 4
    for (std::size_t i = 0; i < n; ++i) sorted_[start0[sides_[i].hash & 0xFFu]++] = sides_[i];
#pragma GCC unroll 4
    for (std::size_t i = 0; i < n; ++i) sides_[start1[sorted_[i].hash >> 8]++] = sorted_[i];
    auto link = [&](const Side& a, const Side& b) {
      Facet& fa = facets_[static_cast<std::size_t>(a.facet)];
      Facet& fb = facets_[static_cast<std::size_t>(b.facet)];
      fa.nb[a.slot] = b.facet;
      fa.back[a.slot] = static_cast<std::uint8_t>(b.slot);
      fb.nb[b.slot] = a.facet;
      fb.back[b.slot] = static_cast<std::uint8_t>(a.slot);
    };
    for (std::size_t i = 0; i < n;) {
      // Nearly always: the next two sides are one ridge's, and the one after is another ridge's.
      if (i + 1 < n && sides_[i].key == sides_[i + 1].key && (i + 2 == n || sides_[i + 2].key != sides_[i].key)) {
        link(sides_[i], sides_[i + 1]);
        i += 2;
        continue;
      }
      // Two ridges whose keys share a hash, interleaved: sort what is left of the run by key, then pair.
      std::size_t end = i + 1;
      while (end < n && sides_[end].hash == sides_[i].hash) ++end;
      std::sort(sides_.begin() + static_cast<std::ptrdiff_t>(i), sides_.begin() + static_cast<std::ptrdiff_t>(end),
                [](const Side& a, const Side& b) { return a.key < b.key; });
      for (; i < end; i += 2) {
        // A key met once, or three or more times: not a manifold.
        if (i + 1 == end || sides_[i].key != sides_[i + 1].key || (i + 2 < end && sides_[i + 2].key == sides_[i].key))
          return false;
        link(sides_[i], sides_[i + 1]);
      }
    }
    return true;
  }

  // The new facet (q + a horizon ridge) from the normals of the two facets at that ridge: both are
  // orthogonal to the ridge, so the new normal is their combination orthogonal to q − ridge, with
  // non-negative weights (outward). Checked against the facet's vertices; false → QR.
  bool orientFromRidge(Facet& f, const Facet& seen, const Facet& unseen, const P6& q) const {
    P6 n = seen.dist * unseen.n - unseen.dist * seen.n;
    const double len = n.norm();
    if (!(len > 0)) return false;
    n /= len;
    const double b = n.dot(q);
    double dev = 0;
    for (int k = 0; k + 1 < d_; ++k)
      dev = std::max(dev, std::abs(n.dot(pts_[static_cast<std::size_t>(f.v[static_cast<std::size_t>(k)])]) - b));
    if (!(dev <= 1e-3 * tol_)) return false;  // not a plane through the vertices to round-off
    if (!(n.dot(c_) - b < 0)) return false;  // outward by construction; c on the outside: degenerate
    f.n = n;
    f.b = b;
    return true;
  }

  // Normal (the last Householder direction of the edge vectors), offset, orientation: along `outward` when
  // given (a new facet: the combination of the two normals at its horizon ridge, outward by construction
  // even where the facet is too thin for that combination to be accurate), else away from c. The
  // interior point c only decides where there is no other reference (the initial simplex): near a thin
  // part of P it lies close to facet planes, and its side of them is not reliable.
  bool orientByQR(Facet& f, const P6& outward = P6::Zero()) const {
    const P6& p0 = pts_[static_cast<std::size_t>(f.v[0])];
    MatD e(d_, d_ - 1);
    for (int k = 1; k < d_; ++k)
      e.col(k - 1) = (pts_[static_cast<std::size_t>(f.v[static_cast<std::size_t>(k)])] - p0).head(d_);
    Eigen::HouseholderQR<MatD> qr(e);
    VecD nd = VecD::Unit(d_, d_ - 1);
    nd = qr.householderQ() * nd;
    P6 n = pad(nd);
    double inward = n.dot(c_ - p0);
    if (outward.squaredNorm() > 0) {
      if (n.dot(outward) < 0) { n = -n; inward = -inward; }
      if (!(inward < 0)) return false;  // c not inside: degenerate
    } else {
      if (inward > 0) { n = -n; inward = -inward; }
      if (!(-inward > tol_)) return false;  // c on the facet's plane: degenerate facet
    }
    double b = 0;
    for (int k = 0; k < d_; ++k) b += n.dot(pts_[static_cast<std::size_t>(f.v[static_cast<std::size_t>(k)])]);
    f.n = n;
    f.b = b / d_;
    return true;
  }

  struct Side {  // one side of a ridge through the new point: 16 bytes
    std::uint64_t key;   // the ridge's packed vertex ids
    int facet;           // the new facet (its slot in facets_)
    std::uint16_t slot;  // its slot opposite the ridge
    std::uint16_t hash;  // sort key
  };

  static constexpr int d_ = D;
  double tol_ = 0;
  double delta_ = 0;
  int perturbed_ = 0;
  int created_ = 0;
  double cutoff_ = kInf;
  P6 c_ = P6::Zero();
  std::vector<P6> pts_;
  std::vector<Origin> dirs_;   // per vertex: how it was found (warm start)
  std::vector<double> steps_;  // per vertex: its relative step towards c (add), 0 if not moved
  bool reusable_ = true;
  bool warmStale_ = false;    // markMoved since the last reset: stale facets may be left (tryAdd<true>)
  bool refitFailed_ = false;  // a stale facet could not be refitted since markMoved (the warm solve fails)
  std::vector<Facet> facets_;
  std::vector<int> free_;  // dead facet slots
  int live_ = 0;
  int round_ = 0;
  void growOffsets() {
    if (offsets_.size() >= facets_.size()) return;
    offsets_.resize(facets_.size(), kInf);
    fit_.resize(facets_.size(), epoch_);
    blockMin_.resize((offsets_.size() + kBlock - 1) / kBlock, kInf);
  }
  void setOffset(std::size_t id, double b) {
    offsets_[id] = b;
    blockMin_[id / kBlock] = std::min(blockMin_[id / kBlock], b);
  }
  static constexpr std::size_t kBlock = 64;
  std::vector<double> offsets_;   // per facet slot: its offset, +∞ if dead
  std::vector<double> blockMin_;  // per block of kBlock slots: ≤ its smallest offset
  // Warm start: per facet slot, the epoch of its last fit (its plane exact when it equals epoch_, else stale: its
  // offset in offsets_ a lower bound). markMoved starts a new epoch; a cold polytope's facets are all of epoch 0.
  std::vector<std::uint32_t> fit_;
  std::uint32_t epoch_ = 0;
  std::vector<int> visible_;                  // scratch of tryAdd, sized to the facet count
  std::vector<std::pair<int, int>> horizon_;  // scratch of tryAdd: (seen facet, slot of its unseen neighbour)
  std::vector<int> ids_;                    // per created facet: its slot in facets_
  std::vector<std::pair<int, int>> links_;  // per created facet: (unseen neighbour, its slot pointing back)
  std::vector<Side> sides_, sorted_;  // scratch of matchRidges
};

// One polytope workspace per thread, reused so that an evaluation allocates nothing once warm; a nested
// call on the same thread (a support oracle that itself computes an ε) gets a fresh one.
template <int D>
class PolytopeLease {
 public:
  PolytopeLease() {
    if (!inUse()) { inUse() = true; p_ = &shared(); owned_ = true; }
    else p_ = &local_;
  }
  ~PolytopeLease() { if (owned_) inUse() = false; }
  PolytopeLease(const PolytopeLease&) = delete;
  PolytopeLease& operator=(const PolytopeLease&) = delete;
  Polytope<D>& operator*() { return *p_; }
  Polytope<D>* operator->() { return p_; }

 private:
  static Polytope<D>& shared() { thread_local Polytope<D> p; return p; }
  static bool& inUse() { thread_local bool b = false; return b; }
  Polytope<D> local_;
  Polytope<D>* p_ = nullptr;
  bool owned_ = false;
};

}  // namespace sg::support_polytope
