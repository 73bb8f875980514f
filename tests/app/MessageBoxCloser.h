#pragma once
// Closes the next modal QMessageBox (e.g. an error dialog shown with exec()) and remembers its text.
#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTimer>

namespace sg::test {

class MessageBoxCloser : public QObject {
 public:
  explicit MessageBoxCloser(QMessageBox::StandardButton answer = QMessageBox::Ok) : answer_(answer) {
    timer_.setInterval(10);
    connect(&timer_, &QTimer::timeout, this, [this] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (!box) return;
      text_ = box->text();
      title_ = box->windowTitle();
      icon_ = box->icon();
      ++count_;
      // The static QMessageBox functions report the clicked button, so click it.
      if (QAbstractButton* button = box->button(answer_))
        button->click();
      else
        box->done(answer_);
    });
    timer_.start();
  }
  const QString& text() const { return text_; }
  const QString& title() const { return title_; }
  QMessageBox::Icon icon() const { return icon_; }
  int count() const { return count_; }

 private:
  QMessageBox::StandardButton answer_;
  QTimer timer_;
  QString text_, title_;
  QMessageBox::Icon icon_ = QMessageBox::NoIcon;
  int count_ = 0;
};

}  // namespace sg::test
