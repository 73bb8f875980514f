#pragma once
// Typed spin-box input the box refuses is reported instead of silently reverting: a QSpinBox or
// QDoubleSpinBox whose text is out of range or unfinished when it is committed (Enter, focus leaving) puts the
// previous value back without a word, so "10" typed into Max steps (30001 … 100000000) became 70000 again unseen.
// The watcher looks at the text before the box reverts it and hands a message naming the field, the text, the
// valid range and the value kept to the caller (a dock's status line).
#include <QString>
#include <functional>

class QAbstractSpinBox;

namespace sg::app {

// Whether the box would refuse `text` (its own validate/fixup; prefix and suffix included as it shows them).
bool spinBoxRefuses(const QAbstractSpinBox* box, QString text);

// "Max steps: '10' is not accepted (valid: 30001 to 100000000); kept 70000". `typed` is what the user typed.
QString refusedInputMessage(const QAbstractSpinBox* box, const QString& what, const QString& typed);

// Watches `box` (an event filter parented to it): on Enter/Return or focus out with text the box refuses, calls
// `report` with refusedInputMessage before the box reverts. QSpinBox and QDoubleSpinBox only.
void reportRefusedInput(QAbstractSpinBox* box, const QString& what, std::function<void(const QString&)> report);

}  // namespace sg::app
