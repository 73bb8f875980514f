#pragma once
// Process-wide set-up for Coin inside Qt.
namespace sg::ui {

// Sets the default QSurfaceFormat Coin needs: OpenGL (not GLES), compatibility profile, 24-bit depth,
// 8-bit stencil, 8-bit RGBA. Must run BEFORE the QApplication is constructed (in tests: initMain()).
void installCoinSurfaceFormat();

// Initialises Coin (sg::initCoin) and installs the sensor-queue pump that drives Coin's timer and
// delay sensors (redraw requests, draggers) from the Qt event loop. Needs a QCoreApplication; idempotent.
// CoinViewport and renderSceneOffscreen call it themselves.
void initCoinForQt();

}  // namespace sg::ui
