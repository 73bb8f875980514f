#pragma once
// The subcommand registry. Each subcommand lives in its own ui/cli/Command<Name>.cpp and registers itself
// with a file-scope RegisterCommand object; main() only parses the command name and dispatches. Adding a
// subcommand therefore means adding one file (CMake globs ui/cli/*.cpp).
#include <functional>
#include <string>
#include <vector>

#include "OptionParser.h"

namespace sg::cli {

struct Command {
  std::string name;         // "info"
  std::string summary;      // one line, shown by "softgrasp-cli --help"
  std::string description;  // extra paragraph for "softgrasp-cli <name> --help" (may be empty)
  CommandSyntax syntax;
  // Runs the command on checked arguments and returns an exit code. May throw UsageError (exit 2) or
  // sg::Error (exit 3); main() reports both.
  std::function<int(const ParsedArgs&)> run;
};

class CommandRegistry {
 public:
  static CommandRegistry& instance();

  // A second command with the same name is not added but remembered in problems().
  void add(Command command);
  const Command* find(const std::string& name) const;
  std::vector<const Command*> commands() const;  // sorted by name
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  std::vector<Command> commands_;
  std::vector<std::string> problems_;
};

struct RegisterCommand {
  explicit RegisterCommand(Command command) { CommandRegistry::instance().add(std::move(command)); }
};

}  // namespace sg::cli
