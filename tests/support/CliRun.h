#pragma once
// softgrasp-cli run as a user runs it, for the CLI-level suites (TestPaths.h says where it is).
#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include "TestPaths.h"

namespace sg::test {

struct CliRun {
  int exitCode = -1;
  bool crashed = false;  // did not start, did not finish within the timeout, or died on a signal
  QByteArray out, err;
  QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

// Runs softgrasp-cli with `args` in `workingDir` (the test's own when empty) and waits up to `timeout_ms`.
inline CliRun runCli(const QStringList& args, const QString& workingDir = {}, int timeout_ms = 300000) {
  QProcess p;
  if (!workingDir.isEmpty()) p.setWorkingDirectory(workingDir);
  p.start(sg::test::qCliPath(), args);
  CliRun r;
  if (!p.waitForStarted() || !p.waitForFinished(timeout_ms)) {
    r.crashed = true;
    return r;
  }
  r.crashed = p.exitStatus() != QProcess::NormalExit;
  r.exitCode = r.crashed ? -1 : p.exitCode();
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}

}  // namespace sg::test
