#pragma once
// Asks for the size of a screenshot: the viewport's size or a chosen resolution.
#include <QDialog>

class QSpinBox;
class QRadioButton;

namespace sg::app {

class ScreenshotDialog : public QDialog {
  Q_OBJECT
 public:
  ScreenshotDialog(QSize viewportSize, QWidget* parent = nullptr);
  QSize chosenSize() const;

 private:
  QSize viewportSize_;
  QRadioButton* useViewport_;
  QSpinBox* width_;
  QSpinBox* height_;
};

}  // namespace sg::app
