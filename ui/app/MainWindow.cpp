#include "MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QResizeEvent>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <functional>

#include "AnalysisExport.h"
#include "Document.h"
#include "DofDock.h"
#include "EscapeCancels.h"
#include "FeatureTools.h"
#include "GraspAnalysis.h"
#include "PropertiesDock.h"
#include "QualityDock.h"
#include "SceneTreeDock.h"
#include "ScreenshotDialog.h"
#include "ViewportPanel.h"
#include "io/InputFile.h"
#include "io/ModelIO.h"
#include "render/SceneBuilder.h"
#include "viewport/CoinViewport.h"

namespace sg::app {

namespace {
const QString kWorldFilter = QObject::tr("GraspIt! worlds (*.xml);;All files (*)");
const QString kRobotFilter = QObject::tr("Robots (*.xml *.urdf);;GraspIt! robots (*.xml);;URDF robots (*.urdf);;All files (*)");
const QString kObjectFilter =
    QObject::tr("Objects (*.xml *.iv *.wrl *.off *.ply *.stl *.obj);;All files (*)");

bool platformHasOpenGLWidgets() {
  const QString p = QGuiApplication::platformName();
  return p != QLatin1String("offscreen") && p != QLatin1String("minimal");
}

QSettings appSettings() { return QSettings(QStringLiteral("SoftGrasp"), QStringLiteral("softgrasp")); }
}  // namespace

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent), doc_(new Document(this)), analysis_(new GraspAnalysis(doc_, this)) {
  setObjectName("MainWindow");
  setAcceptDrops(true);
  if (options.createViewport && platformHasOpenGLWidgets()) {
    auto* view = new ui::CoinViewport(this);
    view->setObjectName("viewport");
    setCentralWidget(view);
    viewport_ = new ViewportPanel(doc_, view, this);
  } else {
    auto* placeholder = new QLabel(tr("3-D view unavailable on this display (no OpenGL)"), this);
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setMinimumSize(320, 240);
    setCentralWidget(placeholder);
  }
  createDocks();
  createActions();
  createStatusBar();
  readSettings();

  connect(doc_, &Document::filePathChanged, this, &MainWindow::updateTitle);
  connect(doc_, &Document::modifiedChanged, this, &MainWindow::updateTitle);
  connect(doc_, &Document::selectionChanged, this, &MainWindow::updateStatus);
  connect(doc_, &Document::worldChanged, this, [this](ChangeKind k) {
    if (k != ChangeKind::Structure) return;
    updateStatus();
    if (fitDofDockToWorld_) QTimer::singleShot(0, this, &MainWindow::fitDofDock);
  });
  updateTitle();
  updateStatus();
}

MainWindow::~MainWindow() = default;

// --- construction ---

void MainWindow::createDocks() {
  setDockNestingEnabled(true);
  // The side columns run the full height: the bottom docks (contacts) sit under the 3-D view only.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  sceneTree_ = new SceneTreeDock(doc_, this);
  propertiesDock_ = new PropertiesDock(doc_, this);
  dofDock_ = new DofDock(doc_, this);
}

void MainWindow::addDock(QDockWidget* dock, Qt::DockWidgetArea area) {
  if (dock->objectName().isEmpty()) dock->setObjectName(dock->windowTitle());  // saveState needs names
  addDockWidget(area, dock);
  viewMenu_->addAction(dock->toggleViewAction());
}

