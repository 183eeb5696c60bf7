// c14n.cpp - canonical JSON to a string, through the one c14n writer (c14n_stream.cpp).
#include "json/c14n.hpp"

#include "json/c14n_stream.hpp"

namespace ethos {

std::string to_c14n(const nlohmann::json& value) {
  std::string out;
  write_c14n(value, [&](std::string_view piece) { out.append(piece); });
  return out;
}

}  // namespace ethos
