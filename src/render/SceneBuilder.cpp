#include "render/SceneBuilder.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include <Inventor/SoPath.h>
#include <Inventor/nodes/SoBaseColor.h>
#include <Inventor/nodes/SoCoordinate3.h>
#include <Inventor/nodes/SoCube.h>
#include <Inventor/nodes/SoDrawStyle.h>
#include <Inventor/nodes/SoLightModel.h>
#include <Inventor/nodes/SoLineSet.h>
#include <Inventor/nodes/SoMaterial.h>
#include <Inventor/nodes/SoMaterialBinding.h>
#include <Inventor/nodes/SoPickStyle.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoSwitch.h>
#include <Inventor/nodes/SoTransform.h>
#include <Inventor/nodes/SoTranslation.h>

#include "render/BodyAppearance.h"
#include "render/CoinConvert.h"
#include "render/CoinInit.h"
#include "render/MeshNodes.h"
#include "render/StandardView.h"

namespace sg {

namespace {

const SbColor kBodyHighlightEmissive(0.35f, 0.30f, 0.0f);
const SbColor kHighlightBoxColour(1.0f, 0.85f, 0.1f);
constexpr float kDefaultAxisLength_mm = 100.0f;

// SbName-safe identifier from a body label ("ThreeFinger/chain1/link0" → "ThreeFinger_chain1_link0").
std::string nodeName(const std::string& label) {
  std::string out;
  for (char c : label) out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front()))) out = "_" + out;
  return out;
}

SbColor toColour(const Vec3& rgb) {
  return SbColor(static_cast<float>(rgb.x()), static_cast<float>(rgb.y()), static_cast<float>(rgb.z()));
}

void setPose(SoTransform* xf, const Transform& pose) {
  const SbVec3f t = toSb(pose.translation());
  const SbRotation r = toSb(pose.rotation());
  if (!(xf->translation.getValue() == t)) xf->translation = t;
  if (!(xf->rotation.getValue() == r)) xf->rotation = r;
}

// Yellow wireframe box around the mesh bounds, drawn when the body is selected.
SoSeparator* makeHighlightBox(const TriangleMesh* mesh) {
  auto* sep = new SoSeparator;
  auto* pick = new SoPickStyle;
  pick->style = SoPickStyle::UNPICKABLE;
  sep->addChild(pick);
  auto* light = new SoLightModel;
  light->model = SoLightModel::BASE_COLOR;
  sep->addChild(light);
  auto* style = new SoDrawStyle;
  style->style = SoDrawStyle::LINES;
  style->lineWidth = 2.0f;
  sep->addChild(style);
  auto* colour = new SoBaseColor;
  colour->rgb = kHighlightBoxColour;
  sep->addChild(colour);
  Vec3 centre = Vec3::Zero(), size = Vec3::Constant(1.0);
  if (mesh && !mesh->bounds.empty()) {
    centre = mesh->bounds.center();
    size = mesh->bounds.size();
  }
  const double margin = 0.02 * size.maxCoeff() + 1e-3;
  auto* move = new SoTranslation;
  move->translation = toSb(centre);
  sep->addChild(move);
  auto* cube = new SoCube;
  cube->width = static_cast<float>(size.x() + 2 * margin);
  cube->height = static_cast<float>(size.y() + 2 * margin);
  cube->depth = static_cast<float>(size.z() + 2 * margin);
  sep->addChild(cube);
  return sep;
}

SoSeparator* makeAxes(float length_mm) {
  auto* sep = new SoSeparator;
  auto* pick = new SoPickStyle;
  pick->style = SoPickStyle::UNPICKABLE;
  sep->addChild(pick);
  auto* light = new SoLightModel;
  light->model = SoLightModel::BASE_COLOR;
  sep->addChild(light);
  auto* style = new SoDrawStyle;
  style->lineWidth = 2.0f;
  sep->addChild(style);
  auto* binding = new SoMaterialBinding;
  binding->value = SoMaterialBinding::PER_PART;
  sep->addChild(binding);
  auto* colours = new SoBaseColor;
  const SbColor rgb[3] = {SbColor(0.9f, 0.2f, 0.2f), SbColor(0.2f, 0.8f, 0.2f), SbColor(0.25f, 0.4f, 1.0f)};
  colours->rgb.setValues(0, 3, rgb);
  sep->addChild(colours);
  auto* coords = new SoCoordinate3;
  const SbVec3f pts[6] = {SbVec3f(0, 0, 0), SbVec3f(length_mm, 0, 0), SbVec3f(0, 0, 0),
                          SbVec3f(0, length_mm, 0), SbVec3f(0, 0, 0), SbVec3f(0, 0, length_mm)};
  coords->point.setValues(0, 6, pts);
  sep->addChild(coords);
  auto* lines = new SoLineSet;
  const int32_t counts[3] = {2, 2, 2};
  lines->numVertices.setValues(0, 3, counts);
  sep->addChild(lines);
  return sep;
}

}  // namespace

