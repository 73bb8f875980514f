// softgrasp-cli: the command-line front end of the SoftGrasp engine. main() handles the global options and
// dispatches to the subcommands registered in CommandRegistry (one ui/cli/Command*.cpp file each).
// Every failure ends in one message on stderr and an exit code from ExitCodes.h; nothing escapes main().
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "DbSupport.h"
#include "CommandRegistry.h"
#include "ExitCodes.h"
#include "core/Error.h"
#include "core/Progress.h"
#include "core/Version.h"

namespace sg::cli {

namespace {

constexpr const char* kProgram = "softgrasp-cli";

// Messages must stay on one line (scripts read the first line of stderr): the lines of a multi-line
// message are trimmed and joined with a space; other control characters become '?'.
std::string oneLine(const std::string& text) {
  std::string out;
  bool pendingSpace = false;
  for (const char c : text) {
    if (c == '\n' || c == '\r') {
      pendingSpace = !out.empty();
      continue;
    }
    if (pendingSpace) {
      if (c == ' ' || c == '\t') continue;  // the indentation of a continuation line
      if (out.back() != ' ') out += ' ';
      pendingSpace = false;
    }
    out += (static_cast<unsigned char>(c) < 0x20 && c != '\t') ? '?' : c;
  }
  return out;
}

void printGlobalHelp(std::ostream& out) {
  out << "usage: " << kProgram << " COMMAND [ARGS...]\n"
      << "       " << kProgram << " COMMAND --help\n"
      << "       " << kProgram << " --help | --version\n\n"
      << "SoftGrasp " << sg::versionString() << " command-line tool (lengths mm, angles rad, mass g).\n\ncommands:\n";
  std::size_t width = 0;
  for (const Command* c : CommandRegistry::instance().commands()) width = std::max(width, c->name.size());
  for (const Command* c : CommandRegistry::instance().commands())
    out << "  " << c->name << std::string(width - c->name.size() + 2, ' ') << c->summary << "\n";
  out << "\nFILE arguments: a relative name is looked up in the working directory first, then in the data\n"
         "directory (the bundled worlds/ and models/: ../share/softgrasp beside the installed binary, or\n"
         "$SOFTGRASP_DATA_DIR), so 'softgrasp-cli info worlds/default.xml' works from any directory.\n";
  out << "\nexit codes: 0 ok, 1 internal error, 2 usage error, 3 bad or missing input file, 130 interrupted (Ctrl+C)\n";
}

void printCommandHelp(std::ostream& out, const Command& command) {
  out << command.syntax.helpText(command.name);
  if (!command.description.empty()) out << "\n" << command.description << "\n";
}

// "softgrasp-cli: info: unknown option '--x' (see 'softgrasp-cli info --help')"; `command` may be empty.
int usageError(const std::string& command, const std::string& message) {
  const std::string prefix = command.empty() ? "" : command + ": ";
  const std::string helpCommand = command.empty() ? "" : command + " ";
  std::cerr << kProgram << ": " << prefix << oneLine(message) << " (see '" << kProgram << " " << helpCommand
            << "--help')\n";
  return kExitUsage;
}

int run(const std::vector<std::string>& args) {
  const auto& registry = CommandRegistry::instance();
  for (const auto& problem : registry.problems()) {
    std::cerr << kProgram << ": internal error: " << problem << "\n";
    return kExitInternal;
  }
  if (args.empty()) {
    printGlobalHelp(std::cerr);
    return kExitUsage;
  }
  const std::string& first = args.front();
  if (first == "--help" || first == "-h" || first == "help") {
    if (first == "help" && args.size() > 1) {
      const Command* command = registry.find(args[1]);
      if (!command) return usageError("", std::string("unknown command '") + args[1] + "'");
      printCommandHelp(std::cout, *command);
    } else {
      printGlobalHelp(std::cout);
    }
    return kExitOk;
  }
  if (first == "--version" || first == "-V") {
    std::cout << kProgram << " " << sg::versionString() << "\n";
    return kExitOk;
  }
  if (first.starts_with("-")) return usageError("", std::string("unknown option '") + first + "'");
  const Command* command = registry.find(first);
  if (!command) return usageError("", std::string("unknown command '") + first + "'");

  try {
    const ParsedArgs parsed = parseArguments(command->syntax, {args.begin() + 1, args.end()});
    if (parsed.helpRequested()) {
      printCommandHelp(std::cout, *command);
      return kExitOk;
    }
    return command->run(parsed);
  } catch (const UsageError& e) {
    return usageError(command->name, e.what());
  } catch (const Cancelled&) {
    // Ctrl+C before the command had anything to keep (Interrupt.h).
    std::cerr << kProgram << ": " << command->name << ": interrupted before a result; nothing written\n";
    return kExitInterrupted;
  } catch (const Error& e) {
    // what() is "file:line: problem (context)".
    std::cerr << kProgram << ": " << oneLine(e.what()) << "\n";
    return kExitBadInput;
  }
}

}  // namespace

}  // namespace sg::cli

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    sg::cli::setCommandLine(args);  // what a grasp database run records (DbSupport.h)
    return sg::cli::run(args);
  } catch (const std::exception& e) {
    std::cerr << "softgrasp-cli: internal error: " << sg::cli::oneLine(e.what()) << "\n";
  } catch (...) {
    std::cerr << "softgrasp-cli: internal error: unknown exception\n";
  }
  return sg::cli::kExitInternal;
}
