#pragma once
// Collision-stopped interactive edits (src/grasp/MOTION.md §Interactive edits: GraspIt!'s draggers and DOF sliders stop
// at contact). With collision checking on, a dragged pose or a DOF edit runs through the engine's movers
// (moveRobotTo, moveBodyTo, moveDofsToContacts) on a scratch copy of the world, and the Document receives
// the state reached: the target, the last free state in contact, or nothing when contacts oppose the
// motion. With it off, the edit goes straight through. One instance per Document (its child): the
// viewport and the DOF dock route their edits through of(doc) when one is installed.
//
// A world that already interpenetrates cannot be moved with collision stopping (the engine refuses:
// StartInCollision); such edits go through unchecked, so the user can pull things apart.
#include <QObject>
#include <QString>
#include <vector>

#include "grasp/Motion.h"

namespace sg::app {

class Document;
class GraspAnalysis;

class CollisionStoppedEdits : public QObject {
  Q_OBJECT
 public:
  // `analysis` (may be null) supplies the contact threshold and the switched-off pairs.
  CollisionStoppedEdits(Document* doc, GraspAnalysis* analysis);
  // The instance installed on `doc`, or nullptr.
  static CollisionStoppedEdits* of(const Document* doc);

  bool isEnabled() const { return enabled_; }
  void setEnabled(bool on);
  // Steps and collision settings the movers use (the analysis' collision settings).
  MotionSettings motionSettings() const;

  // Each pushes at most one command (merged with the earlier ones of a non-zero `gesture`) and returns
  // the outcome: Reached, Contact (stopped short of the target), Blocked (nothing moved) or
  // StartInCollision (applied unchecked). Bad indices or handles: sg::Error, nothing pushed.
  MotionOutcome moveRobot(int robot, const Transform& target, int gesture = 0);
  MotionOutcome moveBody(const BodyHandle& body, const Transform& target, int gesture = 0);
  MotionOutcome setDofValues(int robot, const std::vector<double>& target, int gesture = 0);

  // A short sentence for the status bar.
  static QString describe(MotionOutcome outcome);

 signals:
  void enabledChanged(bool on);
  // After an edit that did not simply reach its target.
  void motionStopped(const QString& message);

 private:
  void report(MotionOutcome outcome);

  Document* doc_;
  GraspAnalysis* analysis_;
  bool enabled_ = true;
};

}  // namespace sg::app
