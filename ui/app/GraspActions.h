#pragma once
// The Grasp menu's hand motions (src/grasp/MOTION.md §Auto-grasp, §Approach) for the robot of the selection, or robot 0:
// Approach to contact (palm along the approach direction until something is touched), Auto-grasp (Ctrl+G),
// Approach + grasp (key G: 30 mm approach, then auto-grasp, as GraspIt!), Auto-open, and the
// "Collision checking" switch that also governs the dragger and the DOF sliders (CollisionStoppedEdits).
// Each motion is the engine's moveHand (src/grasp/HandMotion.h, the call behind the CLI's --approach and
// --autograsp) with the preset of src/grasp/HandMotionPresets.h (the table the command lines use) on a scratch copy of the
// world, and lands in the Document as one undo step; the status bar says how it ended (contact, reached,
// blocked).
#include <QObject>
#include <QString>

#include "grasp/HandMotionPresets.h"

class QAction;

class QComboBox;

namespace sg::app {

class CollisionStoppedEdits;
class Document;
class MainWindow;

class GraspActions : public QObject {
  Q_OBJECT
 public:
  static constexpr double kApproachDistance_mm = sg::kApproachToContact_mm;  // Approach to contact: at most this far
  static constexpr double kApproachBeforeGrasp_mm = sg::kApproachBeforeGrasp_mm;  // key G, as GraspIt!

  // Adds the actions to window->graspMenu() and window->graspToolBar().
  GraspActions(MainWindow* window, CollisionStoppedEdits* edits);

  // The robot the actions move: the hand chosen in the toolbar's Hand selector, else the selected body's robot,
  // else robot 0; -1 without robots.
  int targetRobot() const;
  // The toolbar's explicit active hand and target object ("follow the selection" = index 0).
  QComboBox* handSelector() const { return hand_; }
  QComboBox* objectSelector() const { return object_; }

  QAction* approachAction() const { return approach_; }
  QAction* autoGraspAction() const { return autoGrasp_; }
  QAction* approachAndGraspAction() const { return approachAndGrasp_; }
  QAction* autoOpenAction() const { return autoOpen_; }
  QAction* collisionCheckingAction() const { return collisionChecking_; }

  // The motions (what the actions trigger). Return the status-bar message.
  QString approach();
  QString autoGrasp();
  QString approachAndGrasp();
  QString autoOpen();

 private:
  // Runs `motion` on a scratch copy of the world's state for robot `targetRobot()` and pushes the robots' new state
  // as one undo step named `undoText`. Returns the outcome message.
  QString run(const QString& undoText, const HandMotionRequest& motion);
  // moveHand of the document's world in `state`, with the Collision Checking switch and the edits' motion settings.
  QString moveIn(WorldState& state, int robot, const HandMotionRequest& motion) const;
  void updateEnabled();
  void fillSelectors();

  MainWindow* window_;
  Document* doc_;
  CollisionStoppedEdits* edits_;
  QAction* approach_ = nullptr;
  QAction* autoGrasp_ = nullptr;
  QAction* approachAndGrasp_ = nullptr;
  QAction* autoOpen_ = nullptr;
  QAction* collisionChecking_ = nullptr;
  QComboBox* hand_ = nullptr;
  QComboBox* object_ = nullptr;
};

}  // namespace sg::app
