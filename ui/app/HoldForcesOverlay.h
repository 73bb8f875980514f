#pragma once
// Quality > Holding Forces: the grasp force optimisation's contact forces (src/grasp/forces/FORCES.md) drawn as
// arrows in the viewport (render/HoldForceNodes.h) for the object's weight along one object-frame axis direction,
// or along the worst one (the largest share of a DOF's effort). Recomputed after every analysis update while
// shown; hidden (and not computed) when off. Drawing only: the forces come from the engine's analyzeHold.
#include <QObject>
#include <QString>

class SoSeparator;
class SoSwitch;

namespace sg::app {

class Document;
class GraspAnalysis;

class HoldForcesOverlay : public QObject {
  Q_OBJECT
 public:
  // `overlayRoot` is ref'd for the overlay's lifetime (the scene may be destroyed first).
  HoldForcesOverlay(Document* doc, GraspAnalysis* analysis, SoSeparator* overlayRoot, QObject* parent = nullptr);
  ~HoldForcesOverlay() override;

  // "" (off), "worst", or one of x+, x-, y+, y-, z+, z-.
  void setDirection(const QString& direction);
  const QString& direction() const { return direction_; }
  void rebuild();

  SoSwitch* node() const { return switch_; }
  int arrowCount() const { return arrows_; }
  // The direction drawn (e.g. "z-") or empty; and one line about its outcome for the status bar.
  const QString& shownDirection() const { return shown_; }
  const QString& summary() const { return summary_; }

 signals:
  void changed();  // after every rebuild

 private:
  Document* doc_;
  GraspAnalysis* analysis_;
  SoSeparator* overlayRoot_;
  SoSwitch* switch_;
  SoSeparator* content_;
  QString direction_, shown_, summary_;
  int arrows_ = 0;
};

}  // namespace sg::app
