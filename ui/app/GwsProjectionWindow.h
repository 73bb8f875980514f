#pragma once
// Quality ▸ GWS Projection: a window showing a 3-D slice of the 6-D grasp wrench space (src/grasp/QUALITY.md §GWS projection).
// The user picks the three fixed coordinates among fx fy fz τx τy τz, their values, and the space (L1 or
// L∞); the slice's hull is rebuilt on every GraspAnalysis::updated (and lInfinityUpdated, for L∞). With OpenGL the hull is drawn in the
// window's own viewport (render/HullNodes.h); without it a text summary stands alone.
#include <QWidget>
#include <array>

#include "grasp/GraspWrenchSpace.h"
#include "grasp/GwsProjection.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class SoSeparator;

namespace sg::ui {
class CoinViewport;
}

namespace sg::app {

class GraspAnalysis;

// "fx" … "tz" for coordinate 0..5.
QString wrenchCoordinateName(int coordinate);

class GwsProjectionWindow : public QWidget {
  Q_OBJECT
 public:
  GwsProjectionWindow(GraspAnalysis* analysis, bool withViewport, QWidget* parent = nullptr);
  ~GwsProjectionWindow() override;

  GwsType type() const;
  void setType(GwsType type);
  // Fixed coordinates (0..5) and their values; refreshes.
  void setFixed(const std::array<int, 3>& coordinates, const Vec3& values);
  std::array<int, 3> fixedCoordinates() const;
  Vec3 fixedValues() const;

  const GwsProjection& projection() const { return projection_; }
  // Signed distance from the slice's origin (free coordinates 0) to the projected hull's boundary:
  // > 0 inside. −inf without a valid projection.
  double originDepth() const { return originDepth_; }
  QString summary() const;
  ui::CoinViewport* viewport() const { return viewport_; }

  // Rebuilds the projection from the analysis' current evaluation.
  void refresh();

 signals:
  void typeChanged();

 private:
  void rebuildScene();

  GraspAnalysis* analysis_;
  QComboBox* type_;
  std::array<QComboBox*, 3> coordinates_{};
  std::array<QDoubleSpinBox*, 3> values_{};
  QLabel* summary_;
  ui::CoinViewport* viewport_ = nullptr;
  SoSeparator* sceneRoot_ = nullptr;
  bool framed_ = false;
  GwsProjection projection_;
  double originDepth_;
};

}  // namespace sg::app
