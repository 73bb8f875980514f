// installQualityTools: the Quality dock, the soft-contact inspector, the hydroelastic surface inspector, the viewport overlay of soft patches,
// contact forces and the worst-case wrench with its legend (View > Contact Force Arrows, View > Overlay Legend), the GWS projection window and the analysis settings, wired to the live analysis.
// The L∞ space is expensive, so the analysis builds it only while something shows it (an L∞ measure in the
// dock, or the projection window set to L∞).
#include <QAction>
#include <QMenu>
#include <QPointer>
#include <QFileDialog>
#include <QMessageBox>
#include <QActionGroup>
#include <QSettings>
#include <QStatusBar>

#include "AnalysisSettingsDialog.h"
#include "Document.h"
#include "FeatureTools.h"
#include "GraspAnalysis.h"
#include "GwsProjectionWindow.h"
#include "HoldForcesOverlay.h"
#include "HydroelasticInspector.h"
#include "ModelResultInspector.h"
#include "MainWindow.h"
#include "OverlayLegendWidget.h"
#include "QualityDock.h"
#include "QualityOverlay.h"
#include "SoftContactInspector.h"
#include "ViewportPanel.h"
#include "render/SceneBuilder.h"
#include "viewport/CoinViewport.h"

namespace sg::app {

namespace {
const char* kOverlayVisibleKey = "quality/overlayVisible";
const char* kForceArrowsKey = "quality/forceArrowsVisible";
const char* kLegendKey = "quality/overlayLegendVisible";

QSettings qualityToolSettings() { return QSettings(QStringLiteral("SoftGrasp"), QStringLiteral("softgrasp")); }

// Keeps the analysis' computeLInfinity in step with what the views need.
class LInfinityDemand : public QObject {
 public:
  LInfinityDemand(GraspAnalysis* analysis, QualityDock* dock, QObject* parent)
      : QObject(parent), analysis_(analysis), dock_(dock) {}
  void setProjectionWindow(GwsProjectionWindow* window) { window_ = window; }
  bool needed() const {
    return dock_->needsLInfinity() || (window_ && window_->type() == GwsType::LInfinity);
  }
  void update() {
    if (analysis_->settings().computeLInfinity == needed()) return;
    AnalysisSettings s = analysis_->settings();
    s.computeLInfinity = needed();
    analysis_->setSettings(s);
  }

