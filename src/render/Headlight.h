#pragma once
// The light that follows the camera. Put it BEFORE the camera in a super-scene: there the model-view
// matrix is still the identity, so its direction is in eye space.
#include <Inventor/nodes/SoDirectionalLight.h>

namespace sg {

// New light (ref count 0) shining from slightly above (and right of) the viewer, so that the three faces of
// a box seen in the iso view get different shades (a light exactly along the view would not).
SoDirectionalLight* makeHeadlight();

}  // namespace sg
