#include "Interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace sg::cli {

namespace {

std::atomic<bool> interruptFlag{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the flag is set from a signal handler");

extern "C" void onInterrupt(int) {
  interruptFlag.store(true);
  // Async-signal-safe: write(2) only.
  static const char message[] =
      "\nsoftgrasp-cli: interrupted: finishing what is in flight and keeping the results (Ctrl+C again kills)\n";
  const ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
  (void)written;
}

}  // namespace

void installInterruptHandler() {
  struct sigaction previous {};
  if (sigaction(SIGINT, nullptr, &previous) != 0 || previous.sa_handler == SIG_IGN) return;
  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_RESTART;  // one-shot: the second SIGINT gets the default action
  sigaction(SIGINT, &action, nullptr);
}

bool interrupted() { return interruptFlag.load(); }

}  // namespace sg::cli
