#pragma once
// Picking a body of a WorldScene shown in a CoinViewport, without handling SoPath references.
#include <optional>

#include <QPoint>

#include "model/World.h"

namespace sg {
class WorldScene;
}

namespace sg::ui {

class CoinViewport;

// The body under `pos` (widget pixels), if the nearest surface there belongs to one of `scene`'s bodies.
std::optional<BodyHandle> pickBody(CoinViewport& viewport, const WorldScene& scene, QPoint pos);

}  // namespace sg::ui
