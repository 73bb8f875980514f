#pragma once
// Exit codes of softgrasp-cli, shared by every subcommand (documented in ui/cli/README.md).

namespace sg::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitInternal = 1,  // an unexpected failure (a bug); reported, never a crash
  kExitUsage = 2,     // unknown command or option, missing or malformed argument
  kExitBadInput = 3,  // a model file that is missing or cannot be read (sg::Error from the loaders)
  // Ctrl+C (SIGINT, 128 + 2 as shells report it): the command stopped early; plan, batch and compare --sweep
  // still print (and write) what they had (ui/cli/README.md §Progress and Ctrl+C).
  kExitInterrupted = 130,
};

}  // namespace sg::cli
