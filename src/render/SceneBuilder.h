#pragma once
// WorldScene: the Coin scene graph that shows a World. Data flows one way, model → scene graph; the
// scene is a view and never changes the model.
//
// Graph layout (root() is ref'd by WorldScene for its lifetime):
//   root
//   ├─ axes switch        (world X/Y/Z axes, unpickable, hidden by default)
//   ├─ bodies separator   (SoDrawStyle for wireframe first)
//   │   ├─ body separators of obstacles, then graspables
//   │   ├─ one separator per robot, holding that robot's palm and link body separators
//   │   └─ body separators of connection mounts
//   └─ separator { SoPickStyle UNPICKABLE; overlayRoot() }
//                         (overlayRoot starts empty: contact markers, friction cones, patches go
//                          there; unpickable unless they add their own SoPickStyle SHAPE)
//
// A body separator: SoTransform (world pose, mm) + SoMaterial + selection-highlight switch (a yellow
// bounding-box wireframe) + the mesh geometry (shared between bodies with the same mesh).
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <Inventor/nodes/SoMaterial.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoTransform.h>

#include "model/World.h"

class SoDrawStyle;
class SoPath;
class SoSwitch;

namespace sg {

class WorldScene {
 public:
  // Calls initCoin() itself.
  explicit WorldScene(const World& world);
  ~WorldScene();
  WorldScene(const WorldScene&) = delete;
  WorldScene& operator=(const WorldScene&) = delete;

  SoSeparator* root() const { return root_; }
  // Empty separator for overlays (contacts, cones, patches); rebuild() never touches its children.
  // Its contents are unpickable by default (see the layout above).
  SoSeparator* overlayRoot() const { return overlayRoot_; }

  // Only poses changed: updates the body transforms (fast, nothing reallocated). If bodies were added
  // or removed since the last build it falls back to rebuild().
  void updatePoses(const World& world);
  // The same with the poses of `state` (a state of `world` that is not world.state: a planner's preview).
  void updatePoses(const World& world, const WorldState& state);
  // Bodies added/removed or meshes changed: rebuilds the body part of the graph. Selection, wireframe,
  // transparency and axes settings survive; the selection is dropped if its body no longer exists.
  void rebuild(const World& world);

  // The body a picked path passes through (e.g. SoPickedPoint::getPath()), if any. The path may
  // start above root() (a viewport's super-scene).
  std::optional<BodyHandle> bodyForPath(const SoPath* path) const;
  // The body separator of a handle (nullptr if unknown); e.g. for a dragger or tests.
  SoSeparator* bodyNode(const BodyHandle& handle) const;
  SoTransform* bodyTransform(const BodyHandle& handle) const;
  SoMaterial* bodyMaterial(const BodyHandle& handle) const;
  std::size_t bodyNodeCount() const { return entries_.size(); }
  // Separator grouping a robot's bodies (nullptr if out of range).
  SoSeparator* robotNode(int robotIndex) const;

  // Highlights one body (emissive glow + bounding-box wireframe) or none.
  void setSelected(std::optional<BodyHandle> handle);
  std::optional<BodyHandle> selected() const { return selected_; }
  bool isHighlighted(const BodyHandle& handle) const;

  // Draws these bodies red (interpenetrating bodies, as GraspIt! shows them); every other body keeps its colour.
  // Survives rebuild() for the handles that still exist.
  void setColliding(const std::vector<BodyHandle>& handles);
  bool isColliding(const BodyHandle& handle) const;

  void setWireframe(bool on);
  bool wireframe() const { return wireframe_; }
  // 0 = opaque, 1 = invisible; applies to every body.
  void setTransparency(float transparency);
  float transparency() const { return transparency_; }
  void setAxesVisible(bool on);
  bool axesVisible() const { return axesVisible_; }
  // Bodies with separate visual geometry (URDF <visual>) draw it (default) or their collision mesh; rebuilds.
  void setCollisionGeometryShown(const World& world, bool on);
  bool collisionGeometryShown() const { return collisionGeometryShown_; }

 private:
  struct Entry {
    BodyHandle handle;
    SoSeparator* separator = nullptr;
    SoTransform* transform = nullptr;
    SoMaterial* material = nullptr;
    SoSwitch* highlight = nullptr;
    SbColor diffuse, ambient;  // the body's own colours (restored when it stops colliding)
  };
  void applyColliding(const Entry& e) const;
  void buildBodies(const World& world);
  SoSeparator* makeBodyNode(const Body& body, const Transform& X_WB, const BodyHandle& handle, bool robotBody);
  SoNode* geometryFor(const Body& body);
  const std::shared_ptr<const TriangleMesh>& drawnMesh(const Body& body) const;
  void applyHighlight(const Entry& e, bool on) const;
  void rebuildAxes(const World& world);
  const Entry* find(const BodyHandle& handle) const;

  SoSeparator* root_ = nullptr;
  SoSwitch* axesSwitch_ = nullptr;
  SoSeparator* bodiesRoot_ = nullptr;
  SoDrawStyle* drawStyle_ = nullptr;
  SoSeparator* overlayRoot_ = nullptr;
  std::vector<SoSeparator*> robotNodes_;
  std::vector<Entry> entries_;
  std::map<const SoNode*, std::size_t> entryOfNode_;  // body separator → index in entries_
  // Geometry nodes shared by bodies with the same mesh (ref'd while in this cache).
  std::map<const TriangleMesh*, std::pair<std::shared_ptr<const TriangleMesh>, SoNode*>> geometryCache_;
  std::optional<BodyHandle> selected_;
  std::vector<BodyHandle> colliding_;
  bool wireframe_ = false;
  float transparency_ = 0.0f;
  bool axesVisible_ = false;
  bool collisionGeometryShown_ = false;
};

}  // namespace sg
