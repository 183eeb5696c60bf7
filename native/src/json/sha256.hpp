// sha256.hpp - SHA-256 digests (OpenSSL libcrypto) in the bare and "sha256:" prefixed hex forms.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace ethos {

// Incremental digest, for hashing output while it is written.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::string_view bytes);
  std::string hex();  // finishes the digest: 64 lowercase hex digits
  // The same written into out (its capacity reused: verify-batch hashes one request per line).
  void hex_into(std::string& out);
  // Starts a new digest on the same context (after hex(), or to drop what was hashed): a caller
  // hashing many short inputs keeps one context instead of allocating one per input.
  void reset();

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

std::string sha256_hex(std::string_view bytes);          // 64 lowercase hex digits
std::string sha256_prefixed(std::string_view bytes);     // "sha256:" + 64 lowercase hex digits
bool is_sha256_hex(std::string_view text);               // exactly 64 lowercase hex digits
bool is_sha256_prefixed(std::string_view text);          // "sha256:" + is_sha256_hex

}  // namespace ethos
