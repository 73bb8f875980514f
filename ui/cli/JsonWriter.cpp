#include "JsonWriter.h"

namespace sg::cli {

Json jsonObject(std::initializer_list<std::pair<std::string, Json>> members) {
  Json o = Json::object();
  for (const auto& [key, value] : members) o.set(key, value);
  return o;
}

Json jsonArray(std::initializer_list<Json> items) {
  Json a = Json::array();
  for (const Json& item : items) a.push(item);
  return a;
}

Json jsonBox(const AlignedBox& box) {
  if (box.empty()) return Json();
  return jsonObject({{"min", jsonVec(box.min)}, {"max", jsonVec(box.max)}, {"size", jsonVec(box.size())}});
}

void writeJson(std::ostream& out, const JsonFormat& format, const Json& body) {
  out << withFormat(format, body).dump() << '\n';
  out.flush();
}

}  // namespace sg::cli
