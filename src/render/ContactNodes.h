#pragma once
// Coin glyphs for contact records (README.md §Contact glyphs): a small marker sphere at every contact point and,
// for point contacts, a friction cone — apex at the contact point, axis on the contact-normal line,
// half-angle atan(μ), 20 mm tall (GraspIt!'s CONE_HEIGHT), its base ring through the contact frame's
// x/y axes so its 8 edges are the analysis' friction edges. A contact point lies where two surfaces meet,
// so the bodies nearly always hide its marker: markers and cones of glyphs marked `onTop` (the hand's
// contacts) are drawn over everything, the others (an object resting on the table: many, and rarely of interest) are
// depth-tested. One contact can be highlighted: a larger cyan marker drawn over everything, and its cone
// turns from red to cyan. All coordinates are world frame (mm). A view only: built from the records,
// never edits them.
//
// Picking: markers and the highlight carry their own SoPickStyle SHAPE (pickable under an UNPICKABLE
// overlay), cones are UNPICKABLE (20 mm long, they would steal clicks from the bodies they cross).
// contactForPath maps a picked path to its contact; pickContact picks every hit along the ray, so an
// on-top marker hidden geometrically under a fingertip is still found.
//
// Graph (root() is ref'd for the ContactNodes' lifetime):
//   root
//   ├─ markers switch ─ separator { SoPickStyle SHAPE; marker material;
//   │                     separator { per depth-tested contact: separator "contactMarker" { SoTranslation, SoSphere } }
//   │                     separator { SoDepthBuffer (no test); per on-top contact: separator { … } } }
//   ├─ cones switch   ─ separator { SoPickStyle UNPICKABLE; shape hints (two-sided); per cone: separator "frictionCone" { [SoDepthBuffer (no test)
//   │                                if on top,] material, SoCoordinate3,
//   │                                SoIndexedFaceSet (side fan), edge material, SoIndexedLineSet (edges, axis) } }
//   └─ highlight switch ─ separator { SoDepthBuffer (no test), SoPickStyle SHAPE, material, SoTranslation,
//                                     SoSphere }
#include <optional>
#include <vector>

#include "contact/Contact.h"

class SbViewportRegion;
class SbVec2s;
class SoIndexedFaceSet;
class SoMaterial;
class SoNode;
class SoPath;
class SoSeparator;
class SoSphere;
class SoSwitch;
class SoTranslation;

namespace sg {

constexpr double kFrictionConeHeight_mm = 20.0;  // GraspIt!'s CONE_HEIGHT

// A friction cone as drawn.
struct FrictionCone {
  Vec3 apex_mm = Vec3::Zero();  // the contact point
  Vec3 axis = Vec3::UnitZ();    // unit; the cone opens from the apex along it
  double height_mm = kFrictionConeHeight_mm;
  double halfAngle_rad = 0;     // atan(μ)
  double baseRadius_mm() const;
};

// What one contact shows. `frame` is the contact frame of the body the cone stands on (origin = contact
// point, z = that body's inward normal); the cone opens out of that body, along −z, towards the mate.
struct ContactGlyph {
  Transform frame;
  double mu = 0;                // static friction coefficient
  bool showCone = true;         // false: marker only
  bool onTop = false;           // marker and cone drawn over every body (else depth-tested)

  Vec3 position_mm() const { return frame.translation(); }
};

// The glyph of `contact` with its cone standing on side 1 or side 2 (`onSide2`).
ContactGlyph contactGlyph(const Contact& contact, bool onSide2, bool showCone = true);
// The cone of a glyph (height `height_mm`).
FrictionCone frictionCone(const ContactGlyph& glyph, double height_mm = kFrictionConeHeight_mm);

struct ContactGlyphStyle {
  double coneHeight_mm = kFrictionConeHeight_mm;
  int coneEdges = 8;                 // GraspIt!'s 8 friction edges (the analysis' point-contact pyramid)
  double markerRadius_mm = 2.0;
  double highlightRadius_mm = 4.0;
};

class ContactNodes {
 public:
  explicit ContactNodes(ContactGlyphStyle style = {});  // calls initCoin()
  ~ContactNodes();
  ContactNodes(const ContactNodes&) = delete;
  ContactNodes& operator=(const ContactNodes&) = delete;

