#include "core/Error.h"

namespace sg {

Error::Error(std::string message, std::string file, int line, std::string context)
    : std::runtime_error(format(message, file, line, context)),
      message_(std::move(message)),
      file_(std::move(file)),
      line_(line),
      context_(std::move(context)) {}

std::string Error::format(const std::string& message, const std::string& file, int line,
                          const std::string& context) {
  std::string s;
  if (!file.empty()) {
    s += file;
    if (line > 0) s += ":" + std::to_string(line);
    s += ": ";
  }
  s += message;
  if (!context.empty()) s += " (" + context + ")";
  return s;
}

Error Error::withFile(const std::string& file, int line) const {
  if (!file_.empty()) return *this;
  return Error(message_, file, line_ > 0 ? line_ : line, context_);
}

Error Error::withContext(const std::string& outer) const {
  return Error(message_, file_, line_, context_.empty() ? outer : context_ + ", " + outer);
}

}  // namespace sg
