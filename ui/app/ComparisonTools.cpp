// installComparisonTools: the Comparison dock (every contact model on the live grasp, side by side), its patch
// overlay with legend lines in the viewport, and the sensitivity plots window; Quality > Compare Contact Models
// raises the dock.
#include <QAction>
#include <QMenu>

#include "ComparisonDock.h"
#include "ComparisonOverlay.h"
#include "Document.h"
#include "FeatureTools.h"
#include "MainWindow.h"
#include "OverlayLegendWidget.h"
#include "QualityDock.h"
#include "SensitivityWindow.h"
#include "ViewportPanel.h"
#include "render/SceneBuilder.h"
#include "viewport/CoinViewport.h"

namespace sg::app {

void installComparisonTools(MainWindow* window) {
  // A tab behind the Quality dock (whose tab bar exists already, so no other dock loses room): it evaluates
  // every model after each change only while its tab is up.
  auto* dock = new ComparisonDock(window->analysis(), window->document(), window);
  window->addDock(dock, Qt::RightDockWidgetArea);
  if (auto* quality = window->findChild<QualityDock*>()) {
    window->tabifyDockWidget(quality, dock);
    quality->raise();
  }

  if (ViewportPanel* panel = window->viewportPanel()) {
    auto* overlay = new ComparisonOverlay(dock, panel->scene()->overlayRoot(), window);
    ui::CoinViewport* view = panel->viewport();
    QObject::connect(overlay, &ComparisonOverlay::changed, view, [overlay, view] {
      if (auto* legend = view->findChild<OverlayLegendWidget*>())
        legend->setEntries(QStringLiteral("comparison"), overlay->legend());
      view->update();
    });
  }

  QMenu* menu = window->qualityMenu();
  auto* show = menu->addAction(QObject::tr("&Compare Contact Models"));
  show->setObjectName("actionCompareModels");
  show->setStatusTip(QObject::tr("Every contact model on this grasp side by side: patches, forces, torsion, ε"));
  QObject::connect(show, &QAction::triggered, dock, [dock] {
    dock->show();
    dock->raise();
  });
  auto* plots = menu->addAction(QObject::tr("Se&nsitivity Plots…"));
  plots->setObjectName("actionSensitivityPlots");
  auto openPlots = [window] {
    auto* existing = window->findChild<SensitivityWindow*>();
    if (!existing) existing = new SensitivityWindow(window->analysis(), window->document(), window);
    existing->show();
    existing->raise();
  };
  QObject::connect(plots, &QAction::triggered, window, openPlots);
  QObject::connect(dock, &ComparisonDock::sensitivityRequested, window, openPlots);
}

}  // namespace sg::app
