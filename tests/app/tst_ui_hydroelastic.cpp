// The hydroelastic surface inspector (ui/app/HydroelasticInspector.h) fed hand-built results: area, normal force,
// peak pressure in kPa, polygon count, centre of pressure, bodies named from the world, surface choice and
// notes; the dock in the main window and what it says under another contact model; the legend's colour bar
// (OverlayLegendWidget.h) painted low-to-high. Offscreen platform, no GL.
#include <QtTest>

#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QTreeWidget>

#include "../support/AppTestSetup.h"
#include "../support/HydroSurfaces.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "HydroelasticInspector.h"
#include "MainWindow.h"
#include "OverlayLegendWidget.h"
#include "SoftContactInspector.h"
#include "render/CoinInit.h"
#include "render/ContactSurfaceNodes.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {

bool hasQuantity(const QTreeWidget* tree, const QString& name) {
  return !tree->findItems(name, Qt::MatchExactly | Qt::MatchRecursive, 0).isEmpty();
}

Body named(const std::string& name) {
  Body b;
  b.name = name;
  return b;
}

}  // namespace

class TstUiHydroelastic : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::useTemporarySettings(settingsDir_);
    initCoin();
  }

  void pageShowsTheSurfaces() {
    HydroelasticSurfacePage page;
    // Surface 1 is empty (not listed); surface 2 is stiff (peak 2 MPa).
    page.setResult(test::hydroResult({test::rampSquare(40e3, 0, 0, 1, 0), ContactSurface{}, test::rampSquare(2e6, 50)}),
                   nullptr);
    QCOMPARE(page.surfaceCombo()->count(), 3);  // "(no surface)" and the two non-empty ones
    QCOMPARE(page.shownSurface(), 0);           // the first non-empty one
    QCOMPARE(page.valueText("area"), QString("400"));
    QCOMPARE(page.valueText("normalForce"), QString("8"));
    QCOMPARE(page.valueText("peakPressure"), QString("40"));
    QVERIFY(hasQuantity(page.tree(), "Peak pressure (kPa)"));
    QCOMPARE(page.valueText("meanPressure"), QString("20"));
    QCOMPARE(page.valueText("polygons"), QString("4"));
    QCOMPARE(page.valueText("centreOfPressure"), QString("(3.33333, 0, 0)"));
    QCOMPARE(page.valueText("netForce"), QString("(0, 0, 8)"));
    QCOMPARE(page.valueText("pair"), QString("compliant – rigid"));
    QCOMPARE(page.valueText("bodies"), QString("body #1 – body #0"));  // no world: by index
    QVERIFY(page.noteLabel()->text().isEmpty());

    // The combo picks the stiff surface: still kPa, the GUI's one pressure unit.
    page.surfaceCombo()->setCurrentIndex(2);
    QCOMPARE(page.shownSurface(), 2);
    QCOMPARE(page.valueText("peakPressure"), QString("2000"));
    QVERIFY(hasQuantity(page.tree(), "Peak pressure (kPa)"));
    QVERIFY(!hasQuantity(page.tree(), "Peak pressure (MPa)"));
    QCOMPARE(page.valueText("normalForce"), QString("400"));
    QCOMPARE(page.valueText("centreOfPressure"), QString("(53.3333, 0, 0)"));

    // An empty surface or a bad index shows nothing, with a note.
    page.showSurface(1);
    QCOMPARE(page.shownSurface(), -1);
    QVERIFY(page.valueText("area").isEmpty());
    QVERIFY(!page.noteLabel()->text().isEmpty());
    page.showSurface(7);
    QCOMPARE(page.shownSurface(), -1);
  }

  void pageNamesBodiesAndSaysWhyThereIsNothing() {
    World world;
    world.addObstacle(named("table"));
    world.addGraspable(named("mug"));
    HydroelasticSurfacePage page;
    ContactSurface s = test::rampSquare(40e3, 0, 0, /*bodyM=*/1, /*bodyN=*/0);
    s.nCompliant = true;
    page.setResult(test::hydroResult({s}), &world);
    QCOMPARE(page.valueText("bodies"), QString("mug – table"));
    QVERIFY(page.surfaceCombo()->itemText(1).contains("mug – table"));
    QVERIFY(page.valueText("pair").startsWith("compliant – compliant"));

    page.setResult(test::hydroResult({}), &world);
    QCOMPARE(page.shownSurface(), -1);
    QVERIFY(page.noteLabel()->text().contains("no contact surface"));
    page.setResult(nullptr, &world, "because");
    QCOMPARE(page.noteLabel()->text(), QString("because"));
    QCOMPARE(page.tree()->topLevelItemCount(), 0);
  }

  void dockInTheMainWindow() {
    MainWindow window;
    auto* dock = window.findChild<HydroelasticInspector*>();
    QVERIFY(dock);
    QVERIFY(window.tabifiedDockWidgets(dock).contains(window.findChild<SoftContactInspector*>()));
    QVERIFY(window.openWorldFile(sg::test::qInSourceTree("worlds/hydro_fingertips.xml")));
    window.analysis()->recompute();
    QVERIFY(window.analysis()->evaluation());
    // Under the soft-finger model there is no hydroelastic result: the note says how to get one.
    QVERIFY2(dock->page()->noteLabel()->text().contains("hydroelastic"), qPrintable(dock->page()->noteLabel()->text()));
    QCOMPARE(dock->page()->shownSurface(), -1);
    window.document()->undoStack()->setClean();
  }

  void legendPaintsTheColourBarLowToHigh() {
    OverlayLegendEntry entry;
    entry.key = "contactPressure";
    entry.colour = pressureColour(1);
    entry.text = "Contact pressure 0 – 40 kPa";
    entry.colourRamp = pressureColourRamp();
    QImage image(400, 200, QImage::Format_RGB32);
    image.fill(Qt::black);
    paintOverlayLegend(image, {entry});
    // The bar's row: the middle of the panel's only line (panel 8 px from the corner, 6 px padding, bar 28 px).
    const QFont font = overlayLegendFont();
    const QSize panel = overlayLegendSize({entry}, font, image.width() - 16);
    const int y = image.height() - 8 - panel.height() + 6 + QFontMetrics(font).height() / 2;
    const QRgb left = image.pixel(8 + 6 + 3, y), right = image.pixel(8 + 6 + 28 - 3, y);
    QVERIFY2(qBlue(left) > qRed(left) + 80, qPrintable(QString("%1").arg(left, 0, 16)));
    QVERIFY2(qRed(right) > qBlue(right) + 80, qPrintable(QString("%1").arg(right, 0, 16)));
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(TstUiHydroelastic)
#include "tst_ui_hydroelastic.moc"
