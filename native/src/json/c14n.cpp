// c14n.cpp - canonical JSON of a DOM value as a string, through the one writer (canonical_writer.cpp).
#include "json/c14n.hpp"

#include "json/canonical_writer.hpp"

namespace ethos {

std::string to_c14n(const nlohmann::json& value) {
  std::string out;
  CanonicalWriter writer(out);
  writer.value(value);
  return out;
}

std::string to_c14n(simdjson::dom::element value) {
  std::string out;
  CanonicalWriter writer(out);
  writer.value(value);
  return out;
}

}  // namespace ethos
