// WorldScene, mesh nodes, camera placement and camera motion — all without a GL context.
#include <QtTest>

#include <set>

#include <Inventor/SoPath.h>
#include <Inventor/SoPickedPoint.h>
#include <Inventor/actions/SoRayPickAction.h>
#include <Inventor/actions/SoSearchAction.h>
#include <Inventor/nodes/SoCube.h>
#include <Inventor/nodes/SoDrawStyle.h>
#include <Inventor/nodes/SoIndexedFaceSet.h>
#include <Inventor/nodes/SoMaterial.h>
#include <Inventor/nodes/SoOrthographicCamera.h>
#include <Inventor/nodes/SoPerspectiveCamera.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoShapeHints.h>
#include <Inventor/nodes/SoSwitch.h>
#include <Inventor/nodes/SoTransform.h>

#include "BoxWorld.h"
#include "render/BodyAppearance.h"
#include "render/CameraMotion.h"
#include "render/CoinConvert.h"
#include "render/CoinInit.h"
#include "render/MeshNodes.h"
#include "render/SceneBuilder.h"
#include "render/StandardView.h"

using namespace sg;

namespace {

// Path root → … → the body's separator → its first shape (what a pick action would return).
SoPath* pathToShapeUnder(SoNode* root, SoNode* bodyNode) {
  SoSearchAction search;
  search.setNode(bodyNode);
  search.setInterest(SoSearchAction::FIRST);
  search.apply(root);
  if (!search.getPath()) return nullptr;
  SoPath* path = search.getPath()->copy();
  path->ref();
  SoSearchAction shape;
  shape.setType(SoIndexedFaceSet::getClassTypeId());
  shape.apply(bodyNode);
  if (shape.getPath())
    for (int i = 1; i < shape.getPath()->getLength(); ++i) path->append(shape.getPath()->getIndex(i));
  return path;
}

bool near(const SbVec3f& a, const SbVec3f& b, float tol) { return (a - b).length() <= tol; }

}  // namespace

