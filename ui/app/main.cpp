// softgrasp: the desktop application, or a headless screenshot renderer (see CommandLine.h).
#include <QApplication>
#include <cstdio>
#include <cstring>

#include "CommandLine.h"
#include "MainWindow.h"
#include "NumberLocale.h"
#include "WindowScreenshot.h"
#include "core/Version.h"
#include "viewport/CoinSetup.h"

namespace {
bool wantsScreenshot(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--screenshot") == 0 || std::strcmp(argv[i], "-screenshot") == 0) return true;
  return false;
}
// --help and --version print and exit: they never need a display.
bool wantsTextOnly(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    for (const char* option : {"--help", "-h", "--version"})
      if (std::strcmp(argv[i], option) == 0) return true;
  return false;
}
}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
    // Debian's Coin 4.0 is GLX-only: under Wayland go through XWayland unless the user chose a platform.
    if (!qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
      qputenv("QT_QPA_PLATFORM", "xcb");
    // No display at all: a screenshot run should end with a clear message, not an abort in the xcb plugin.
    else if (qEnvironmentVariableIsEmpty("DISPLAY") && (wantsScreenshot(argc, argv) || wantsTextOnly(argc, argv)))
      qputenv("QT_QPA_PLATFORM", "offscreen");
  }
  sg::ui::installCoinSurfaceFormat();  // compatibility profile, depth 24: before the QApplication
  QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
  QApplication app(argc, argv);
  QApplication::setOrganizationName("SoftGrasp");
  QApplication::setApplicationName("softgrasp");
  QApplication::setApplicationVersion(sg::versionString());
  sg::app::useFileNumberFormat();  // before any widget: spin boxes, labels and files all write "1.5"

  QString error;
  const auto options = sg::app::parseCommandLine(QApplication::arguments(), &error);
  if (!options) {
    std::fprintf(stderr, "softgrasp: %s\n%s", qPrintable(error), qPrintable(sg::app::usageText()));
    return sg::app::kExitUsage;
  }
  if (options->help) {
    std::fputs(qPrintable(sg::app::usageText()), stdout);
    return sg::app::kExitOk;
  }
  if (options->version) {
    std::printf("softgrasp %s\n", sg::versionString());
    return sg::app::kExitOk;
  }
  sg::app::CommandLine resolved = *options;
  resolved.world = sg::app::worldToOpen(*options);  // the working directory, then the data directory
  if (!resolved.screenshot.isEmpty())
    return resolved.window ? sg::app::runWindowScreenshot(resolved) : sg::app::runHeadlessScreenshot(resolved);

  sg::app::MainWindow window;
  window.show();
  if (!resolved.world.isEmpty()) window.openWorldFile(resolved.world);
  return app.exec();
}
