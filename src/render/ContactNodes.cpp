#include "render/ContactNodes.h"

#include <algorithm>
#include <cmath>

#include <Inventor/SbViewportRegion.h>
#include <Inventor/SoPath.h>
#include <Inventor/SoPickedPoint.h>
#include <Inventor/SbMatrix.h>
#include <Inventor/SbVec2f.h>
#include <Inventor/SbViewVolume.h>
#include <Inventor/actions/SoCallbackAction.h>
#include <Inventor/actions/SoRayPickAction.h>

#include <Inventor/nodes/SoCoordinate3.h>
#include <Inventor/nodes/SoDepthBuffer.h>
#include <Inventor/nodes/SoIndexedFaceSet.h>
#include <Inventor/nodes/SoIndexedLineSet.h>
#include <Inventor/nodes/SoLightModel.h>
#include <Inventor/nodes/SoMaterial.h>
#include <Inventor/nodes/SoPickStyle.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoShapeHints.h>
#include <Inventor/nodes/SoSphere.h>
#include <Inventor/nodes/SoSwitch.h>
#include <Inventor/nodes/SoTranslation.h>

#include "render/CoinConvert.h"
#include "render/CoinInit.h"

namespace sg {

namespace {

struct Rgb {
  float r, g, b;
};

// GraspIt!'s cone colours (README.md §Contact glyphs): red, mostly transparent; the highlighted cone is cyan and more opaque.
constexpr Rgb kConeDiffuse{0.8f, 0.0f, 0.0f}, kConeAmbient{0.2f, 0.0f, 0.0f}, kConeEmissive{0.4f, 0.0f, 0.0f};
constexpr float kConeTransparency = 0.8f;
constexpr Rgb kHighlightDiffuse{0.0f, 0.8f, 1.0f}, kHighlightEmissive{0.0f, 0.45f, 0.6f};
constexpr float kHighlightConeTransparency = 0.4f;
constexpr Rgb kMarkerDiffuse{1.0f, 0.55f, 0.0f}, kMarkerEmissive{0.5f, 0.25f, 0.0f};

SoMaterial* makeMaterial(Rgb diffuse, Rgb ambient, Rgb emissive, float transparency) {
  auto* m = new SoMaterial;
  m->diffuseColor.setValue(diffuse.r, diffuse.g, diffuse.b);
  m->ambientColor.setValue(ambient.r, ambient.g, ambient.b);
  m->emissiveColor.setValue(emissive.r, emissive.g, emissive.b);
  m->transparency.setValue(transparency);
  return m;
}

SoSwitch* makeSwitch(SoSeparator* child, bool on) {
  auto* s = new SoSwitch;
  s->addChild(child);
  s->whichChild = on ? SO_SWITCH_ALL : SO_SWITCH_NONE;
  return s;
}

SoPickStyle* makePickStyle(SoPickStyle::Style style) {
  auto* p = new SoPickStyle;
  p->style = style;
  return p;
}

SoSeparator* makeMarker(const Vec3& position_mm, double radius_mm) {
  auto* sep = new SoSeparator;
  sep->setName("contactMarker");
  auto* t = new SoTranslation;
  t->translation.setValue(toSb(position_mm));
  sep->addChild(t);
  auto* sphere = new SoSphere;
  sphere->radius = static_cast<float>(radius_mm);
  sep->addChild(sphere);
  return sep;
}

}  // namespace

double FrictionCone::baseRadius_mm() const { return height_mm * std::tan(halfAngle_rad); }

ContactGlyph contactGlyph(const Contact& contact, bool onSide2, bool showCone) {
  ContactGlyph g;
  g.frame = (onSide2 ? contact.side2 : contact.side1).X_WC;
  g.mu = contact.muStatic;
  g.showCone = showCone;
  return g;
}

FrictionCone frictionCone(const ContactGlyph& glyph, double height_mm) {
  FrictionCone cone;
  cone.apex_mm = glyph.position_mm();
  cone.axis = -(glyph.frame.rotation() * Vec3::UnitZ()).normalized();  // out of the body, towards the mate
  cone.height_mm = height_mm;
  cone.halfAngle_rad = std::atan(std::max(glyph.mu, 0.0));
  return cone;
}

ContactNodes::ContactNodes(ContactGlyphStyle style) : style_(style) {
  initCoin();
  root_ = new SoSeparator;
  root_->ref();
  root_->setName("contactGlyphs");

  markersGroup_ = new SoSeparator;
  markersGroup_->addChild(makePickStyle(SoPickStyle::SHAPE));  // a click on a marker picks its contact
  markersGroup_->addChild(makeMaterial(kMarkerDiffuse, {0.2f, 0.1f, 0.0f}, kMarkerEmissive, 0.0f));
  depthTestedMarkers_ = new SoSeparator;
  markersGroup_->addChild(depthTestedMarkers_);
  onTopMarkers_ = new SoSeparator;
  auto* noDepthTest = new SoDepthBuffer;  // contact points lie between two surfaces: never hide these
  noDepthTest->test = FALSE;
  onTopMarkers_->addChild(noDepthTest);
  markersGroup_->addChild(onTopMarkers_);
  markersSwitch_ = makeSwitch(markersGroup_, true);
  root_->addChild(markersSwitch_);

  conesGroup_ = new SoSeparator;
  conesGroup_->addChild(makePickStyle(SoPickStyle::UNPICKABLE));  // long cones would cover the bodies
  auto* hints = new SoShapeHints;  // open surfaces: light both sides, cull nothing
  hints->vertexOrdering = SoShapeHints::COUNTERCLOCKWISE;
  hints->shapeType = SoShapeHints::UNKNOWN_SHAPE_TYPE;
  conesGroup_->addChild(hints);
  conesSwitch_ = makeSwitch(conesGroup_, true);
  root_->addChild(conesSwitch_);

  highlightGroup_ = new SoSeparator;
  auto* onTop = new SoDepthBuffer;  // the picked contact stays visible behind fingers and objects
  onTop->test = FALSE;
  highlightGroup_->addChild(onTop);
  highlightGroup_->addChild(makePickStyle(SoPickStyle::SHAPE));  // it covers its marker: picks the same contact
  highlightGroup_->addChild(makeMaterial(kHighlightDiffuse, {0.0f, 0.2f, 0.25f}, kHighlightEmissive, 0.0f));
  highlightPosition_ = new SoTranslation;
  highlightGroup_->addChild(highlightPosition_);
  auto* sphere = new SoSphere;
  sphere->radius = static_cast<float>(style_.highlightRadius_mm);
  highlightGroup_->addChild(sphere);
  highlightSwitch_ = makeSwitch(highlightGroup_, false);
  root_->addChild(highlightSwitch_);
}

ContactNodes::~ContactNodes() { root_->unref(); }

int ContactNodes::coneCount() const {
  int n = 0;
  for (const SoSeparator* c : cones_) n += c != nullptr;
  return n;
}

SoSeparator* ContactNodes::makeCone(const ContactGlyph& glyph, bool highlighted) const {
  const FrictionCone cone = frictionCone(glyph, style_.coneHeight_mm);
  const Vec3 u = glyph.frame.rotation() * Vec3::UnitX(), v = glyph.frame.rotation() * Vec3::UnitY();
  const Vec3 baseCentre = cone.apex_mm + cone.height_mm * cone.axis;
  const double r = cone.baseRadius_mm();
  const int n = std::max(3, style_.coneEdges);

  auto* sep = new SoSeparator;
  sep->setName("frictionCone");
  if (glyph.onTop) {  // a hand contact's cone opens into the finger: draw it through the finger
    auto* noDepthTest = new SoDepthBuffer;
    noDepthTest->test = FALSE;
    sep->addChild(noDepthTest);
  }
  sep->addChild(highlighted ? makeMaterial(kHighlightDiffuse, {0.0f, 0.2f, 0.25f}, kHighlightEmissive,
                                           kHighlightConeTransparency)
                            : makeMaterial(kConeDiffuse, kConeAmbient, kConeEmissive, kConeTransparency));
  auto* coords = new SoCoordinate3;
  coords->point.set1Value(0, toSb(cone.apex_mm));
  for (int k = 0; k < n; ++k) {  // edge k at 2πk/n in the frame's tangent plane, as pointContactEdges
    const double theta = 2.0 * kPi * k / n;
    coords->point.set1Value(k + 1, toSb(baseCentre + r * (std::cos(theta) * u + std::sin(theta) * v)));
  }
  coords->point.set1Value(n + 1, toSb(baseCentre));
  sep->addChild(coords);
  if (r > 0) {  // a frictionless contact has no cone, only its normal line
    auto* faces = new SoIndexedFaceSet;
    int idx = 0;
    for (int k = 0; k < n; ++k) {
      faces->coordIndex.set1Value(idx++, 0);
      faces->coordIndex.set1Value(idx++, 1 + k);
      faces->coordIndex.set1Value(idx++, 1 + (k + 1) % n);
      faces->coordIndex.set1Value(idx++, SO_END_FACE_INDEX);
    }
    sep->addChild(faces);
  }
  // The friction edges and the normal line, unlit and opaque so a faint cone still reads.
  auto* lightModel = new SoLightModel;
  lightModel->model = SoLightModel::BASE_COLOR;
  sep->addChild(lightModel);
  sep->addChild(highlighted ? makeMaterial(kHighlightDiffuse, {0, 0, 0}, {0, 0, 0}, 0.0f)
                            : makeMaterial({0.45f, 0.0f, 0.0f}, {0, 0, 0}, {0, 0, 0}, 0.0f));
  auto* lines = new SoIndexedLineSet;
  int idx = 0;
  if (r > 0)
    for (int k = 0; k < n; ++k) {
      lines->coordIndex.set1Value(idx++, 0);
      lines->coordIndex.set1Value(idx++, 1 + k);
      lines->coordIndex.set1Value(idx++, SO_END_LINE_INDEX);
    }
  lines->coordIndex.set1Value(idx++, 0);
  lines->coordIndex.set1Value(idx++, n + 1);
  lines->coordIndex.set1Value(idx++, SO_END_LINE_INDEX);
  sep->addChild(lines);
  return sep;
}

SoIndexedFaceSet* ContactNodes::coneFaces(int i) const {
  SoSeparator* cone = cones_.at(i);
  if (!cone) return nullptr;
  for (int k = 0; k < cone->getNumChildren(); ++k)
    if (cone->getChild(k)->isOfType(SoIndexedFaceSet::getClassTypeId()))
      return static_cast<SoIndexedFaceSet*>(cone->getChild(k));
  return nullptr;
}

void ContactNodes::setContacts(const std::vector<ContactGlyph>& glyphs) {
  glyphs_ = glyphs;
  for (SoSeparator* m : markers_) (onTopMarkers_->findChild(m) >= 0 ? onTopMarkers_ : depthTestedMarkers_)->removeChild(m);
  for (SoSeparator* c : cones_)
    if (c) conesGroup_->removeChild(c);
  markers_.clear();
  cones_.clear();
  if (highlighted_ && *highlighted_ >= contactCount()) highlighted_.reset();
  for (int i = 0; i < contactCount(); ++i) {
    markers_.push_back(makeMarker(glyphs_[i].position_mm(), style_.markerRadius_mm));
    (glyphs_[i].onTop ? onTopMarkers_ : depthTestedMarkers_)->addChild(markers_.back());
    SoSeparator* cone = glyphs_[i].showCone ? makeCone(glyphs_[i], highlighted_ == i) : nullptr;
    cones_.push_back(cone);
    if (cone) conesGroup_->addChild(cone);
  }
  setHighlighted(highlighted_);
}

void ContactNodes::rebuildCone(int i) {
  SoSeparator* old = cones_.at(i);
  if (!old) return;
  cones_[i] = makeCone(glyphs_[i], highlighted_ == i);
  conesGroup_->replaceChild(old, cones_[i]);
}

void ContactNodes::setHighlighted(std::optional<int> index) {
  if (index && (*index < 0 || *index >= contactCount())) index.reset();
  const std::optional<int> previous = highlighted_;
  highlighted_ = index;
  if (previous != index && previous && *previous < contactCount()) rebuildCone(*previous);
  if (previous != index && index) rebuildCone(*index);
  if (index) highlightPosition_->translation.setValue(toSb(glyphs_[*index].position_mm()));
  highlightSwitch_->whichChild = index ? SO_SWITCH_ALL : SO_SWITCH_NONE;
}

std::optional<int> ContactNodes::contactForPath(const SoPath* path, bool& drawnOnTop) const {
  drawnOnTop = false;
  if (!path) return std::nullopt;
  for (int k = 0; k + 1 < path->getLength(); ++k) {
    const SoNode* node = path->getNode(k);
    if (node == highlightGroup_ && highlighted_) {
      drawnOnTop = true;
      return highlighted_;
    }
    if (node != onTopMarkers_ && node != depthTestedMarkers_) continue;
    const auto it = std::find(markers_.begin(), markers_.end(), path->getNode(k + 1));
    if (it == markers_.end()) return std::nullopt;
    const int i = static_cast<int>(it - markers_.begin());
    drawnOnTop = glyphs_[i].onTop;
    return i;
  }
  return std::nullopt;
}

std::optional<int> ContactNodes::contactForPath(const SoPath* path) const {
  bool onTop = false;
  return contactForPath(path, onTop);
}

std::optional<int> ContactNodes::pickContact(SoNode* scene, const SbViewportRegion& viewport, const SbVec2s& pixel,
                                             float radius_px) const {
  if (!scene) return std::nullopt;
  SoRayPickAction action(viewport);
  action.setPoint(pixel);
  action.setRadius(radius_px);
  action.setPickAll(TRUE);  // the nearest hit is usually the finger over the contact
  action.apply(scene);
  const SoPickedPointList& hits = action.getPickedPointList();  // nearest first
  bool hidden = false;  // something was hit in front: depth-tested markers behind it are not seen
  for (int k = 0; k < hits.getLength(); ++k) {
    bool onTop = false;
    const std::optional<int> i = contactForPath(hits[k]->getPath(), onTop);
    if (i && (onTop || !hidden)) return i;
    hidden = hidden || !i;
  }
  return nearestOnTopMarker(scene, viewport, pixel, radius_px);
}

std::optional<int> ContactNodes::nearestOnTopMarker(SoNode* scene, const SbViewportRegion& viewport,
                                                    const SbVec2s& pixel, float radius_px) const {
  // The view volume and model matrix where root() is traversed (nothing when it is switched off above).
  struct Seen {
    const SoNode* root = nullptr;
    bool found = false;
    SbViewVolume volume;
    SbMatrix model;
  } seen;
  seen.root = root_;
  SoCallbackAction action(viewport);
  action.addPreCallback(
      SoSeparator::getClassTypeId(),
      [](void* data, SoCallbackAction* a, const SoNode* node) {
        auto* s = static_cast<Seen*>(data);
        if (node != s->root) return SoCallbackAction::CONTINUE;
        s->found = true;
        s->volume = a->getViewVolume();
        s->model = a->getModelMatrix();
        return SoCallbackAction::ABORT;
      },
      &seen);
  action.apply(scene);
  if (!seen.found) return std::nullopt;
  const SbVec2s size = viewport.getViewportSizePixels();
  const SbVec3f right = seen.volume.getProjectionDirection().cross(seen.volume.getViewUp());
  auto toPixels = [&](const SbVec3f& world) {
    SbVec3f screen;
    seen.volume.projectToScreen(world, screen);
    return SbVec2f(screen[0] * size[0], screen[1] * size[1]);
  };
  const SbVec2f at(pixel[0], pixel[1]);
  std::optional<int> best;
  float bestGap = radius_px;
  auto consider = [&](int i, double radius_mm) {
    SbVec3f centre;
    seen.model.multVecMatrix(toSb(glyphs_[i].position_mm()), centre);
    const SbVec2f c = toPixels(centre);
    const float outline_px = (toPixels(centre + right * static_cast<float>(radius_mm)) - c).length();
    const float gap = std::max(0.0f, (at - c).length() - outline_px);
    if (gap <= bestGap && (!best || gap < bestGap)) {
      best = i;
      bestGap = gap;
    }
  };
  if (markersVisible())
    for (int i = 0; i < contactCount(); ++i)
      if (glyphs_[i].onTop) consider(i, style_.markerRadius_mm);
  if (highlighted_) consider(*highlighted_, style_.highlightRadius_mm);
  return best;
}

void ContactNodes::setMarkersVisible(bool on) { markersSwitch_->whichChild = on ? SO_SWITCH_ALL : SO_SWITCH_NONE; }
bool ContactNodes::markersVisible() const { return markersSwitch_->whichChild.getValue() == SO_SWITCH_ALL; }
void ContactNodes::setConesVisible(bool on) { conesSwitch_->whichChild = on ? SO_SWITCH_ALL : SO_SWITCH_NONE; }
bool ContactNodes::conesVisible() const { return conesSwitch_->whichChild.getValue() == SO_SWITCH_ALL; }

}  // namespace sg