void MainWindow::createActions() {
  // File
  fileMenu_ = menuBar()->addMenu(tr("&File"));
  auto* open = fileMenu_->addAction(tr("&Open World…"), this, &MainWindow::open);
  open->setObjectName("actionOpen");
  open->setShortcut(QKeySequence::Open);
  auto* importRobotAct = fileMenu_->addAction(tr("Import &Robot…"), this, &MainWindow::importRobot);
  importRobotAct->setObjectName("actionImportRobot");
  auto* importObjectAct = fileMenu_->addAction(tr("Import &Object…"), this, [this] { importObject(false); });
  importObjectAct->setObjectName("actionImportObject");
  auto* importObstacleAct = fileMenu_->addAction(tr("Import O&bstacle…"), this, [this] { importObject(true); });
  importObstacleAct->setObjectName("actionImportObstacle");
  fileMenu_->addSeparator();
  auto* saveAct = fileMenu_->addAction(tr("&Save"), this, &MainWindow::save);
  saveAct->setObjectName("actionSave");
  saveAct->setShortcut(QKeySequence::Save);
  auto* saveAsAct = fileMenu_->addAction(tr("Save &As…"), this, &MainWindow::saveAs);
  saveAsAct->setObjectName("actionSaveAs");
  saveAsAct->setShortcut(QKeySequence::SaveAs);
  fileMenu_->addSeparator();
  // The live analysis as files (AnalysisExport.h): JSON in the CLI's field names, the contacts table as CSV.
  auto exportTo = [this](bool json) {
    const QString path = QFileDialog::getSaveFileName(
        this, json ? tr("Export Contacts and Quality") : tr("Export Contacts"),
        QDir(lastDirectory()).filePath(json ? QStringLiteral("analysis.json") : QStringLiteral("contacts.csv")),
        json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (json ? exportAnalysisJson(*doc_, *analysis_, path, &error) : exportContactsCsv(*doc_, *analysis_, path, &error))
      statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
    else
      showError(tr("Export"), tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), error));
  };
  auto* exportJson = fileMenu_->addAction(tr("Export Contacts and &Quality (JSON)…"), this, [exportTo] { exportTo(true); });
  exportJson->setObjectName("actionExportJson");
  auto* exportCsv = fileMenu_->addAction(tr("Export &Contacts (CSV)…"), this, [exportTo] { exportTo(false); });
  exportCsv->setObjectName("actionExportCsv");
  fileMenu_->addSeparator();
  recentMenu_ = fileMenu_->addMenu(tr("Recent &Files"));
  recentMenu_->setObjectName("menuRecentFiles");
  fileMenu_->addSeparator();
  auto* quit = fileMenu_->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setObjectName("actionQuit");
  quit->setShortcut(QKeySequence::Quit);
  quit->setMenuRole(QAction::QuitRole);

  // Edit
  editMenu_ = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setObjectName("actionUndo");
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
  redo->setObjectName("actionRedo");
  redo->setShortcut(QKeySequence::Redo);
  editMenu_->addAction(undo);
  editMenu_->addAction(redo);
  // The status bar follows undo and redo: a message of the undone edit ("Auto-grasp: 3 contacts") is not left up.
  connect(undo, &QAction::triggered, this, [this] {
    statusBar()->showMessage(tr("Undone: %1").arg(doc_->undoStack()->redoText()), 5000);
  });
  connect(redo, &QAction::triggered, this, [this] {
    statusBar()->showMessage(tr("Redone: %1").arg(doc_->undoStack()->undoText()), 5000);
  });
  editMenu_->addSeparator();
  // Esc: cancels a running plan or sweep first; deselects when nothing runs.
  QAction* selectNone = editMenu_->addAction(tr("Select &None"), this, [this] {
    if (!cancelRunningWork(this)) doc_->setSelection(std::nullopt);
  });
  selectNone->setObjectName("actionSelectNone");
  selectNone->setShortcut(Qt::Key_Escape);

  // View
  viewMenu_ = menuBar()->addMenu(tr("&View"));
  ui::CoinViewport* view = viewport_ ? viewport_->viewport() : nullptr;
  auto viewAction = [this, view](const QString& text, const char* name, auto slot) {
    QAction* a = viewMenu_->addAction(text);
    a->setObjectName(name);
    a->setEnabled(view != nullptr);
    if (view) connect(a, &QAction::triggered, this, slot);
    return a;
  };
  viewAction(tr("View &All"), "actionViewAll", [view] { view->viewAll(); })->setShortcut(Qt::Key_Home);
  viewMenu_->addSeparator();
  viewAction(tr("&Front"), "actionViewFront", [view] { view->setStandardView(StandardView::Front); })
      ->setShortcut(Qt::Key_1);
  viewAction(tr("&Top"), "actionViewTop", [view] { view->setStandardView(StandardView::Top); })
      ->setShortcut(Qt::Key_7);
  viewAction(tr("&Side"), "actionViewSide", [view] { view->setStandardView(StandardView::Side); })
      ->setShortcut(Qt::Key_3);
  viewAction(tr("&Isometric"), "actionViewIso", [view] { view->setStandardView(StandardView::Iso); })
      ->setShortcut(Qt::Key_0);
  QAction* ortho = viewAction(tr("&Orthographic"), "actionOrthographic", [this, view] {
    view->setOrthographic(findChild<QAction*>("actionOrthographic")->isChecked());
  });
  ortho->setCheckable(true);
  ortho->setShortcut(Qt::Key_5);
  viewMenu_->addSeparator();
  WorldScene* scene = viewport_ ? viewport_->scene() : nullptr;
  auto toggle = [&](const QString& text, const char* name, std::function<void(bool)> apply) {
    QAction* a = viewMenu_->addAction(text);
    a->setObjectName(name);
    a->setCheckable(true);
    a->setEnabled(scene != nullptr);
    if (scene)
      connect(a, &QAction::toggled, this, [apply, view](bool on) {
        apply(on);
        view->update();
      });
    return a;
  };
  toggle(tr("A&xes"), "actionAxes", [scene](bool on) { scene->setAxesVisible(on); });
  toggle(tr("&Wireframe"), "actionWireframe", [scene](bool on) { scene->setWireframe(on); });
  toggle(tr("T&ransparency"), "actionTransparency", [scene](bool on) { scene->setTransparency(on ? 0.5f : 0.0f); });
  // URDF links have visual and collision geometry; drawn is the visual one unless this is on.
  toggle(tr("&Collision Geometry"), "actionCollisionGeometry",
         [scene, this](bool on) { scene->setCollisionGeometryShown(doc_->world(), on); });
  viewMenu_->addSeparator();
  QAction* shot = viewMenu_->addAction(tr("S&creenshot…"), this, &MainWindow::screenshot);
  shot->setObjectName("actionScreenshot");
  shot->setEnabled(view != nullptr);
  QAction* resetLayoutAction = viewMenu_->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
  resetLayoutAction->setObjectName("actionResetLayout");
  resetLayoutAction->setStatusTip(tr("Put every dock back where and as large as a first start does"));
  viewMenu_->addSeparator();
  addDock(sceneTree_, Qt::LeftDockWidgetArea);
  addDock(propertiesDock_, Qt::LeftDockWidgetArea);
  addDock(dofDock_, Qt::RightDockWidgetArea);

  // Grasp (contacts, motion, auto-grasp) and Quality (wrench spaces, settings): filled by the feature
  // installers below, which own their docks, actions and overlays.
  graspMenu_ = menuBar()->addMenu(tr("&Grasp"));
  graspMenu_->setObjectName("menuGrasp");
  qualityMenu_ = menuBar()->addMenu(tr("&Quality"));
  qualityMenu_->setObjectName("menuQuality");
  graspToolBar_ = addToolBar(tr("Grasp"));
  graspToolBar_->setObjectName("toolBarGrasp");
  installContactTools(this);
  installQualityTools(this);
  installPlannerTools(this);
  installGraspLibraryTools(this);
  installComparisonTools(this);
  installPhysicsTrialTools(this);

  // Help
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About SoftGrasp"), this, &MainWindow::about)->setObjectName("actionAbout");
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setObjectName("actionAboutQt");
  help->addSeparator();
  loadWarningsAction_ = help->addAction(tr("Load &Warnings…"), this, &MainWindow::showLoadWarnings);
  loadWarningsAction_->setObjectName("actionLoadWarnings");
  loadWarningsAction_->setEnabled(false);
}

