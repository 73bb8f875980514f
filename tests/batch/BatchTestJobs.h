#pragma once
// A small job list over the bundled worlds and models for the batch tests: 9 rows (world rows and hand +
// object rows, several seeds), few annealing steps, point contacts, mostly the cheap parallel jaw, so a row
// takes a fraction of a second.
#include <QByteArray>
#include <QFile>
#include <QString>
#include "../support/TestPaths.h"

namespace sg::test {

inline QByteArray smallJobList() {
  const QByteArray src = sg::test::sourceDir();
  return "{\n"
         "  \"format\": \"softgrasp-batch-jobs\", \"version\": 1,\n"
         "  \"defaults\": { \"steps\": 30150, \"contactModel\": \"point\", \"measures\": [\"epsilon-l1\"] },\n"
         "  \"jobs\": [\n"
         "    { \"world\": \"" + src + "/worlds/paralleljaw_box.xml\", \"seeds\": [1, 2, 3, 4] },\n"
         "    { \"hand\": \"" + src + "/models/robots/ParallelJaw/ParallelJaw.xml\", \"object\": \"" + src +
         "/models/objects/box.xml\",\n"
         "      \"handPose\": { \"position_mm\": [0, 0, 120], \"quaternion_wxyz\": [0, 1, 0, 0] },\n"
         "      \"seedRange\": { \"first\": 10, \"count\": 3 } },\n"
         "    { \"world\": \"" + src + "/worlds/default.xml\", \"seed\": 5 },\n"
         "    { \"hand\": \"" + src + "/models/robots/ThreeFinger/ThreeFinger.xml\", \"object\": \"" + src +
         "/models/objects/sphere.xml\", \"seed\": \"6\", \"steps\": 30100 }\n"
         "  ]\n"
         "}\n";
}
constexpr int kSmallJobListRows = 9;

inline bool writeFile(const QString& path, const QByteArray& content) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  return f.write(content) == content.size();
}

inline QByteArray readFile(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace sg::test
