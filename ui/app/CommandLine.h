#pragma once
// `softgrasp [WORLD] [--screenshot out.png [--size WxH] [--view iso|front|top|side] [--approach] [--autograsp]
//  [--contact-model NAME] [--no-overlays] [--fit all|grasp] [--window [--dock NAME]]]`.
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>

#include "grasp/HandMotion.h"
#include "render/StandardView.h"

namespace sg::app {

struct CommandLine {
  QString world;          // empty: the window opens the bundled default world (main.cpp, io/DataDirectory.h)
  QString screenshot;     // non-empty: render WORLD to this PNG and exit, no window
  QSize size{800, 600};   // screenshot size, pixels
  StandardView view = StandardView::Iso;
  bool viewGiven = false; // without --view the world's own camera is used when it has one
  // Before the screenshot, robot 0's motion for these switches (grasp/HandMotionPresets.h: switchesMotion).
  bool approach = false;  // --approach: at most kApproachBeforeGrasp_mm (with --autograsp: Approach & Grasp, key G)
  bool autoGrasp = false; // --autograsp: Auto-Grasp (Ctrl+G)
  std::string contactModel;  // --contact-model: a registered model's name; empty: the application's default
  bool overlays = true;   // false (--no-overlays): bodies only, no contacts, cones, patches or wrench
  bool fitGrasp = false;  // --fit grasp: frame the robots and graspable bodies (not the obstacles) in --view
  bool window = false;    // --window: the whole application window (WindowScreenshot.h), not the view alone
  QString dock;           // --dock NAME (with --window): raise the dock of this title before the picture
  bool help = false;      // --help / -h: print usage and exit 0
  bool version = false;   // --version: print "softgrasp VERSION" (core/Version.h) and exit 0
};

// Parses the arguments (argv[0] first). On bad usage returns nullopt and sets `error`.
std::optional<CommandLine> parseCommandLine(const QStringList& arguments, QString* error);
// Robot 0's motion before the screenshot: the switches read as softgrasp-cli reads them
// (grasp/HandMotionPresets.h: switchesMotion), so `--approach` goes as far in both.
HandMotionRequest screenshotMotion(const CommandLine& options);
// The world file to open: WORLD found as softgrasp-cli finds a FILE (io/DataDirectory.h: the working directory,
// then the data directory); without WORLD and without --screenshot the bundled default world when the data
// directory has one; else empty (an empty window).
QString worldToOpen(const CommandLine& options);
QString usageText();

// Exit codes of the headless screenshot mode.
enum ExitCode { kExitOk = 0, kExitFailure = 1, kExitUsage = 2, kExitBadFile = 3 };

// Loads the world, runs the live analysis' engine request (after the asked hand motion) and renders the
// world with the grasp overlays the window shows (render/GraspOverlay.h) offscreen, then writes the PNG;
// messages go to stderr. Needs a QGuiApplication and an X server (xcb).
int runHeadlessScreenshot(const CommandLine& options);

}  // namespace sg::app
