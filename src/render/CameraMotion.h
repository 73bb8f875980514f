#pragma once
// Camera navigation math on Coin cameras, independent of any window system: orbit about the focal
// point, pan in the view plane, zoom (dolly for perspective, height for orthographic), seek.
// Lengths are in scene units (mm); pixel arguments are device pixels.
#include <Inventor/SbBox3f.h>
#include <Inventor/SbVec3f.h>

class SoCamera;

namespace sg {

// The point the camera orbits about: position + viewDirection × focalDistance.
SbVec3f focalPoint(const SoCamera* camera);
// Unit view direction (camera −Z in world coordinates).
SbVec3f viewDirection(const SoCamera* camera);

// Turntable orbit about the focal point: `yaw_rad` about the world's up axis (worlds are Z-up),
// `pitch_rad` about the camera's right axis. With the camera upright, positive yaw moves it to its
// left (the scene turns right) and positive pitch moves it up (the scene tips towards the viewer).
void orbitCamera(SoCamera* camera, float yaw_rad, float pitch_rad, const SbVec3f& worldUp = SbVec3f(0, 0, 1));

// Moves camera and focal point in the view plane so the scene follows the mouse by
// (dx_px right, dy_px up) on a viewport `viewportHeight_px` high.
void panCamera(SoCamera* camera, float dx_px, float dy_px, float viewportHeight_px);

// factor < 1 zooms in (distance or ortho height scaled by factor), > 1 zooms out. The focal point stays.
void zoomCamera(SoCamera* camera, float factor);

// Keeps orientation and focal distance; moves the camera so `point` becomes the focal point.
void seekCamera(SoCamera* camera, const SbVec3f& point);

// Sets near/far distances so the whole `box` (world) lies between them, as the render manager's
// auto-clipping does before drawing; picking before the first render needs it. No notification.
void fitClippingPlanes(SoCamera* camera, const SbBox3f& box);

// Size of one device pixel at the focal distance, in scene units.
float worldUnitsPerPixel(const SoCamera* camera, float viewportHeight_px);

}  // namespace sg
