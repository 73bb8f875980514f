#pragma once
// Set-up shared by the application's test suites: their settings live in a temporary folder (never the
// user's), and the GL suites need an X server (xcb), which ctest provides through xvfb-run.
#include <QGuiApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace sg::test {

// QSettings of this process (native and INI) and QStandardPaths' test locations in `dir`.
inline void useTemporarySettings(const QTemporaryDir& dir) {
  QStandardPaths::setTestModeEnabled(true);
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

inline bool onX11() { return QGuiApplication::platformName() == QLatin1String("xcb"); }
constexpr const char* kNeedsX = "needs an X server (run under xvfb-run with QT_QPA_PLATFORM=xcb)";

}  // namespace sg::test
