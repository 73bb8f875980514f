#include "render/StandardView.h"

#include <cctype>
#include <string>

#include <Inventor/actions/SoGetBoundingBoxAction.h>
#include <Inventor/nodes/SoCamera.h>
#include <Inventor/nodes/SoNode.h>

#include "model/World.h"
#include "render/CoinConvert.h"

namespace sg {

namespace {

// Camera orientation looking along `direction` with `up` as close to the screen's up as possible.
SbRotation lookRotation(const Vec3& direction, const Vec3& up) {
  const Vec3 zAxis = -direction.normalized();  // the camera looks along its −Z
  Vec3 xAxis = up.cross(zAxis);
  if (xAxis.norm() < 1e-9) xAxis = Vec3::UnitX();
  xAxis.normalize();
  const Vec3 yAxis = zAxis.cross(xAxis);
  Mat3 R;
  R.col(0) = xAxis;
  R.col(1) = yAxis;
  R.col(2) = zAxis;
  return toSb(Quat(R));
}

}  // namespace

std::optional<StandardView> parseStandardView(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (StandardView v : {StandardView::Front, StandardView::Top, StandardView::Side, StandardView::Iso})
    if (lower == standardViewName(v)) return v;
  return std::nullopt;
}

const char* standardViewName(StandardView view) {
  switch (view) {
    case StandardView::Front: return "front";
    case StandardView::Top: return "top";
    case StandardView::Side: return "side";
    case StandardView::Iso: return "iso";
  }
  return "iso";
}

std::optional<SbBox3f> sceneBoundingBox(SoNode* scene, const SbViewportRegion& viewport) {
  if (!scene) return std::nullopt;
  SoGetBoundingBoxAction action(viewport);
  action.apply(scene);
  const SbBox3f box = action.getBoundingBox();
  if (box.isEmpty()) return std::nullopt;
  return box;
}

SbRotation standardViewOrientation(StandardView view) {
  switch (view) {
    case StandardView::Front: return lookRotation(Vec3::UnitY(), Vec3::UnitZ());
    case StandardView::Top: return lookRotation(-Vec3::UnitZ(), Vec3::UnitY());
    case StandardView::Side: return lookRotation(-Vec3::UnitX(), Vec3::UnitZ());
    case StandardView::Iso: return lookRotation(-Vec3(1, -1, 1), Vec3::UnitZ());
  }
  return SbRotation::identity();
}

void viewAll(SoCamera* camera, SoNode* scene, const SbViewportRegion& viewport) {
  if (!camera || !sceneBoundingBox(scene, viewport)) return;
  camera->viewAll(scene, viewport);
}

void placeCamera(SoCamera* camera, SoNode* scene, const SbViewportRegion& viewport, StandardView view) {
  if (!camera) return;
  camera->orientation = standardViewOrientation(view);
  viewAll(camera, scene, viewport);
}

void applyWorldCamera(SoCamera* camera, const Camera& worldCamera) {
  if (!camera) return;
  camera->position = toSb(worldCamera.position_mm);
  camera->orientation = toSb(worldCamera.orientation);
  camera->focalDistance = static_cast<float>(worldCamera.focalDistance_mm);
}

Camera worldCameraFrom(const SoCamera* camera) {
  Camera c;
  if (!camera) return c;
  c.position_mm = fromSb(camera->position.getValue());
  c.orientation = fromSb(camera->orientation.getValue());
  c.focalDistance_mm = camera->focalDistance.getValue();
  return c;
}

}  // namespace sg
