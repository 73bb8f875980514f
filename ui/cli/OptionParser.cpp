#include "OptionParser.h"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "core/Parse.h"

namespace sg::cli {

namespace {

// " DIR", " [MM]" for an optional value, "" for a flag.
std::string valueText(const OptionSpec& o) {
  if (o.valueName.empty()) return "";
  return o.optionalValue ? " [" + o.valueName + "]" : " " + o.valueName;
}

}  // namespace

const OptionSpec* CommandSyntax::findOption(const std::string& name) const {
  const auto it = std::find_if(options.begin(), options.end(), [&](const OptionSpec& o) {
    return o.name == name || std::find(o.deprecatedAliases.begin(), o.deprecatedAliases.end(), name) !=
                                 o.deprecatedAliases.end();
  });
  return it == options.end() ? nullptr : &*it;
}

std::string CommandSyntax::usageLine(const std::string& command) const {
  std::string line = command;
  for (const auto& p : positionals) line += std::string(" ") + p.name;
  if (!rest.name.empty()) line += " [" + rest.name + "...]";
  for (const auto& o : options) {
    std::string text = o.name + valueText(o);
    line += o.required ? " " + text : " [" + text + "]";
    if (o.repeatable) line += "...";
  }
  return line;
}

std::string CommandSyntax::helpText(const std::string& command) const {
  std::ostringstream out;
  out << "usage: softgrasp-cli " << usageLine(command) << "\n";
  std::size_t width = 6;  // "--help"
  for (const auto& p : positionals) width = std::max(width, p.name.size());
  for (const auto& o : options) width = std::max(width, o.name.size() + valueText(o).size());
  auto row = [&](const std::string& left, const std::string& help) {
    out << "  " << left << std::string(width - left.size() + 2, ' ') << help << "\n";
  };
  for (const auto& p : positionals) row(p.name, p.help);
  if (!rest.name.empty()) row(rest.name + "...", rest.help);
  for (const auto& o : options) {
    std::string former;
    for (const std::string& alias : o.deprecatedAliases) former += (former.empty() ? "" : ", ") + alias;
    row(o.name + valueText(o), o.help + (o.repeatable ? " (repeatable)" : "") +
                                   (former.empty() ? "" : " (deprecated former spelling: " + former + ")"));
  }
  row("--help", "show this help");
  return out.str();
}

const std::string& ParsedArgs::positional(std::size_t index) const {
  if (index >= positionals_.size()) throw UsageError(std::string("missing argument #") + std::to_string(index + 1));
  return positionals_[index];
}

std::optional<std::string> ParsedArgs::value(const std::string& option) const {
  const auto it = values_.find(option);
  if (it == values_.end() || it->second.empty() || it->second.back().empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> ParsedArgs::values(const std::string& option) const {
  const auto it = values_.find(option);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

ParsedArgs parseArguments(const CommandSyntax& syntax, const std::vector<std::string>& args) {
  ParsedArgs parsed;
  bool optionsEnded = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (optionsEnded || arg.size() < 2 || arg[0] != '-') {
      parsed.positionals_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      optionsEnded = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      parsed.helpRequested_ = true;
      continue;
    }
    const std::size_t eq = arg.find('=');
    const std::string given = arg.substr(0, eq);
    const OptionSpec* spec = syntax.findOption(given);
    if (!spec) throw UsageError(std::string("unknown option '") + given + "'");
    const std::string& name = spec->name;  // an alias's value is stored under the current spelling
    if (given != name) std::cerr << "softgrasp-cli: note: " << given << " is deprecated, use " << name << "\n";
    if (!spec->repeatable && parsed.has(name)) throw UsageError(std::string("option '") + name + "' given twice");
    if (spec->valueName.empty()) {
      if (eq != std::string::npos) throw UsageError(std::string("option '") + name + "' takes no value");
      parsed.values_[name].push_back({});
      continue;
    }
    std::string value;
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (spec->optionalValue) {
      if (i + 1 < args.size() && parseDouble(args[i + 1])) value = args[++i];
      parsed.values_[name].push_back(value);  // empty: given without a value
      continue;
    } else {
      if (i + 1 >= args.size()) throw UsageError(std::string("option '") + name + "' needs a value " + spec->valueName);
      value = args[++i];  // taken as is, so negative numbers ("--dofs -0.5,1") work
    }
    if (value.empty()) throw UsageError(std::string("option '") + name + "' needs a non-empty value " + spec->valueName);
    parsed.values_[name].push_back(value);
  }
  if (parsed.helpRequested_) return parsed;  // help wins over everything else
  if (parsed.positionals_.size() < syntax.positionals.size())
    throw UsageError(std::string("missing argument ") + syntax.positionals[parsed.positionals_.size()].name);
  if (parsed.positionals_.size() > syntax.positionals.size() && syntax.rest.name.empty())
    throw UsageError(std::string("unexpected argument '") + parsed.positionals_[syntax.positionals.size()] + "'");
  for (const auto& o : syntax.options)
    if (o.required && !parsed.has(o.name)) throw UsageError(std::string("missing option ") + o.name + " " + o.valueName);
  return parsed;
}

std::vector<double> parseNumberList(const std::string& option, const std::string& text) {
  std::vector<double> numbers;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto number = parseDouble(item);
    if (!number)
      throw UsageError(option + ": '" + item + "' is not a number (expected comma-separated numbers, e.g. 0.5,-1)");
    numbers.push_back(*number);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return numbers;
}

namespace common_options {

OptionSpec json() { return {"--json", "", "print JSON on stdout instead of text"}; }

OptionSpec csv(const std::string& what) { return {"--csv", "", what + " (not with --json)"}; }

OptionSpec modelRoot() {
  return {"--model-root", "DIR", "extra directory searched for model files named inside XML files", true};
}

OptionSpec packagePath() {
  return {"--package-path", "DIR",
          "directory holding ROS packages (or a package) for URDF package:// names, searched before ROS_PACKAGE_PATH",
          true};
}

}  // namespace common_options

}  // namespace sg::cli
