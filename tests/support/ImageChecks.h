#pragma once
// Pixel checks shared by the rendering tests: rendered images are compared with tolerance in regions,
// never against stored reference images.
#include <Inventor/SbViewVolume.h>
#include <Inventor/nodes/SoCamera.h>

#include <QImage>
#include <QPoint>
#include <QRect>
#include <QSize>

#include "core/Math.h"

namespace sg::test {

// Pixels of `a` and `b` (same size) that differ inside `area` (clipped to the image).
inline int differingPixels(const QImage& a, const QImage& b, const QRect& area) {
  int n = 0;
  const QRect r = area.intersected(a.rect());
  for (int y = r.top(); y <= r.bottom(); ++y)
    for (int x = r.left(); x <= r.right(); ++x) n += a.pixel(x, y) != b.pixel(x, y);
  return n;
}
inline int differingPixels(const QImage& a, const QImage& b) { return differingPixels(a, b, a.rect()); }
// In the (2·radius+1)² square around `at`.
inline int differingAround(const QImage& a, const QImage& b, QPoint at, int radius) {
  return differingPixels(a, b, QRect(at.x() - radius, at.y() - radius, 2 * radius + 1, 2 * radius + 1));
}

// Pixels that differ from the top-left corner's colour (the background).
inline int foregroundPixels(const QImage& image) {
  const QRgb background = image.pixel(0, 0);
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) n += image.pixel(x, y) != background;
  return n;
}

// The pixel (top-left origin) where a world point (mm) lands in an image of `size` rendered through `camera`.
// For images at least as wide as tall (all the suites' sizes): for taller ones Coin also widens the view
// volume (viewportMapping ADJUST_CAMERA), which this does not model.
inline QPoint projectToImage(const SoCamera* camera, const Vec3& p, QSize size) {
  const SbViewVolume volume = camera->getViewVolume(float(size.width()) / float(size.height()));
  SbVec3f screen;
  volume.projectToScreen(SbVec3f(float(p.x()), float(p.y()), float(p.z())), screen);
  return {int(screen[0] * size.width()), int((1.0f - screen[1]) * size.height())};
}

}  // namespace sg::test
