// G in the application and `softgrasp-cli quality --approach --autograsp --json` are the same engine calls
// (moveHand + analyzeGrasp): on every bundled world they must agree on the grasp's contacts (same order, same
// points), ε and volume of the L1 space, and the final DOF values.
#include <QAction>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "Document.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "../support/AppTestSetup.h"

using namespace sg;

class TstAppCliParity : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { test::useTemporarySettings(settingsDir_); }
  void gAndCliAgree_data();
  void gAndCliAgree();

 private:
  QTemporaryDir settingsDir_;
};

void TstAppCliParity::gAndCliAgree_data() {
  QTest::addColumn<QString>("world");
  const QDir worlds(QStringLiteral(SG_SOURCE_DIR "/worlds"));
  const QStringList files = worlds.entryList({"*.xml"}, QDir::Files, QDir::Name);
  QVERIFY(files.size() >= 5);
  for (const QString& f : files) QTest::newRow(qPrintable(f)) << worlds.filePath(f);
}

void TstAppCliParity::gAndCliAgree() {
  QFETCH(QString, world);
  // The application: open, press G (approach 30 mm, then auto-grasp), analyse.
  app::MainWindow window;
  QVERIFY(window.openWorldFile(world));
  // A world without a hand (the objects gallery) is analysed as it is, by both.
  const bool hasHand = !window.document()->world().robots.empty();
  auto* g = window.findChild<QAction*>("actionApproachAndGrasp");
  QVERIFY(g);
  if (hasHand) g->trigger();
  window.analysis()->recompute();
  const auto& evaluation = window.analysis()->evaluation();

  // The CLI on the same file.
  QProcess cli;
  QStringList args = {"quality", world, "--json"};
  if (hasHand) args << "--approach" << "--autograsp";
  cli.start(QStringLiteral(SG_CLI_PATH), args);
  QVERIFY(cli.waitForFinished(120000));
  QCOMPARE(cli.exitCode(), 0);
  const QJsonObject doc = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();

  QCOMPARE(doc["contactsFound"].toInt(), static_cast<int>(window.analysis()->contacts().size()));
  if (hasHand) {
    const QJsonArray dofs = doc["dofs"].toArray();
    const Robot& hand = window.document()->world().robots.at(0);
    QCOMPARE(dofs.size(), static_cast<qsizetype>(hand.dofs.size()));
    for (qsizetype k = 0; k < dofs.size(); ++k)
      QCOMPARE(dofs[k].toDouble(), window.document()->world().state.robots.at(0).dofValues[static_cast<std::size_t>(k)]);
  }

  QVERIFY(evaluation.has_value());
  const QJsonArray contacts = doc["contacts"].toArray();
  QCOMPARE(contacts.size(), static_cast<qsizetype>(evaluation->contacts.size()));
  for (qsizetype i = 0; i < contacts.size(); ++i) {
    const ContactEvaluation& c = evaluation->contacts[static_cast<std::size_t>(i)];
    const QJsonObject json = contacts[i].toObject();
    QCOMPARE(json["contacts"].toArray().first().toInt(), c.sourceContacts.front());
    const QJsonArray p = json["position_mm"].toArray();
    for (int k = 0; k < 3; ++k) QCOMPARE(p[k].toDouble(), c.onObject().position_mm[k]);
    QCOMPARE(json["model"].toString(), QString(toString(c.kind)));
  }
  const QJsonObject measures = doc["measures"].toObject();
  for (const char* name : {"epsilon-l1", "volume-l1", "min-singular-value"}) {
    const MeasureValue* m = evaluation->measure(name);
    QVERIFY2(m, name);
    QCOMPARE(measures[name].toObject()["value"].toDouble(), m->value);
  }
  QCOMPARE(doc["l1"].toObject()["forceClosure"].toBool(), evaluation->l1Quality.forceClosure);
}

QTEST_MAIN(TstAppCliParity)
#include "tst_app_cli_parity.moc"
