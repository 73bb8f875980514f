#include "viewport/Picking.h"

#include <Inventor/SoPath.h>

#include "render/SceneBuilder.h"
#include "viewport/CoinViewport.h"

namespace sg::ui {

std::optional<BodyHandle> pickBody(CoinViewport& viewport, const WorldScene& scene, QPoint pos) {
  SoPath* path = viewport.pickPath(pos);
  if (!path) return std::nullopt;
  const std::optional<BodyHandle> handle = scene.bodyForPath(path);
  path->unref();
  return handle;
}

}  // namespace sg::ui
