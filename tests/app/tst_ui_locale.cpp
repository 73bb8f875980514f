// Locale-proof files in the application, started as on a German desktop (LC_ALL=de_DE.UTF-8 before the QApplication,
// which sets the C locale from it): the Planner dock saves a grasp list the engine (and softgrasp-cli) reads, and
// loads the list softgrasp-cli wrote; the analysis exports are the C locale's bytes; after
// useFileNumberFormat() (what main() calls) spin boxes show numbers as the files and labels do ("0.50", not "0,50").
#include <QDoubleSpinBox>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <bit>
#include <clocale>
#include <cstdint>
#include <locale>

#include "../support/AppTestSetup.h"
#include "AnalysisExport.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "NumberLocale.h"
#include "PlannerDock.h"
#include "grasp/planner/GraspList.h"
#include "render/CoinInit.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {

constexpr const char* kGerman = "de_DE.UTF-8";
const QString kJawWorld = sg::test::qInSourceTree("worlds/paralleljaw_box.xml");

bool german() { return std::setlocale(LC_ALL, kGerman) != nullptr; }
void cLocale() { std::setlocale(LC_ALL, "C"); }

QByteArray fileBytes(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<cannot read " + path.toUtf8() + ">");
}

bool sameBits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// softgrasp-cli with LC_ALL and LANG set to `locale`.
int runCli(const char* locale, const QStringList& args, QByteArray* err = nullptr) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("LC_ALL", locale);
  env.insert("LANG", locale);
  p.setProcessEnvironment(env);
  p.start(sg::test::qCliPath(), args);
  if (!p.waitForStarted() || !p.waitForFinished(240000) || p.exitStatus() != QProcess::NormalExit) return -1;
  if (err) *err = p.readAllStandardError();
  return p.exitCode();
}

}  // namespace

class TstUiLocale : public QObject {
  Q_OBJECT
 public:
  // As a German session starts the application: QApplication's setlocale(LC_ALL, "") and QLocale::system() see it.
  static void initMain() {
    qputenv("LC_ALL", kGerman);
    qputenv("LANG", kGerman);
  }

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::useTemporarySettings(settingsDir_);
    initCoin();
    if (!german())
      QSKIP("the de_DE.UTF-8 locale is not installed: scripts/install-deps.sh generates it (as root, locale-gen)");
    QCOMPARE(QLocale::system().decimalPoint(), QStringLiteral(","));  // the session really is German
  }
  void init() { QVERIFY(german()); }  // each test starts with the locale QApplication set

  void plannerListsCrossBetweenGuiAndCli();
  void analysisExportsAreTheCLocalesBytes();
  void spinBoxesShowTheFilesNumbers();

 private:
  QTemporaryDir settingsDir_;
};

void TstUiLocale::plannerListsCrossBetweenGuiAndCli() {
  QTemporaryDir dir;
  const QString cliList = dir.filePath("cli.json"), guiList = dir.filePath("gui.json");
  QByteArray err;
  QCOMPARE(runCli("C", {"plan", kJawWorld, "--energy", "autograsp-quality", "--steps", "30200", "--seed", "7",
                        "--contact-model", "point", "--no-progress", "--out", cliList}, &err), 0);

  MainWindow::Options options;
  options.createViewport = false;
  MainWindow window(options);
  QVERIFY(window.openWorldFile(kJawWorld));
  auto* dock = window.findChild<PlannerDock*>(QStringLiteral("plannerDock"));
  QVERIFY(dock);
  QVERIFY(german());  // opening a world must not have changed it
  QVERIFY2(dock->loadList(cliList), qPrintable(dock->statusText()));
  const planner::GraspList loaded = dock->list();
  QVERIFY(!loaded.grasps.empty());
  QVERIFY2(dock->saveList(guiList), qPrintable(dock->statusText()));
  window.document()->undoStack()->setClean();

  // The German GUI's file is the C locale's: what the engine writes for the same list under C, read back exactly.
  cLocale();
  const planner::GraspList fromGui = planner::loadGraspList(guiList.toStdString());
  const planner::GraspList fromCli = planner::loadGraspList(cliList.toStdString());
  QCOMPARE(fromGui.grasps.size(), fromCli.grasps.size());
  for (std::size_t i = 0; i < fromCli.grasps.size(); ++i) {
    QVERIFY(sameBits(fromGui.grasps[i].energy, fromCli.grasps[i].energy));
    QVERIFY(fromGui.grasps[i].grasp.dofValues == fromCli.grasps[i].grasp.dofValues);
    QVERIFY(fromGui.grasps[i].grasp.X_WP.matrix() == fromCli.grasps[i].grasp.X_WP.matrix());
  }
  const QString reSaved = dir.filePath("c.json");
  planner::saveGraspList(fromCli, reSaved.toStdString());
  QCOMPARE(fileBytes(guiList), fileBytes(reSaved));
  // ... and softgrasp-cli evaluates it, under C and under de_DE.
  QCOMPARE(runCli("C", {"evaluate", kJawWorld, "--grasps", guiList, "--contact-model", "point", "--no-progress"}, &err), 0);
  QVERIFY2(runCli(kGerman, {"evaluate", kJawWorld, "--grasps", guiList, "--contact-model", "point", "--no-progress"},
                  &err) == 0,
           err.constData());
}