  SoSeparator* root() const { return root_; }
  const ContactGlyphStyle& style() const { return style_; }

  // Rebuilds every glyph. Drops the highlight when its index no longer exists.
  void setContacts(const std::vector<ContactGlyph>& glyphs);
  int contactCount() const { return static_cast<int>(glyphs_.size()); }
  int coneCount() const;
  const ContactGlyph& glyph(int i) const { return glyphs_.at(i); }

  // Highlights contact `index` (or none; out-of-range indices highlight nothing).
  void setHighlighted(std::optional<int> index);
  std::optional<int> highlighted() const { return highlighted_; }

  // The contact whose marker (or, while one is highlighted, the highlight) `path` runs through, if any;
  // e.g. SoPickedPoint::getPath(), which may start above root().
  std::optional<int> contactForPath(const SoPath* path) const;
  // The contact picked at `pixel` (device pixels, bottom-left origin) of `viewport` in `scene`, a graph
  // that holds a camera and, below it, root(). Every hit along the ray (within `radius_px` for lines and
  // points) is considered, nearest first: an on-top marker (or the highlight) is taken wherever it lies on
  // the ray, as it is drawn over the bodies; a depth-tested marker only when nothing else was hit before
  // it. A marker is only a few pixels wide at ordinary zoom, so when the ray hits none, an on-top marker
  // (or the highlight) whose outline lies within `radius_px` of `pixel` is taken, the nearest on screen.
  // The camera's clipping planes must enclose the scene (they bound the ray).
  std::optional<int> pickContact(SoNode* scene, const SbViewportRegion& viewport, const SbVec2s& pixel,
                                 float radius_px = 3.0f) const;

  void setMarkersVisible(bool on);
  bool markersVisible() const;
  void setConesVisible(bool on);
  bool conesVisible() const;

  // The nodes of contact i, for tests: its marker separator, its cone separator (nullptr without a cone),
  // and the cone's side faces (coordinates: apex first, then the base ring, in world mm). The marker is a
  // child of onTopMarkers() or of depthTestedMarkers().
  SoSeparator* markerNode(int i) const { return markers_.at(i); }
  SoSeparator* onTopMarkers() const { return onTopMarkers_; }
  SoSeparator* depthTestedMarkers() const { return depthTestedMarkers_; }
  SoSeparator* coneNode(int i) const { return cones_.at(i); }
  SoIndexedFaceSet* coneFaces(int i) const;
  SoSeparator* highlightNode() const { return highlightGroup_; }

 private:
  SoSeparator* makeCone(const ContactGlyph& glyph, bool highlighted) const;
  void rebuildCone(int i);
  // contactForPath, also saying whether the hit is drawn over everything (on-top marker, highlight).
  std::optional<int> contactForPath(const SoPath* path, bool& drawnOnTop) const;
  // pickContact's fallback: the on-top marker (or highlight) drawn nearest to `pixel`, within `radius_px`
  // of its outline.
  std::optional<int> nearestOnTopMarker(SoNode* scene, const SbViewportRegion& viewport, const SbVec2s& pixel,
                                        float radius_px) const;

  ContactGlyphStyle style_;
  std::vector<ContactGlyph> glyphs_;
  std::optional<int> highlighted_;
  SoSeparator* root_ = nullptr;
  SoSwitch* markersSwitch_ = nullptr;
  SoSwitch* conesSwitch_ = nullptr;
  SoSwitch* highlightSwitch_ = nullptr;
  SoSeparator* markersGroup_ = nullptr;
  SoSeparator* depthTestedMarkers_ = nullptr;
  SoSeparator* onTopMarkers_ = nullptr;
  SoSeparator* conesGroup_ = nullptr;
  SoSeparator* highlightGroup_ = nullptr;
  SoTranslation* highlightPosition_ = nullptr;
  std::vector<SoSeparator*> markers_;  // per contact
  std::vector<SoSeparator*> cones_;    // per contact, nullptr without a cone
};

}  // namespace sg