QSize MainWindow::defaultWindowSize() const {
  QSize size(1440, 900);
  if (const QScreen* screen = QGuiApplication::primaryScreen())
    size = size.boundedTo(screen->availableSize() * 0.92);
  return size.expandedTo(QSize(1024, 700));
}

// First start (no saved layout): every DOF row visible without scrolling, the rest of the right column to
// the quality tabs; the scene tree above the properties; contacts a short strip under the view.
void MainWindow::applyDefaultDockSizes() {
  const int height = this->height();
  resizeDocks({sceneTree_, propertiesDock_}, {height * 2 / 5, height * 3 / 5}, Qt::Vertical);
  resizeDocks({sceneTree_}, {320}, Qt::Horizontal);
  resizeDocks({dofDock_}, {std::max(360, dofDock_->widget()->minimumWidth())}, Qt::Horizontal);
  if (auto* contacts = findChild<QDockWidget*>(QStringLiteral("ContactsDock")))
    resizeDocks({contacts}, {height / 5}, Qt::Vertical);
  fitDofDock();
}

void MainWindow::resetLayout() {
  restoreState(defaultState_);
  for (QDockWidget* dock : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
    dock->setFloating(false);
    dock->show();
  }
  if (auto* quality = findChild<QDockWidget*>(QStringLiteral("qualityDock"))) quality->raise();
  applyDefaultDockSizes();
  QTimer::singleShot(0, this, &MainWindow::applyDefaultDockSizes);  // once the new layout is laid out
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  if (event->oldSize().isValid() && event->size().width() > event->oldSize().width())
    QTimer::singleShot(0, this, &MainWindow::recoverDockWidths);
  else if (event->oldSize().isValid() && event->size().width() < event->oldSize().width())
    QTimer::singleShot(0, this, &MainWindow::keepViewWidth);
  if (event->oldSize().isValid() && event->size().height() < event->oldSize().height())
    QTimer::singleShot(0, this, &MainWindow::keepQualityValues);
}

