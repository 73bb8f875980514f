#pragma once
// `softgrasp WORLD --screenshot out.png --window [--dock NAME]`: a picture of the whole application window (menus,
// docks, the 3-D view) instead of the view alone, for the user guide's pictures (docs/guide/README.md).
#include <QString>
#include <memory>

#include "CommandLine.h"

class QDockWidget;

namespace sg::app {

class MainWindow;

// The window a --window screenshot grabs, or why there is none.
struct ScreenshotWindow {
  std::unique_ptr<MainWindow> window;  // null on failure
  int exitCode = kExitOk;              // CommandLine.h's codes: 2 unknown dock, 3 bad world, 1 no OpenGL view
  QString error;
};

// Shows a main window of options.size, opens options.world, moves robot 0 with the Grasp menu's action for the
// switches (--approach: Approach to Contact, --autograsp: Auto-Grasp, both: Approach & Grasp), applies
// --contact-model and --view, waits until the analysis and every background job (the L1 hull, the comparison) are
// done, and raises the dock titled options.dock. Uses the settings QSettings finds (runWindowScreenshot points
// them at an empty folder first).
ScreenshotWindow prepareScreenshotWindow(const CommandLine& options);
// The dock whose title (or object name) is `name`, any case; null if none.
QDockWidget* findDock(const MainWindow& window, const QString& name);
// Every dock's title, comma-separated (for the error message).
QString dockTitles(const MainWindow& window);
// The whole run: settings in a fresh temporary folder (a first start: default layout and analysis settings,
// nothing of the user's read or written), prepareScreenshotWindow, grab, write the PNG. Messages on stderr.
int runWindowScreenshot(const CommandLine& options);

}  // namespace sg::app
