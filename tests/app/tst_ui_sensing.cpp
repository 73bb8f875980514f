// The Sensing dock (ui/app/SensingDock.h) on the offscreen platform: in the View menu; on the
// parallel-jaw gripper 0.01 mm from its box it lists every jaw pair with the same numbers as the engine's senseHand
// (what softgrasp-cli sensing prints); the torque squeeze presses both jaws with forces balancing the DOF's
// effort without moving the document's hand; the motion squeeze follows its spin box.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMenu>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "../support/AppTestSetup.h"
#include "Document.h"
#include "MainWindow.h"
#include "SensingDock.h"
#include "model/WorldState.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

class TstUiSensing : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::useTemporarySettings(settingsDir_);
  }

  void dockShowsTheSensingTable() {
    MainWindow::Options options;
    options.createViewport = false;
    MainWindow window(options);
    Document* doc = window.document();
    QVERIFY(window.openWorldFile(sg::test::qInSourceTree("tests/data/paralleljaw_touching.xml")));
    auto* dock = window.findChild<SensingDock*>();
    QVERIFY(dock);
    QVERIFY(window.viewMenu()->actions().contains(dock->toggleViewAction()));

    // As placed: every jaw pair, none pressed, the engine's numbers.
    QTableWidget* table = dock->table();
    WorldState copy = doc->world().state;
    const HandSensing engine = senseHand(doc->world(), copy, 0, PenaltySettings{});
    QCOMPARE(table->rowCount(), static_cast<int>(engine.rows.size()));
    QVERIFY(table->rowCount() >= 2);
    for (int r = 0; r < table->rowCount(); ++r) {
      QCOMPARE(table->item(r, SensingDock::kSignal)->text(), QString("0"));
      QCOMPARE(table->item(r, SensingDock::kSeparation)->text().toDouble(),
               QString::number(engine.rows[r].sensing.contact.separation_mm, 'g', 4).toDouble());
    }

    // Torque squeeze: two pressed pairs whose normal forces add up to the 100 N effort; the document's DOFs stay.
    const double dofBefore = doc->world().state.robots[0].dofValues[0];
    dock->squeezeChoice()->setCurrentIndex(SensingDock::kTorqueSqueeze);
    QVERIFY(dock->sensing().squeeze.has_value());
    double sum = 0;
    int pressed = 0;
    for (int r = 0; r < table->rowCount(); ++r)
      if (table->item(r, SensingDock::kSignal)->text() == "1") {
        ++pressed;
        sum += table->item(r, SensingDock::kNormalForce)->text().toDouble();
        QCOMPARE(table->item(r, SensingDock::kBody2)->text(), QString("box"));
      }
    QCOMPARE(pressed, 2);
    QVERIFY(std::abs(sum - 100) < 0.1);  // shown with 4 digits
    QVERIFY(std::abs(dock->sensing().squeeze->contactLoad[0] - 100) < 1e-6);
    QCOMPARE(doc->world().state.robots[0].dofValues[0], dofBefore);
    QVERIFY(dock->summary()->text().contains("2 in contact"));

    // Motion squeeze: enabled spin box; a larger motion presses harder.
    dock->squeezeChoice()->setCurrentIndex(SensingDock::kMotionSqueeze);
    QVERIFY(dock->extraJointValue()->isEnabled());
    dock->extraJointValue()->setValue(0.05);
    double small = 0;
    for (const HandSensingRow& r : dock->sensing().rows) small = std::max(small, r.sensing.normalForce_N);
    dock->extraJointValue()->setValue(0.2);
    double large = 0;
    for (const HandSensingRow& r : dock->sensing().rows) large = std::max(large, r.sensing.normalForce_N);
    QVERIFY(small > 0 && large > small);
    doc->undoStack()->setClean();
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(TstUiSensing)
#include "tst_ui_sensing.moc"