void MainWindow::keepQualityValues() {
  auto* quality = findChild<QualityDock*>(QStringLiteral("qualityDock"));
  if (!quality || quality->isFloating() || !quality->isVisible() || dofDock_->isFloating() || !dofDock_->isVisible() ||
      dockWidgetArea(quality) != dockWidgetArea(dofDock_))
    return;
  const int missing = quality->valuesHeight() + 40 - quality->height();  // + the title bar and tab bar
  const int give = std::min(missing, dofDock_->height() - 120);  // the DOF dock scrolls below that
  if (give > 0) resizeDocks({dofDock_, quality}, {dofDock_->height() - give, quality->height() + give}, Qt::Vertical);
}

void MainWindow::keepViewWidth() {
  // QMainWindow shrinks the view and the side columns in proportion; the view (and the contacts table under it)
  // gets room back from side columns wider than their docks' minimums, the wider column first.
  QWidget* view = centralWidget();
  int deficit = std::min(width() * 2 / 5, 420) - view->width();
  if (deficit <= 0) return;
  struct Column {
    QDockWidget* first = nullptr;
    int width = 0, minimum = 0;
  };
  auto column = [&](Qt::DockWidgetArea area) {
    Column c;
    for (QDockWidget* d : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
      if (!d->isFloating() && d->isVisible() && dockWidgetArea(d) == area) {
        if (!c.first) c.first = d;
        c.width = std::max(c.width, d->width());
        c.minimum = std::max(c.minimum, std::max(d->minimumWidth(), d->minimumSizeHint().width()));
      }
    return c;
  };
  Column left = column(Qt::LeftDockWidgetArea), right = column(Qt::RightDockWidgetArea);
  if (right.width - right.minimum > left.width - left.minimum) std::swap(left, right);
  for (const Column& c : {left, right}) {
    const int give = std::min(deficit, c.width - c.minimum);
    if (!c.first || give <= 0) continue;
    resizeDocks({c.first}, {c.width - give}, Qt::Horizontal);
    deficit -= give;
  }
}

void MainWindow::recoverDockWidths() {
  const int budget = width() / 4;  // per side: the view keeps at least half
  auto recover = [&](Qt::DockWidgetArea area, int preferred) {
    const int target = std::min(preferred, budget);
    QList<QDockWidget*> docks;
    int widest = 0;
    for (QDockWidget* d : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
      if (!d->isFloating() && d->isVisible() && dockWidgetArea(d) == area) {
        docks << d;
        widest = std::max(widest, d->width());
      }
    if (!docks.isEmpty() && widest < target - 4) resizeDocks({docks.first()}, {target}, Qt::Horizontal);
  };
  recover(Qt::LeftDockWidgetArea, 320);
  recover(Qt::RightDockWidgetArea, std::max(360, dofDock_->widget()->minimumWidth()));
}

void MainWindow::fitDofDock() {
  int rows = std::min(dofDock_->contentHeight() + 48, height() / 2);
  // The quality tabs below take the rest of the column (both named: Qt splits the column between them), at least
  // enough to show their values (the DOF dock scrolls instead).
  auto* below = findChild<QDockWidget*>(QStringLiteral("qualityDock"));
  if (auto* quality = qobject_cast<QualityDock*>(below); quality && dockWidgetArea(quality) == dockWidgetArea(dofDock_)) {
    const int column = dofDock_->height() + quality->height();
    rows = std::max(std::min(rows, column - quality->valuesHeight() - 40), std::min(rows, 120));
  }
  if (below && !below->isFloating() && dockWidgetArea(below) == dockWidgetArea(dofDock_))
    resizeDocks({dofDock_, below}, {rows, std::max(1, dofDock_->height() + below->height() - rows)}, Qt::Vertical);
  else
    resizeDocks({dofDock_}, {rows}, Qt::Vertical);
}

void MainWindow::createStatusBar() {
  selectionLabel_ = new QLabel(this);
  selectionLabel_->setObjectName("selectionLabel");
  trianglesLabel_ = new QLabel(this);
  trianglesLabel_->setObjectName("trianglesLabel");
  statusBar()->addPermanentWidget(selectionLabel_);
  statusBar()->addPermanentWidget(trianglesLabel_);
}

// --- settings and recent files ---

void MainWindow::readSettings() {
  QSettings s = appSettings();
  if (!restoreGeometry(s.value("geometry").toByteArray())) resize(defaultWindowSize());
  // Dock sizes only take once the window is laid out: on the first turn of the event loop. Without a
  // saved layout the DOF dock is also fitted to each newly opened world's rows (fitDofDock).
  defaultState_ = saveState();
  if (!restoreState(s.value("windowState").toByteArray())) {
    fitDofDockToWorld_ = true;
    QTimer::singleShot(0, this, &MainWindow::applyDefaultDockSizes);
  }
  LoadOptions options;  // "modelRoots": extra folders searched for files named in model files
  for (const QString& root : s.value("modelRoots").toStringList()) options.modelRoots.push_back(root.toStdString());
  // "packagePaths": where URDF package:// names are looked for, before ROS_PACKAGE_PATH (src/io/FORMATS.md §URDF)
  for (const QString& dir : s.value("packagePaths").toStringList()) options.packagePaths.push_back(dir.toStdString());
  doc_->setLoadOptions(std::move(options));
  recentFiles_ = s.value("recentFiles").toStringList();
  while (recentFiles_.size() > kMaxRecentFiles) recentFiles_.removeLast();
  rebuildRecentMenu();
}

void MainWindow::writeRecentSettings() {
  QSettings s = appSettings();
  s.setValue("recentFiles", recentFiles_);
}

void MainWindow::addRecentFile(const QString& path) {
  const QString abs = QFileInfo(path).absoluteFilePath();
  recentFiles_.removeAll(abs);
  recentFiles_.prepend(abs);
  while (recentFiles_.size() > kMaxRecentFiles) recentFiles_.removeLast();
  writeRecentSettings();
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  for (int i = 0; i < recentFiles_.size(); ++i) {
    const QString path = recentFiles_[i];
    QAction* a = recentMenu_->addAction(QStringLiteral("&%1 %2").arg((i + 1) % 10).arg(QFileInfo(path).fileName()));
    a->setToolTip(path);
    a->setData(path);
    connect(a, &QAction::triggered, this, [this, path] {
      if (maybeSave()) openWorldFile(path);
    });
  }
  if (!recentFiles_.isEmpty()) {
    recentMenu_->addSeparator();
    QAction* clear = recentMenu_->addAction(tr("&Clear List"), this, [this] {
      recentFiles_.clear();
      writeRecentSettings();
      rebuildRecentMenu();
    });
    clear->setObjectName("actionClearRecent");
  }
  recentMenu_->setEnabled(!recentFiles_.isEmpty());
}

void MainWindow::rememberDirectory(const QString& path) {
  QSettings s = appSettings();
  s.setValue("lastDirectory", QFileInfo(path).absolutePath());
}

QString MainWindow::lastDirectory() const { return appSettings().value("lastDirectory").toString(); }

// --- file operations ---

void MainWindow::showError(const QString& title, const QString& text) {
  QMessageBox::critical(this, title, text);
}

bool MainWindow::openWorldFile(const QString& path) {
  try {
    doc_->openWorld(path);
  } catch (const std::exception& e) {
    showError(tr("Cannot open world"), QString::fromStdString(e.what()));
    return false;
  }
  if (viewport_) viewport_->frameWorld();
  addRecentFile(path);
  rememberDirectory(path);
  setLoadWarnings(doc_->world().loadWarnings(), tr("Opened %1").arg(QDir::toNativeSeparators(path)));
  return true;
}

void MainWindow::setLoadWarnings(const std::vector<std::string>& warnings, const QString& message) {
  loadWarnings_.clear();
  for (const std::string& w : warnings) {
    loadWarnings_ << QString::fromStdString(w);
    qWarning("softgrasp: warning: %s", w.c_str());
  }
  if (loadWarningsAction_) loadWarningsAction_->setEnabled(!loadWarnings_.isEmpty());
  if (loadWarnings_.isEmpty())
    statusBar()->showMessage(message, 5000);
  else  // stays until the next message: the model loaded, but not all of it as the file says
    statusBar()->showMessage(tr("%1 — %n warning(s), see Help > Load Warnings", nullptr, int(loadWarnings_.size())).arg(message));
}

void MainWindow::showLoadWarnings() {
  QMessageBox box(QMessageBox::Warning, tr("Load warnings"),
                  tr("The last file loaded with %n warning(s):", nullptr, int(loadWarnings_.size())),
                  QMessageBox::Close, this);
  box.setDetailedText(loadWarnings_.join(QLatin1Char('\n')));
  box.setInformativeText(loadWarnings_.join(QLatin1Char('\n')));
  box.exec();
}

bool MainWindow::importRobotFile(const QString& path) {
  try {
    doc_->importRobot(path);
  } catch (const std::exception& e) {
    showError(tr("Cannot import robot"), QString::fromStdString(e.what()));
    return false;
  }
  rememberDirectory(path);
  setLoadWarnings(doc_->world().robotLoadWarnings(static_cast<int>(doc_->world().robots.size()) - 1),
                  tr("Imported robot %1").arg(QFileInfo(path).fileName()));
  return true;
}

bool MainWindow::importObjectFile(const QString& path, bool obstacle) {
  try {
    doc_->importObject(path, obstacle ? BodyKind::Obstacle : BodyKind::Graspable);
  } catch (const std::exception& e) {
    showError(tr("Cannot import object"), QString::fromStdString(e.what()));
    return false;
  }
  rememberDirectory(path);
  const World& world = doc_->world();
  const std::vector<Body>& bodies = obstacle ? world.obstacles : world.graspables;
  setLoadWarnings(bodies.empty() ? std::vector<std::string>{} : bodies.back().loadWarnings,
                  tr("Imported %1").arg(QFileInfo(path).fileName()));
  return true;
}

bool MainWindow::openOrImport(const QString& path) {
  // The engine's one rule (src/io/InputFile.h), the CLI's too: any other .xml is read as a body, whose reader
  // names the actual problem; a file of no supported kind is refused with the engine's message.
  InputFileKind kind = InputFileKind::Unknown;
  try {
    kind = classifyInputFile(path.toStdString());
  } catch (const std::exception& e) {
    showError(tr("Cannot open file"), QString::fromStdString(e.what()));
    return false;
  }
  switch (kind) {
    case InputFileKind::World: return maybeSave() && openWorldFile(path);
    case InputFileKind::Robot: return importRobotFile(path);
    case InputFileKind::Body:
    case InputFileKind::Mesh:
    case InputFileKind::Unknown: break;  // not returned by classifyInputFile
  }
  return importObjectFile(path);
}

bool MainWindow::saveTo(const QString& path) {
  try {
    std::optional<Camera> camera;
    if (viewport_) camera = worldCameraFrom(viewport_->viewport()->camera());
    doc_->saveWorld(path, camera);
  } catch (const std::exception& e) {
    showError(tr("Cannot save world"), QString::fromStdString(e.what()));
    return false;
  }
  addRecentFile(path);
  rememberDirectory(path);
  statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
  return true;
}

void MainWindow::open() {
  if (!maybeSave()) return;
  const QString path = QFileDialog::getOpenFileName(this, tr("Open World"), lastDirectory(), kWorldFilter);
  if (!path.isEmpty()) openWorldFile(path);
}

void MainWindow::importRobot() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Import Robot"), lastDirectory(), kRobotFilter);
  if (!path.isEmpty()) importRobotFile(path);
}

void MainWindow::importObject(bool obstacle) {
  const QString path = QFileDialog::getOpenFileName(this, obstacle ? tr("Import Obstacle") : tr("Import Object"),
                                                    lastDirectory(), kObjectFilter);
  if (!path.isEmpty()) importObjectFile(path, obstacle);
}

bool MainWindow::save() {
  if (doc_->filePath().isEmpty()) return saveAs();
  return saveTo(doc_->filePath());
}

bool MainWindow::saveAs() {
  const QString start = doc_->filePath().isEmpty() ? lastDirectory() : doc_->filePath();
  QString path = QFileDialog::getSaveFileName(this, tr("Save World As"), start, kWorldFilter);
  if (path.isEmpty()) return false;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".xml");
  return saveTo(path);
}

