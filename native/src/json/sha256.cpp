// sha256.cpp - SHA-256 through OpenSSL's EVP interface (no hand-written hash code).
#include "json/sha256.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <openssl/evp.h>
#include <openssl/opensslv.h>

#include "core/error.hpp"

namespace ethos {

struct Sha256::Context {
  EVP_MD_CTX* md = nullptr;
};

namespace {

// The SHA-256 implementation, fetched from the default provider once per process: EVP_sha256()
// makes every EVP_DigestInit_ex look the algorithm up again (a locked provider query that cost
// more than hashing a short claims array; verify-batch hashes one per request line). A fetched
// EVP_MD is immutable and may be shared by threads; it is kept for the process's lifetime.
const EVP_MD* sha256_md() {
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
  static const EVP_MD* const md = [] {
    const EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return fetched != nullptr ? fetched : EVP_sha256();
  }();
  return md;
#else
  return EVP_sha256();  // OpenSSL 1.1 has no providers: nothing to look up
#endif
}

}  // namespace

Sha256::Sha256() : context_(std::make_unique<Context>()) {
  context_->md = EVP_MD_CTX_new();
  if (context_->md == nullptr || EVP_DigestInit_ex(context_->md, sha256_md(), nullptr) != 1) {
    EVP_MD_CTX_free(context_->md);
    throw EthosError("internal_error", "hashing failed");
  }
}

Sha256::~Sha256() { EVP_MD_CTX_free(context_->md); }

void Sha256::reset() {
  if (EVP_DigestInit_ex(context_->md, sha256_md(), nullptr) != 1) throw EthosError("internal_error", "hashing failed");
}

void Sha256::update(std::string_view bytes) {
  if (EVP_DigestUpdate(context_->md, bytes.data(), bytes.size()) != 1) throw EthosError("internal_error", "hashing failed");
}

std::string Sha256::hex() {
  std::string out;
  hex_into(out);
  return out;
}

void Sha256::hex_into(std::string& out) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context_->md, digest, &length) != 1) throw EthosError("internal_error", "hashing failed");
  static const char kHex[] = "0123456789abcdef";
  out.resize(std::size_t{length} * 2);  // sized once: no capacity check per digit
  unsigned int i = 0;
#if defined(__SSE2__)
  // Sixteen bytes at a time (verify-batch hashes a claims array per request line): each byte's
  // high and low nibbles interleaved, then '0' added, and 'a' - '0' - 10 more above 9.
  const __m128i low_nibble = _mm_set1_epi8(0x0F), nine = _mm_set1_epi8(9);
  const auto to_hex = [&](__m128i nibbles) {
    const __m128i letters = _mm_and_si128(_mm_cmpgt_epi8(nibbles, nine), _mm_set1_epi8('a' - '0' - 10));
    return _mm_add_epi8(_mm_add_epi8(nibbles, _mm_set1_epi8('0')), letters);
  };
  for (; i + 16 <= length; i += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(digest + i));
    const __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), low_nibble), low = _mm_and_si128(bytes, low_nibble);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(&out[2 * i]), to_hex(_mm_unpacklo_epi8(high, low)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(&out[2 * i + 16]), to_hex(_mm_unpackhi_epi8(high, low)));
  }
#endif
  for (; i < length; ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 0x0f];
  }
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 digest;
  digest.update(bytes);
  return digest.hex();
}

std::string sha256_prefixed(std::string_view bytes) { return "sha256:" + sha256_hex(bytes); }

bool is_sha256_hex(std::string_view text) {
  if (text.size() != 64) return false;
#if defined(__SSE2__)
  // Sixteen characters a test (verify-batch checks a fingerprint per request line): each must lie
  // in '0'..'9' or 'a'..'f'. The compares are signed, so a byte of 0x80 or more (negative) is in
  // neither range, as it should be.
  const auto between = [](__m128i c, char low, char high) {
    return _mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8(static_cast<char>(low - 1))),
                         _mm_cmplt_epi8(c, _mm_set1_epi8(static_cast<char>(high + 1))));
  };
  for (std::size_t at = 0; at < 64; at += 16) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + at));
    if (_mm_movemask_epi8(_mm_or_si128(between(c, '0', '9'), between(c, 'a', 'f'))) != 0xFFFF) return false;
  }
  return true;
#else
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
#endif
}

bool is_sha256_prefixed(std::string_view text) {
  return text.size() == 71 && text.substr(0, 7) == "sha256:" && is_sha256_hex(text.substr(7));
}

}  // namespace ethos
