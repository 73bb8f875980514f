#pragma once
// Scene bounding boxes and camera placement for the standard views.
//
// World frame is Z-up, like the GraspIt! worlds (tables are horizontal in XY). View directions:
//   Front: camera on −Y looking along +Y, up +Z (X to the right)
//   Top:   camera on +Z looking down −Z, up +Y (X to the right)
//   Side:  camera on +X looking along −X, up +Z (the right-hand view)
//   Iso:   camera on (+1,−1,+1) looking at the origin, up as close to +Z as possible
#include <optional>
#include <string_view>

#include <Inventor/SbBox3f.h>
#include <Inventor/SbRotation.h>
#include <Inventor/SbViewportRegion.h>

class SoCamera;
class SoNode;

namespace sg {

struct Camera;

enum class StandardView { Front, Top, Side, Iso };

// "front", "top", "side", "iso" (any case) → the view; nullopt otherwise. For command-line options.
std::optional<StandardView> parseStandardView(std::string_view name);
const char* standardViewName(StandardView view);

// World-space bounding box of everything `scene` draws (SoGetBoundingBoxAction); nullopt if empty.
std::optional<SbBox3f> sceneBoundingBox(SoNode* scene, const SbViewportRegion& viewport = SbViewportRegion(640, 480));

// Camera orientation that looks along the view's direction (see above).
SbRotation standardViewOrientation(StandardView view);

// Orients `camera` for `view` and moves it back so all of `scene` fits `viewport` (SoCamera::viewAll).
// An empty scene leaves the position unchanged. For orthographic cameras the height is set too.
void placeCamera(SoCamera* camera, SoNode* scene, const SbViewportRegion& viewport, StandardView view);

// Keeps the camera's orientation, moves it back so all of `scene` fits `viewport`.
void viewAll(SoCamera* camera, SoNode* scene, const SbViewportRegion& viewport);

// Copies a world file's camera (position mm, orientation, focal distance mm) onto a Coin camera.
void applyWorldCamera(SoCamera* camera, const Camera& worldCamera);
// The reverse, e.g. to save the current view into a world.
Camera worldCameraFrom(const SoCamera* camera);

}  // namespace sg
