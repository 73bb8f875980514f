#pragma once
// The progress sink of the long commands (plan, evaluate, batch, quality, compare): progress on stderr and
// Ctrl+C as the engine's cancel request (Interrupt.h). Shown when stderr is a terminal (one line rewritten at
// most 10 times a second), or with --progress (then, e.g. into a log file, one plain line at most every
// second); --no-progress hides it.
#include <chrono>
#include <string>

#include "OptionParser.h"
#include "core/Progress.h"

namespace sg::cli {

// --no-progress: off; --progress: on; neither: on when stderr is a terminal.
bool progressWanted(const ParsedArgs& args);

class TerminalProgress final : public ProgressSink {
 public:
  explicit TerminalProgress(bool enabled);
  ~TerminalProgress() override;  // clears a rewritten line
  void report(double fraction, std::string_view message) override;
  bool cancelRequested() const override;  // SIGINT arrived (Interrupt.h)
  // Clears a rewritten line so that a message can follow on stderr.
  void clear();

 private:
  bool enabled_;
  bool terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_;
};

namespace progress_options {
OptionSpec noProgress();
OptionSpec progress();
}  // namespace progress_options

}  // namespace sg::cli
