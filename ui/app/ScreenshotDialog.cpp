#include "ScreenshotDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sg::app {

ScreenshotDialog::ScreenshotDialog(QSize viewportSize, QWidget* parent)
    : QDialog(parent), viewportSize_(viewportSize) {
  setWindowTitle(tr("Screenshot"));
  auto* layout = new QVBoxLayout(this);
  useViewport_ = new QRadioButton(tr("Viewport size (%1 × %2)").arg(viewportSize.width()).arg(viewportSize.height()), this);
  auto* custom = new QRadioButton(tr("Custom resolution"), this);
  useViewport_->setChecked(true);
  width_ = new QSpinBox(this);
  height_ = new QSpinBox(this);
  for (QSpinBox* s : {width_, height_}) {
    s->setRange(16, 8192);
    s->setSuffix(tr(" px"));
    s->setEnabled(false);
  }
  width_->setValue(std::max(16, viewportSize.width()));
  height_->setValue(std::max(16, viewportSize.height()));
  auto* form = new QFormLayout;
  form->addRow(tr("Width"), width_);
  form->addRow(tr("Height"), height_);
  layout->addWidget(useViewport_);
  layout->addWidget(custom);
  layout->addLayout(form);
  connect(custom, &QRadioButton::toggled, width_, &QSpinBox::setEnabled);
  connect(custom, &QRadioButton::toggled, height_, &QSpinBox::setEnabled);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
}

QSize ScreenshotDialog::chosenSize() const {
  return useViewport_->isChecked() ? viewportSize_ : QSize(width_->value(), height_->value());
}

}  // namespace sg::app
