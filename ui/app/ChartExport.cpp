#include "ChartExport.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

namespace sg::app {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("ChartExport", text); }

}  // namespace

bool saveWidgetPng(QWidget* widget, const QString& path, QString* error) {
  const QImage image = widget->grab().toImage();
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
    if (error) *error = file.errorString().isEmpty() ? tr("cannot encode PNG") : file.errorString();
    return false;
  }
  return true;
}

bool saveWidgetSvg(QWidget* widget, const QString& title, const QString& path, QString* error) {
  QBuffer buffer;
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(widget->size());
  svg.setViewBox(QRect(QPoint(0, 0), widget->size()));
  svg.setTitle(title);
  QPainter painter;
  if (!painter.begin(&svg)) {
    if (error) *error = tr("cannot start the SVG drawing");
    return false;
  }
  widget->render(&painter);
  painter.end();
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(buffer.data()) != buffer.data().size() || !file.commit()) {
    if (error) *error = file.errorString();
    return false;
  }
  return true;
}

bool saveWidgetImage(QWidget* widget, const QString& svgTitle, const QString& path, QString* error) {
  return QFileInfo(path).suffix().compare(QStringLiteral("svg"), Qt::CaseInsensitive) == 0
             ? saveWidgetSvg(widget, svgTitle, path, error)
             : saveWidgetPng(widget, path, error);
}

}  // namespace sg::app
