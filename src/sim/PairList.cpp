#include "sim/PairList.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "sim/CollisionPrefilter.h"

namespace sg::sim {

namespace {

// MuJoCo's own filter of a dynamic geom pair (its documentation, "Contact selection"): contype/conaffinity
// compatible, not on one welded body, and not parent and child unless the parent filter is off or one of them
// is welded to the world.
bool filteredOut(const mjModel* m, int g1, int g2) {
  if (!(m->geom_contype[g1] & m->geom_conaffinity[g2]) && !(m->geom_contype[g2] & m->geom_conaffinity[g1]))
    return true;
  const int w1 = m->body_weldid[m->geom_bodyid[g1]], w2 = m->body_weldid[m->geom_bodyid[g2]];
  if (w1 == w2) return true;
  const bool filterParent = !(m->opt.disableflags & mjDSBL_FILTERPARENT) && w1 != 0 && w2 != 0;
  const int parent1 = m->body_weldid[m->body_parentid[w1]], parent2 = m->body_weldid[m->body_parentid[w2]];
  return filterParent && (w1 == parent2 || w2 == parent1);
}

}  // namespace

PairList::PairList(mjModel* m, int slots, bool enabled)
    : slots_(std::min(slots, m->npair)), enabled_(enabled && slots_ > 0), collision0_(m->opt.collision) {
  useDynamic(m);
  if (!enabled_) return;
  scratch_ = mj_makeData(m);
  if (!scratch_) {
    enabled_ = false;
    return;
  }
  // Every geom pair of every body pair, in the order of MuJoCo 2.2's dynamic loop: body pairs (b1 < b2) by
  // signature (b1 + 1) << 16 | (b2 + 1), then b1's geoms, then b2's.
  for (int b1 = 0; b1 < m->nbody; ++b1)
    for (int b2 = b1 + 1; b2 < m->nbody; ++b2)
      for (int g1 = m->body_geomadr[b1]; g1 < m->body_geomadr[b1] + m->body_geomnum[b1]; ++g1)
        for (int g2 = m->body_geomadr[b2]; g2 < m->body_geomadr[b2] + m->body_geomnum[b2]; ++g2) {
          const int t1 = std::min(m->geom_type[g1], m->geom_type[g2]), t2 = std::max(m->geom_type[g1], m->geom_type[g2]);
          if (!mjCOLLISIONFUNC[t1][t2] || filteredOut(m, g1, g2)) continue;
          Candidate c;
          c.g1 = g1;
          c.g2 = g2;
          c.signature = ((b1 + 1) << 16) + (b2 + 1);
          // MuJoCo's mixing of a dynamic pair's parameters (its documentation, "Contact parameters"): the geom of
          // higher priority wins; at equal priority condim and friction are the maxima, solref and solimp the
          // solmix-weighted mean (solref the minimum when either is a direct reference, ≤ 0), margin and gap the
          // maxima. The products and sums are written in MuJoCo's order, so the values are its bits. MuJoCo
          // orders a pair's geoms by type before mixing; only the mean's weights depend on which is first.
          const bool swap = m->geom_type[g1] > m->geom_type[g2];
          const int a = swap ? g2 : g1, b = swap ? g1 : g2;
          mjtNum friction3[3];
          if (m->geom_priority[a] != m->geom_priority[b]) {
            const int p = m->geom_priority[a] > m->geom_priority[b] ? a : b;
            c.dim = m->geom_condim[p];
            std::copy_n(m->geom_friction + 3 * p, 3, friction3);
            std::copy_n(m->geom_solref + mjNREF * p, mjNREF, c.solref);
            std::copy_n(m->geom_solimp + mjNIMP * p, mjNIMP, c.solimp);
          } else {
            c.dim = std::max(m->geom_condim[a], m->geom_condim[b]);
            for (int k = 0; k < 3; ++k) friction3[k] = std::max(m->geom_friction[3 * a + k], m->geom_friction[3 * b + k]);
            const mjtNum sa = m->geom_solmix[a], sb = m->geom_solmix[b];
            mjtNum mix = 0.5;
            if (sa >= mjMINVAL && sb >= mjMINVAL)
              mix = sa / (sa + sb);
            else if (sa < mjMINVAL && sb >= mjMINVAL)
              mix = 0.0;
            else if (sa >= mjMINVAL && sb < mjMINVAL)
              mix = 1.0;
            const mjtNum *ra = m->geom_solref + mjNREF * a, *rb = m->geom_solref + mjNREF * b;
            for (int k = 0; k < mjNREF; ++k)
              c.solref[k] = ra[0] > 0 && rb[0] > 0 ? mix * ra[k] + (1 - mix) * rb[k] : std::min(ra[k], rb[k]);
            for (int k = 0; k < mjNIMP; ++k)
              c.solimp[k] = m->geom_solimp[mjNIMP * a + k] * mix + m->geom_solimp[mjNIMP * b + k] * (1 - mix);
          }
          // Sliding, sliding, torsional, rolling, rolling.
          const mjtNum friction5[5] = {friction3[0], friction3[0], friction3[1], friction3[2], friction3[2]};
          std::copy_n(friction5, 5, c.friction);
          c.margin = std::max(m->geom_margin[g1], m->geom_margin[g2]);
          c.gap = std::max(m->geom_gap[g1], m->geom_gap[g2]);
          // MuJoCo skips a pair whose centres are farther apart than the bounding radii plus the margin; the list
          // keeps every pair within that distance and a relative 1e-9 more (rounding), and planes (radius 0).
          const mjtNum r1 = m->geom_rbound[g1], r2 = m->geom_rbound[g2];
          c.reach = r1 > 0 && r2 > 0 ? (r1 + r2 + c.margin) * (1 + 1e-9) : -1;
          candidates_.push_back(c);
        }
  // Runs of one g1 against one body: the body's sphere about its origin holds every geom's bounding sphere
  // (geom_pos is the geom's centre in the body frame), with a relative 1e-9 for rounding.
  std::vector<mjtNum> bodyRadius(static_cast<std::size_t>(m->nbody), 0.0);
  for (int g = 0; g < m->ngeom; ++g) {
    mjtNum& r = bodyRadius[static_cast<std::size_t>(m->geom_bodyid[g])];
    r = m->geom_rbound[g] > 0 && r >= 0 ? std::max(r, mju_norm3(m->geom_pos + 3 * g) + m->geom_rbound[g]) : -1;
  }
  for (std::size_t i = 0; i < candidates_.size(); ++i) {
    const Candidate& c = candidates_[i];
    const int b2 = m->geom_bodyid[c.g2];
    if (runs_.empty() || runs_.back().g1 != c.g1 || runs_.back().b2 != b2) {
      Run r;
      r.g1 = c.g1;
      r.b2 = b2;
      r.begin = static_cast<int>(i);
      runs_.push_back(r);
    }
    Run& r = runs_.back();
    r.end = static_cast<int>(i) + 1;
    const mjtNum R = bodyRadius[static_cast<std::size_t>(b2)], r1 = m->geom_rbound[c.g1];
    const bool bounded = R >= 0 && r1 > 0 && (r.begin == static_cast<int>(i) || r.reach >= 0);
    r.reach = bounded ? std::max(r.reach, (r1 + R + c.margin) * (1 + 1e-9)) : -1;
  }
  centres_.assign(3 * static_cast<std::size_t>(m->ngeom), 0.0);
}

PairList::~PairList() {
  if (scratch_) mj_deleteData(scratch_);
}

void PairList::useDynamic(mjModel* m) {
  m->opt.collision = collision0_;
  m->npair = 0;
  listValid_ = false;
}

void PairList::restore(mjModel* m) const {
  m->opt.collision = collision0_;
  m->npair = slots_;
}

void PairList::setUpBound(const mjModel* m) {
  boundReady_ = true;
  // The bound covers one hinge, slide or free joint per body (MjcfBuilder's bodies) and positions that are all
  // in qpos (no mocap bodies).
  bounded_ = m->nmocap == 0;
  bodyJoint_.assign(static_cast<std::size_t>(m->nbody), -1);
  pointRadius_.assign(static_cast<std::size_t>(m->nbody), 0.0);
  offset_.assign(static_cast<std::size_t>(m->nbody), 0.0);
  for (int b = 0; b < m->nbody; ++b) {
    const auto i = static_cast<std::size_t>(b);
    offset_[i] = mju_norm3(m->body_pos + 3 * b);
    if (m->body_jntnum[b] > 1) bounded_ = false;
    if (m->body_jntnum[b] == 1) {
      const int j = m->body_jntadr[b];
      bodyJoint_[i] = j;
      const int type = m->jnt_type[j];
      if (type != mjJNT_HINGE && type != mjJNT_SLIDE && type != mjJNT_FREE) bounded_ = false;
    }
  }
  for (int g = 0; g < m->ngeom; ++g) {
    mjtNum& r = pointRadius_[static_cast<std::size_t>(m->geom_bodyid[g])];
    const mjtNum centre = mju_norm3(m->geom_pos + 3 * g);
    r = std::max(r, centre + m->geom_rbound[g]);
    // The prefilter's box (geom frame: centre, half extents); an unbounded box never rejects a pair, so its
    // motion does not matter.
    if (m->nuser_geom == kGeomBoxUserSize) {
      const mjtNum* box = m->geom_user + kGeomBoxUserSize * g;
      if (std::max({box[3], box[4], box[5]}) < 1e20) r = std::max(r, centre + mju_norm3(box) + mju_norm3(box + 3));
    }
  }
}

mjtNum PairList::motionBound(const mjModel* m, const mjtNum* qa, const mjtNum* qb) const {
  if (!bounded_) return std::numeric_limits<mjtNum>::infinity();
  mjtNum top1 = 0, top2 = 0;
  for (int b = 1; b < m->nbody; ++b) {
    if (m->body_geomnum[b] == 0) continue;
    // Change one joint at a time, from qa to qb: the body's points move by at most the sum of the moves. `dist`
    // bounds the points' distance from body c's origin in every such intermediate configuration (each slide at
    // its qa or qb value): the points' radius, then per joint on the way up its shift of the origin from the
    // nominal one (a hinge about an anchor a turns the origin on a circle of radius ≤ |a|; a slide moves it by
    // its value) and the nominal origin's distance from the parent's.
    mjtNum dist = pointRadius_[static_cast<std::size_t>(b)], delta = 0;
    for (int c = b; c > 0; c = m->body_parentid[c]) {
      const int j = bodyJoint_[static_cast<std::size_t>(c)];
      if (j >= 0) {
        const int a = m->jnt_qposadr[j];
        switch (m->jnt_type[j]) {
          case mjJNT_HINGE: {
            // A turn by Δ about an axis through the anchor moves a point by a chord ≤ |Δ| times its distance from
            // the anchor.
            const mjtNum anchor = mju_norm3(m->jnt_pos + 3 * j);
            delta += std::abs(qb[a] - qa[a]) * (dist + anchor);
            dist += 2 * anchor;
            break;
          }
          case mjJNT_SLIDE:
            delta += std::abs(qb[a] - qa[a]);
            dist += std::max(std::abs(qa[a] - m->qpos0[a]), std::abs(qb[a] - m->qpos0[a]));
            break;
          default: {  // free: the origin is qpos[a..a+2]; the turn between the two quaternions is about it
            const mjtNum* p = qa + a;
            const mjtNum* q = qb + a;
            const mjtNum dp[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
            // The turn between the quaternions (w, x, y, z after the position; unnormalised, as in qpos): conj(p)·q
            // has the scalar part p·q and a vector part of norm |p_w q_v − q_w p_v − p_v × q_v| (the two terms are
            // orthogonal); angle 2·atan2(|v|, |w|).
            const mjtNum pw = p[3], qw = q[3];
            const mjtNum* pv = p + 4;
            const mjtNum* qv = q + 4;
            mjtNum x[3], y[3];
            for (int k = 0; k < 3; ++k) x[k] = pw * qv[k] - qw * pv[k];
            mju_cross(y, pv, qv);
            const mjtNum w = pw * qw + mju_dot3(pv, qv);
            const mjtNum v = std::sqrt(mju_dot3(x, x) + mju_dot3(y, y));
            delta += mju_norm3(dp) + 2 * std::atan2(v, std::abs(w)) * dist;
            break;
          }
        }
      }
      dist += offset_[static_cast<std::size_t>(c)];
    }
    if (delta > top1) {
      top2 = top1;
      top1 = delta;
    } else if (delta > top2) {
      top2 = delta;
    }
  }
  // Relative and absolute room for the rounding in MuJoCo's poses and in this sum.
  return (top1 + top2) * (1 + 1e-9) + 1e-12;
}

bool PairList::select(mjModel* m, const mjData* s, mjtNum slack) {
  geomBoxCentres(m, s, centres_.data());
  // Left off: a pair whose centres are farther apart than MuJoCo's reach plus the slack, or whose boxes are
  // farther apart than the margin plus the slack. With both bodies moved by at most the slack in all, the first
  // fails MuJoCo's sphere test at the step, the second is apart by more than the margin (no contact).
  auto apart = [slack](const mjtNum* p1, const mjtNum* p2, mjtNum reach) {
    const mjtNum dx = p1[0] - p2[0], dy = p1[1] - p2[1], dz = p1[2] - p2[2];
    return reach >= 0 && dx * dx + dy * dy + dz * dz > (reach + slack) * (reach + slack);
  };
  int n = 0;
  for (const Run& run : runs_) {
    if (apart(s->geom_xpos + 3 * run.g1, s->xpos + 3 * run.b2, run.reach)) continue;
    for (int i = run.begin; i < run.end; ++i) {
      const Candidate& c = candidates_[static_cast<std::size_t>(i)];
      if (apart(s->geom_xpos + 3 * c.g1, s->geom_xpos + 3 * c.g2, c.reach)) continue;
      if (geomBoxesApart(m, s, &centres_[3 * static_cast<std::size_t>(c.g1)], &centres_[3 * static_cast<std::size_t>(c.g2)],
                         c.g1, c.g2, c.margin + slack))
        continue;
      if (n == slots_) return false;
      m->pair_geom1[n] = c.g1;
      m->pair_geom2[n] = c.g2;
      m->pair_signature[n] = c.signature;
      m->pair_dim[n] = c.dim;
      std::copy_n(c.friction, 5, m->pair_friction + 5 * n);
      std::copy_n(c.solref, mjNREF, m->pair_solref + mjNREF * n);
      std::copy_n(c.solimp, mjNIMP, m->pair_solimp + mjNIMP * n);
      m->pair_margin[n] = c.margin;
      m->pair_gap[n] = c.gap;
      ++n;
    }
  }
  listCount_ = n;
  return true;
}

void PairList::prepare(mjModel* m, mjData* d) {
  if (!enabled_) return;
  if (!boundReady_) setUpBound(m);
  const std::size_t nq = static_cast<std::size_t>(m->nq);
  callQpos_.assign(d->qpos, d->qpos + nq);
  warnings_ = d->warning[mjWARN_BADQPOS].number + d->warning[mjWARN_BADQVEL].number + d->warning[mjWARN_BADQACC].number;
  // MuJoCo resets the data when a position or velocity is bad (mj_step's checks), and the list would be of the
  // state before; margins overridden by the options, or a user contact filter, are not what the list computed.
  bool dynamic = (m->opt.enableflags & mjENBL_OVERRIDE) || mjcb_contactfilter != nullptr;
  for (int i = 0; i < m->nq && !dynamic; ++i) dynamic = mju_isBad(d->qpos[i]);
  for (int i = 0; i < m->nv && !dynamic; ++i) dynamic = mju_isBad(d->qvel[i]);
  if (dynamic) {
    useDynamic(m);
    ++stats_.dynamic;
    return;
  }
  // The list in the slots still holds: every body moved by less than its slack since its poses.
  if (listValid_ && motionBound(m, listQpos_.data(), d->qpos) <= listSlack_) {
    m->opt.collision = mjCOL_PAIR;
    m->npair = listCount_;
    ++stats_.listed;
    ++stats_.kept;
    return;
  }
  // A new list: from d's poses when they are of the positions the last call started from and qpos is bit for
  // bit the one it left (so the motion since is that one step's), else from this step's positions themselves.
  const mjData* poses = d;
  const mjtNum* posesQpos = posesQpos_.data();
  mjtNum moved = std::numeric_limits<mjtNum>::infinity();
  if (posesValid_ && std::memcmp(d->qpos, postQpos_.data(), nq * sizeof(mjtNum)) == 0)
    moved = motionBound(m, posesQpos, d->qpos);
  if (!(moved <= kSlack_m)) {
    std::copy_n(d->qpos, nq, scratch_->qpos);
    std::copy_n(d->mocap_pos, 3 * m->nmocap, scratch_->mocap_pos);
    std::copy_n(d->mocap_quat, 4 * m->nmocap, scratch_->mocap_quat);
    mj_kinematics(m, scratch_);
    poses = scratch_;
    posesQpos = callQpos_.data();
    moved = 0;
    ++stats_.scratch;
  }
  // Without a bound (a joint it does not cover) the list is chosen for this step alone, without slack.
  listSlack_ = bounded_ ? moved + kSlack_m : 0;
  if (!select(m, poses, listSlack_)) {
    useDynamic(m);
    ++stats_.dynamic;
    return;
  }
  listValid_ = bounded_;
  listQpos_.assign(posesQpos, posesQpos + nq);
  m->opt.collision = mjCOL_PAIR;
  m->npair = listCount_;
  ++stats_.listed;
  stats_.largest = std::max(stats_.largest, listCount_);
}

void PairList::finish(const mjModel* m, const mjData* d, bool stepped) {
  if (!enabled_) return;
  // d's geom poses are of the positions the call started from, unless MuJoCo reset a bad state inside it, or an
  // integrator other than Euler evaluated other positions after them.
  const int warnings =
      d->warning[mjWARN_BADQPOS].number + d->warning[mjWARN_BADQVEL].number + d->warning[mjWARN_BADQACC].number;
  posesValid_ = bounded_ && warnings == warnings_ && (!stepped || m->opt.integrator == mjINT_EULER);
  posesQpos_.swap(callQpos_);
  postQpos_.assign(d->qpos, d->qpos + m->nq);
}

}  // namespace sg::sim
