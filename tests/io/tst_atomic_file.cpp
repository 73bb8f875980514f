// writeFileAtomically (src/io/AtomicFile.h): a save that fails half way leaves the old file intact, no
// temporary file behind, and an error naming the file; a later save works again.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <string>

#include "core/Error.h"
#include "io/AtomicFile.h"

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

}  // namespace

class TestAtomicFile : public QObject {
  Q_OBJECT
 private slots:
  void cleanup() { sg::testing::failAtomicWritesAfter(std::string::npos); }

  void failureHalfWayKeepsTheOldFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("world.xml");
    sg::writeFileAtomically(path.toStdString(), "old content\n");
    QCOMPARE(readAll(path), QByteArray("old content\n"));

    const std::string big(100000, 'n');
    sg::testing::failAtomicWritesAfter(big.size() / 2);
    bool threw = false;
    try {
      sg::writeFileAtomically(path.toStdString(), big);
    } catch (const sg::Error& e) {
      threw = true;
      QVERIFY2(std::string(e.what()).find(path.toStdString()) != std::string::npos, e.what());
      QVERIFY2(std::string(e.what()).find("cannot write") != std::string::npos, e.what());
    }
    QVERIFY(threw);
    QCOMPARE(readAll(path), QByteArray("old content\n"));
    // Only the target is left: the half-written temporary file was removed.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"world.xml"});

    sg::testing::failAtomicWritesAfter(std::string::npos);
    sg::writeFileAtomically(path.toStdString(), big);
    QCOMPARE(readAll(path).size(), qsizetype(big.size()));
  }

  void failureBeforeTheFirstByte() {
    QTemporaryDir dir;
    const QString path = dir.filePath("a.txt");
    sg::writeFileAtomically(path.toStdString(), "v1");
    sg::testing::failAtomicWritesAfter(0);
    QVERIFY_THROWS_EXCEPTION(sg::Error, sg::writeFileAtomically(path.toStdString(), "v2"));
    QCOMPARE(readAll(path), QByteArray("v1"));
  }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
