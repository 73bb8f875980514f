#pragma once
// One number format for the whole application: the files' (C locale, '.' decimal point, no group separators).
// A German desktop showed "0,00°" in spin boxes (QLocale's system default) next to "0.0000" in labels
// (QString::number, always C) and in every file; numbers a user copies from a dock into a world file or a
// command line must read back the same. Call before any widget exists (widgets take the default locale when
// they are made).
#include <QLocale>
#include <clocale>

namespace sg::app {

inline void useFileNumberFormat() {
  QLocale c = QLocale::c();
  c.setNumberOptions(QLocale::OmitGroupSeparator | QLocale::RejectGroupSeparator);
  QLocale::setDefault(c);
  // QApplication set LC_ALL from the environment; Qt's documentation advises LC_NUMERIC "C" after it. The engine
  // does not rely on this (core/NumberFormat.h, core/Parse.h ignore the locale), but libraries it calls might.
  std::setlocale(LC_NUMERIC, "C");
}

}  // namespace sg::app
