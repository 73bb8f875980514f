// Finding the bundled worlds and models and the files a user names (src/io/DataDirectory.h, README.md §Install):
// the working directory first, then each data directory in order; $SOFTGRASP_DATA_DIR first of those; an
// executable in the build tree (this suite) uses the source checkout; loadInputFile applies the rule.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "core/Error.h"
#include "io/DataDirectory.h"
#include "io/InputFile.h"
#include "../support/TestPaths.h"

using namespace sg;
namespace fs = std::filesystem;

namespace {

void writeFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

bool samePath(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

// Runs in `dir` as the working directory and restores the previous one afterwards.
class InDirectory {
 public:
  explicit InDirectory(const QString& dir) : previous_(QDir::currentPath()) { QDir::setCurrent(dir); }
  ~InDirectory() { QDir::setCurrent(previous_); }
  InDirectory(const InDirectory&) = delete;
  InDirectory& operator=(const InDirectory&) = delete;

 private:
  QString previous_;
};

}  // namespace

class TstDataDirectory : public QObject {
  Q_OBJECT
 private slots:
  void cleanup() { qunsetenv("SOFTGRASP_DATA_DIR"); }

  // cwd before every data directory, then the data directories in their order; unresolved names unchanged.
  void relativeNamesTryTheWorkingDirectoryThenEachDataDirectory() {
    QTemporaryDir cwd, first, second;
    const fs::path firstDir = first.path().toStdString(), secondDir = second.path().toStdString();
    writeFile(firstDir / "worlds/a.xml", "first");
    writeFile(secondDir / "worlds/a.xml", "second");
    writeFile(secondDir / "worlds/b.xml", "second");
    writeFile(fs::path(cwd.path().toStdString()) / "worlds/local.xml", "cwd");
    writeFile(secondDir / "worlds/local.xml", "data");
    const std::vector<std::string> dirs{firstDir.string(), secondDir.string()};
    InDirectory in(cwd.path());

    QCOMPARE(resolveUserFile("worlds/local.xml", dirs), std::string("worlds/local.xml"));  // the cwd wins
    QCOMPARE(resolveUserFile("worlds/a.xml", dirs), (firstDir / "worlds/a.xml").string());  // first data dir
    QCOMPARE(resolveUserFile("worlds/b.xml", dirs), (secondDir / "worlds/b.xml").string()); // only in the second
    QCOMPARE(resolveUserFile("./worlds/../worlds/b.xml", dirs), (secondDir / "worlds/b.xml").string());
    QCOMPARE(resolveUserFile("worlds/none.xml", dirs), std::string("worlds/none.xml"));    // found nowhere
    QCOMPARE(resolveUserFile("worlds/a.xml", {}), std::string("worlds/a.xml"));            // no data dirs
    QCOMPARE(resolveUserFile("", dirs), std::string());
    // An absolute name is never redirected, even when it does not exist and a data dir has its tail.
    const std::string absent = (fs::path(cwd.path().toStdString()) / "gone/worlds/a.xml").string();
    QCOMPARE(resolveUserFile(absent, dirs), absent);
    QVERIFY(!findDataFile(absent, dirs));
    QCOMPARE(findDataFile("worlds/local.xml", dirs).value_or(""), (secondDir / "worlds/local.xml").string());
  }

  // A test executable lives in the build tree: its data directories are the source checkout, then the build
  // tree; $SOFTGRASP_DATA_DIR goes before both.
  void buildTreeExecutablesUseTheSourceCheckoutAndTheEnvironmentComesFirst() {
    std::vector<std::string> dirs = dataDirectories();
    QVERIFY2(dirs.size() >= 2, "the source and build trees");
    QVERIFY2(samePath(dirs[0], sg::test::sourceDir()), dirs[0].c_str());
    QVERIFY2(samePath(dirs[1], sg::test::binaryDir()), dirs[1].c_str());
    const auto world = findDataFile(kDefaultWorld);
    QVERIFY(world);
    QVERIFY(samePath(*world, std::string(sg::test::sourceDir()) + "/worlds/default.xml"));

    QTemporaryDir env;
    writeFile(fs::path(env.path().toStdString()) / kDefaultWorld, "<world/>");
    qputenv("SOFTGRASP_DATA_DIR", env.path().toLocal8Bit());
    dirs = dataDirectories();
    QVERIFY(samePath(dirs.at(0), env.path().toStdString()));
    QVERIFY(samePath(findDataFile(kDefaultWorld).value_or(""), env.path().toStdString() + "/worlds/default.xml"));
    // A variable naming no directory is skipped.
    qputenv("SOFTGRASP_DATA_DIR", QByteArray::fromStdString(sg::test::inBuildTree("no/such/dir")));
    QVERIFY(samePath(dataDirectories().at(0), sg::test::sourceDir()));
  }

  // loadInputFile (every softgrasp-cli FILE) opens the bundled world by its relative name from any directory,
  // and a name found nowhere is reported as typed.
  void loadInputFileFindsTheBundledWorldFromAnyDirectory() {
    QTemporaryDir elsewhere;
    InDirectory in(elsewhere.path());
    const InputFile input = loadInputFile(kDefaultWorld, {});
    QCOMPARE(input.kind, InputFileKind::World);
    QVERIFY(samePath(input.path, std::string(sg::test::sourceDir()) + "/worlds/default.xml"));
    QCOMPARE(input.world.robots.size(), std::size_t(1));
    QCOMPARE(input.world.graspables.size(), std::size_t(1));
    try {
      loadInputFile("worlds/no_such_world.xml", {});
      QFAIL("a missing world must be refused");
    } catch (const Error& e) {
      const std::string message = e.what();
      QVERIFY2(message.find("worlds/no_such_world.xml") != std::string::npos, e.what());
      QVERIFY2(message.find("no such file") != std::string::npos, e.what());
    }
  }
};

QTEST_MAIN(TstDataDirectory)
#include "tst_data_directory.moc"
