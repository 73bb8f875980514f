// softgrasp WORLD --screenshot out.png: load, render offscreen, write the PNG, exit. No window.
#include <QImage>
#include <Inventor/nodes/SoPerspectiveCamera.h>
#include <Inventor/nodes/SoSeparator.h>
#include <cstdio>

#include "CommandLine.h"
#include "core/Error.h"
#include "io/ModelIO.h"
#include "render/SceneBuilder.h"
#include "render/StandardView.h"
#include "viewport/OffscreenRender.h"

namespace sg::app {

int runHeadlessScreenshot(const CommandLine& options) {
  World world;
  try {
    world = loadWorld(options.world.toStdString());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "softgrasp: cannot load %s:\n%s\n", qPrintable(options.world), e.what());
    return kExitBadFile;
  }
  const WorldScene scene(world);
  QImage image;
  if (!options.viewGiven && world.camera) {
    auto* camera = new SoPerspectiveCamera;
    camera->ref();
    applyWorldCamera(camera, *world.camera);
    image = ui::renderSceneOffscreen(scene.root(), options.size, camera);
    camera->unref();
  } else {
    image = ui::renderSceneOffscreen(scene.root(), options.size, options.view);
  }
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
