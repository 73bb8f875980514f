#pragma once
// The message (what(): file and line included) of the sg::Error a call throws, or an empty string when it throws
// none; any other exception passes through to the test.
#include <QString>
#include <utility>

#include "core/Error.h"

namespace sg::test {

template <typename F>
QString errorOf(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const Error& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace sg::test