void TstUiLocale::analysisExportsAreTheCLocalesBytes() {
  MainWindow::Options options;
  options.createViewport = false;
  MainWindow window(options);
  QVERIFY(window.openWorldFile(sg::test::qInSourceTree("worlds/default.xml")));
  window.findChild<QAction*>(QStringLiteral("actionAutoGrasp"))->trigger();
  window.analysis()->recompute();
  QVERIFY(!window.analysis()->contacts().empty());
  QTemporaryDir dir;
  QVERIFY(exportContactsCsv(*window.document(), *window.analysis(), dir.filePath("d.csv")));
  QVERIFY(exportAnalysisJson(*window.document(), *window.analysis(), dir.filePath("d.json")));
  cLocale();
  QVERIFY(exportContactsCsv(*window.document(), *window.analysis(), dir.filePath("c.csv")));
  QVERIFY(exportAnalysisJson(*window.document(), *window.analysis(), dir.filePath("c.json")));
  window.document()->undoStack()->setClean();
  QCOMPARE(fileBytes(dir.filePath("d.csv")), fileBytes(dir.filePath("c.csv")));
  QCOMPARE(fileBytes(dir.filePath("d.json")), fileBytes(dir.filePath("c.json")));
  // Each row has the header's 13 fields (a decimal comma would add some) and its position reads back exactly.
  const QList<QByteArray> lines = fileBytes(dir.filePath("d.csv")).trimmed().split('\n');
  QCOMPARE(lines.size(), static_cast<qsizetype>(window.analysis()->contacts().size() + 1));
  for (const QByteArray& line : lines) QCOMPARE(line.count(','), 12);
  const double x = lines[1].split(',')[3].toDouble();
  QVERIFY(sameBits(x, window.analysis()->contacts()[0].side1.p_WC_mm.x()));
}

void TstUiLocale::spinBoxesShowTheFilesNumbers() {
  {
    QDoubleSpinBox before;  // the German session's default: what the trial saw ("0,50°")
    before.setDecimals(2);
    before.setValue(0.5);
    QCOMPARE(before.text(), QStringLiteral("0,50"));
  }
  useFileNumberFormat();
  QVERIFY(QString::fromLatin1(std::setlocale(LC_NUMERIC, nullptr)) == QLatin1String("C"));
  QDoubleSpinBox after;
  after.setDecimals(2);
  after.setValue(0.5);
  QCOMPARE(after.text(), QStringLiteral("0.50"));
  QCOMPARE(after.valueFromText(QStringLiteral("12.25")), 12.25);  // and reads what it shows
  QCOMPARE(QLocale().toString(1234567.5, 'f', 1), QStringLiteral("1234567.5"));  // no group separator
  // Every spin box of the window agrees with the labels and the files.
  MainWindow::Options options;
  options.createViewport = false;
  MainWindow window(options);
  QVERIFY(window.openWorldFile(kJawWorld));
  const auto spins = window.findChildren<QDoubleSpinBox*>();
  QVERIFY(std::any_of(spins.begin(), spins.end(), [](const QDoubleSpinBox* s) { return s->text().contains('.'); }));
  for (const QDoubleSpinBox* s : spins)
    QVERIFY2(!s->text().contains(','), qPrintable(s->objectName() + ": " + s->text()));
  window.document()->undoStack()->setClean();
  QLocale::setDefault(QLocale::system());
}

QTEST_MAIN(TstUiLocale)
#include "tst_ui_locale.moc"