bool MainWindow::maybeSave() {
  if (!doc_->isModified()) return true;
  const auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
                                           tr("The world has unsaved changes. Save them first?"),
                                           QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                           QMessageBox::Save);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

void MainWindow::screenshot() {
  if (!viewport_) return;
  ui::CoinViewport* view = viewport_->viewport();
  const QSize viewSize = view->size() * view->devicePixelRatioF();
  ScreenshotDialog dialog(viewSize, this);
  if (dialog.exec() != QDialog::Accepted) return;
  QString path = QFileDialog::getSaveFileName(this, tr("Save Screenshot"), lastDirectory(), tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".png");
  saveScreenshot(path, dialog.chosenSize());
}

bool MainWindow::saveScreenshot(const QString& path, QSize size) {
  const QImage image = viewport_ ? viewport_->viewport()->renderToImage(size) : QImage();
  if (image.isNull() || !image.save(path, "PNG")) {
    showError(tr("Screenshot failed"), tr("Could not render or write %1.").arg(QDir::toNativeSeparators(path)));
    return false;
  }
  rememberDirectory(path);
  statusBar()->showMessage(tr("Saved screenshot %1 (%2 × %3)")
                               .arg(QDir::toNativeSeparators(path))
                               .arg(image.width())
                               .arg(image.height()),
                           5000);
  return true;
}