 private:
  GraspAnalysis* analysis_;
  QualityDock* dock_;
  QPointer<GwsProjectionWindow> window_;
};
}  // namespace

void installQualityTools(MainWindow* window) {
  Document* doc = window->document();
  GraspAnalysis* analysis = window->analysis();
  SoSeparator* overlayRoot = window->viewportPanel() ? window->viewportPanel()->scene()->overlayRoot() : nullptr;

  auto* dock = new QualityDock(analysis, doc, window);
  window->addDock(dock, Qt::RightDockWidgetArea);
  auto* inspector = new SoftContactInspector(analysis, doc, overlayRoot, window);
  window->addDock(inspector, Qt::RightDockWidgetArea);
  window->tabifyDockWidget(dock, inspector);
  auto* hydro = new HydroelasticInspector(analysis, doc, window);
  window->addDock(hydro, Qt::RightDockWidgetArea);
  window->tabifyDockWidget(inspector, hydro);
  auto* modelResult = new ModelResultInspector(analysis, window);  // any model's own data, described generically
  window->addDock(modelResult, Qt::RightDockWidgetArea);
  window->tabifyDockWidget(hydro, modelResult);
  dock->raise();

  // Stored settings, and L∞ only if a measure needs it: one recompute.
  auto* demand = new LInfinityDemand(analysis, dock, window);
  AnalysisSettings settings = readAnalysisSettings(analysis->settings());
  settings.computeLInfinity = demand->needed();
  analysis->setSettings(settings);
  QObject::connect(dock, &QualityDock::measuresChanged, demand, &LInfinityDemand::update);

  QMenu* menu = window->qualityMenu();
  if (overlayRoot) {
    auto* overlay = new QualityOverlay(analysis, overlayRoot, window);
    auto* show = menu->addAction(QObject::tr("Show Soft &Patches and Worst-Case Wrench"));
    show->setObjectName("actionShowQualityOverlay");
    show->setCheckable(true);
    show->setChecked(qualityToolSettings().value(kOverlayVisibleKey, true).toBool());
    overlay->setVisible(show->isChecked());
    QObject::connect(show, &QAction::toggled, overlay, [overlay](bool on) {
      overlay->setVisible(on);
      qualityToolSettings().setValue(kOverlayVisibleKey, on);
    });

    // Contact forces and the legend: View menu toggles, remembered between sessions.
    ui::CoinViewport* view = window->viewportPanel()->viewport();
    auto* legend = new OverlayLegendWidget(view);
    auto refresh = [overlay, legend, view] {
      legend->setEntries(overlay->legend());
      view->update();
    };
    QObject::connect(overlay, &QualityOverlay::changed, legend, refresh);
    // After Axes / Wireframe / Transparency: before the separator that precedes Screenshot.
    QMenu* viewMenu = window->viewMenu();
    QAction* before = nullptr;
    const QList<QAction*> entries = viewMenu->actions();
    for (qsizetype i = 1; i < entries.size(); ++i)
      if (entries[i]->objectName() == QLatin1String("actionScreenshot")) before = entries[i - 1];
    auto* forces = new QAction(QObject::tr("Contact &Force Arrows"), window);
    viewMenu->insertAction(before, forces);
    forces->setObjectName("actionShowForceArrows");
    forces->setCheckable(true);
    forces->setStatusTip(QObject::tr("Draw each contact's normal force where the contact model gives one (soft finger, Hertz)"));
    forces->setChecked(qualityToolSettings().value(kForceArrowsKey, true).toBool());
    overlay->setForceArrowsVisible(forces->isChecked());
    QObject::connect(forces, &QAction::toggled, overlay, [overlay](bool on) {
      overlay->setForceArrowsVisible(on);
      qualityToolSettings().setValue(kForceArrowsKey, on);
    });
    auto* showLegend = new QAction(QObject::tr("Overlay &Legend"), window);
    viewMenu->insertAction(before, showLegend);
    showLegend->setObjectName("actionShowOverlayLegend");
    showLegend->setCheckable(true);
    showLegend->setStatusTip(QObject::tr("Explain the force and wrench arrows: their values and scales"));
    showLegend->setChecked(qualityToolSettings().value(kLegendKey, true).toBool());
    legend->setEnabledByUser(showLegend->isChecked());
    QObject::connect(showLegend, &QAction::toggled, legend, [legend](bool on) {
      legend->setEnabledByUser(on);
      qualityToolSettings().setValue(kLegendKey, on);
    });
    refresh();
  }

  // Quality > Holding Forces: the grasp force optimisation's forces for the weight along a direction (off by default).
  if (overlayRoot) {
    auto* hold = new HoldForcesOverlay(doc, analysis, overlayRoot, window);
    QMenu* holdMenu = menu->addMenu(QObject::tr("Holding &Forces"));
    holdMenu->setObjectName("menuHoldingForces");
    auto* group = new QActionGroup(holdMenu);
    const std::pair<QString, QString> choices[] = {
        {QString(), QObject::tr("&Off")},
        {QStringLiteral("worst"), QObject::tr("&Worst Direction")},
        {QStringLiteral("x+"), QObject::tr("Weight along x+")}, {QStringLiteral("x-"), QObject::tr("Weight along x-")},
        {QStringLiteral("y+"), QObject::tr("Weight along y+")}, {QStringLiteral("y-"), QObject::tr("Weight along y-")},
        {QStringLiteral("z+"), QObject::tr("Weight along z+")}, {QStringLiteral("z-"), QObject::tr("Weight along z-")}};
    for (const auto& [key, label] : choices) {
      QAction* a = holdMenu->addAction(label);
      a->setObjectName(QStringLiteral("actionHoldForces_") + (key.isEmpty() ? QStringLiteral("off") : key));
      a->setCheckable(true);
      a->setChecked(key.isEmpty());
      a->setStatusTip(QObject::tr("Draw the contact forces that hold the object's weight with the least joint effort "
                                  "(grasp force optimisation)"));
      group->addAction(a);
      QObject::connect(a, &QAction::triggered, hold, [hold, key] { hold->setDirection(key); });
    }
    ui::CoinViewport* view = window->viewportPanel()->viewport();
    QObject::connect(hold, &HoldForcesOverlay::changed, window, [window, hold, view] {
      if (!hold->summary().isEmpty()) window->statusBar()->showMessage(hold->summary(), 5000);
      view->update();
    });
  }

  auto* projection = menu->addAction(QObject::tr("&GWS Projection…"));
  projection->setObjectName("actionGwsProjection");
  const bool withViewport = window->viewportPanel() != nullptr;
  QObject::connect(projection, &QAction::triggered, window, [window, analysis, demand, withViewport] {
    auto* existing = window->findChild<GwsProjectionWindow*>();
    if (!existing) {
      existing = new GwsProjectionWindow(analysis, withViewport, window);
      demand->setProjectionWindow(existing);
      QObject::connect(existing, &GwsProjectionWindow::typeChanged, demand, &LInfinityDemand::update);
    }
    existing->show();
    existing->raise();
    existing->activateWindow();
  });

  menu->addSeparator();
  auto* settingsAction = menu->addAction(QObject::tr("Analysis &Settings…"));
  settingsAction->setObjectName("actionAnalysisSettings");
  QObject::connect(settingsAction, &QAction::triggered, window, [window, analysis] {
    auto* dialog = new AnalysisSettingsDialog(analysis, window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
  });
  // The settings as a file for `softgrasp-cli --settings FILE` (the same keys the application stores).
  auto* exportAction = menu->addAction(QObject::tr("&Export Analysis Settings…"));
  exportAction->setObjectName("actionExportAnalysisSettings");
  exportAction->setStatusTip(QObject::tr("Write the analysis settings to a file softgrasp-cli reads with --settings"));
  QObject::connect(exportAction, &QAction::triggered, window, [window, analysis] {
    const QString path = QFileDialog::getSaveFileName(window, QObject::tr("Export Analysis Settings"),
                                                      QStringLiteral("softgrasp-settings.ini"),
                                                      QObject::tr("Settings (*.ini *.conf);;All files (*)"));
    if (path.isEmpty()) return;
    if (exportAnalysisSettings(analysis->settings(), path))
      window->statusBar()->showMessage(
          QObject::tr("Exported the analysis settings to %1 (softgrasp-cli --settings FILE reads them)").arg(path), 5000);
    else
      QMessageBox::warning(window, QObject::tr("Export Analysis Settings"), QObject::tr("Could not write %1").arg(path));
  });
}

}  // namespace sg::app
