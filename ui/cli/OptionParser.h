#pragma once
// The option parser every subcommand shares: a command declares its positional arguments and options
// (CommandSyntax); parseArguments() checks argv against it and throws UsageError (exit code 2) on
// anything unexpected. Accepted forms: "--name value", "--name=value", flags "--name", and "--" to end
// options. "--help"/"-h" is implicit for every command.
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sg::cli {

// A command-line mistake; main() prints it on one line and exits with kExitUsage.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string name;       // with the dashes: "--json"
  std::string valueName;  // empty: a flag without value; otherwise shown in help, e.g. "DIR"
  std::string help;
  bool repeatable = false;
  bool required = false;
  // The value may be left out ("--approach" alone). It is then taken from "--name=value", or from the next
  // argument only when that is a number, so "--approach world.xml" keeps world.xml as a positional.
  bool optionalValue = false;
  // Former spellings still accepted: the parser stores the value under `name` and prints a deprecation note on
  // stderr (one flag per concept across commands, ui/cli/README.md §One spelling per concept).
  std::vector<std::string> deprecatedAliases = {};
};

struct PositionalSpec {
  std::string name;  // "FILE"
  std::string help;
};

struct CommandSyntax {
  std::vector<PositionalSpec> positionals;  // all required, in order
  std::vector<OptionSpec> options;
  // Zero or more further positionals after the required ones ("FILE" for `db import URL FILE...`); empty:
  // none are accepted.
  PositionalSpec rest = {};

  // The option spelled `name`, or nullptr; a deprecated alias finds its option too.
  const OptionSpec* findOption(const std::string& name) const;
  // "info FILE [--json] [--model-root DIR]..."
  std::string usageLine(const std::string& command) const;
  // The usage line plus one line per argument and option.
  std::string helpText(const std::string& command) const;
};

class ParsedArgs {
 public:
  const std::vector<std::string>& positionals() const { return positionals_; }
  const std::string& positional(std::size_t index) const;  // UsageError when missing
  bool has(const std::string& option) const { return values_.count(option) > 0; }
  // The value given (the last one if repeated), nullopt when absent or given without its optional value.
  std::optional<std::string> value(const std::string& option) const;
  // Every value of a repeatable option, in command-line order.
  std::vector<std::string> values(const std::string& option) const;
  bool helpRequested() const { return helpRequested_; }

 private:
  friend ParsedArgs parseArguments(const CommandSyntax&, const std::vector<std::string>&);
  std::vector<std::string> positionals_;
  std::map<std::string, std::vector<std::string>> values_;  // flags store one empty value
  bool helpRequested_ = false;
};

// `args` are the arguments after the subcommand name. A deprecated alias prints
// "softgrasp-cli: note: --old is deprecated, use --new" on stderr.
ParsedArgs parseArguments(const CommandSyntax& syntax, const std::vector<std::string>& args);

// "0.5,-1,2e-3" -> numbers (locale independent). UsageError naming `option` on an empty entry or a
// non-number.
std::vector<double> parseNumberList(const std::string& option, const std::string& text);

// Options several commands share, so they are spelled and documented the same way everywhere.
namespace common_options {
OptionSpec json();       // --json: machine-readable output on stdout
OptionSpec csv(const std::string& what);  // --csv: `what` is the table written
OptionSpec modelRoot();  // --model-root DIR (repeatable): extra roots for resolving model file names
OptionSpec packagePath();  // --package-path DIR (repeatable): where URDF package://NAME/... is looked for
}  // namespace common_options

}  // namespace sg::cli
