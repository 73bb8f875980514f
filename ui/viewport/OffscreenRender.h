#pragma once
// Offscreen rendering of a Coin scene into a QImage at any size, with no widget shown:
// QOffscreenSurface + QOpenGLContext (compatibility profile) + QOpenGLFramebufferObject + SoRenderManager.
// Needs an X server (xvfb-run, QT_QPA_PLATFORM=xcb); SoOffscreenRenderer does not work on this stack.
#include <QColor>
#include <QImage>
#include <QSize>

#include "render/StandardView.h"

class SoCamera;
class SoNode;

namespace sg::ui {

// Default viewport background (dark blue-grey).
QColor defaultBackgroundColor();

// Renders `scene` (which should hold no camera or light of its own; a headlight is added) seen from
// the standard `view`, framed to fit. Returns a null QImage if no GL context could be created.
// Format: QImage::Format_RGB32 (opaque), exactly `size` pixels.
QImage renderSceneOffscreen(SoNode* scene, QSize size, StandardView view = StandardView::Iso,
                            const QColor& background = defaultBackgroundColor());

// Same, seen through a copy of `camera` (the camera is not modified).
QImage renderSceneOffscreen(SoNode* scene, QSize size, const SoCamera* camera,
                            const QColor& background = defaultBackgroundColor());

}  // namespace sg::ui
