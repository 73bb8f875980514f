#pragma once
// Viewport overlay of the grasp evaluation, as the render layer draws it (render/GraspOverlay.h,
// makeEvaluationOverlayNode, which the headless screenshot uses too): for every evaluated soft contact the
// fitted paraboloid of each side and the contact ellipse, and the worst-case disturbance wrench of the L1
// space at the object's centre of mass (only with force closure). A child SoSwitch of the scene's
// overlayRoot(), rebuilt on every GraspAnalysis::updated.
#include <QObject>

#include "render/GraspOverlay.h"

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
  void rebuild();

  SoSwitch* node() const { return switch_; }
  int patchCount() const { return counts_.patches; }      // paraboloid patches drawn (two per soft contact)
  int ellipseCount() const { return counts_.ellipses; }   // contact ellipses drawn (one per soft contact)
  bool showsWorstCaseWrench() const { return counts_.worstCaseWrench; }

 private:
  GraspAnalysis* analysis_;
  SoSeparator* overlayRoot_;
  SoSwitch* switch_;
  SoSeparator* content_;
  bool visible_ = true;
  GraspOverlayCounts counts_;
};

}  // namespace sg::app
