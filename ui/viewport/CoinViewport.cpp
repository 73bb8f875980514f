#include "viewport/CoinViewport.h"

#include <algorithm>
#include <cmath>

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QWheelEvent>

#include <Inventor/SbColor4f.h>
#include <Inventor/SbTime.h>
#include <Inventor/SoEventManager.h>
#include <Inventor/SoPath.h>
#include <Inventor/SoPickedPoint.h>
#include <Inventor/SoRenderManager.h>
#include <Inventor/actions/SoGLRenderAction.h>
#include <Inventor/actions/SoRayPickAction.h>
#include <Inventor/draggers/SoTransformerDragger.h>
#include <Inventor/elements/SoGLCacheContextElement.h>
#include <Inventor/events/SoLocation2Event.h>
#include <Inventor/events/SoMouseButtonEvent.h>
#include <Inventor/misc/SoContextHandler.h>
#include <Inventor/nodes/SoOrthographicCamera.h>
#include <Inventor/nodes/SoPerspectiveCamera.h>
#include <Inventor/nodes/SoSeparator.h>

#include "render/CameraMotion.h"
#include "render/Headlight.h"
#include "render/CoinConvert.h"
#include "viewport/CoinSetup.h"
#include "viewport/OffscreenRender.h"

namespace sg::ui {

namespace {
constexpr float kOrbitRadPerPixel = 0.01f;
constexpr int kClickSlop_px = 3;          // a press that moves less than this is a click
constexpr int kPickRadius_px = 3;
constexpr double kWheelZoomPerNotch = 0.85;  // distance factor per 120 units of angleDelta
constexpr double kDefaultDraggerFraction = 0.15;
constexpr float kDefaultHeightAngle_rad = 0.785398f;  // 45°
}  // namespace

struct CoinViewport::Private {
  enum class Gesture { None, Pending, Orbit, Pan, Coin };

  explicit Private(CoinViewport* owner) : q(owner) {
    superRoot = new SoSeparator;
    superRoot->ref();
    superRoot->setName("CoinViewportRoot");
    superRoot->addChild(makeHeadlight());  // before the camera: lives in eye space
    camera = new SoPerspectiveCamera;
    camera->ref();
    superRoot->addChild(camera);
    sceneSlot = new SoSeparator;
    superRoot->addChild(sceneSlot);
    draggerRoot = new SoSeparator;
    superRoot->addChild(draggerRoot);

    rm.setSceneGraph(superRoot);
    rm.setCamera(camera);
    rm.setAutoClipping(SoRenderManager::NO_AUTO_CLIPPING);  // fitClippingPlanes before each render
    rm.getGLRenderAction()->setTransparencyType(SoGLRenderAction::SORTED_OBJECT_BLEND);
    rm.setRenderCallback(&Private::redrawRequested, q);
    em.setSceneGraph(superRoot);
    em.setCamera(camera);
    em.setNavigationState(SoEventManager::NO_NAVIGATION);  // we navigate ourselves
    setBackground(defaultBackgroundColor());
  }

  ~Private() {
    removeDragger();
    rm.deactivate();
    rm.setSceneGraph(nullptr);
    em.setSceneGraph(nullptr);
    camera->unref();
    superRoot->unref();
  }

  static void redrawRequested(void* widget, SoRenderManager*) { static_cast<CoinViewport*>(widget)->update(); }

  void setBackground(const QColor& c) {
    background = c;
    rm.setBackgroundColor(SbColor4f(c.redF(), c.greenF(), c.blueF(), 1.0f));
  }

  SbViewportRegion viewport() const {
    const qreal dpr = q->devicePixelRatioF();
    const short w = static_cast<short>(std::max(1.0, std::round(q->width() * dpr)));
    const short h = static_cast<short>(std::max(1.0, std::round(q->height() * dpr)));
    return SbViewportRegion(w, h);
  }

