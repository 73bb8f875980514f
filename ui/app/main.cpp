// softgrasp: the desktop application, or a headless screenshot renderer (see CommandLine.h).
#include <QApplication>
#include <cstdio>

#include "CommandLine.h"
#include "MainWindow.h"
#include "viewport/CoinSetup.h"

int main(int argc, char** argv) {
  // Debian's Coin 4.0 is GLX-only: under Wayland go through XWayland unless the user chose a platform.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
    qputenv("QT_QPA_PLATFORM", "xcb");
  sg::ui::installCoinSurfaceFormat();  // compatibility profile, depth 24: before the QApplication
  QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
  QApplication app(argc, argv);
  QApplication::setOrganizationName("SoftGrasp");
  QApplication::setApplicationName("softgrasp");
  QApplication::setApplicationVersion("0.1.0");

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
  if (!options->screenshot.isEmpty()) return sg::app::runHeadlessScreenshot(*options);

  sg::app::MainWindow window;
  window.show();
  if (!options->world.isEmpty()) window.openWorldFile(options->world);
  return app.exec();
}
