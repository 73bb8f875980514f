// The malformed-input corpus test: softgrasp-cli runs as a subprocess on every file of tests/io/malformed/corpus
// (written by generate_corpus.py, listed with its expected outcome in expected.txt) and on deep-nesting
// files generated here. Each run must end within the time limit with exit 0 ("ok"), or exit 3 with a
// one-line message naming the file ("error"); "any" allows either. A crash (signal, exit 1) or a
// timeout (hang) fails, whatever the file.
#include <QtTest>

#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include "../../support/TestPaths.h"

namespace {

constexpr int kTimeLimit_ms = 20000;

struct Outcome {
  bool finished = false;
  bool crashed = false;
  int exitCode = -1;
  QString err;
  qint64 elapsed_ms = 0;
};

Outcome runCli(const QStringList& args, const QString& cwd) {
  QProcess p;
  p.setWorkingDirectory(cwd);
  QElapsedTimer timer;
  timer.start();
  p.start(sg::test::qCliPath(), args);
  Outcome o;
  if (!p.waitForStarted(kTimeLimit_ms)) return o;
  o.finished = p.waitForFinished(kTimeLimit_ms);
  o.elapsed_ms = timer.elapsed();
  if (!o.finished) {
    p.kill();
    p.waitForFinished(5000);
    return o;
  }
  o.crashed = p.exitStatus() != QProcess::NormalExit;
  o.exitCode = p.exitCode();
  o.err = QString::fromUtf8(p.readAllStandardError());
  return o;
}

// Empty when `o` satisfies `expect` for `file`; otherwise what went wrong.
QString judge(const Outcome& o, const QString& expect, const QString& file) {
  if (!o.finished) return QStringLiteral("did not finish within %1 s (hang)").arg(kTimeLimit_ms / 1000);
  if (o.crashed) return QStringLiteral("crashed: ") + o.err.left(300);
  if (o.exitCode == 3) {
    if (expect == "ok") return QStringLiteral("expected success, got: ") + o.err.left(300);
    if (!o.err.contains(QFileInfo(file).fileName())) return QStringLiteral("error does not name the file: ") + o.err.left(300);
    if (o.err.trimmed().contains('\n')) return QStringLiteral("error is not one line: ") + o.err.left(300);
    return {};
  }
  if (o.exitCode == 0) return expect == "error" ? QStringLiteral("expected an error, loaded fine") : QString();
  return QStringLiteral("exit code %1: ").arg(o.exitCode) + o.err.left(300);
}

}  // namespace

