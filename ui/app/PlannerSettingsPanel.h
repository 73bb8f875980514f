#pragma once
// The planner dock's Settings tab (PlannerDock.h): planner type, energy, search space, parameter set, steps,
// time limit, seed, threads, chains, preset contacts, show search, and the search variables (on / input / target
// / confidence per variable). It turns them into a PlanRequest; a number a spin box refuses is reported.
#include <QWidget>
#include <optional>

#include "grasp/planner/GraspPlanner.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QTableWidget;
class QVBoxLayout;

namespace sg::app {

class PlannerSettingsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PlannerSettingsPanel(QWidget* parent = nullptr);

  bool online() const;      // type "Online": OnlinePlanner, not planGrasps
  bool showSearch() const;  // draw the current search state in the viewport
  // The request the widgets describe for `robot` and `graspable` of `world` (analysis: the live analysis
  // settings, if any). sg::Error when a variable cell is not a number or a confidence is not in 0 to 1.
  planner::PlanRequest request(const World& world, int robot, int graspable,
                               const std::optional<AnalysisRequest>& analysis) const;
  // One row per variable of the chosen space for the hand's configuration; none without a hand or object.
  void rebuildVariables(const World& world, int robot, int graspable);
  // While a search runs, its settings are locked (Show search stays live).
  void setLocked(bool locked);

 signals:
  void spaceChanged();
  void inputRefused(const QString& message);  // "Max steps: '10' is not accepted (...); kept 70000"
  void inputChanged();                        // a spin box took a new value

 private:
  void buildForm(QVBoxLayout* layout);

  QComboBox* plannerType_ = nullptr;
  QComboBox* energy_ = nullptr;
  QComboBox* space_ = nullptr;
  QComboBox* params_ = nullptr;
  QSpinBox* steps_ = nullptr;
  QDoubleSpinBox* timeLimit_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QSpinBox* threads_ = nullptr;
  QSpinBox* chains_ = nullptr;
  QCheckBox* presetContacts_ = nullptr;
  QCheckBox* showSearch_ = nullptr;
  QTableWidget* variables_ = nullptr;
};

}  // namespace sg::app
