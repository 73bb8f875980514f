#include "render/Headlight.h"

#include <Inventor/nodes/SoDirectionalLight.h>

namespace sg {

SoDirectionalLight* makeHeadlight() {
  auto* light = new SoDirectionalLight;
  SbVec3f direction(-0.1f, -0.35f, -1.0f);  // eye space (camera looks along −Z): from above, a little right
  direction.normalize();
  light->direction = direction;
  light->setName("headlight");
  return light;
}

}  // namespace sg
