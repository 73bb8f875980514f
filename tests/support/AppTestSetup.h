#pragma once
// Set-up shared by the application's test suites: their settings live in a temporary folder (never the
// user's), and the GL suites need an X server (xcb), which ctest provides through xvfb-run.
#include <QApplication>
#include <QGuiApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

#include "viewport/CoinSetup.h"

namespace sg::test {

// QSettings of this process (native and INI) and QStandardPaths' test locations in `dir`.
inline void useTemporarySettings(const QTemporaryDir& dir) {
  QStandardPaths::setTestModeEnabled(true);
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

// For a GL suite's static initMain(), before the QApplication exists: the surface format Coin needs and
// shared GL contexts (offscreen renders share the viewport's Coin caches).
inline void prepareGlApplication() {
  ui::installCoinSurfaceFormat();
  QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
}

inline bool onX11() { return QGuiApplication::platformName() == QLatin1String("xcb"); }
constexpr const char* kNeedsX = "needs an X server (run under xvfb-run with QT_QPA_PLATFORM=xcb)";

}  // namespace sg::test
