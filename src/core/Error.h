#pragma once
// The engine's error type: a message plus where it came from (file, line, context), so a user sees
// "mug.xml:12: <mass> is not a number: 'abc'" rather than a bare exception.
#include <stdexcept>
#include <string>

namespace sg {

class Error : public std::runtime_error {
 public:
  explicit Error(std::string message, std::string file = {}, int line = 0, std::string context = {});

  const std::string& message() const { return message_; }
  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 0 when unknown
  const std::string& context() const { return context_; }

  // A copy that names `file` (and `line`, when this error has none) — used when an error raised deep in
  // a reader passes through a layer that knows which file was being read.
  Error withFile(const std::string& file, int line = 0) const;
  // A copy whose context gains an outer layer, e.g. "while loading robot Barrett.xml".
  Error withContext(const std::string& outer) const;

 private:
  static std::string format(const std::string& message, const std::string& file, int line,
                            const std::string& context);
  std::string message_, file_;
  int line_ = 0;
  std::string context_;
};

}  // namespace sg
