#include "WindowScreenshot.h"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QImage>
#include <QSettings>
#include <QTemporaryDir>
#include <QThread>
#include <QWindow>
#include <cstdio>
#include <exception>
#include <functional>
#include <utility>

#include "Document.h"
#include "GraspAnalysis.h"
#include "JobRunner.h"
#include "MainWindow.h"
#include "ViewportPanel.h"
#include "contact/ContactModel.h"
#include "io/ModelIO.h"
#include "viewport/CoinViewport.h"

namespace sg::app {

namespace {

// The Grasp menu's action for the switches (GraspActions.cpp), as the keys a user presses.
const char* motionActionName(const CommandLine& options) {
  if (options.approach && options.autoGrasp) return "actionApproachAndGrasp";  // G
  if (options.autoGrasp) return "actionAutoGrasp";                            // Ctrl+G
  if (options.approach) return "actionApproach";
  return nullptr;
}

// Runs the event loop until `done` holds; false after timeout_ms.
bool processEventsUntil(const std::function<bool()>& done, int timeout_ms) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) {
    if (clock.elapsed() > timeout_ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return true;
}

// Runs the event loop for ms milliseconds: the dock layout settles over several turns after a resize or a raise.
void processEventsFor(int ms) {
  QElapsedTimer clock;
  clock.start();
  processEventsUntil([&] { return clock.elapsed() >= ms; }, ms + 1000);
}

// No analysis update queued or computing, no background job (hulls, comparison) running or on its way.
bool settled(const MainWindow& window) {
  const GraspAnalysis* analysis = window.analysis();
  if (analysis->l1HullPending() || analysis->lInfinityPending()) return false;
  for (const JobRunner* jobs : window.findChildren<JobRunner*>())
    if (jobs->busy()) return false;
  return true;
}

constexpr int kSettleTimeout_ms = 120000;

}  // namespace

QDockWidget* findDock(const MainWindow& window, const QString& name) {
  for (QDockWidget* dock : window.findChildren<QDockWidget*>())
    if (dock->windowTitle().compare(name, Qt::CaseInsensitive) == 0 ||
        dock->objectName().compare(name, Qt::CaseInsensitive) == 0)
      return dock;
  return nullptr;
}

QString dockTitles(const MainWindow& window) {
  QStringList titles;
  for (const QDockWidget* dock : window.findChildren<QDockWidget*>()) titles << dock->windowTitle();
  return titles.join(QStringLiteral(", "));
}

ScreenshotWindow prepareScreenshotWindow(const CommandLine& options) {
  ScreenshotWindow out;
  const auto fail = [&out](int code, const QString& message) {
    out.window.reset();
    out.exitCode = code;
    out.error = message;
    return std::move(out);
  };
  // Loaded once here first: MainWindow::openWorldFile reports a bad file in a dialog, which nobody would close.
  try {
    loadWorld(options.world.toStdString());
  } catch (const std::exception& e) {
    return fail(kExitBadFile, QStringLiteral("cannot load %1:\n%2").arg(options.world, QString::fromUtf8(e.what())));
  }
  out.window = std::make_unique<MainWindow>();
  MainWindow& w = *out.window;
  if (!w.viewportPanel())
    return fail(kExitFailure, QStringLiteral("no OpenGL view on this platform (an X server is needed, e.g. xvfb-run -a)"));
  QDockWidget* dock = nullptr;
  if (!options.dock.isEmpty() && !(dock = findDock(w, options.dock)))
    return fail(kExitUsage, QStringLiteral("--dock must be one of %1, got '%2'").arg(dockTitles(w), options.dock));
  w.resize(options.size);
  w.show();
  if (!processEventsUntil([&w] { return w.isVisible() && w.windowHandle() && w.windowHandle()->isExposed(); }, 10000))
    return fail(kExitFailure, QStringLiteral("the window was never shown (an X server is needed, e.g. xvfb-run -a)"));
  if (!w.openWorldFile(options.world)) return fail(kExitBadFile, QStringLiteral("cannot open %1").arg(options.world));
  if (!options.contactModel.empty()) {
    AnalysisSettings settings = w.analysis()->settings();
    settings.contactModel = options.contactModel;
    w.analysis()->setSettings(settings);
  }
  if (const char* name = motionActionName(options)) {
    if (w.document()->world().robots.empty())
      return fail(kExitUsage, QStringLiteral("--approach/--autograsp: %1 has no robot to move").arg(options.world));
    QAction* motion = w.findChild<QAction*>(QString::fromLatin1(name));
    if (!motion) return fail(kExitFailure, QStringLiteral("the Grasp menu has no action %1").arg(QString::fromLatin1(name)));
    motion->trigger();
  }
  if (options.viewGiven) w.viewportPanel()->viewport()->setStandardView(options.view);
  w.analysis()->recompute();
  if (dock) {
    dock->show();
    dock->raise();
  }
  processEventsFor(200);
  if (!processEventsUntil([&w] { return settled(w); }, kSettleTimeout_ms))
    return fail(kExitFailure, QStringLiteral("the analysis did not finish within %1 s").arg(kSettleTimeout_ms / 1000));
  processEventsFor(200);  // the docks repaint with the last results
  return out;
}

int runWindowScreenshot(const CommandLine& options) {
  // A first start: no saved layout, the default analysis settings; the user's own settings stay untouched.
  QTemporaryDir settingsDir;
  if (!settingsDir.isValid()) {
    std::fprintf(stderr, "softgrasp: cannot create a temporary settings folder\n");
    return kExitFailure;
  }
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
  ScreenshotWindow prepared = prepareScreenshotWindow(options);
  if (!prepared.window) {
    std::fprintf(stderr, "softgrasp: %s\n", qPrintable(prepared.error));
    return prepared.exitCode;
  }
  // The GL view is composited into the window's picture. The dock layout follows the window's size and the world's
  // rows through zero-time timers and X events, so the picture is taken once two grabs 150 ms apart agree.
  QImage image = prepared.window->grab().toImage();
  for (int attempt = 0; attempt < 20; ++attempt) {
    processEventsFor(150);
    QImage next = prepared.window->grab().toImage();
    if (next == image) break;
    image = std::move(next);
  }
  if (image.isNull() || !image.save(options.screenshot, "PNG")) {
    std::fprintf(stderr, "softgrasp: cannot write %s\n", qPrintable(options.screenshot));
    return kExitFailure;
  }
  prepared.window->document()->undoStack()->setClean();  // no "save changes?" on close
  return kExitOk;
}

}  // namespace sg::app