class TestMalformed : public QObject {
  Q_OBJECT
 private slots:
  void corpus_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expect");
    // ctest runs the corpus as parallel entries (tests/io/malformed/CMakeLists.txt): SG_MALFORMED_SHARD="k/n"
    // keeps the files k, k+n, k+2n, ... (1-based) of expected.txt; unset, all of them.
    int shard = 1;
    int shards = 1;
    if (qEnvironmentVariableIsSet("SG_MALFORMED_SHARD")) {
      const QStringList kn = qEnvironmentVariable("SG_MALFORMED_SHARD").split('/');
      bool okK = false;
      bool okN = false;
      if (kn.size() == 2) {
        shard = kn[0].toInt(&okK);
        shards = kn[1].toInt(&okN);
      }
      QVERIFY2(okK && okN && shards >= 1 && shard >= 1 && shard <= shards,
               qPrintable("SG_MALFORMED_SHARD must be k/n with 1 <= k <= n, got: " +
                          qEnvironmentVariable("SG_MALFORMED_SHARD")));
    }
    QFile list(sg::test::qInSourceTree("tests/io/malformed/corpus/expected.txt"));
    QVERIFY(list.open(QIODevice::ReadOnly | QIODevice::Text));
    int n = 0;
    while (!list.atEnd()) {
      const QString line = QString::fromUtf8(list.readLine()).trimmed();
      if (line.isEmpty() || line.startsWith('#')) continue;
      const QStringList parts = line.split(' ', Qt::SkipEmptyParts);
      QCOMPARE(parts.size(), 2);
      if (n % shards == shard - 1) QTest::newRow(qPrintable(parts[0])) << parts[0] << parts[1];
      ++n;
    }
    QVERIFY2(n >= 250, "the corpus should hold at least 250 files");
  }
  void corpus() {
    QFETCH(QString, file);
    QFETCH(QString, expect);
    const QString dir = sg::test::qInSourceTree("tests/io/malformed/corpus");
    const QString path = dir + "/" + file;
    QVERIFY2(QFileInfo::exists(path), qPrintable(path));
    const Outcome info = runCli({"info", path}, dir);
    const QString problem = judge(info, expect, path);
    QVERIFY2(problem.isEmpty(), qPrintable("info " + file + ": " + problem));
    // Robots and worlds that load also run auto-grasp: a number that loads must not make it loop for ever.
    QFile text(path);
    const bool hasRobot = text.open(QIODevice::ReadOnly) && text.readAll().contains("<robot");
    if (info.finished && info.exitCode == 0 && hasRobot) {
      const Outcome grasp = runCli({"grasp", path, "--approach"}, dir);
      const QString gp = judge(grasp, expect, path);
      QVERIFY2(gp.isEmpty(), qPrintable("grasp " + file + ": " + gp));
    }
  }
  // Joint limits of ±1e6° load (within range), but auto-grasp cannot reach them within its iteration bound:
  // it must stop and say so, not loop for ever or claim contact.
  void autoGraspThatCannotSettleSaysSo() {
    QProcess p;
    p.setWorkingDirectory(sg::test::qInSourceTree("tests/io/malformed/corpus"));
    p.start(sg::test::qCliPath(),
            {"grasp", sg::test::qInSourceTree("tests/io/malformed/corpus/xml/world_limits_1e6_ok.xml")});
    QVERIFY(p.waitForFinished(kTimeLimit_ms));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("auto-grasp did not converge: stopped after 500 iterations"), qPrintable(err));
  }
  // Devices and FIFOs are refused, not read for ever or waited on.
  void specialFiles() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QStringList paths{"/dev/zero", "/dev/null"};
    for (const char* name : {"fifo.xml", "fifo.iv", "fifo.off", "fifo.ply"}) {
      const QString path = tmp.filePath(name);
      QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
      paths << path;
    }
    for (const QString& path : paths) {
      const Outcome o = runCli({"info", path}, tmp.path());
      const QString problem = judge(o, "error", path);
      QVERIFY2(problem.isEmpty(), qPrintable(path + ": " + problem));
    }
  }
  // Files too large to commit: the nesting that overflowed Coin's stack, and deep XML.
  void generatedDeepNesting() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    auto write = [&](const QString& name, const QByteArray& bytes) {
      QFile f(tmp.filePath(name));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(bytes);
    };
    QByteArray iv = "#Inventor V2.1 ascii\n";
    iv += QByteArray("Separator {\n").repeated(12000) + "Cube { }\n" + QByteArray("}\n").repeated(12000);
    write("deep.iv", iv);
    QByteArray wrl = "#VRML V2.0 utf8\n";
    wrl += QByteArray("Transform { children [\n").repeated(6000) + "Shape { geometry Box { } }\n" +
           QByteArray("] }\n").repeated(6000);
    write("deep.wrl", wrl);
    QByteArray vrml1 = "#VRML V1.0 ascii\n";
    vrml1 += QByteArray("Separator {\n").repeated(50000) + "Cube { }\n";  // never closed
    write("deep_unclosed.wrl", vrml1);
    QByteArray xml = "<?xml version=\"1.0\" ?>\n<world>" + QByteArray("<a>").repeated(100000) +
                     QByteArray("</a>").repeated(100000) + "</world>\n";
    write("deep_world.xml", xml);
    for (const char* name : {"deep.iv", "deep.wrl", "deep_unclosed.wrl", "deep_world.xml"}) {
      const QString path = tmp.filePath(name);
      const Outcome o = runCli({"info", path}, tmp.path());
      const QString problem = judge(o, "error", path);
      QVERIFY2(problem.isEmpty(), qPrintable(QString(name) + ": " + problem));
    }
  }
};

QTEST_GUILESS_MAIN(TestMalformed)
#include "tst_malformed.moc"
