#pragma once
// Measures vs Physics > Run…: what the comparison (sim::comparePhysics, src/sim/README.md §Measures against
// physics) is run on and with: the current world and/or world files (or a grasp list's grasps on the current
// world instead of planning), the planner's seeds, iterations and kept
// grasps per plan, the pull per direction, the success score, the threads and the contact models (every measure
// but volume-linf, sim::defaultPhysicsMeasures, under each). Defaults are the engine's (those of
// softgrasp-cli compare --against-physics).
#include <QDialog>
#include <QStringList>

class QCheckBox;
class QDoubleSpinBox;
class QLineEdit;
class QListWidget;
class QSpinBox;

namespace sg::app {

struct PhysicsRunSettings {
  PhysicsRunSettings();            // the engine's defaults, threads = the machine's cores
  bool currentWorld = true;        // plan the document's world (with the live analysis' settings)
  QStringList worldFiles;          // more worlds to plan, read as File > Open reads them
  int seeds = 0;                   // planner seeds 1..seeds per world
  int iterations = 0;              // annealing iterations per plan
  int keep = 0;                    // the best kept grasps of each plan
  double pull_s = 0;               // seconds of pull per direction
  double successScore = 0;         // a grasp succeeds when its trial score ≥ this
  int threads = 1;                 // grasps measured and tried at once; the table does not depend on it
  QStringList models;              // contact models to compare; empty: every registered one
  // A grasp list file (the Planner dock's Save…): its grasps are tried on the current world instead of
  // planning (sim::comparePhysicsOnList; seeds, iterations and kept grasps unused). Empty: plan.
  QString graspList;
};

class PhysicsRunDialog : public QDialog {
  Q_OBJECT
 public:
  PhysicsRunDialog(const PhysicsRunSettings& settings, bool haveCurrentWorld, QWidget* parent = nullptr);
  PhysicsRunSettings settings() const;

 private:
  QCheckBox* current_;
  QListWidget* files_;
  QListWidget* models_;
  QLineEdit* graspList_;
  QSpinBox* seeds_;
  QSpinBox* iterations_;
  QSpinBox* keep_;
  QDoubleSpinBox* pull_;
  QDoubleSpinBox* success_;
  QSpinBox* threads_;
};

}  // namespace sg::app