WorldScene::WorldScene(const World& world) {
  initCoin();
  root_ = new SoSeparator;
  root_->ref();
  root_->setName("WorldScene");
  axesSwitch_ = new SoSwitch;
  axesSwitch_->whichChild = SO_SWITCH_NONE;
  root_->addChild(axesSwitch_);
  bodiesRoot_ = new SoSeparator;
  bodiesRoot_->setName("bodies");
  root_->addChild(bodiesRoot_);
  drawStyle_ = new SoDrawStyle;
  drawStyle_->ref();  // kept across rebuilds
  // Overlays sit in a group that makes them unpickable, so a contact marker in front of a body never
  // hides the body from a click. An overlay that wants picks can add its own SoPickStyle SHAPE.
  auto* overlayGroup = new SoSeparator;
  auto* unpickable = new SoPickStyle;
  unpickable->style = SoPickStyle::UNPICKABLE;
  overlayGroup->addChild(unpickable);
  overlayRoot_ = new SoSeparator;
  overlayRoot_->setName("overlays");
  overlayGroup->addChild(overlayRoot_);
  root_->addChild(overlayGroup);
  buildBodies(world);
  rebuildAxes(world);
}

WorldScene::~WorldScene() {
  for (auto& [mesh, entry] : geometryCache_) entry.second->unref();
  drawStyle_->unref();
  root_->unref();
}

void WorldScene::buildBodies(const World& world) {
  bodiesRoot_->removeAllChildren();
  bodiesRoot_->addChild(drawStyle_);
  entries_.clear();
  entryOfNode_.clear();
  robotNodes_.clear();
  for (const Robot& robot : world.robots) {
    auto* sep = new SoSeparator;
    sep->setName(SbName(nodeName(robot.name).c_str()));
    robotNodes_.push_back(sep);
  }

  std::set<const TriangleMesh*> used;
  // Handles come as obstacles, graspables, robot bodies, mounts: the robot separators go in where the
  // first robot body or mount would, so the graph keeps that order.
  bool robotsAdded = false;
  auto addRobotNodes = [&] {
    if (robotsAdded) return;
    for (SoSeparator* r : robotNodes_) bodiesRoot_->addChild(r);
    robotsAdded = true;
  };
  for (const BodyHandle& h : world.bodyHandles()) {
    const bool robotBody = h.kind == BodyHandle::Kind::Robot;
    if (robotBody || h.kind == BodyHandle::Kind::Mount) addRobotNodes();
    const Body& body = world.body(h);
    if (drawnMesh(body)) used.insert(drawnMesh(body).get());
    SoSeparator* node = makeBodyNode(body, X_WB(world.state, h), h, robotBody);
    node->setName(SbName(nodeName(world.bodyLabel(h)).c_str()));
    (robotBody ? robotNodes_[h.index] : bodiesRoot_)->addChild(node);
  }
  addRobotNodes();

  for (auto it = geometryCache_.begin(); it != geometryCache_.end();) {
    if (used.count(it->first)) {
      ++it;
    } else {
      it->second.second->unref();
      it = geometryCache_.erase(it);
    }
  }
}

SoSeparator* WorldScene::makeBodyNode(const Body& body, const Transform& X_WB, const BodyHandle& handle,
                                      bool robotBody) {
  Entry e;
  e.handle = handle;
  e.separator = new SoSeparator;
  e.transform = new SoTransform;
  setPose(e.transform, X_WB);
  e.separator->addChild(e.transform);

  e.material = new SoMaterial;
  const Vec3 rgb = bodyColour(body, robotBody);
  e.diffuse = toColour(rgb);
  e.ambient = toColour(0.3 * rgb);
  e.material->diffuseColor = e.diffuse;
  e.material->ambientColor = e.ambient;
  e.material->specularColor = SbColor(0.25f, 0.25f, 0.25f);
  e.material->shininess = 0.3f;
  e.material->transparency = transparency_;
  e.separator->addChild(e.material);

  e.highlight = new SoSwitch;
  e.highlight->whichChild = SO_SWITCH_NONE;
  e.highlight->addChild(makeHighlightBox(drawnMesh(body).get()));
  e.separator->addChild(e.highlight);

  if (SoNode* geometry = geometryFor(body)) e.separator->addChild(geometry);

  entryOfNode_[e.separator] = entries_.size();
  entries_.push_back(e);
  return e.separator;
}

const std::shared_ptr<const TriangleMesh>& WorldScene::drawnMesh(const Body& body) const {
  return body.visualMesh && !collisionGeometryShown_ ? body.visualMesh : body.mesh;
}

SoNode* WorldScene::geometryFor(const Body& body) {
  const auto& mesh = drawnMesh(body);
  if (!mesh || mesh->empty()) return nullptr;
  auto it = geometryCache_.find(mesh.get());
  if (it != geometryCache_.end()) return it->second.second;
  SoNode* node = makeMeshNode(*mesh);
  node->ref();
  geometryCache_[mesh.get()] = {mesh, node};
  return node;
}