  // A never-shown widget (grabFramebuffer) gets no resizeGL, so every paint and event re-syncs.
  void syncViewport() {
    const SbViewportRegion vp = viewport();
    if (rm.getViewportRegion() == vp) return;
    rm.setWindowSize(vp.getWindowSize());
    rm.setSize(vp.getWindowSize());
    rm.setViewportRegion(vp);
    em.setViewportRegion(vp);
  }

  // Qt logical position (top-left origin) → Coin device pixels (bottom-left origin).
  SbVec2s toCoin(const QPointF& p) const {
    const qreal dpr = q->devicePixelRatioF();
    return SbVec2s(static_cast<short>(std::lround(p.x() * dpr)),
                   static_cast<short>(std::lround((q->height() - 1 - p.y()) * dpr)));
  }

  static void setModifiers(SoEvent& ev, Qt::KeyboardModifiers m) {
    ev.setShiftDown(m.testFlag(Qt::ShiftModifier));
    ev.setCtrlDown(m.testFlag(Qt::ControlModifier));
    ev.setAltDown(m.testFlag(Qt::AltModifier));
  }

  bool sendButton(const QMouseEvent* e, SoButtonEvent::State state) {
    SoMouseButtonEvent ev;
    switch (e->button()) {
      case Qt::LeftButton: ev.setButton(SoMouseButtonEvent::BUTTON1); break;
      case Qt::RightButton: ev.setButton(SoMouseButtonEvent::BUTTON2); break;
      case Qt::MiddleButton: ev.setButton(SoMouseButtonEvent::BUTTON3); break;
      default: return false;
    }
    ev.setState(state);
    ev.setPosition(toCoin(e->position()));
    ev.setTime(SbTime::getTimeOfDay());
    setModifiers(ev, e->modifiers());
    syncViewport();
    return em.processEvent(&ev);
  }

  bool sendMove(const QMouseEvent* e) {
    SoLocation2Event ev;
    ev.setPosition(toCoin(e->position()));
    ev.setTime(SbTime::getTimeOfDay());
    setModifiers(ev, e->modifiers());
    syncViewport();
    return em.processEvent(&ev);
  }

  // Nearest picked point whose path does not run through the dragger; valid while `action` lives.
  const SoPickedPoint* pick(SoRayPickAction& action, QPoint pos) {
    syncViewport();
    if (auto box = sceneBoundingBox(superRoot, viewport())) fitClippingPlanes(camera, *box);
    action.setPoint(toCoin(pos));
    action.setRadius(kPickRadius_px);
    action.setPickAll(TRUE);
    action.apply(superRoot);
    const SoPickedPointList& list = action.getPickedPointList();
    for (int i = 0; i < list.getLength(); ++i)
      if (!list[i]->getPath()->containsNode(draggerRoot)) return list[i];
    return nullptr;
  }

  void replaceCamera(SoCamera* next) {
    next->ref();
    superRoot->replaceChild(camera, next);
    rm.setCamera(next);
    em.setCamera(next);
    camera->unref();
    camera = next;
  }

  static Transform poseOf(const SoTransformerDragger* d) {
    return Transform(fromSb(d->rotation.getValue()), fromSb(d->translation.getValue()));
  }

  static void draggerValueChanged(void* self, SoDragger*) {
    auto* p = static_cast<Private*>(self);
    if (p->settingDragger || !p->dragger) return;
    emit p->q->draggerMoved(poseOf(p->dragger));
  }

  static void draggerFinished(void* self, SoDragger*) {
    auto* p = static_cast<Private*>(self);
    if (!p->dragger) return;
    emit p->q->draggerReleased(poseOf(p->dragger));
  }

  void removeDragger() {
    if (!dragger) return;
    dragger->removeValueChangedCallback(&Private::draggerValueChanged, this);
    dragger->removeFinishCallback(&Private::draggerFinished, this);
    draggerRoot->removeAllChildren();
    dragger->unref();
    dragger = nullptr;
  }

