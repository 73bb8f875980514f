#pragma once
// The SoftGrasp main window: the 3-D viewport in the centre, docks around it (scene tree, DOFs,
// properties; the contact and quality tools of FeatureTools.h add their own docks, actions and overlays), menus, recent files,
// drag and drop of model files, and settings (QSettings "SoftGrasp"/"softgrasp").
#include <QMainWindow>
#include <QStringList>
#include <string>
#include <vector>

class QAction;
class QLabel;
class QMenu;
class QToolBar;

namespace sg::app {

class Document;
class GraspAnalysis;
class SceneTreeDock;
class DofDock;
class PropertiesDock;
class ViewportPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  struct Options {
    // Create the OpenGL viewport. Ignored (no viewport) on platforms without OpenGL widgets
    // (offscreen, minimal), so the window, docks and actions stay usable in widget tests.
    bool createViewport = true;
  };
  static constexpr int kMaxRecentFiles = 10;

  explicit MainWindow(QWidget* parent = nullptr) : MainWindow(Options{}, parent) {}
  explicit MainWindow(Options options, QWidget* parent = nullptr);
  ~MainWindow() override;

  Document* document() const { return doc_; }
  ViewportPanel* viewportPanel() const { return viewport_; }  // nullptr without OpenGL
  SceneTreeDock* sceneTreeDock() const { return sceneTree_; }
  DofDock* dofDock() const { return dofDock_; }
  PropertiesDock* propertiesDock() const { return propertiesDock_; }
  QMenu* viewMenu() const { return viewMenu_; }
  QMenu* graspMenu() const { return graspMenu_; }
  QMenu* qualityMenu() const { return qualityMenu_; }
  QToolBar* graspToolBar() const { return graspToolBar_; }
  // Contacts and grasp evaluation of the open world, kept up to date with the model.
  GraspAnalysis* analysis() const { return analysis_; }

  // Adds a dock and its show/hide entry in the View menu. For features that bring their own docks.
  void addDock(QDockWidget* dock, Qt::DockWidgetArea area = Qt::RightDockWidgetArea);

  // Open/import without asking questions; on failure shows an error dialog and returns false, leaving
  // the current world as it was.
  bool openWorldFile(const QString& path);
  bool importRobotFile(const QString& path);
  bool importObjectFile(const QString& path, bool obstacle = false);
  // Opens, imports a robot or an object according to the file's kind (drag and drop).
  bool openOrImport(const QString& path);
  bool saveTo(const QString& path);
  // Renders the viewport at `size` device pixels into a PNG; shows an error dialog and returns false on
  // failure (or without a viewport).
  bool saveScreenshot(const QString& path, QSize size);

  QStringList recentFiles() const { return recentFiles_; }
  // What the last open or robot import reported without failing (missing eigengrasp or virtual-contact
  // files, ...): shown in the status bar and under Help > Load Warnings, and printed on stderr.
  QStringList loadWarnings() const { return loadWarnings_; }
  // Asks what to do with unsaved changes; true if it is fine to discard the world now.
  bool maybeSave();
  // View > Reset Layout: every dock back where and how large a first start puts it.
  void resetLayout();

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createActions();
  void createMenus();
  void createDocks();
  void createStatusBar();
  void readSettings();
  QSize defaultWindowSize() const;
  void applyDefaultDockSizes();
  void fitDofDock();
  // After the window grew: side docks squeezed below their default widths get them back (the 3-D view keeps
  // at least half the window).
  void recoverDockWidths();
  // After the window narrowed: side docks wider than their minimums give width back to the view (at least 2/5 of
  // the window, up to 420 px), so the view and the contacts table under it stay usable.
  void keepViewWidth();
  // After the window got shorter: the Quality dock takes height from the DOF dock above it (down to 120 px) until its
  // values show (QualityDock::valuesHeight).
  void keepQualityValues();
  void writeRecentSettings();
  void addRecentFile(const QString& path);
  void rebuildRecentMenu();
  void rememberDirectory(const QString& path);
  QString lastDirectory() const;
  void updateTitle();
  void updateStatus();
  void showError(const QString& title, const QString& text);
  void setLoadWarnings(const std::vector<std::string>& warnings, const QString& message);
  void showLoadWarnings();

  void open();
  void importRobot();
  void importObject(bool obstacle);
  bool save();
  bool saveAs();
  void screenshot();
  void about();

  Document* doc_;
  GraspAnalysis* analysis_;
  ViewportPanel* viewport_ = nullptr;
  SceneTreeDock* sceneTree_ = nullptr;
  DofDock* dofDock_ = nullptr;
  PropertiesDock* propertiesDock_ = nullptr;
  QMenu* fileMenu_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QMenu* editMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  QMenu* graspMenu_ = nullptr;
  QMenu* qualityMenu_ = nullptr;
  QToolBar* graspToolBar_ = nullptr;
  QLabel* selectionLabel_ = nullptr;
  QLabel* trianglesLabel_ = nullptr;
  QStringList recentFiles_;
  QByteArray defaultState_;  // the dock layout before any saved one was restored (Reset Layout)
  QStringList loadWarnings_;
  QAction* loadWarningsAction_ = nullptr;
  bool fitDofDockToWorld_ = false;  // no saved layout: the DOF dock follows the world's rows
};

}  // namespace sg::app
