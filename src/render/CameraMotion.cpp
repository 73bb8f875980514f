#include "render/CameraMotion.h"

#include <algorithm>
#include <cmath>

#include <Inventor/SbRotation.h>
#include <Inventor/nodes/SoOrthographicCamera.h>
#include <Inventor/nodes/SoPerspectiveCamera.h>

namespace sg {

SbVec3f viewDirection(const SoCamera* camera) {
  SbVec3f dir;
  camera->orientation.getValue().multVec(SbVec3f(0, 0, -1), dir);
  dir.normalize();
  return dir;
}

SbVec3f focalPoint(const SoCamera* camera) {
  return camera->position.getValue() + viewDirection(camera) * camera->focalDistance.getValue();
}

void orbitCamera(SoCamera* camera, float yaw_rad, float pitch_rad, const SbVec3f& worldUp) {
  if (!camera) return;
  const SbVec3f focal = focalPoint(camera);
  const float distance = camera->focalDistance.getValue();
  const SbRotation q = camera->orientation.getValue();
  // Inventor composes left to right (a * b applies a first): the camera-frame pitch goes before q,
  // the world-frame yaw after it.
  const SbRotation next = SbRotation(SbVec3f(1, 0, 0), -pitch_rad) * q * SbRotation(worldUp, -yaw_rad);
  camera->orientation = next;
  camera->position = focal - viewDirection(camera) * distance;
}

float worldUnitsPerPixel(const SoCamera* camera, float viewportHeight_px) {
  const float h = std::max(1.0f, viewportHeight_px);
  if (camera->isOfType(SoOrthographicCamera::getClassTypeId()))
    return static_cast<const SoOrthographicCamera*>(camera)->height.getValue() / h;
  float angle = 0.785398f;
  if (camera->isOfType(SoPerspectiveCamera::getClassTypeId()))
    angle = static_cast<const SoPerspectiveCamera*>(camera)->heightAngle.getValue();
  return 2.0f * camera->focalDistance.getValue() * std::tan(angle / 2.0f) / h;
}

void panCamera(SoCamera* camera, float dx_px, float dy_px, float viewportHeight_px) {
  if (!camera) return;
  const float upp = worldUnitsPerPixel(camera, viewportHeight_px);
  SbVec3f right, up;
  const SbRotation q = camera->orientation.getValue();
  q.multVec(SbVec3f(1, 0, 0), right);
  q.multVec(SbVec3f(0, 1, 0), up);
  // The scene follows the mouse, so the camera moves the other way.
  camera->position = camera->position.getValue() - right * (dx_px * upp) - up * (dy_px * upp);
}

void zoomCamera(SoCamera* camera, float factor) {
  if (!camera || !(factor > 0.0f)) return;
  if (camera->isOfType(SoOrthographicCamera::getClassTypeId())) {
    auto* ortho = static_cast<SoOrthographicCamera*>(camera);
    ortho->height = ortho->height.getValue() * factor;
    return;
  }
  const SbVec3f focal = focalPoint(camera);
  const float distance = std::max(1e-3f, camera->focalDistance.getValue() * factor);
  camera->focalDistance = distance;
  camera->position = focal - viewDirection(camera) * distance;
}

void fitClippingPlanes(SoCamera* camera, const SbBox3f& box) {
  if (!camera || box.isEmpty()) return;
  float dx, dy, dz;
  box.getSize(dx, dy, dz);
  const float radius = 0.5f * std::sqrt(dx * dx + dy * dy + dz * dz) * 1.01f + 1e-3f;
  const float centreDistance = (box.getCenter() - camera->position.getValue()).dot(viewDirection(camera));
  const float farDistance = std::max(centreDistance + radius, 1e-2f);
  const float nearDistance = std::max(centreDistance - radius, farDistance * 1e-4f);
  const SbBool notify = camera->enableNotify(FALSE);
  camera->nearDistance = nearDistance;
  camera->farDistance = farDistance;
  camera->enableNotify(notify);
}

void seekCamera(SoCamera* camera, const SbVec3f& point) {
  if (!camera) return;
  camera->position = point - viewDirection(camera) * camera->focalDistance.getValue();
}

}  // namespace sg
