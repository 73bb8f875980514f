#pragma once
// Viewport overlay of the grasp evaluation, as the render layer draws it (render/GraspOverlay.h,
// makeEvaluationOverlayNode, which the headless screenshot uses too): for every evaluated soft contact the
// fitted paraboloid of each side and the contact ellipse, the contact-force arrows where the contact model gives
// a normal force, and the worst-case disturbance wrench of the L1 space at the object's centre of mass (only
// with force closure). A child SoSwitch of the scene's overlayRoot(), rebuilt on every GraspAnalysis::updated;
// legend() says what the arrows drawn mean (render/OverlayLegend.h), empty while the overlay is hidden.
#include <QObject>
#include <vector>

#include "render/GraspOverlay.h"
#include "render/OverlayLegend.h"

class SoSeparator;
class SoSwitch;

namespace sg::app {

class GraspAnalysis;

class QualityOverlay : public QObject {
  Q_OBJECT
 public:
  // `overlayRoot` is ref'd for the overlay's lifetime (the scene may be destroyed first).
  QualityOverlay(GraspAnalysis* analysis, SoSeparator* overlayRoot, QObject* parent = nullptr);
  ~QualityOverlay() override;

  void setVisible(bool on);
  bool isVisible() const { return visible_; }
  // View > Contact Force Arrows.
  void setForceArrowsVisible(bool on);
  bool forceArrowsVisible() const { return options_.contactForces; }
  void rebuild();

  SoSwitch* node() const { return switch_; }
  int patchCount() const { return counts_.patches; }      // paraboloid patches drawn (two per soft contact)
  int ellipseCount() const { return counts_.ellipses; }   // contact ellipses drawn (one per soft contact)
  int forceArrowCount() const { return counts_.forceArrows; }  // contact-force arrows built
  bool showsWorstCaseWrench() const { return counts_.worstCaseWrench; }
  const GraspOverlayOptions& options() const { return options_; }
  // The legend of what is shown (empty while hidden).
  std::vector<OverlayLegendEntry> legend() const;

 signals:
  // After every rebuild or visibility change: the legend may have changed.
  void changed();

 private:
  GraspAnalysis* analysis_;
  SoSeparator* overlayRoot_;
  SoSwitch* switch_;
  SoSeparator* content_;
  bool visible_ = true;
  GraspOverlayOptions options_;
  GraspOverlayCounts counts_;
};

}  // namespace sg::app
