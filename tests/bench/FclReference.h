#pragma once
// FCL (Debian's libfcl-dev, benchmark reference only) answering the same queries as SoftGrasp's proximity
// layer on the same meshes and poses, each used the way FCL's documentation shows: OBBRSS BVH models,
// one CollisionObject per body, a fresh Request/Result per pair query, one shared DistanceResult across a
// hand's bodies (FCL prunes against result.min_distance), and a DynamicAABBTree broadphase manager with the
// default callbacks.
#ifdef SG_HAVE_FCL
#include <fcl/fcl.h>

#include <memory>
#include <vector>

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
  // FCL has no "every pair within a threshold" query; the nearest is a distance query whose result starts at
  // the threshold (DistanceResult's constructor argument), so it prunes like the contacts query and returns
  // the closest pair within it, if any.
  double distanceWithinPair(std::size_t i, double threshold_mm) {
    fcl::DistanceRequestd request(true);
    fcl::DistanceResultd result(threshold_mm);
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

}  // namespace sg::bench
#endif
