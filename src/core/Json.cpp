#include "core/Json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/Error.h"
#include "core/NumberFormat.h"

namespace sg {

namespace {
const char* typeName(Json::Type t) {
  switch (t) {
    case Json::Type::Null: return "null";
    case Json::Type::Bool: return "a boolean";
    case Json::Type::Number: return "a number";
    case Json::Type::String: return "a string";
    case Json::Type::Array: return "an array";
    case Json::Type::Object: return "an object";
  }
  return "?";
}
[[noreturn]] void mismatch(const std::string& what, const char* expected, Json::Type got) {
  throw Error(what + ": expected " + expected + ", found " + typeName(got));
}
}  // namespace

double Json::number(const std::string& what) const {
  if (type_ != Type::Number) mismatch(what, "a number", type_);
  return number_;
}
bool Json::boolean(const std::string& what) const {
  if (type_ != Type::Bool) mismatch(what, "a boolean", type_);
  return bool_;
}
const std::string& Json::string(const std::string& what) const {
  if (type_ != Type::String) mismatch(what, "a string", type_);
  return string_;
}
const std::vector<Json>& Json::items(const std::string& what) const {
  if (type_ != Type::Array) mismatch(what, "an array", type_);
  return items_;
}
const std::vector<std::pair<std::string, Json>>& Json::members(const std::string& what) const {
  if (type_ != Type::Object) mismatch(what, "an object", type_);
  return members_;
}
const Json* Json::find(const std::string& key) const {
  if (type_ != Type::Object) return nullptr;
  for (const auto& [k, v] : members_)
    if (k == key) return &v;
  return nullptr;
}
const Json& Json::at(const std::string& key, const std::string& what) const {
  if (type_ != Type::Object) mismatch(what, "an object", type_);
  const Json* v = find(key);
  if (!v) throw Error(what + ": missing \"" + key + "\"");
  return *v;
}
Json& Json::push(Json value) {
  type_ = Type::Array;
  items_.push_back(std::move(value));
  return items_.back();
}
Json& Json::set(const std::string& key, Json value) {
  type_ = Type::Object;
  for (auto& [k, v] : members_)
    if (k == key) return v = std::move(value);
  members_.emplace_back(key, std::move(value));
  return members_.back().second;
}

namespace {
void writeString(std::string& out, const std::string& s) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}
bool scalarArray(const std::vector<Json>& items) {
  for (const Json& j : items)
    if (j.type() == Json::Type::Array || j.type() == Json::Type::Object) return false;
  return true;
}
}  // namespace

