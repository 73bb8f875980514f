#include "CommandRegistry.h"

#include <algorithm>

namespace sg::cli {

CommandRegistry& CommandRegistry::instance() {
  static CommandRegistry registry;  // function-local: safe from other files' static initialisers
  return registry;
}

void CommandRegistry::add(Command command) {
  if (find(command.name)) {
    problems_.push_back(std::string("command '") + command.name + "' is registered twice");
    return;
  }
  commands_.push_back(std::move(command));
}

const Command* CommandRegistry::find(const std::string& name) const {
  const auto it = std::find_if(commands_.begin(), commands_.end(), [&](const Command& c) { return c.name == name; });
  return it == commands_.end() ? nullptr : &*it;
}

std::vector<const Command*> CommandRegistry::commands() const {
  std::vector<const Command*> out;
  for (const auto& c : commands_) out.push_back(&c);
  std::sort(out.begin(), out.end(), [](const Command* a, const Command* b) { return a->name < b->name; });
  return out;
}

}  // namespace sg::cli
