#include "render/ModelOverlays.h"

#include <map>

namespace sg {

// One file per model drawing; the list below is the one place they are registered.
ModelOverlay softFingerOverlay();    // SoftFingerOverlay.cpp: fitted paraboloids, contact ellipse, nominal force
ModelOverlay hydroelasticOverlay();  // HydroelasticOverlay.cpp: pressure polygons, centre of pressure, net force

namespace {

std::map<std::string, ModelOverlay>& registry() {
  static std::map<std::string, ModelOverlay> overlays = [] {
    std::map<std::string, ModelOverlay> m;
    m["soft-finger"] = softFingerOverlay();
    m["hertz"] = softFingerOverlay();  // the soft finger's result with Hertz's ellipse
    m["hydroelastic"] = hydroelasticOverlay();
    return m;
  }();
  return overlays;
}

}  // namespace

void registerModelOverlay(const std::string& model, ModelOverlay overlay) { registry()[model] = std::move(overlay); }

const ModelOverlay* findModelOverlay(const std::string& model) {
  const auto& overlays = registry();
  const auto it = overlays.find(model);
  return it == overlays.end() ? nullptr : &it->second;
}

}  // namespace sg