void Json::write(std::string& out, int indent, int depth) const {
  const std::string pad(static_cast<std::size_t>(std::max(0, indent) * (depth + 1)), ' ');
  const std::string closePad(static_cast<std::size_t>(std::max(0, indent) * depth), ' ');
  switch (type_) {
    case Type::Null: out += "null"; break;
    case Type::Bool: out += bool_ ? "true" : "false"; break;
    case Type::Number: {
      if (!std::isfinite(number_)) { out += "null"; break; }
      out += formatDouble(number_);  // shortest round trip, never the locale's decimal comma
      break;
    }
    case Type::String: writeString(out, string_); break;
    case Type::Array: {
      if (items_.empty()) { out += "[]"; break; }
      const bool flat = indent < 0 || scalarArray(items_);  // numbers on one line; everything when compact
      out += flat ? "[" : "[\n";
      for (std::size_t i = 0; i < items_.size(); ++i) {
        if (!flat) out += pad;
        items_[i].write(out, indent, depth + 1);
        if (i + 1 < items_.size()) out += flat ? ", " : ",\n";
      }
      out += flat ? "]" : "\n" + closePad + "]";
      break;
    }
    case Type::Object: {
      if (members_.empty()) { out += "{}"; break; }
      const bool compact = indent < 0;
      out += compact ? "{" : "{\n";
      for (std::size_t i = 0; i < members_.size(); ++i) {
        out += pad;
        writeString(out, members_[i].first);
        out += compact ? ":" : ": ";
        members_[i].second.write(out, indent, depth + 1);
        if (i + 1 < members_.size()) out += ",";
        if (!compact) out += "\n";
      }
      out += closePad + "}";
      break;
    }
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  write(out, indent, 0);
  out += '\n';
  return out;
}

std::string Json::dumpLine() const {
  std::string out;
  write(out, -1, 0);
  return out;
}

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : s_(text) {}
  Json document() {
    Json v = value(0);
    skip();
    if (pos_ != s_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    int line = 1;
    for (std::size_t i = 0; i < pos_ && i < s_.size(); ++i) line += s_[i] == '\n';
    throw Error("line " + std::to_string(line) + ": " + what);
  }
  void skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  bool literal(const char* word) {
    const std::string w(word);
    if (s_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }
  Json value(int depth) {
    if (depth > 200) fail("nesting too deep");
    skip();
    if (pos_ >= s_.size()) fail("unexpected end of file");
    const char c = s_[pos_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') return Json(string());
    if (literal("true")) return Json(true);
    if (literal("false")) return Json(false);
    if (literal("null")) return Json();
    if (c == '-' || (c >= '0' && c <= '9')) return Json(number());
    fail(std::string("unexpected character '") + c + "'");
  }
  // A JSON number (-?digits[.digits][(e|E)[+-]digits]) read with from_chars: the C locale's '.' whatever
  // LC_NUMERIC says (strtod would stop at the '.' under de_DE), and no "inf", "nan" or hex that strtod takes.
  double number() {
    const std::size_t begin = pos_;
    auto digits = [this] {
      const std::size_t from = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ > from;
    };
    if (s_[pos_] == '-') ++pos_;
    if (!digits()) fail("malformed number");
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (!digits()) fail("malformed number: no digit after the decimal point");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (!digits()) fail("malformed number: no digit in the exponent");
    }
    double d = 0;
    const auto [ptr, ec] = std::from_chars(s_.data() + begin, s_.data() + pos_, d);
    if (ec != std::errc() || ptr != s_.data() + pos_) {
      const std::string text = s_.substr(begin, std::min<std::size_t>(pos_ - begin, 40));
      pos_ = begin;  // the error names the number's line
      fail((ec == std::errc::result_out_of_range ? "number out of range: " : "malformed number: ") + text);
    }
    return d;
  }
  std::string string() {
    ++pos_;  // "
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (c != '\\') { out += c; continue; }
      if (pos_ >= s_.size()) fail("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (pos_ + 4 > s_.size()) fail("bad \\u escape");
          const unsigned cp = static_cast<unsigned>(std::strtoul(s_.substr(pos_, 4).c_str(), nullptr, 16));
          pos_ += 4;
          if (cp < 0x80) out += static_cast<char>(cp);
          else if (cp < 0x800) { out += static_cast<char>(0xC0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
          else { out += static_cast<char>(0xE0 | (cp >> 12)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
          break;
        }
        default: fail("bad escape in string");
      }
    }
  }
  Json array(int depth) {
    ++pos_;
    Json out = Json::array();
    skip();
    if (pos_ < s_.size() && s_[pos_] == ']') { ++pos_; return out; }
    while (true) {
      out.push(value(depth + 1));
      skip();
      if (pos_ >= s_.size()) fail("unterminated array");
      if (s_[pos_] == ',') { ++pos_; continue; }
      if (s_[pos_] == ']') { ++pos_; return out; }
      fail("expected ',' or ']' in an array");
    }
  }
  Json object(int depth) {
    ++pos_;
    Json out = Json::object();
    skip();
    if (pos_ < s_.size() && s_[pos_] == '}') { ++pos_; return out; }
    while (true) {
      skip();
      if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a key string in an object");
      std::string key = string();
      skip();
      if (pos_ >= s_.size() || s_[pos_] != ':') fail("expected ':' after a key");
      ++pos_;
      out.set(key, value(depth + 1));
      skip();
      if (pos_ >= s_.size()) fail("unterminated object");
      if (s_[pos_] == ',') { ++pos_; continue; }
      if (s_[pos_] == '}') { ++pos_; return out; }
      fail("expected ',' or '}' in an object");
    }
  }
  const std::string& s_;
  std::size_t pos_ = 0;
};

Json Json::parse(const std::string& text) { return JsonParser(text).document(); }

}  // namespace sg
