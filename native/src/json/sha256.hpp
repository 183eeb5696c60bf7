// sha256.hpp - SHA-256 digests (OpenSSL libcrypto) in the bare and "sha256:" prefixed hex forms.
#pragma once

#include <string>
#include <string_view>

namespace ethos {

std::string sha256_hex(std::string_view bytes);          // 64 lowercase hex digits
std::string sha256_prefixed(std::string_view bytes);     // "sha256:" + 64 lowercase hex digits
bool is_sha256_hex(std::string_view text);               // exactly 64 lowercase hex digits
bool is_sha256_prefixed(std::string_view text);          // "sha256:" + is_sha256_hex

}  // namespace ethos