void MainWindow::about() {
  QMessageBox::about(this, tr("About SoftGrasp"),
                     tr("<b>SoftGrasp %1</b><p>Interactive grasp analysis with soft contacts. Reads GraspIt!-format "
                        "hands, objects and worlds.</p>")
                         .arg(QApplication::applicationVersion()));
}

// --- window state ---

void MainWindow::updateTitle() {
  const QString name = doc_->filePath().isEmpty() ? tr("untitled") : QFileInfo(doc_->filePath()).fileName();
  setWindowTitle(tr("%1[*] — SoftGrasp").arg(name));
  setWindowModified(doc_->isModified());
}

void MainWindow::updateStatus() {
  const World& w = doc_->world();
  const auto& sel = doc_->selection();
  selectionLabel_->setText(sel ? tr("Selected: %1").arg(QString::fromStdString(w.bodyLabel(*sel)))
                               : tr("Nothing selected"));
  std::size_t triangles = 0;
  for (const auto& h : w.bodyHandles()) triangles += w.body(h).triangleCount();
  trianglesLabel_->setText(tr("%1 bodies, %2 triangles")
                               .arg(w.bodyCount())
                               .arg(QLocale().toString(static_cast<qulonglong>(triangles))));
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  QSettings s = appSettings();
  s.setValue("geometry", saveGeometry());
  s.setValue("windowState", saveState());
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!event->mimeData()->hasUrls()) return;
  for (const QUrl& url : event->mimeData()->urls())
    if (!url.isLocalFile()) return;
  event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) openOrImport(url.toLocalFile());
  event->acceptProposedAction();
}

}  // namespace sg::app
