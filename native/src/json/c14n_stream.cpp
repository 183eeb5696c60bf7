// c14n_stream.cpp - canonical JSON streamed into a SHA-256 digest (no serialized copy kept).
#include "json/c14n_stream.hpp"

#include "json/canonical_writer.hpp"
#include "json/sha256.hpp"

namespace ethos {

void write_c14n(simdjson::dom::element value, const std::function<void(std::string_view)>& sink,
                std::initializer_list<std::string_view> skip) {
  CanonicalWriter writer(sink);
  writer.value(value, skip);
  writer.finish();
}

std::string c14n_sha256_hex(simdjson::dom::element value, std::initializer_list<std::string_view> skip) {
  Sha256 digest;
  write_c14n(value, [&](std::string_view piece) { digest.update(piece); }, skip);
  return digest.hex();
}

}  // namespace ethos
