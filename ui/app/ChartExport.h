#pragma once
// A chart view (any widget) saved as an image file, atomically (QSaveFile): PNG from the widget's grab, SVG
// painted into Qt SVG's generator (vector shapes and text, the widget's size as the viewBox). The Sensitivity and
// Measures vs Physics windows export their charts through it.
#include <QString>

class QWidget;

namespace sg::app {

bool saveWidgetPng(QWidget* widget, const QString& path, QString* error);
bool saveWidgetSvg(QWidget* widget, const QString& title, const QString& path, QString* error);

// By the path's suffix: ".svg" (any case) writes SVG with `svgTitle`, anything else PNG.
bool saveWidgetImage(QWidget* widget, const QString& svgTitle, const QString& path, QString* error);

}  // namespace sg::app
