// Opening any file (src/io/InputFile.h), the rule the application and the CLI share: a world, a robot, a body
// XML, a mesh; any other .xml read as a body (its reader names the problem); anything else refused with one
// message naming the file.
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include "core/Error.h"
#include "io/InputFile.h"
#include "../support/TestPaths.h"

using namespace sg;

namespace {

std::string writeFile(const QTemporaryDir& dir, const char* name, const std::string& text) {
  const std::string path = dir.filePath(name).toStdString();
  std::ofstream(path) << text;
  return path;
}

// The message of the sg::Error `f` throws ("" when it throws none).
template <typename F>
std::string errorOf(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace

class TstInputFile : public QObject {
  Q_OBJECT
 private slots:
  void everyKindIsClassifiedAndLoaded() {
    const std::string root = sg::test::sourceDir();
    QCOMPARE(classifyInputFile(root + "/worlds/default.xml"), InputFileKind::World);
    QCOMPARE(classifyInputFile(root + "/models/robots/ThreeFinger/ThreeFinger.xml"), InputFileKind::Robot);
    QCOMPARE(classifyInputFile(root + "/models/objects/mug.xml"), InputFileKind::Body);
    QCOMPARE(classifyInputFile(root + "/models/objects/box.stl"), InputFileKind::Mesh);
    const InputFile world = loadInputFile(root + "/worlds/default.xml", {});
    QCOMPARE(world.world.robots.size(), std::size_t(1));
    QCOMPARE(world.world.graspables.size(), std::size_t(1));
    const InputFile robot = loadInputFile(root + "/models/robots/ThreeFinger/ThreeFinger.xml", {});
    QCOMPARE(robot.kind, InputFileKind::Robot);
    QCOMPARE(robot.world.robots.size(), std::size_t(1));
    QVERIFY(robot.world.graspables.empty());
    const InputFile body = loadInputFile(root + "/models/objects/mug.xml", {});
    QCOMPARE(body.world.graspables.size(), std::size_t(1));
    QVERIFY(body.world.robots.empty());
    QCOMPARE(inputFileKindName(body.kind), std::string("body"));
  }

  // An XML with an unknown root is read as a body: the body reader's error names the file.
  void unknownRootIsReadAsABody() {
    QTemporaryDir dir;
    const std::string path = writeFile(dir, "thing.xml", "<?xml version=\"1.0\"?>\n<thing><a/></thing>\n");
    QCOMPARE(classifyInputFile(path), InputFileKind::Body);
    const std::string error = errorOf([&] { loadInputFile(path, {}); });
    QVERIFY2(!error.empty(), "an unknown root must not load");
    QVERIFY2(error.find("thing.xml") != std::string::npos, error.c_str());
  }

  void unsupportedAndMissingFilesAreRefused() {
    QTemporaryDir dir;
    const std::string text = writeFile(dir, "notes.txt", "hello\n");
    const std::string refused = errorOf([&] { classifyInputFile(text); });
    QVERIFY2(refused.find("notes.txt") != std::string::npos, refused.c_str());
    QVERIFY2(refused.find("not a world, robot or body XML nor a mesh") != std::string::npos, refused.c_str());
    QCOMPARE(errorOf([&] { loadInputFile(text, {}); }), refused);  // loading says the same
    const std::string missing = errorOf([&] { classifyInputFile(dir.filePath("none.xml").toStdString()); });
    QVERIFY2(missing.find("no such file") != std::string::npos, missing.c_str());
    const std::string directory = errorOf([&] { classifyInputFile(dir.path().toStdString()); });
    QVERIFY2(directory.find("is a directory") != std::string::npos, directory.c_str());
  }
};

QTEST_MAIN(TstInputFile)
#include "tst_input_file.moc"