class TstScene : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { initCoin(); }

  void oneSeparatorPerBody() {
    const World world = test::smallWorld();
    WorldScene scene(world);
    const auto handles = world.bodyHandles();
    QCOMPARE(handles.size(), std::size_t(5));
    QCOMPARE(scene.bodyNodeCount(), handles.size());
    std::set<SoSeparator*> nodes;
    for (const auto& h : handles) {
      SoSeparator* n = scene.bodyNode(h);
      QVERIFY(n);
      nodes.insert(n);
      QVERIFY(scene.bodyTransform(h));
      QVERIFY(scene.bodyMaterial(h));
    }
    QCOMPARE(nodes.size(), handles.size());
    // The robot's three bodies are grouped under its separator.
    SoSeparator* robot = scene.robotNode(0);
    QVERIFY(robot);
    QCOMPARE(robot->getNumChildren(), 3);
    QVERIFY(robot->findChild(scene.bodyNode({BodyHandle::Kind::Robot, 0, {-1, 0}})) >= 0);
    QVERIFY(robot->findChild(scene.bodyNode({BodyHandle::Kind::Robot, 0, {0, 1}})) >= 0);
    QVERIFY(!scene.robotNode(1));
    // Links share one mesh → one shared geometry node; the graph holds 4 distinct face sets.
    SoSearchAction all;
    all.setType(SoIndexedFaceSet::getClassTypeId());
    all.setInterest(SoSearchAction::ALL);
    all.setSearchingAll(TRUE);
    all.apply(scene.root());
    std::set<SoNode*> faceSets;
    for (int i = 0; i < all.getPaths().getLength(); ++i) faceSets.insert(all.getPaths()[i]->getTail());
    QCOMPARE(faceSets.size(), std::size_t(3));  // table, palm, shared 40 mm box
    QCOMPARE(all.getPaths().getLength(), 5);
    // The overlay root exists, is empty and is a child of root.
    QVERIFY(scene.overlayRoot());
    QCOMPARE(scene.overlayRoot()->getNumChildren(), 0);
    SoSearchAction findOverlay;
    findOverlay.setNode(scene.overlayRoot());
    findOverlay.apply(scene.root());
    QVERIFY(findOverlay.getPath());
  }

  void meshGeometryMatchesModel() {
    const auto box = test::boxMesh(10, 20, 30);
    QVERIFY(isClosedMesh(*box));
    TriangleMesh open = *box;
    open.triangles.pop_back();
    QVERIFY(!isClosedMesh(open));
    TriangleMesh flipped = *box;
    std::swap(flipped.triangles[0][1], flipped.triangles[0][2]);
    QVERIFY(!isClosedMesh(flipped));

    SoSeparator* node = makeMeshNode(*box);
    node->ref();
    SoSearchAction find;
    find.setType(SoIndexedFaceSet::getClassTypeId());
    find.apply(node);
    QVERIFY(find.getPath());
    auto* faces = static_cast<SoIndexedFaceSet*>(find.getPath()->getTail());
    QCOMPARE(faces->coordIndex.getNum(), 12 * 4);
    find.reset();
    find.setType(SoShapeHints::getClassTypeId());
    find.apply(node);
    auto* hints = static_cast<SoShapeHints*>(find.getPath()->getTail());
    QCOMPARE(hints->shapeType.getValue(), int(SoShapeHints::SOLID));
    QCOMPARE(hints->vertexOrdering.getValue(), int(SoShapeHints::COUNTERCLOCKWISE));
    // Bounding box of the node equals the mesh bounds.
    auto bbox = sceneBoundingBox(node);
    QVERIFY(bbox);
    QVERIFY(near(bbox->getMin(), SbVec3f(-5, -10, -15), 1e-4f));
    QVERIFY(near(bbox->getMax(), SbVec3f(5, 10, 15), 1e-4f));
    node->unref();
  }

  void updatePosesMovesTransforms() {
    World world = test::smallWorld();
    WorldScene scene(world);
    const BodyHandle cube{BodyHandle::Kind::Graspable, 0, {}};
    SoSeparator* before = scene.bodyNode(cube);
    QVERIFY(near(scene.bodyTransform(cube)->translation.getValue(), SbVec3f(0, 0, 0), 1e-6f));

    const Transform pose(Quat(Eigen::AngleAxisd(0.7, Vec3(0, 0, 1))), Vec3(12.5, -3, 40));
    X_WB(world.state, cube) = pose;
    scene.updatePoses(world);
    QCOMPARE(scene.bodyNode(cube), before);  // same nodes, only fields changed
    QVERIFY(near(scene.bodyTransform(cube)->translation.getValue(), SbVec3f(12.5f, -3, 40), 1e-5f));
    QVERIFY(fromSb(scene.bodyTransform(cube)->rotation.getValue()).isApprox(pose.rotation(), 1e-6) ||
            fromSb(scene.bodyTransform(cube)->rotation.getValue()).coeffs().isApprox(-pose.rotation().coeffs(), 1e-6));
    // The world bounding box follows.
    auto bbox = sceneBoundingBox(scene.bodyNode(cube));
    QVERIFY(bbox);
    QVERIFY(std::abs(bbox->getCenter()[2] - 40.0f) < 1e-3f);

    // A body added since the build: updatePoses falls back to rebuild.
    sgtest::addObstacle(world, test::boxBody("extra", test::boxMesh(5, 5, 5), Vec3(300, 0, 0)));
    scene.updatePoses(world);
    QCOMPARE(scene.bodyNodeCount(), std::size_t(6));
    QVERIFY(scene.bodyNode({BodyHandle::Kind::Obstacle, 1, {}}));
  }

  void bodyForPathMapsBack() {
    const World world = test::smallWorld();
    WorldScene scene(world);
    for (const auto& h : world.bodyHandles()) {
      SoPath* path = pathToShapeUnder(scene.root(), scene.bodyNode(h));
      QVERIFY(path);
      QVERIFY(path->getTail()->isOfType(SoIndexedFaceSet::getClassTypeId()));
      const auto back = scene.bodyForPath(path);
      QVERIFY(back);
      QVERIFY(*back == h);
      path->unref();
    }
    // Paths that do not go through a body.
    QVERIFY(!scene.bodyForPath(nullptr));
    SoSearchAction findOverlay;
    findOverlay.setNode(scene.overlayRoot());
    findOverlay.apply(scene.root());
    QVERIFY(findOverlay.getPath());
    QVERIFY(!scene.bodyForPath(findOverlay.getPath()));
  }

  void rayPickFindsBody() {
    // Picking needs no GL: an orthographic camera looking down −Z at the rubber cube at (0,0,0).
    const World world = test::smallWorld();
    WorldScene scene(world);
    auto* root = new SoSeparator;
    root->ref();
    auto* camera = new SoOrthographicCamera;
    camera->position = SbVec3f(0, 0, 500);
    camera->height = 100;
    camera->nearDistance = 1;  // picking honours the clipping planes
    camera->farDistance = 1000;
    root->addChild(camera);
    root->addChild(scene.root());
    SoRayPickAction pick(SbViewportRegion(400, 400));
    pick.setNormalizedPoint(SbVec2f(0.5f, 0.5f));
    pick.apply(root);
    const SoPickedPoint* pp = pick.getPickedPoint();
    QVERIFY(pp);
    QVERIFY(near(pp->getPoint(), SbVec3f(0, 0, 20), 1e-3f));  // the cube's +Z face
    const auto h = scene.bodyForPath(pp->getPath());
    QVERIFY(h);
    QVERIFY(*h == (BodyHandle{BodyHandle::Kind::Graspable, 0, {}}));

    // A marker in the overlay, in front of the cube, does not steal the pick.
    auto* marker = new SoSeparator;
    auto* at = new SoTransform;
    at->translation = SbVec3f(0, 0, 60);
    marker->addChild(at);
    marker->addChild(new SoCube);
    scene.overlayRoot()->addChild(marker);
    pick.apply(root);
    QVERIFY(pick.getPickedPoint());
    QVERIFY(scene.bodyForPath(pick.getPickedPoint()->getPath()));
    QVERIFY(near(pick.getPickedPoint()->getPoint(), SbVec3f(0, 0, 20), 1e-3f));
    root->unref();
  }

  void selectionTogglesHighlight() {
    const World world = test::smallWorld();
    WorldScene scene(world);
    const BodyHandle cube{BodyHandle::Kind::Graspable, 0, {}};
    const BodyHandle palm{BodyHandle::Kind::Robot, 0, {-1, 0}};
    auto emissive = [&](const BodyHandle& h) { return scene.bodyMaterial(h)->emissiveColor[0]; };
    QVERIFY(!scene.isHighlighted(cube));
    QCOMPARE(emissive(cube), SbColor(0, 0, 0));

    scene.setSelected(cube);
    QVERIFY(scene.isHighlighted(cube));
    QVERIFY(emissive(cube) != SbColor(0, 0, 0));
    QVERIFY(scene.selected() && *scene.selected() == cube);

    scene.setSelected(palm);
    QVERIFY(!scene.isHighlighted(cube));
    QCOMPARE(emissive(cube), SbColor(0, 0, 0));
    QVERIFY(scene.isHighlighted(palm));

    // Selection survives a rebuild; a vanished body drops it.
    scene.rebuild(world);
    QVERIFY(scene.isHighlighted(palm));
    World smaller = world;
    smaller.robots.clear();
    scene.rebuild(smaller);
    QVERIFY(!scene.selected());

    scene.setSelected(std::nullopt);
    for (const auto& h : smaller.bodyHandles()) QVERIFY(!scene.isHighlighted(h));
    scene.setSelected(BodyHandle{BodyHandle::Kind::Obstacle, 42, {}});  // unknown: ignored
    QVERIFY(!scene.selected());
  }

  void displaySettings() {
    const World world = test::smallWorld();
    WorldScene scene(world);
    scene.setTransparency(0.6f);
    for (const auto& h : world.bodyHandles())
      QCOMPARE(scene.bodyMaterial(h)->transparency[0], 0.6f);
    scene.setTransparency(3.0f);  // clamped
    QCOMPARE(scene.transparency(), 1.0f);
    scene.setTransparency(0.25f);
    scene.rebuild(world);  // kept across rebuilds
    QCOMPARE(scene.bodyMaterial(world.bodyHandles().front())->transparency[0], 0.25f);

    SoSearchAction find;
    find.setType(SoDrawStyle::getClassTypeId());
    find.apply(scene.root());  // first draw style in traversal order: the global one, before any body
    scene.setWireframe(true);
    QVERIFY(find.getPath());
    auto* style = static_cast<SoDrawStyle*>(find.getPath()->getTail());
    QCOMPARE(style->style.getValue(), int(SoDrawStyle::LINES));
    scene.setWireframe(false);
    QCOMPARE(style->style.getValue(), int(SoDrawStyle::FILLED));

    // Axes add to the bounding box only when visible.
    const auto withoutAxes = sceneBoundingBox(scene.root());
    scene.setAxesVisible(true);
    QVERIFY(scene.axesVisible());
    const auto withAxes = sceneBoundingBox(scene.root());
    QVERIFY(withoutAxes && withAxes);
    QVERIFY(withAxes->getMax()[2] > withoutAxes->getMax()[2]);
  }

  // A body with separate visual geometry (URDF) draws it, in its own colour; View > Collision Geometry draws the
  // collision mesh instead.
  void visualGeometryUnlessCollisionShown() {
    World world = test::smallWorld();
    Body& cube = world.graspables[0];
    cube.visualMesh = test::boxMesh(80, 80, 80);
    cube.colour = Vec4(0, 1, 0, 1);
    QVERIFY(bodyColour(cube, false).isApprox(Vec3(0, 1, 0)));
    const BodyHandle h = world.bodyHandles()[1];
    QCOMPARE(&world.body(h), &world.graspables[0]);
    WorldScene scene(world);
    const auto width = [&] {
      float dx = 0, dy = 0, dz = 0;
      sceneBoundingBox(scene.bodyNode(h))->getSize(dx, dy, dz);
      return dx;
    };
    QVERIFY(std::abs(width() - 80) < 2);  // the highlight box is hidden; the visual mesh is 80 mm
    scene.setCollisionGeometryShown(world, true);
    QVERIFY(scene.collisionGeometryShown());
    QVERIFY(std::abs(width() - 40) < 2);
    scene.setCollisionGeometryShown(world, false);
    QVERIFY(std::abs(width() - 80) < 2);
  }

  void coloursByMaterialAndSoftness() {
    Body rigid = test::boxBody("a", test::boxMesh(1, 1, 1), Vec3::Zero(), "rubber").body;
    Body soft = rigid;
    soft.youngs_Pa = 1e6;
    QVERIFY(bodyColour(rigid, false).x() > 0.6);  // rubber is red-ish
    QVERIFY(!bodyColour(rigid, false).isApprox(bodyColour(soft, false)));
    QVERIFY(!bodyColour(rigid, false).isApprox(bodyColour(rigid, true)));
    QVERIFY(materialColour("unobtainium").isApprox(materialColour("unobtainium")));
    QVERIFY((materialColour("unobtainium").array() >= 0).all() && (materialColour("unobtainium").array() <= 1).all());
  }

  void standardViewsLookAlongTheirAxes() {
    auto dirOf = [](StandardView v) {
      SbVec3f d;
      standardViewOrientation(v).multVec(SbVec3f(0, 0, -1), d);
      return d;
    };
    auto upOf = [](StandardView v) {
      SbVec3f u;
      standardViewOrientation(v).multVec(SbVec3f(0, 1, 0), u);
      return u;
    };
    auto rightOf = [](StandardView v) {
      SbVec3f r;
      standardViewOrientation(v).multVec(SbVec3f(1, 0, 0), r);
      return r;
    };
    // Z-up world.
    QVERIFY(near(dirOf(StandardView::Front), SbVec3f(0, 1, 0), 1e-5f));
    QVERIFY(near(upOf(StandardView::Front), SbVec3f(0, 0, 1), 1e-5f));
    QVERIFY(near(rightOf(StandardView::Front), SbVec3f(1, 0, 0), 1e-5f));
    QVERIFY(near(dirOf(StandardView::Top), SbVec3f(0, 0, -1), 1e-5f));
    QVERIFY(near(upOf(StandardView::Top), SbVec3f(0, 1, 0), 1e-5f));
    QVERIFY(near(rightOf(StandardView::Top), SbVec3f(1, 0, 0), 1e-5f));
    QVERIFY(near(dirOf(StandardView::Side), SbVec3f(-1, 0, 0), 1e-5f));
    QVERIFY(near(upOf(StandardView::Side), SbVec3f(0, 0, 1), 1e-5f));
    const float s = 1.0f / std::sqrt(3.0f);
    QVERIFY(near(dirOf(StandardView::Iso), SbVec3f(-s, s, -s), 1e-5f));
    QVERIFY(upOf(StandardView::Iso)[2] > 0.5f);  // screen up is world up-ish
    QVERIFY(std::abs(rightOf(StandardView::Iso)[2]) < 1e-5f);  // horizon level

    QCOMPARE(parseStandardView("ISO"), std::optional<StandardView>(StandardView::Iso));
    QCOMPARE(parseStandardView("front"), std::optional<StandardView>(StandardView::Front));
    QCOMPARE(parseStandardView(standardViewName(StandardView::Side)), std::optional<StandardView>(StandardView::Side));
    QVERIFY(!parseStandardView("diagonal"));
    QVERIFY(!parseStandardView(""));

    // placeCamera frames the scene: the focal point is near the bbox centre.
    const World world = test::smallWorld();
    WorldScene scene(world);
    auto* camera = new SoPerspectiveCamera;
    camera->ref();
    const SbViewportRegion vp(640, 480);
    placeCamera(camera, scene.root(), vp, StandardView::Top);
    const auto box = sceneBoundingBox(scene.root());
    QVERIFY(box);
    QVERIFY(near(focalPoint(camera), box->getCenter(), 1.0f));
    QVERIFY(camera->position.getValue()[2] > box->getMax()[2]);
    camera->unref();

    // A world camera round-trips.
    Camera wc;
    wc.position_mm = Vec3(1, 2, 3);
    wc.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 0, 0)));
    wc.focalDistance_mm = 77;
    auto* c2 = new SoPerspectiveCamera;
    c2->ref();
    applyWorldCamera(c2, wc);
    const Camera back = worldCameraFrom(c2);
    QVERIFY(back.position_mm.isApprox(wc.position_mm, 1e-6));
    QVERIFY(std::abs(back.orientation.angularDistance(wc.orientation)) < 1e-6);
    QCOMPARE(back.focalDistance_mm, 77.0);
    c2->unref();
  }

  void cameraMotionKeepsFocalPoint() {
    auto* camera = new SoPerspectiveCamera;
    camera->ref();
    const SbRotation front = standardViewOrientation(StandardView::Front);  // on −Y, up +Z
    camera->position = SbVec3f(0, -100, 0);
    camera->orientation = front;
    camera->focalDistance = 100;
    // Orbit: focal point and distance kept, position moved.
    orbitCamera(camera, 0.5f, 0.2f);
    QVERIFY(near(focalPoint(camera), SbVec3f(0, 0, 0), 1e-3f));
    QVERIFY(std::abs((camera->position.getValue()).length() - 100.0f) < 1e-3f);
    QVERIFY(camera->position.getValue()[0] < -1.0f);  // positive yaw: camera to its left
    QVERIFY(camera->position.getValue()[2] > 1.0f);   // positive pitch: camera up
    SbVec3f right;
    camera->orientation.getValue().multVec(SbVec3f(1, 0, 0), right);
    QVERIFY(std::abs(right[2]) < 1e-5f);  // turntable: the horizon stays level
    // Quarter turn of yaw from the front: camera on −X, looking along +X.
    camera->position = SbVec3f(0, -100, 0);
    camera->orientation = front;
    orbitCamera(camera, float(kPi / 2), 0);
    QVERIFY(near(camera->position.getValue(), SbVec3f(-100, 0, 0), 1e-3f));
    QVERIFY(near(viewDirection(camera), SbVec3f(1, 0, 0), 1e-5f));

    // Zoom: distance scales, focal point stays.
    camera->position = SbVec3f(0, 0, 100);
    camera->orientation = SbRotation::identity();
    zoomCamera(camera, 0.5f);
    QVERIFY(near(camera->position.getValue(), SbVec3f(0, 0, 50), 1e-3f));
    QCOMPARE(camera->focalDistance.getValue(), 50.0f);

    // Pan: moving the mouse right by N px moves the camera left by N pixels' worth at the focal plane.
    const float upp = worldUnitsPerPixel(camera, 500);
    QVERIFY(std::abs(upp - 2 * 50 * std::tan(camera->heightAngle.getValue() / 2) / 500) < 1e-5f);
    panCamera(camera, 10, 0, 500);
    QVERIFY(near(camera->position.getValue(), SbVec3f(-10 * upp, 0, 50), 1e-4f));

    seekCamera(camera, SbVec3f(5, 6, 7));
    QVERIFY(near(focalPoint(camera), SbVec3f(5, 6, 7), 1e-3f));
    camera->unref();

    auto* ortho = new SoOrthographicCamera;
    ortho->ref();
    ortho->height = 80;
    zoomCamera(ortho, 1.5f);
    QCOMPARE(ortho->height.getValue(), 120.0f);
    QCOMPARE(worldUnitsPerPixel(ortho, 120), 1.0f);
    ortho->unref();
  }
};

QTEST_GUILESS_MAIN(TstScene)
#include "tst_scene.moc"
