#pragma once
// Grasp > Grasp Library: browse a grasp database (src/store/README.md) and use its grasps in the open world.
// Open a SQLite file or a postgresql:// URL (any URL src/store/StoreUrl.h takes), filter by robot, object,
// contact model, a measure's threshold and force closure (the store's query, GraspStore::query), sort by any
// column, preview the selected grasp in the viewport, Apply it as one undo step, export the selected rows as a
// grasp list (planner/GraspList.h's writer).
//
// A stored grasp is in its object's frame (X_OP); here it is placed on the open world's graspable of the same
// name (X_WP = X_WO · X_OP) and applied to the robot of the same name. The preview moves only the drawing
// (WorldScene::updatePoses with a scratch state), never the Document; deselecting, hiding the dock or any edit
// of the Document shows the Document again.
#include <QDockWidget>
#include <memory>
#include <optional>
#include <vector>

#include "model/WorldState.h"
#include "store/GraspStore.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace sg::app {

class Document;
class GraspLibraryModel;
class MainWindow;

class GraspLibraryDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit GraspLibraryDock(MainWindow* window);
  ~GraspLibraryDock() override;

  // Opens `url` for reading and lists its grasps with the current filters. False (the reason, naming the file or
  // URL, in the status line) when it is not a SoftGrasp database; the Document is never touched.
  bool openDatabase(const QString& url);
  bool isOpen() const { return store_ != nullptr; }
  QString databaseUrl() const;
  // Runs the store's query with the filter widgets' values; false (reason in the status line) when a filter is
  // not valid or the query fails.
  bool refresh();
  // The query the filter widgets describe. sg::Error when the threshold is not a number.
  store::GraspQuery query() const;

  QTableView* table() const { return table_; }
  GraspLibraryModel* libraryModel() const { return model_; }
  QSortFilterProxyModel* sortModel() const { return proxy_; }
  // Selects row `viewRow` of the table as shown (sorted), which previews it; -1 clears the selection.
  void selectRow(int viewRow);
  // The selected grasps in the table's order.
  std::vector<store::GraspRow> selectedGrasps() const;
  // The state the viewport shows instead of the Document's; empty: none.
  const std::optional<WorldState>& previewState() const { return preview_; }
  // The current row's grasp applied to the Document as one undo step. False (reason in the status line)
  // without a selection or when the open world has no robot or object of the grasp's names.
  bool applySelected();
  // The selected rows as a grasp list file, placed on the open world's object when it has one of that name
  // (else in the object's frame). False (reason in the status line) without a selection or on a write error.
  bool exportSelection(const QString& path);
  QString statusText() const;

 private:
  void buildUi();
  void setStatus(const QString& text);
  void onCurrentChanged();
  void clearPreview();
  // The open world's state with `row`'s grasp applied to its robot; empty (reason in `why`) when the world
  // lacks the robot or the object or the DOF counts differ.
  std::optional<WorldState> stateWithGrasp(const store::GraspRow& row, QString& why) const;
  int currentSourceRow() const;  // -1: none

  MainWindow* window_;
  Document* doc_;
  std::unique_ptr<store::GraspStore> store_;
  std::optional<WorldState> preview_;

  QLineEdit* url_ = nullptr;
  QLineEdit* robot_ = nullptr;
  QLineEdit* object_ = nullptr;
  QComboBox* contactModel_ = nullptr;
  QComboBox* measure_ = nullptr;
  QLineEdit* minValue_ = nullptr;
  QCheckBox* forceClosure_ = nullptr;
  QSpinBox* limit_ = nullptr;
  QTableView* table_ = nullptr;
  GraspLibraryModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QLabel* status_ = nullptr;
};

}  // namespace sg::app
