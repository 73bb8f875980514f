#pragma once
// The project's one JSON library (no Qt in the engine): a value, a writer and a parser for every JSON file
// and stdout document SoftGrasp writes (grasp lists, job lists, shards, analysis reports). Objects keep their
// key order; numbers are doubles written in their shortest round-trip form, C locale always;
// non-finite numbers are written as null. Parse errors are sg::Error with the line number.
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sg {

class Json {
 public:
  enum class Type { Null, Bool, Number, String, Array, Object };
  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : type_(Type::Bool), bool_(b) {}
  Json(double d) : type_(Type::Number), number_(d) {}
  Json(int i) : type_(Type::Number), number_(i) {}
  Json(long i) : type_(Type::Number), number_(static_cast<double>(i)) {}
  Json(const char* s) : type_(Type::String), string_(s) {}
  Json(std::string s) : type_(Type::String), string_(std::move(s)) {}
  static Json array() { Json j; j.type_ = Type::Array; return j; }
  static Json object() { Json j; j.type_ = Type::Object; return j; }

  Type type() const { return type_; }
  bool isNull() const { return type_ == Type::Null; }
  // Typed access: sg::Error("<what>: expected a number", ...) on a type mismatch.
  double number(const std::string& what) const;
  bool boolean(const std::string& what) const;
  const std::string& string(const std::string& what) const;
  const std::vector<Json>& items(const std::string& what) const;  // arrays
  const std::vector<std::pair<std::string, Json>>& members(const std::string& what) const;  // objects
  // Objects: the member, or nullptr when missing (`at` throws naming the key).
  const Json* find(const std::string& key) const;
  const Json& at(const std::string& key, const std::string& what) const;

  Json& push(Json value);                          // arrays
  Json& set(const std::string& key, Json value);   // objects (replaces an existing key)

  std::string dump(int indent = 2) const;
  // The value on one line without a line break (strings escape theirs): a JSON Lines record.
  std::string dumpLine() const;
  // sg::Error("line N: ...") for malformed text.
  static Json parse(const std::string& text);

 private:
  void write(std::string& out, int indent, int depth) const;
  Type type_ = Type::Null;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
  friend class JsonParser;
};

}  // namespace sg
