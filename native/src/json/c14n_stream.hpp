// c14n_stream.hpp - canonical JSON written incrementally (to a hash) with some keys left out.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <simdjson.h>

namespace ethos {

// Writes c14n(value) in pieces to `sink`, omitting every object member whose key is in `skip`
// (recursively). Used for payload_sha256, which hashes the payload without geometry, so the
// payload never has to be copied. Byte-identical to to_c14n when nothing is skipped.
void write_c14n(simdjson::dom::element value, const std::function<void(std::string_view)>& sink,
                std::initializer_list<std::string_view> skip = {});

// Streaming SHA-256 of c14n(value) without the skipped keys, as bare hex.
std::string c14n_sha256_hex(simdjson::dom::element value, std::initializer_list<std::string_view> skip = {});

}  // namespace ethos