void WorldScene::setCollisionGeometryShown(const World& world, bool on) {
  if (on == collisionGeometryShown_) return;
  collisionGeometryShown_ = on;
  rebuild(world);
}

void WorldScene::rebuildAxes(const World&) {
  float length = kDefaultAxisLength_mm;
  if (auto box = sceneBoundingBox(bodiesRoot_)) {
    float dx, dy, dz;
    box->getSize(dx, dy, dz);
    length = std::max({dx, dy, dz}) * 0.6f;
    if (!(length > 0.0f)) length = kDefaultAxisLength_mm;
  }
  axesSwitch_->removeAllChildren();
  axesSwitch_->addChild(makeAxes(length));
  axesSwitch_->whichChild = axesVisible_ ? 0 : SO_SWITCH_NONE;
}

void WorldScene::updatePoses(const World& world) { updatePoses(world, world.state); }

void WorldScene::updatePoses(const World& world, const WorldState& state) {
  const std::vector<BodyHandle> handles = world.bodyHandles();
  bool sameBodies = handles.size() == entries_.size();
  for (std::size_t i = 0; sameBodies && i < handles.size(); ++i) sameBodies = handles[i] == entries_[i].handle;
  if (!sameBodies) {
    rebuild(world);
    if (&state == &world.state) return;
  }
  for (const Entry& e : entries_) setPose(e.transform, X_WB(state, e.handle));
}

void WorldScene::rebuild(const World& world) {
  const std::optional<BodyHandle> previous = selected_;
  selected_.reset();
  buildBodies(world);
  rebuildAxes(world);
  if (previous && find(*previous)) setSelected(previous);
  for (const Entry& e : entries_) applyColliding(e);
}

void WorldScene::applyColliding(const Entry& e) const {
  const bool red = isColliding(e.handle);
  e.material->diffuseColor = red ? SbColor(0.9f, 0.05f, 0.05f) : e.diffuse;
  e.material->ambientColor = red ? SbColor(0.3f, 0.0f, 0.0f) : e.ambient;
}

void WorldScene::setColliding(const std::vector<BodyHandle>& handles) {
  colliding_ = handles;
  for (const Entry& e : entries_) applyColliding(e);
}

bool WorldScene::isColliding(const BodyHandle& handle) const {
  return std::find(colliding_.begin(), colliding_.end(), handle) != colliding_.end();
}

const WorldScene::Entry* WorldScene::find(const BodyHandle& handle) const {
  for (const Entry& e : entries_)
    if (e.handle == handle) return &e;
  return nullptr;
}

std::optional<BodyHandle> WorldScene::bodyForPath(const SoPath* path) const {
  if (!path) return std::nullopt;
  for (int i = path->getLength() - 1; i >= 0; --i) {
    auto it = entryOfNode_.find(path->getNode(i));
    if (it != entryOfNode_.end()) return entries_[it->second].handle;
  }
  return std::nullopt;
}

SoSeparator* WorldScene::bodyNode(const BodyHandle& handle) const {
  const Entry* e = find(handle);
  return e ? e->separator : nullptr;
}

SoTransform* WorldScene::bodyTransform(const BodyHandle& handle) const {
  const Entry* e = find(handle);
  return e ? e->transform : nullptr;
}

SoMaterial* WorldScene::bodyMaterial(const BodyHandle& handle) const {
  const Entry* e = find(handle);
  return e ? e->material : nullptr;
}

SoSeparator* WorldScene::robotNode(int robotIndex) const {
  if (robotIndex < 0 || robotIndex >= static_cast<int>(robotNodes_.size())) return nullptr;
  return robotNodes_[robotIndex];
}

void WorldScene::applyHighlight(const Entry& e, bool on) const {
  e.material->emissiveColor = on ? kBodyHighlightEmissive : SbColor(0, 0, 0);
  e.highlight->whichChild = on ? 0 : SO_SWITCH_NONE;
}

void WorldScene::setSelected(std::optional<BodyHandle> handle) {
  if (selected_)
    if (const Entry* e = find(*selected_)) applyHighlight(*e, false);
  selected_.reset();
  if (!handle) return;
  if (const Entry* e = find(*handle)) {
    applyHighlight(*e, true);
    selected_ = handle;
  }
}

bool WorldScene::isHighlighted(const BodyHandle& handle) const {
  const Entry* e = find(handle);
  return e && e->highlight->whichChild.getValue() == 0;
}

void WorldScene::setWireframe(bool on) {
  wireframe_ = on;
  drawStyle_->style = on ? SoDrawStyle::LINES : SoDrawStyle::FILLED;
}

void WorldScene::setTransparency(float transparency) {
  transparency_ = std::clamp(transparency, 0.0f, 1.0f);
  for (const Entry& e : entries_) e.material->transparency = transparency_;
}

void WorldScene::setAxesVisible(bool on) {
  axesVisible_ = on;
  axesSwitch_->whichChild = on ? 0 : SO_SWITCH_NONE;
}

}  // namespace sg
