#pragma once
// Grasp > Physics Trial (src/sim/README.md §Trial protocol): runs the MuJoCo trial of the current grasp off the GUI
// thread (JobRunner: progress bar, Cancel, Esc) and plays it back in the viewport (TrialPlayback): a direction
// selector (the settle phase, then each pull), a time slider with play/pause, the per-direction result (held,
// displacement mm, rotation °) and the contact forces as arrows. The trial runs on copies of the world and its
// state taken when Run is pressed; playback never edits the document. Any change of the document ends playback
// and drops the result (it was the trial of another state); a running trial is cancelled.
#include <QDockWidget>
#include <QTimer>
#include <cstdint>
#include <functional>
#include <memory>

#include "model/World.h"
#include "sim/PhysicsTrial.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QTableWidget;

namespace sg {
class WorldScene;
}  // namespace sg

namespace sg::app {

class Document;
class JobRunner;
class TrialPlayback;

class PhysicsTrialDock : public QDockWidget {
  Q_OBJECT
 public:
  // Which robot and graspable a trial uses (-1: none), asked when Run is pressed.
  using Target = std::function<std::pair<int, int>()>;
  // `scene` may be null (no viewport): the dock runs trials and lists results without drawing.
  PhysicsTrialDock(Document* doc, WorldScene* scene, Target target, QWidget* parent = nullptr);
  ~PhysicsTrialDock() override;

  // Starts a trial of the document's current state with the dock's settings; false (the reason in the status
  // line) when the world has no hand or no graspable or a trial runs already.
  bool run();
  void cancel();
  bool running() const { return running_; }
  // The last finished trial (null before one, after a document change).
  const sim::TrialResult* result() const { return result_.get(); }
  // The state the result's trial started from.
  const WorldState& trialBaseState() const { return base_; }

  // Playback: phase -1 is the settle phase, 0.. the result's directions. Shows that sample in the viewport.
  void showSample(int phase, int sample);
  int phase() const;
  const sim::TrialSample* currentSample() const;
  void setPlaying(bool on);
  bool playing() const { return timer_.isActive(); }
  // Back to the live state in the viewport.
  void endPlayback();
  const TrialPlayback& playback() const { return *playback_; }

  QDoubleSpinBox* settleBox() const { return settle_; }
  QDoubleSpinBox* durationBox() const { return duration_; }
  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }
  QPushButton* playButton() const { return play_; }
  QPushButton* liveButton() const { return live_; }
  QComboBox* phaseBox() const { return phaseBox_; }
  QSlider* slider() const { return slider_; }
  QTableWidget* table() const { return table_; }
  QLabel* statusLabel() const { return status_; }
  QLabel* sampleLabel() const { return sampleLabel_; }

 signals:
  void trialFinished();
  void trialCancelled();
  void trialFailed(const QString& error);

 protected:
  void hideEvent(QHideEvent* event) override;

 private:
  void buildUi();
  void setRunning(bool on);
  void fillResult();
  void onPhaseChanged();
  void onSliderMoved(int value);
  void onDocumentChanged();
  const std::vector<sim::TrialSample>* phaseSamples(int phase) const;

  Document* doc_;
  Target target_;
  JobRunner* jobs_;
  std::unique_ptr<TrialPlayback> playback_;
  std::shared_ptr<const sim::TrialResult> result_;
  WorldState base_;
  std::uint64_t generation_ = 0;
  bool running_ = false;
  QTimer timer_;

  QDoubleSpinBox* settle_ = nullptr;
  QDoubleSpinBox* duration_ = nullptr;
  QPushButton* run_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QTableWidget* table_ = nullptr;
  QComboBox* phaseBox_ = nullptr;
  QSlider* slider_ = nullptr;
  QPushButton* play_ = nullptr;
  QPushButton* live_ = nullptr;
  QLabel* sampleLabel_ = nullptr;
};

}  // namespace sg::app
