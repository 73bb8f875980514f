#include "viewport/OffscreenRender.h"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>

#include <Inventor/SbColor4f.h>
#include <Inventor/SoRenderManager.h>
#include <Inventor/actions/SoGLRenderAction.h>
#include <Inventor/elements/SoGLCacheContextElement.h>
#include <Inventor/misc/SoContextHandler.h>
#include <Inventor/nodes/SoCamera.h>
#include <Inventor/nodes/SoPerspectiveCamera.h>
#include <Inventor/nodes/SoSeparator.h>

#include "render/CameraMotion.h"
#include "render/Headlight.h"
#include "viewport/CoinSetup.h"

namespace sg::ui {

namespace {

constexpr int kSamples = 4;

// Restores whatever context was current (e.g. a viewport's) when the offscreen render is done.
class CurrentContextGuard {
 public:
  CurrentContextGuard()
      : context_(QOpenGLContext::currentContext()), surface_(context_ ? context_->surface() : nullptr) {}
  ~CurrentContextGuard() {
    if (context_ && surface_) context_->makeCurrent(surface_);
  }

 private:
  QOpenGLContext* context_;
  QSurface* surface_;
};

// Renders Separator{ headlight; camera; scene } into an FBO of `size`. `camera` is used as is.
QImage renderWithCamera(SoNode* scene, QSize size, SoCamera* camera, const QColor& background) {
  initCoinForQt();
  if (!scene || !camera || size.isEmpty() || size.width() > 16384 || size.height() > 16384) return {};

  CurrentContextGuard restoreContext;
  QOffscreenSurface surface;
  surface.setFormat(QSurfaceFormat::defaultFormat());
  surface.create();
  QOpenGLContext context;
  context.setFormat(QSurfaceFormat::defaultFormat());
  if (!context.create() || !context.makeCurrent(&surface)) return {};

  QImage image;
  {
    QOpenGLFramebufferObjectFormat format;
    format.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
    format.setInternalTextureFormat(0x8058 /* GL_RGBA8: float formats read back wrong */);
    format.setSamples(kSamples);
    QOpenGLFramebufferObject fbo(size, format);
    if (fbo.isValid() && fbo.bind()) {
      auto* root = new SoSeparator;
      root->ref();
      root->addChild(makeHeadlight());  // before the camera: eye space, follows the view
      root->addChild(camera);
      root->addChild(scene);

      const uint32_t cacheContext = SoGLCacheContextElement::getUniqueCacheContext();
      {
        SoRenderManager manager;
        manager.getGLRenderAction()->setCacheContext(cacheContext);
        manager.getGLRenderAction()->setTransparencyType(SoGLRenderAction::SORTED_OBJECT_BLEND);
        manager.setSceneGraph(root);
        manager.setCamera(camera);
        manager.setAutoClipping(SoRenderManager::NO_AUTO_CLIPPING);
        if (auto box = sceneBoundingBox(root)) fitClippingPlanes(camera, *box);
        const SbVec2s pixels(static_cast<short>(size.width()), static_cast<short>(size.height()));
        manager.setWindowSize(pixels);
        manager.setSize(pixels);
        manager.setViewportRegion(SbViewportRegion(pixels));
        manager.setBackgroundColor(SbColor4f(background.redF(), background.greenF(), background.blueF(), 1.0f));
        context.functions()->glEnable(GL_DEPTH_TEST);  // Coin assumes it is on; nobody else enables it
        manager.render(TRUE, TRUE);
        context.functions()->glFinish();
        manager.setSceneGraph(nullptr);
      }
      fbo.release();
      image = fbo.toImage().convertToFormat(QImage::Format_RGB32);
      root->unref();  // queues the GL resources of nodes going away ...
      SoContextHandler::destructingContext(cacheContext);  // ... and this frees everything for the context
    }
  }
  context.doneCurrent();
  return image;
}

}  // namespace

QColor defaultBackgroundColor() { return QColor(44, 48, 58); }

QImage renderSceneOffscreen(SoNode* scene, QSize size, StandardView view, const QColor& background) {
  initCoinForQt();
  if (!scene || size.isEmpty()) return {};
  scene->ref();
  auto* camera = new SoPerspectiveCamera;
  camera->ref();
  placeCamera(camera, scene, SbViewportRegion(static_cast<short>(size.width()), static_cast<short>(size.height())),
              view);
  QImage image = renderWithCamera(scene, size, camera, background);
  camera->unref();
  scene->unrefNoDelete();
  return image;
}

QImage renderSceneOffscreen(SoNode* scene, QSize size, const SoCamera* camera, const QColor& background) {
  initCoinForQt();
  if (!scene || !camera || size.isEmpty()) return {};
  scene->ref();
  auto* copy = static_cast<SoCamera*>(camera->copy());
  copy->ref();
  QImage image = renderWithCamera(scene, size, copy, background);
  copy->unref();
  scene->unrefNoDelete();
  return image;
}

}  // namespace sg::ui