  void releaseCacheContext() {
    if (cacheContext == 0) return;
    SoContextHandler::destructingContext(cacheContext);
    cacheContext = 0;
  }

  CoinViewport* q;
  SoRenderManager rm;
  SoEventManager em;
  SoSeparator* superRoot = nullptr;
  SoCamera* camera = nullptr;
  SoSeparator* sceneSlot = nullptr;
  SoNode* userScene = nullptr;
  SoSeparator* draggerRoot = nullptr;
  SoTransformerDragger* dragger = nullptr;
  bool settingDragger = false;
  bool cameraPlaced = false;
  uint32_t cacheContext = 0;  // 0: none (Coin's unique ids start at 1)
  QMetaObject::Connection contextConnection;
  QColor background;

  Gesture gesture = Gesture::None;
  QPoint pressPos, lastPos;
  Qt::MouseButton pressButton = Qt::NoButton;
  Qt::KeyboardModifiers pressModifiers;
};

CoinViewport::CoinViewport(QWidget* parent) : QOpenGLWidget(parent) {
  initCoinForQt();
  d_ = std::make_unique<Private>(this);
  d_->rm.activate();  // scene changes → render callback → update()
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(64, 64);
}

CoinViewport::~CoinViewport() {
  disconnect(d_->contextConnection);
  if (d_->cacheContext != 0 && context()) {
    makeCurrent();
    d_->releaseCacheContext();
    doneCurrent();
  }
  d_.reset();
}

void CoinViewport::setSceneGraph(SoNode* root) {
  d_->sceneSlot->removeAllChildren();
  d_->userScene = root;
  if (root) d_->sceneSlot->addChild(root);
  if (root && !d_->cameraPlaced && sceneBoundingBox(d_->sceneSlot)) viewAll();
  update();
}

SoNode* CoinViewport::sceneGraph() const { return d_->userScene; }

SoCamera* CoinViewport::camera() const { return d_->camera; }

void CoinViewport::viewAll() {
  if (!sceneBoundingBox(d_->sceneSlot)) return;
  sg::viewAll(d_->camera, d_->sceneSlot, d_->viewport());
  d_->cameraPlaced = true;
  emit cameraChanged();
  update();
}

void CoinViewport::setStandardView(StandardView view) {
  d_->camera->orientation = standardViewOrientation(view);
  if (sceneBoundingBox(d_->sceneSlot)) {
    sg::viewAll(d_->camera, d_->sceneSlot, d_->viewport());
    d_->cameraPlaced = true;
  }
  emit cameraChanged();
  update();
}

void CoinViewport::setOrthographic(bool on) {
  if (on == isOrthographic()) return;
  SoCamera* old = d_->camera;
  const SbVec3f focal = focalPoint(old);
  const SbVec3f direction = viewDirection(old);
  const float distance = old->focalDistance.getValue();
  SoCamera* next = nullptr;
  if (on) {
    // Same visible size at the focal plane.
    float angle = kDefaultHeightAngle_rad;
    if (old->isOfType(SoPerspectiveCamera::getClassTypeId()))
      angle = static_cast<SoPerspectiveCamera*>(old)->heightAngle.getValue();
    auto* ortho = new SoOrthographicCamera;
    ortho->height = 2.0f * distance * std::tan(angle / 2.0f);
    ortho->position = old->position.getValue();
    ortho->focalDistance = distance;
    next = ortho;
  } else {
    // Move to the distance where the frustum is as high at the focal point as the ortho view was.
    const float height = static_cast<SoOrthographicCamera*>(old)->height.getValue();
    const float newDistance = std::max(1e-3f, height / (2.0f * std::tan(kDefaultHeightAngle_rad / 2.0f)));
    auto* persp = new SoPerspectiveCamera;
    persp->heightAngle = kDefaultHeightAngle_rad;
    persp->focalDistance = newDistance;
    persp->position = focal - direction * newDistance;
    next = persp;
  }
  next->orientation = old->orientation.getValue();
  d_->replaceCamera(next);
  emit cameraChanged();
  update();
}

bool CoinViewport::isOrthographic() const {
  return d_->camera->isOfType(SoOrthographicCamera::getClassTypeId());
}

void CoinViewport::seekTo(QPoint pos) {
  const std::optional<SbVec3f> p = pickPoint(pos);
  if (!p) return;
  seekCamera(d_->camera, *p);
  emit cameraChanged();
  update();
}

std::optional<SbVec3f> CoinViewport::pickPoint(QPoint pos) {
  SoRayPickAction action(d_->viewport());
  if (const SoPickedPoint* pp = d_->pick(action, pos)) return pp->getPoint();
  return std::nullopt;
}

SoPath* CoinViewport::pickPath(QPoint pos) {
  SoRayPickAction action(d_->viewport());
  const SoPickedPoint* pp = d_->pick(action, pos);
  if (!pp) return nullptr;
  SoPath* path = pp->getPath()->copy();
  path->ref();
  return path;
}

QImage CoinViewport::renderToImage(QSize size) {
  return renderSceneOffscreen(d_->sceneSlot, size, d_->camera, d_->background);
}

void CoinViewport::attachDragger(const sg::Transform& initialPose_mm, double size_mm) {
  d_->removeDragger();
  if (!(size_mm > 0.0)) {
    size_mm = 50.0;
    if (auto box = sceneBoundingBox(d_->sceneSlot)) {
      float dx, dy, dz;
      box->getSize(dx, dy, dz);
      const double diagonal = std::sqrt(double(dx) * dx + double(dy) * dy + double(dz) * dz);
      if (diagonal > 0.0) size_mm = kDefaultDraggerFraction * diagonal;
    }
  }
  auto* dragger = new SoTransformerDragger;
  dragger->ref();
  // Poses are rigid: hide (and so disable) the eight corner scale handles.
  for (int i = 1; i <= 8; ++i) {
    const QByteArray part = "scale" + QByteArray::number(i);
    dragger->setPart(part.constData(), new SoSeparator);
    dragger->setPart((part + "Active").constData(), new SoSeparator);
  }
  d_->settingDragger = true;
  const float half = static_cast<float>(size_mm / 2.0);  // the dragger's cube spans −1..1
  dragger->scaleFactor = SbVec3f(half, half, half);
  dragger->translation = toSb(initialPose_mm.translation());
  dragger->rotation = toSb(initialPose_mm.rotation());
  d_->settingDragger = false;
  dragger->addValueChangedCallback(&Private::draggerValueChanged, d_.get());
  dragger->addFinishCallback(&Private::draggerFinished, d_.get());
  d_->dragger = dragger;
  d_->draggerRoot->addChild(dragger);
  update();
}

void CoinViewport::detachDragger() {
  d_->removeDragger();
  update();
}

bool CoinViewport::hasDragger() const { return d_->dragger != nullptr; }

sg::Transform CoinViewport::draggerPose() const {
  return d_->dragger ? Private::poseOf(d_->dragger) : sg::Transform();
}

void CoinViewport::setDraggerPose(const sg::Transform& pose_mm) {
  if (!d_->dragger) return;
  d_->dragger->translation = toSb(pose_mm.translation());
  d_->dragger->rotation = toSb(pose_mm.rotation());
  update();
}

void CoinViewport::setBackgroundColor(const QColor& color) {
  d_->setBackground(color);
  update();
}

QColor CoinViewport::backgroundColor() const { return d_->background; }

void CoinViewport::initializeGL() {
  // Runs again when Qt re-creates the context (e.g. reparenting to another window).
  d_->releaseCacheContext();
  d_->cacheContext = SoGLCacheContextElement::getUniqueCacheContext();
  d_->rm.getGLRenderAction()->setCacheContext(d_->cacheContext);
  d_->rm.reinitialize();
  context()->functions()->glEnable(GL_DEPTH_TEST);
  disconnect(d_->contextConnection);
  d_->contextConnection = connect(
      context(), &QOpenGLContext::aboutToBeDestroyed, this,
      [this] {
        makeCurrent();
        d_->releaseCacheContext();
        doneCurrent();
      },
      Qt::DirectConnection);
}

void CoinViewport::resizeGL(int, int) { d_->syncViewport(); }

void CoinViewport::paintGL() {
  d_->syncViewport();
  // Coin assumes the depth test is on and only emits GL when a node changes it.
  context()->functions()->glEnable(GL_DEPTH_TEST);
  if (auto box = sceneBoundingBox(d_->superRoot, d_->viewport())) fitClippingPlanes(d_->camera, *box);
  d_->rm.render(TRUE, TRUE);
}

void CoinViewport::mousePressEvent(QMouseEvent* event) {
  if (d_->sendButton(event, SoButtonEvent::DOWN)) {  // a dragger (or scene callback) took it
    d_->gesture = Private::Gesture::Coin;
    update();
    event->accept();
    return;
  }
  d_->gesture = Private::Gesture::Pending;
  d_->pressPos = d_->lastPos = event->position().toPoint();
  d_->pressButton = event->button();
  d_->pressModifiers = event->modifiers();
  event->accept();
}

void CoinViewport::mouseMoveEvent(QMouseEvent* event) {
  using G = Private::Gesture;
  const QPoint pos = event->position().toPoint();
  if (d_->gesture == G::Coin || d_->gesture == G::None) {
    if (d_->sendMove(event)) update();
    event->accept();
    return;
  }
  if (d_->gesture == G::Pending) {
    if ((pos - d_->pressPos).manhattanLength() < kClickSlop_px) return;
    const bool left = d_->pressButton == Qt::LeftButton;
    const bool shift = d_->pressModifiers.testFlag(Qt::ShiftModifier);
    if (d_->pressButton == Qt::MiddleButton || (left && shift))
      d_->gesture = G::Pan;
    else if (left)
      d_->gesture = G::Orbit;
    else
      return;  // right drag: nothing
  }
  const QPoint delta = pos - d_->lastPos;
  d_->lastPos = pos;
  if (d_->gesture == G::Orbit) {
    orbitCamera(d_->camera, delta.x() * kOrbitRadPerPixel, delta.y() * kOrbitRadPerPixel);
  } else if (d_->gesture == G::Pan) {
    const float dpr = static_cast<float>(devicePixelRatioF());
    panCamera(d_->camera, delta.x() * dpr, -delta.y() * dpr, d_->viewport().getViewportSizePixels()[1]);
  }
  emit cameraChanged();
  update();
  event->accept();
}

void CoinViewport::mouseReleaseEvent(QMouseEvent* event) {
  using G = Private::Gesture;
  const G gesture = d_->gesture;
  d_->gesture = G::None;
  if (gesture == G::Coin) {
    d_->sendButton(event, SoButtonEvent::UP);
    update();
  } else if (gesture == G::Pending && d_->pressButton == Qt::LeftButton && event->button() == Qt::LeftButton) {
    emit clicked(d_->pressPos, d_->pressModifiers);
  }
  event->accept();
}

void CoinViewport::mouseDoubleClickEvent(QMouseEvent* event) {
  if (d_->sendButton(event, SoButtonEvent::DOWN)) {  // Coin treats a double click as a press
    d_->gesture = Private::Gesture::Coin;
    event->accept();
    return;
  }
  if (event->button() == Qt::LeftButton) seekTo(event->position().toPoint());
  event->accept();
}

void CoinViewport::wheelEvent(QWheelEvent* event) {
  const int delta = event->angleDelta().y();
  if (delta == 0) return;
  zoomCamera(d_->camera, static_cast<float>(std::pow(kWheelZoomPerNotch, delta / 120.0)));
  emit cameraChanged();
  update();
  event->accept();
}

}  // namespace sg::ui
