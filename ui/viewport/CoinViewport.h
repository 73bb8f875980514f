#pragma once
// CoinViewport: a QOpenGLWidget that shows a Coin scene graph (no SoQt/Quarter).
//
// Super-scene: Separator { headlight (SoDirectionalLight, follows the camera); camera (perspective or
// orthographic); the user scene; the dragger (when attached) }.
//
// Navigation (implemented on the camera, see render/CameraMotion.h):
//   left drag: orbit about the focal point;   middle drag or Shift+left drag: pan;
//   wheel: zoom (dolly, or orthographic height);   double click: seek (focal point to the picked point).
// A left press-release without moving emits clicked(). Presses that hit the dragger drive the dragger.
//
// Coordinates: QPoint arguments are widget (logical) pixels, top-left origin; the widget converts to
// Coin's device pixels (bottom-left origin) using devicePixelRatioF().
//
// Requires installCoinSurfaceFormat() before the QApplication is created (see CoinSetup.h).
//
// Typical use (model → scene graph, one way):
//   sg::ui::installCoinSurfaceFormat();  QApplication app(argc, argv);
//   sg::WorldScene scene(world);  sg::ui::CoinViewport view;  view.setSceneGraph(scene.root());
//   clicked(pos)            → auto h = sg::ui::pickBody(view, scene, pos); scene.setSelected(h);
//                             if (h) view.attachDragger(X_WB(world.state, *h));
//   draggerMoved(pose)      → X_WB(world.state, *h) = pose; scene.updatePoses(world);
//   draggerReleased(pose)   → recompute contacts/quality; rebuild scene.overlayRoot() children
//   screenshot              → view.renderToImage({1600, 1200}).save("out.png");
#include <memory>
#include <optional>

#include <QImage>
#include <QOpenGLWidget>
#include <QPoint>

#include <Inventor/SbVec3f.h>

#include "core/Transform.h"
#include "render/StandardView.h"

class SoCamera;
class SoNode;
class SoPath;
class SoSeparator;
class SoTransformerDragger;

namespace sg::ui {

class CoinViewport : public QOpenGLWidget {
  Q_OBJECT

 public:
  using StandardView = sg::StandardView;  // Front, Top, Side, Iso

  explicit CoinViewport(QWidget* parent = nullptr);
  ~CoinViewport() override;

  // Shows `root` (ref'd while shown; nullptr clears). The camera is kept, except for the first
  // non-empty scene, which is framed with viewAll().
  void setSceneGraph(SoNode* root);
  SoNode* sceneGraph() const;

  // The active camera (owned by the viewport; replaced by setOrthographic). Edit it freely, then
  // call update() or rely on Coin's auto-redraw.
  SoCamera* camera() const;

  void viewAll();
  void setStandardView(StandardView view);
  void setOrthographic(bool on);
  bool isOrthographic() const;
  // Moves the focal point to the surface point under `pos` (orientation kept). No-op on background.
  void seekTo(QPoint pos);

  // World point (mm) on the nearest surface under `pos`, ignoring the dragger.
  std::optional<SbVec3f> pickPoint(QPoint pos);
  // Path (from the viewport's super-scene root) to the nearest shape under `pos`, ignoring the
  // dragger; nullptr on background. The path is ref()'d for the caller: call path->unref() when done.
  SoPath* pickPath(QPoint pos);

  // Renders the same scene and camera offscreen at `size` device pixels (aspect from `size`); works
  // whether or not the widget was ever shown. Null image on GL failure.
  QImage renderToImage(QSize size);

  // Shows a transformer dragger (translate by faces, rotate by the edge knobs; scaling disabled) at
  // `initialPose_mm`, sized `size_mm` (0: 15% of the scene's bounding-box diagonal). Replaces any
  // dragger already attached. Moving it emits draggerMoved / draggerReleased.
  void attachDragger(const sg::Transform& initialPose_mm, double size_mm = 0.0);
  void detachDragger();
  bool hasDragger() const;
  // Current dragger pose; identity when none.
  sg::Transform draggerPose() const;
  // Moves the dragger programmatically (emits draggerMoved, like a user drag).
  void setDraggerPose(const sg::Transform& pose_mm);

  void setBackgroundColor(const QColor& color);
  QColor backgroundColor() const;

 signals:
  void clicked(QPoint pos, Qt::KeyboardModifiers modifiers);  // left click without drag
  void draggerMoved(sg::Transform newPose);                   // while dragging
  void draggerReleased(sg::Transform finalPose);              // drag finished
  void cameraChanged();                                       // navigation, view changes

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  struct Private;
  std::unique_ptr<Private> d_;
  friend struct Private;
};

}  // namespace sg::ui
