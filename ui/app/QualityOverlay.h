#pragma once
// Viewport overlay of the grasp evaluation: for every evaluated soft contact the fitted paraboloid of each
// side (object side orange, the other blue) over the neighbourhood radius and the contact ellipse (red),
// and the worst-case disturbance wrench of the L1 space at the object's centre of mass (only with force
// closure). A child SoSwitch of the scene's overlayRoot(), rebuilt on every GraspAnalysis::updated.
#include <QObject>

#include "render/WrenchNodes.h"

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
  int patchCount() const { return patchCount_; }      // paraboloid patches drawn (two per soft contact)
  int ellipseCount() const { return ellipseCount_; }  // contact ellipses drawn (one per soft contact)
  bool showsWorstCaseWrench() const { return wrenchShown_; }

 private:
  GraspAnalysis* analysis_;
  SoSeparator* overlayRoot_;
  SoSwitch* switch_;
  SoSeparator* content_;
  WrenchArrowStyle wrenchStyle_;
  bool visible_ = true;
  int patchCount_ = 0, ellipseCount_ = 0;
  bool wrenchShown_ = false;
};

}  // namespace sg::app
