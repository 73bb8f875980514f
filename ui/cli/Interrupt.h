#pragma once
// Ctrl+C for the long commands (ui/cli/README.md §Progress and Ctrl+C): the first SIGINT only sets a flag that the
// command's progress sink reports as a cancel request (src/core/Progress.h), so the engine stops at its next
// poll and the command keeps what it found; the handler is one-shot (SA_RESETHAND), so a second SIGINT
// kills the process as usual.

namespace sg::cli {

// Installs the one-shot handler. A process started with SIGINT ignored (a background job of a shell
// without job control) keeps ignoring it.
void installInterruptHandler();

// True once SIGINT arrived (any thread).
bool interrupted();

}  // namespace sg::cli
