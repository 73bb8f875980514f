#include "viewport/CoinSetup.h"

#include <algorithm>

#include <QCoreApplication>
#include <QObject>
#include <QSurfaceFormat>
#include <QTimer>

#include <Inventor/SbTime.h>
#include <Inventor/SoDB.h>
#include <Inventor/sensors/SoSensorManager.h>

#include "render/CoinInit.h"

namespace sg::ui {

void installCoinSurfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);            // not GLES
  format.setProfile(QSurfaceFormat::CompatibilityProfile);     // Coin uses fixed-function GL
  format.setOption(QSurfaceFormat::DeprecatedFunctions);       // no forward-compatible bit
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(8);
  format.setRedBufferSize(8);
  format.setGreenBufferSize(8);
  format.setBlueBufferSize(8);
  format.setAlphaBufferSize(8);
  QSurfaceFormat::setDefaultFormat(format);
}

namespace {

// Drives Coin's sensor queues from the Qt event loop (what SoQt/Quarter's SensorManager does):
// delay sensors when idle (or at the latest after SoDB's delay-sensor timeout), timer sensors when due.
class SensorPump : public QObject {
 public:
  explicit SensorPump(QObject* parent) : QObject(parent) {
    idle_.setSingleShot(true);
    idle_.setInterval(0);
    timer_.setSingleShot(true);
    delayTimeout_.setSingleShot(true);
    connect(&idle_, &QTimer::timeout, this, [this] { process(true); });
    connect(&delayTimeout_, &QTimer::timeout, this, [this] { process(false); });
    connect(&timer_, &QTimer::timeout, this, [this] {
      SoDB::getSensorManager()->processTimerQueue();
      reschedule();
    });
    SoDB::getSensorManager()->setChangedCallback(&SensorPump::changed, this);
    reschedule();
  }
  ~SensorPump() override { SoDB::getSensorManager()->setChangedCallback(nullptr, nullptr); }

 private:
  static void changed(void* self) { static_cast<SensorPump*>(self)->reschedule(); }

  void process(bool idle) {
    SoSensorManager* sm = SoDB::getSensorManager();
    sm->processTimerQueue();
    sm->processDelayQueue(idle ? TRUE : FALSE);
    reschedule();
  }

  void reschedule() {
    SoSensorManager* sm = SoDB::getSensorManager();
    SbTime due;
    if (sm->isTimerSensorPending(due)) {
      const double ms = (due - SbTime::getTimeOfDay()).getValue() * 1000.0;
      timer_.start(static_cast<int>(std::clamp(ms, 0.0, 1e7)));
    } else {
      timer_.stop();
    }
    if (sm->isDelaySensorPending()) {
      if (!idle_.isActive()) idle_.start();
      if (!delayTimeout_.isActive())
        delayTimeout_.start(static_cast<int>(SoDB::getDelaySensorTimeout().getMsecValue()));
    } else {
      idle_.stop();
      delayTimeout_.stop();
    }
  }

  QTimer idle_, timer_, delayTimeout_;
};

}  // namespace

void initCoinForQt() {
  sg::initCoin();
  static SensorPump* pump = nullptr;
  if (!pump && QCoreApplication::instance()) {
    pump = new SensorPump(QCoreApplication::instance());
    QObject::connect(pump, &QObject::destroyed, [] { pump = nullptr; });
  }
}

}  // namespace sg::ui
