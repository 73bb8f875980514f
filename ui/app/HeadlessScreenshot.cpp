// softgrasp WORLD --screenshot out.png: load, move the hand as the Grasp menu would, analyse as the window's
// live analysis does, render the world with its grasp overlays (and their legend) offscreen, write the PNG, exit.
// No window.
#include <QImage>
#include <Inventor/nodes/SoPerspectiveCamera.h>
#include <Inventor/SbViewportRegion.h>
#include <Inventor/nodes/SoSeparator.h>
#include <cstdio>
#include <exception>

#include "CommandLine.h"
#include "GraspAnalysis.h"
#include "OverlayLegendWidget.h"
#include "core/Error.h"
#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "render/GraspOverlay.h"
#include "render/SceneBuilder.h"
#include "render/StandardView.h"
#include "viewport/OffscreenRender.h"

namespace sg::app {

namespace {

// The window's request: the live analysis (default settings, the chosen model) after robot 0's motion for the
// switches (screenshotMotion).
AnalysisRequest screenshotRequest(const CommandLine& options) {
  AnalysisSettings settings;
  if (!options.contactModel.empty()) settings.contactModel = options.contactModel;
  AnalysisRequest request = liveAnalysisRequest(settings, std::nullopt);
  request.robot = 0;
  request.motion = screenshotMotion(options);
  return request;
}

// --fit grasp: the camera of --view placed so the robots and graspable bodies fill the picture; the obstacles (a
// table) are drawn but not framed.
QImage renderFittedToGrasp(const World& world, const WorldScene& scene, const CommandLine& options) {
  auto* framed = new SoSeparator;
  framed->ref();
  for (int r = 0; r < static_cast<int>(world.robots.size()); ++r)
    if (SoSeparator* robot = scene.robotNode(r)) framed->addChild(robot);
  for (int g = 0; g < static_cast<int>(world.graspables.size()); ++g)
    if (SoSeparator* body = scene.bodyNode(BodyHandle{BodyHandle::Kind::Graspable, g, {}})) framed->addChild(body);
  auto* camera = new SoPerspectiveCamera;
  camera->ref();
  placeCamera(camera, framed->getNumChildren() > 0 ? static_cast<SoNode*>(framed) : scene.root(),
              SbViewportRegion(static_cast<short>(options.size.width()), static_cast<short>(options.size.height())),
              options.view);
  QImage image = ui::renderSceneOffscreen(scene.root(), options.size, camera);
  camera->unref();
  framed->unref();
  return image;
}

QImage render(const World& world, const WorldScene& scene, const CommandLine& options) {
  if (options.fitGrasp) return renderFittedToGrasp(world, scene, options);
  if (options.viewGiven || !world.camera) return ui::renderSceneOffscreen(scene.root(), options.size, options.view);
  auto* camera = new SoPerspectiveCamera;
  camera->ref();
  applyWorldCamera(camera, *world.camera);
  QImage image = ui::renderSceneOffscreen(scene.root(), options.size, camera);
  camera->unref();
  return image;
}

}  // namespace

int runHeadlessScreenshot(const CommandLine& options) {
  World world;
  try {
    world = loadWorld(options.world.toStdString());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "softgrasp: cannot load %s:\n%s\n", qPrintable(options.world), e.what());
    return kExitBadFile;
  }
  const AnalysisRequest request = screenshotRequest(options);
  if (request.motion.movesHand() && world.robots.empty()) {
    std::fprintf(stderr, "softgrasp: --approach/--autograsp: %s has no robot to move\n", qPrintable(options.world));
    return kExitUsage;
  }
  std::optional<AnalysisResult> analysis;
  if (options.overlays || request.motion.movesHand()) {
    try {
      NullProgress progress;
      analysis = runAnalysis(world, request, progress);
    } catch (const std::exception& e) {  // as the window: the world is drawn, without the grasp
      std::fprintf(stderr, "softgrasp: warning: analysis failed, no overlays drawn: %s\n", e.what());
    }
  }
  const WorldScene scene(world);
  if (options.overlays && analysis) scene.overlayRoot()->addChild(makeGraspOverlayNode(*analysis));
  QImage image = render(world, scene, options);
  // The legend of the arrows, as the window draws it over its view (OverlayLegendWidget.h).
  if (options.overlays && analysis && !image.isNull()) paintOverlayLegend(image, graspOverlayLegend(analysis->primary()));
  if (image.isNull()) {
    std::fprintf(stderr, "softgrasp: could not create an OpenGL context for offscreen rendering "
                         "(an X server is needed, e.g. xvfb-run -a)\n");
    return kExitFailure;
  }
  if (!image.save(options.screenshot, "PNG")) {
    std::fprintf(stderr, "softgrasp: cannot write %s\n", qPrintable(options.screenshot));
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace sg::app
