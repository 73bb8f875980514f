#include "TerminalProgress.h"

#include <unistd.h>

#include <iostream>

#include "Interrupt.h"
#include "core/NumberFormat.h"

namespace sg::cli {

bool progressWanted(const ParsedArgs& args) {
  if (args.has("--no-progress")) return false;
  return args.has("--progress") || isatty(STDERR_FILENO);
}

TerminalProgress::TerminalProgress(bool enabled) : enabled_(enabled), terminal_(isatty(STDERR_FILENO) != 0) {}

TerminalProgress::~TerminalProgress() { clear(); }

void TerminalProgress::clear() {
  if (enabled_ && terminal_ && shown_) std::cerr << "\r\033[K" << std::flush;
  shown_ = false;
}

void TerminalProgress::report(double fraction, std::string_view message) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < (terminal_ ? std::chrono::milliseconds(100) : std::chrono::milliseconds(1000))) return;
  last_ = now;
  shown_ = true;
  std::string pct = formatFixed(100.0 * clampFraction(fraction), 1);
  pct.insert(0, pct.size() < 5 ? 5 - pct.size() : 0, ' ');  // "%5.1f" without the locale's decimal comma
  if (terminal_) std::cerr << "\r\033[K" << pct << "% " << message << std::flush;
  else std::cerr << "softgrasp-cli: progress: " << pct << "% " << message << std::endl;
}

bool TerminalProgress::cancelRequested() const { return interrupted(); }

namespace progress_options {

OptionSpec noProgress() {
  return {"--no-progress", "", "no progress on stderr (shown by default only when stderr is a terminal)"};
}

OptionSpec progress() {
  return {"--progress", "", "progress on stderr even when it is not a terminal (a plain line at most every second)"};
}

}  // namespace progress_options

}  // namespace sg::cli
