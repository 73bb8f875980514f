#pragma once
// FCL (benchmark reference only: Debian's libfcl-dev or the rebuild of scripts/build-fcl-reference.sh; which one is
// SG_FCL_BUILD, FclBuild.h) answering the same queries as SoftGrasp's proximity
// layer on the same meshes and poses, each used the way FCL's documentation shows: OBBRSS BVH models,
// one CollisionObject per body, a fresh Request/Result per pair query, one shared DistanceResult across a
// hand's bodies (FCL prunes against result.min_distance), and a DynamicAABBTree broadphase manager with the
// default callbacks.
#ifdef SG_HAVE_FCL
#include <fcl/fcl.h>
#include <fcl/narrowphase/detail/primitive_shape_algorithm/triangle_distance.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "FclBuild.h"
#include "core/Transform.h"
#include "geometry/TriangleMesh.h"

namespace sg::bench {

using FclModel = fcl::BVHModel<fcl::OBBRSSd>;

inline std::shared_ptr<FclModel> fclModel(const TriangleMesh& m) {
  auto model = std::make_shared<FclModel>();
  std::vector<fcl::Vector3d> v(m.vertices.begin(), m.vertices.end());
  std::vector<fcl::Triangle> t;
  t.reserve(m.triangles.size());
  for (const auto& tri : m.triangles) t.emplace_back(tri[0], tri[1], tri[2]);
  model->beginModel();
  model->addSubModel(v, t);
  model->endModel();
  return model;
}

inline fcl::Transform3d toFcl(const Transform& X) {
  fcl::Transform3d x = fcl::Transform3d::Identity();
  x.linear() = X.rotationMatrix();
  x.translation() = X.translation();
  return x;
}

// The hand's bodies and the object as FCL collision objects, plus the broadphase manager over the hand.
struct FclScene {
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> hand;
  std::unique_ptr<fcl::CollisionObjectd> object;
  fcl::DynamicAABBTreeCollisionManagerd manager;

  FclScene(const std::vector<std::shared_ptr<FclModel>>& handModels, const std::vector<Transform>& X_WH,
           const std::shared_ptr<FclModel>& objectModel, const Transform& X_WO) {
    object = std::make_unique<fcl::CollisionObjectd>(objectModel, toFcl(X_WO));
    std::vector<fcl::CollisionObjectd*> raw;
    for (std::size_t i = 0; i < handModels.size(); ++i) {
      hand.push_back(std::make_unique<fcl::CollisionObjectd>(handModels[i], toFcl(X_WH[i])));
      raw.push_back(hand.back().get());
    }
    manager.registerObjects(raw);
    manager.setup();
  }

  // Moves the hand's bodies to new poses (boxes and the broadphase manager updated, as FCL's users must).
  void setHandPoses(const std::vector<Transform>& X_WH) {
    for (std::size_t i = 0; i < hand.size(); ++i) {
      hand[i]->setTransform(toFcl(X_WH[i]));
      hand[i]->computeAABB();
    }
    manager.update();
  }

  bool collidePair(std::size_t i) {
    fcl::CollisionRequestd request;
    fcl::CollisionResultd result;
    return fcl::collide(hand[i].get(), object.get(), request, result) > 0;
  }
  double distancePair(std::size_t i) {
    fcl::DistanceRequestd request(true);  // nearest points: SoftGrasp returns witness points too
    fcl::DistanceResultd result;
    fcl::distance(hand[i].get(), object.get(), request, result);
    return result.min_distance;
  }
  // The hand's minimum distance, the result shared by every body so each call prunes against the best so far.
  double distanceSharedResult() {
    fcl::DistanceRequestd request(true);
    fcl::DistanceResultd result;
    for (auto& h : hand) fcl::distance(h.get(), object.get(), request, result);
    return result.min_distance;
  }
  bool collideBroadphase() {
    fcl::DefaultCollisionData<double> data;
    manager.collide(object.get(), &data, fcl::DefaultCollisionFunction);
    return data.result.isCollision();
  }
  double distanceBroadphase() {
    fcl::DefaultDistanceData<double> data;
    data.request.enable_nearest_points = true;
    manager.distance(object.get(), &data, fcl::DefaultDistanceFunction);
    return data.result.min_distance;
  }
};

// FCL's mesh distance warm-started the one way its public API allows: the previous answer's triangle pair
// (DistanceResult::b1, b2), evaluated at the new poses with FCL's own triangle distance, seeds
// DistanceResult::min_distance, against which FCL's traversal prunes (its answer is then the cold one, since the
// seed is an attained distance, widened by 1e-9 relative so the rounding of FCL's model-frame evaluation of the
// same pair cannot lose it).
struct FclWarmDistance {
  std::intptr_t b1 = -1, b2 = -1;
};

inline double fclDistanceWarm(const fcl::CollisionObjectd& a, const FclModel& ma, const fcl::CollisionObjectd& b,
                              const FclModel& mb, FclWarmDistance& warm) {
  fcl::DistanceRequestd request(true);  // nearest points, as SoftGrasp returns witness points
  fcl::DistanceResultd result;
  if (warm.b1 >= 0) {
    fcl::Vector3d s[3], t[3], p, q;
    const fcl::Triangle& ta = ma.tri_indices[warm.b1];
    const fcl::Triangle& tb = mb.tri_indices[warm.b2];
    for (int k = 0; k < 3; ++k) {
      s[k] = a.getTransform() * ma.vertices[ta[static_cast<std::size_t>(k)]];
      t[k] = b.getTransform() * mb.vertices[tb[static_cast<std::size_t>(k)]];
    }
    const double seed = fcl::detail::TriangleDistance<double>::triDistance(s, t, p, q);
    result.min_distance = seed + 1e-9 * std::max(1.0, seed);
  }
  fcl::distance(&a, &b, request, result);
  warm.b1 = result.b1;
  warm.b2 = result.b2;
  return result.min_distance;
}

}  // namespace sg::bench
#endif
