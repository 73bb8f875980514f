#include "RefusedInput.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QSpinBox>

namespace sg::app {

namespace {

// As the box itself would show the number (its locale, group separators only if it shows them).
QString numberText(const QAbstractSpinBox* box, double v) {
  QLocale locale = box->locale();
  if (!box->isGroupSeparatorShown()) locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator);
  if (const auto* d = qobject_cast<const QDoubleSpinBox*>(box)) return locale.toString(v, 'f', d->decimals());
  return locale.toString(static_cast<qlonglong>(v));
}

// The box's range and value.
struct Range {
  double min = 0, max = 0, value = 0;
};

Range rangeOf(const QAbstractSpinBox* box) {
  if (const auto* d = qobject_cast<const QDoubleSpinBox*>(box)) return {d->minimum(), d->maximum(), d->value()};
  if (const auto* i = qobject_cast<const QSpinBox*>(box))
    return {static_cast<double>(i->minimum()), static_cast<double>(i->maximum()), static_cast<double>(i->value())};
  return {};
}

class RefusedInputFilter : public QObject {
 public:
  RefusedInputFilter(QAbstractSpinBox* box, QString what, std::function<void(const QString&)> report)
      : QObject(box), box_(box), what_(std::move(what)), report_(std::move(report)) {}

  bool eventFilter(QObject* watched, QEvent* event) override {
    if (watched != box_) return false;
    bool commit = event->type() == QEvent::FocusOut;
    if (event->type() == QEvent::KeyPress) {
      const int key = static_cast<QKeyEvent*>(event)->key();
      commit = key == Qt::Key_Return || key == Qt::Key_Enter;
    }
    // Read-only boxes cannot be typed into; a disabled one gets no keys.
    if (commit && !box_->isReadOnly() && spinBoxRefuses(box_, box_->text()))
      report_(refusedInputMessage(box_, what_, box_->text()));
    return false;  // the box goes on as usual (it reverts to its value)
  }

 private:
  QAbstractSpinBox* box_;
  QString what_;
  std::function<void(const QString&)> report_;
};

}  // namespace

bool spinBoxRefuses(const QAbstractSpinBox* box, QString text) {
  if (!box->specialValueText().isEmpty() && text == box->specialValueText()) return false;  // "none": the minimum
  int pos = 0;
  if (box->validate(text, pos) == QValidator::Acceptable) return false;
  // The box's own repair first (group separators, ...), as QAbstractSpinBox does before it reverts.
  const QString before = text;
  box->fixup(text);
  return text == before || box->validate(text, pos) != QValidator::Acceptable;
}

QString refusedInputMessage(const QAbstractSpinBox* box, const QString& what, const QString& typed) {
  const Range r = rangeOf(box);
  QString valid = QObject::tr("%1 to %2").arg(numberText(box, r.min), numberText(box, r.max));
  if (!box->specialValueText().isEmpty())
    valid = QObject::tr("'%1' or %2 to %3").arg(box->specialValueText(), numberText(box, r.min), numberText(box, r.max));
  QString shown = typed;
  if (const auto* d = qobject_cast<const QDoubleSpinBox*>(box)) {
    if (!d->suffix().isEmpty() && shown.endsWith(d->suffix())) shown.chop(d->suffix().size());
  } else if (const auto* i = qobject_cast<const QSpinBox*>(box)) {
    if (!i->suffix().isEmpty() && shown.endsWith(i->suffix())) shown.chop(i->suffix().size());
  }
  const QString kept = (r.value == r.min && !box->specialValueText().isEmpty()) ? box->specialValueText()
                                                                                 : numberText(box, r.value);
  return QObject::tr("%1: '%2' is not accepted (valid: %3); kept %4").arg(what, shown.trimmed(), valid, kept);
}

void reportRefusedInput(QAbstractSpinBox* box, const QString& what, std::function<void(const QString&)> report) {
  box->installEventFilter(new RefusedInputFilter(box, what, std::move(report)));
}

}  // namespace sg::app
