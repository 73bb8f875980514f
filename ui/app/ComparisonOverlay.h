#pragma once
// The Comparison dock's patches in the 3-D view: on every new comparison or overlay choice, the render layer's
// builder (render/PatchOutlineNodes.h) turns the comparison's outlines of the chosen models into a fresh
// subtree under the scene's overlayRoot() (a child SoSwitch, filled and shown only while the dock is visible and
// at least one model is checked: a fresh start draws no outlines), and legend()
// names each model's colour for the viewport's OverlayLegendWidget. The only code that touches these nodes.
#include <QObject>
#include <vector>

#include "render/OverlayLegend.h"

class SoSeparator;
class SoSwitch;

namespace sg::app {

class ComparisonDock;

class ComparisonOverlay : public QObject {
  Q_OBJECT
 public:
  // `overlayRoot` is ref'd for the overlay's lifetime.
  ComparisonOverlay(ComparisonDock* dock, SoSeparator* overlayRoot, QObject* parent = nullptr);
  ~ComparisonOverlay() override;

  void rebuild();
  SoSwitch* node() const { return switch_; }
  int outlineCount() const { return outlines_; }  // polygons drawn (0 while not shown)
  bool isShown() const;
  const std::vector<OverlayLegendEntry>& legend() const { return legend_; }

 signals:
  void changed();

 private:
  ComparisonDock* dock_;
  SoSeparator* overlayRoot_;
  SoSwitch* switch_;
  int outlines_ = 0;
  std::vector<OverlayLegendEntry> legend_;
};

}  // namespace sg::app
