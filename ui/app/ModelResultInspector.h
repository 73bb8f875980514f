#pragma once
// Model result inspector dock: what the evaluation's contact model computed for the selected contact
// (GraspAnalysis::selectedContact) and for the whole grasp, as the model describes it
// (ContactModelResult::describeContact / describe), rendered by ModelResultView — for any registered model,
// including ones the application has never heard of.
#include <QDockWidget>

class QLabel;

namespace sg::app {

class GraspAnalysis;
class ModelResultView;

class ModelResultInspector : public QDockWidget {
  Q_OBJECT
 public:
  explicit ModelResultInspector(GraspAnalysis* analysis, QWidget* parent = nullptr);

  ModelResultView* view() const { return view_; }
  QLabel* noteLabel() const { return note_; }
  void refresh();

 private:
  GraspAnalysis* analysis_;
  QLabel* note_;
  ModelResultView* view_;
};

}  // namespace sg::app
