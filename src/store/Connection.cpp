#include "store/Connection.h"

namespace sg::store {

void Connection::transaction(const std::function<void()>& work) {
  begin();
  try {
    work();
  } catch (...) {
    rollback();
    throw;
  }
  commit();
}

std::string numberedPlaceholders(std::string_view sql) {
  std::string out;
  out.reserve(sql.size() + 16);
  int next = 1;
  char quote = 0;  // ' or " while inside a quoted literal or identifier
  for (char c : sql) {
    if (quote) {
      out += c;
      if (c == quote) quote = 0;  // a doubled quote closes and reopens: same result
    } else if (c == '\'' || c == '"') {
      quote = c;
      out += c;
    } else if (c == '?') {
      out += '$';
      out += std::to_string(next++);
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace sg::store
