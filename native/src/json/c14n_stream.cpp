// c14n_stream.cpp - buffered canonical JSON writer feeding an OpenSSL digest.
#include "json/c14n_stream.hpp"

#include <openssl/evp.h>

#include <memory>

#include "core/error.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;

// Collects output in a buffer and hands it to the sink in large pieces (fewer digest calls).
class BufferedSink {
 public:
  explicit BufferedSink(const std::function<void(std::string_view)>& sink) : sink_(sink) { buffer_.reserve(kChunk); }
  ~BufferedSink() = default;
  void put(char c) {
    buffer_.push_back(c);
    if (buffer_.size() >= kChunk) flush();
  }
  void put(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= kChunk) flush();
  }
  void flush() {
    if (!buffer_.empty()) sink_(buffer_);
    buffer_.clear();
  }

 private:
  static constexpr std::size_t kChunk = 1 << 16;
  const std::function<void(std::string_view)>& sink_;
  std::string buffer_;
};

// The c14n v1 escape set: `"`, `\`, \b \t \n \f \r, other C0 as lowercase \u00xx; all else raw.
void write_string(BufferedSink& out, const std::string& text) {
  static const char kHex[] = "0123456789abcdef";
  out.put('"');
  std::size_t run_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.put(std::string_view(text).substr(run_start, i - run_start));
    run_start = i + 1;
    switch (c) {
      case '"': out.put("\\\""); break;
      case '\\': out.put("\\\\"); break;
      case '\b': out.put("\\b"); break;
      case '\t': out.put("\\t"); break;
      case '\n': out.put("\\n"); break;
      case '\f': out.put("\\f"); break;
      case '\r': out.put("\\r"); break;
      default: {
        const char escaped[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0x0f]};
        out.put(std::string_view(escaped, 6));
      }
    }
  }
  out.put(std::string_view(text).substr(run_start));
  out.put('"');
}

void write_value(BufferedSink& out, const json& value, std::initializer_list<std::string_view> skip) {
  switch (value.type()) {
    case json::value_t::object: {
      out.put('{');
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {  // std::map: sorted by bytes
        bool skipped = false;
        for (std::string_view key : skip) skipped = skipped || it.key() == key;
        if (skipped) continue;
        if (!first) out.put(',');
        first = false;
        write_string(out, it.key());
        out.put(':');
        write_value(out, it.value(), skip);
      }
      out.put('}');
      return;
    }
    case json::value_t::array: {
      out.put('[');
      bool first = true;
      for (const json& item : value) {
        if (!first) out.put(',');
        first = false;
        write_value(out, item, skip);
      }
      out.put(']');
      return;
    }
    case json::value_t::string:
      write_string(out, value.get_ref<const std::string&>());
      return;
    case json::value_t::boolean:
      out.put(value.get<bool>() ? "true" : "false");
      return;
    case json::value_t::null:
      out.put("null");
      return;
    case json::value_t::number_integer:
      out.put(std::to_string(value.get<std::int64_t>()));
      return;
    case json::value_t::number_unsigned:
      out.put(std::to_string(value.get<std::uint64_t>()));
      return;
    default:
      throw EthosError("internal_error", "canonical JSON cannot hold a float");
  }
}

}  // namespace

void write_c14n(const json& value, const std::function<void(std::string_view)>& sink,
                std::initializer_list<std::string_view> skip) {
  BufferedSink out(sink);
  write_value(out, value, skip);
  out.flush();
}

std::string c14n_sha256_hex(const json& value, std::initializer_list<std::string_view> skip) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1) {
    throw EthosError("internal_error", "hashing failed");
  }
  write_c14n(value, [&](std::string_view piece) { EVP_DigestUpdate(context.get(), piece.data(), piece.size()); }, skip);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context.get(), digest, &length) != 1) throw EthosError("internal_error", "hashing failed");
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 0x0f]);
  }
  return hex;
}

}  // namespace ethos
