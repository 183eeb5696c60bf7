// canonical_writer.cpp - the one c14n serializer of the core (escaping, ordering checks, buffering).
#include "json/canonical_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/error.hpp"

namespace ethos {
CanonicalWriter::CanonicalWriter(Sink sink) : sink_(std::move(sink)), target_(&buffer_), in_place_(true) {
  buffer_.reserve(kFlushBytes * 2);
}

CanonicalWriter::CanonicalWriter(std::string& out) : target_(&out) {}

CanonicalWriter::CanonicalWriter(std::string& out, InPlace) : target_(&out), in_place_(true) {}

CanonicalWriter::~CanonicalWriter() { release_room(); }

void CanonicalWriter::release_room() {
  if (cursor_ == nullptr) return;
  target_->resize(static_cast<std::size_t>(cursor_ - target_->data()));
  cursor_ = room_end_ = nullptr;
}

// Grows the target by the room (zero-filled by resize: std::string has no uninitialized growth
// before C++23) and writes into it from there on.
void CanonicalWriter::claim_room(std::size_t at_least) {
  release_room();
  const std::size_t written = target_->size();
  target_->resize(written + std::max(at_least, sink_ ? kFlushBytes : kRoomBytes));
  cursor_ = target_->data() + written;
  room_end_ = target_->data() + target_->size();
}

void CanonicalWriter::put_slow(std::string_view text) {
  if (!in_place_) {
    target_->append(text.data(), text.size());
    return;
  }
  if (sink_ && cursor_ != nullptr) {
    release_room();
    flush();
  }
  claim_room(text.size());
  copy_short(cursor_, text.data(), text.size());
  cursor_ += text.size();
}

void CanonicalWriter::push_level(bool is_object) { top_ = &levels_.push(Level{is_object, true, std::string_view()}); }

void CanonicalWriter::pop_level() {
  levels_.pop();
  top_ = levels_.empty() ? nullptr : &levels_.top();
}

void CanonicalWriter::flush() {
  sink_(buffer_);
  buffer_.clear();
}

void CanonicalWriter::finish() {
  release_room();
  if (sink_ && !buffer_.empty()) sink_(buffer_);
  buffer_.clear();
}

void CanonicalWriter::before_value() {
  if (top_ == nullptr) return;
  Level& level = *top_;
  if (level.is_object) return;  // key() already wrote the separator
  if (!level.empty) put(',');
  level.empty = false;
}

void CanonicalWriter::begin_object() {
  before_value();
  put('{');
  push_level(true);
}

void CanonicalWriter::end_object() {
  pop_level();
  put('}');
}

void CanonicalWriter::begin_array() {
  before_value();
  put('[');
  push_level(false);
}

void CanonicalWriter::end_array() {
  pop_level();
  put(']');
}

namespace {

// True when one of the 8 bytes of `word` needs escaping: below 0x20, `"` or `\`. Exact for the
// word as a whole (the classic "has a byte less than n" and "has a zero byte" tricks: a borrow can
// only mark bytes above a byte that really matched, never create a match), so a clean word is
// copied without looking at its bytes one by one; report texts are almost all clean.
inline bool word_needs_escape(std::uint64_t word) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  const std::uint64_t quote = word ^ (kOnes * '"');
  const std::uint64_t backslash = word ^ (kOnes * '\\');
  const std::uint64_t control = (word - kOnes * 0x20) & ~word;
  const std::uint64_t is_quote = (quote - kOnes) & ~quote;
  const std::uint64_t is_backslash = (backslash - kOnes) & ~backslash;
  return ((control | is_quote | is_backslash) & kHighs) != 0;
}

#if defined(__SSE2__)
// The same test on 16 bytes at once (every x86-64 CPU has SSE2): a report's texts are long and
// almost all clean, so most of them are passed over 16 bytes per step.
// Bytes of the 16 at data that need escaping, as 0xFF lanes.
inline __m128i escape_lanes(const char* data) {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data));
  const __m128i quote = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('"'));
  const __m128i backslash = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'));
  const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(bytes, _mm_set1_epi8(0x1F)), bytes);  // bytes <= 0x1F
  return _mm_or_si128(_mm_or_si128(quote, backslash), control);
}
inline bool block_needs_escape(const char* data) { return _mm_movemask_epi8(escape_lanes(data)) != 0; }
// 64 bytes with one mask test: an element's text (a report's evidence, hundreds of bytes) is
// passed over with a quarter of the tests and branches.
inline bool block64_needs_escape(const char* data) {
  const __m128i lanes = _mm_or_si128(_mm_or_si128(escape_lanes(data), escape_lanes(data + 16)),
                                     _mm_or_si128(escape_lanes(data + 32), escape_lanes(data + 48)));
  return _mm_movemask_epi8(lanes) != 0;
}
#endif

// True when a byte of text is in the c14n escape set (C0, `"`, `\\`): a word at a time (every
// key of a report goes through here).
bool has_escape(std::string_view text) {
  std::size_t i = 0;
  for (std::uint64_t word = 0; i + 8 <= text.size(); i += 8) {
    std::memcpy(&word, text.data() + i, 8);
    if (word_needs_escape(word)) return true;
  }
  for (; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == '"' || c == '\\') return true;
  }
  return false;
}

// a < b in byte order (what std::string_view's < gives: bytes compared as unsigned char),
// decided on the first byte when the two differ there, as a report's consecutive keys mostly do
// (the full comparison is a library call per key).
bool key_before(std::string_view a, std::string_view b) {
  if (!a.empty() && !b.empty() && a[0] != b[0]) {
    return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]);
  }
  return a < b;
}

}  // namespace

void CanonicalWriter::check_key_order(std::string_view last, std::string_view name) {
  if (!key_before(last, name)) {
    throw EthosError("internal_error", "canonical JSON keys out of order", {{"key", std::string(name)}});
  }
}

void CanonicalWriter::key(std::string_view name) {
  const bool first = enter_key(name);
  if (name.size() <= kShortKey && !has_escape(name)) {
    // The common key (a short plain name): separator, quotes and colon in one append.
    char buffer[kShortKey + 4];
    std::size_t size = 0;
    if (!first) buffer[size++] = ',';
    buffer[size++] = '"';
    std::memcpy(buffer + size, name.data(), name.size());
    size += name.size();
    buffer[size++] = '"';
    buffer[size++] = ':';
    put(std::string_view(buffer, size));
    return;
  }
  if (!first) put(',');
  string(name);
  put(':');
}


// The c14n v1 escape set: `"`, `\`, \b \t \n \f \r, other C0 as lowercase \u00xx; all else raw
// (the same bytes as Python's json.dumps(..., ensure_ascii=False)). Runs of bytes that need no
// escape are appended whole; blocks of 16 and words of 8 clean bytes are skipped without a per-byte test.
void CanonicalWriter::string(std::string_view text) {
  if (top_ != nullptr && !top_->is_object) before_value();
  static const char kHex[] = "0123456789abcdef";
  put('"');
  const char* const data = text.data();
  const std::size_t size = text.size();
  std::size_t run_start = 0;
  std::size_t i = 0;
  while (i < size) {
#if defined(__SSE2__)
    while (i + 64 <= size && !block64_needs_escape(data + i)) i += 64;
    while (i + 16 <= size && !block_needs_escape(data + i)) i += 16;
#endif
    for (std::uint64_t word = 0; i + 8 <= size; i += 8) {
      std::memcpy(&word, data + i, 8);
      if (word_needs_escape(word)) break;
    }
    const std::size_t stop = std::min(size, i + 8);
    for (; i < stop; ++i) {
      const auto c = static_cast<unsigned char>(data[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      put(text.substr(run_start, i - run_start));
      run_start = i + 1;
      switch (c) {
        case '"': put("\\\""); break;
        case '\\': put("\\\\"); break;
        case '\b': put("\\b"); break;
        case '\t': put("\\t"); break;
        case '\n': put("\\n"); break;
        case '\f': put("\\f"); break;
        case '\r': put("\\r"); break;
        default: {
          const char escaped[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0x0f]};
          put(std::string_view(escaped, 6));
        }
      }
    }
  }
  put(text.substr(run_start));
  put('"');
}

void CanonicalWriter::integer(std::int64_t number) {
  before_value();
  // Into a stack buffer: a report writes a dozen integers, std::to_string made a string each.
  constexpr std::size_t kDigits = 24;  // an int64 is at most 20 characters with its sign
  if (static_cast<std::size_t>(room_end_ - cursor_) >= kDigits) {  // straight into the claimed room
    cursor_ = std::to_chars(cursor_, cursor_ + kDigits, number).ptr;
    return;
  }
  char digits[kDigits];
  const std::to_chars_result written = std::to_chars(digits, digits + kDigits, number);
  put(std::string_view(digits, static_cast<std::size_t>(written.ptr - digits)));
}

void CanonicalWriter::boolean(bool value) {
  before_value();
  put(value ? std::string_view("true") : std::string_view("false"));
}

void CanonicalWriter::raw(std::string_view canonical_json) {
  before_value();
  put(canonical_json);
}

void CanonicalWriter::raw_members(std::string_view first_key, std::string_view last_key, std::string_view members) {
  Level& level = *top_;
  if (!level.is_object || (!level.empty && !key_before(level.last_key, first_key))) {
    throw EthosError("internal_error", "canonical JSON keys out of order", {{"key", std::string(first_key)}});
  }
  if (!level.empty) put(',');
  level.empty = false;
  level.last_key = last_key;
  put(members);
}

void CanonicalWriter::value(const nlohmann::json& value, std::initializer_list<std::string_view> skip) {
  using json = nlohmann::json;
  switch (value.type()) {
    case json::value_t::object:
      begin_object();
      for (auto it = value.begin(); it != value.end(); ++it) {  // std::map: byte-sorted keys
        bool skipped = false;
        for (std::string_view name : skip) skipped = skipped || it.key() == name;
        if (skipped) continue;
        key(it.key());
        this->value(it.value(), skip);
      }
      end_object();
      return;
    case json::value_t::array:
      begin_array();
      for (const json& item : value) this->value(item, skip);
      end_array();
      return;
    case json::value_t::string:
      string(value.get_ref<const std::string&>());
      return;
    case json::value_t::boolean:
      boolean(value.get<bool>());
      return;
    case json::value_t::null:
      before_value();
      put("null");
      return;
    case json::value_t::number_integer:
      integer(value.get<std::int64_t>());
      return;
    case json::value_t::number_unsigned:
      before_value();
      put(std::to_string(value.get<std::uint64_t>()));
      return;
    default:
      throw EthosError("internal_error", "canonical JSON cannot hold a float");
  }
}

void CanonicalWriter::value(simdjson::dom::element value, std::initializer_list<std::string_view> skip) {
  using simdjson::dom::element_type;
  switch (value.type()) {
    case element_type::OBJECT: {
      // Inputs keep their own member order; c14n sorts by key bytes (std::string_view compares
      // as unsigned bytes, which is code point order for UTF-8).
      using Member = std::pair<std::string_view, simdjson::dom::element>;
      const simdjson::dom::object object = value.get_object().value_unsafe();  // named: the result is a temporary
      // Small objects (a claim, its citation: one of each per verify-batch line) are sorted on the
      // stack; only larger ones take a heap vector.
      constexpr std::size_t kStackMembers = 16;
      Member stack_members[kStackMembers];
      std::vector<Member> heap_members;
      // size() saturates for enormous objects, so only a small count picks the stack array.
      const bool on_stack = object.size() <= kStackMembers;
      std::size_t kept = 0;
      for (auto field : object) {
        bool skipped = false;
        for (std::string_view name : skip) skipped = skipped || field.key == name;
        if (skipped) continue;
        if (on_stack) {
          stack_members[kept] = Member(field.key, field.value);
        } else {
          heap_members.emplace_back(field.key, field.value);
        }
        ++kept;
      }
      Member* const members = on_stack ? stack_members : heap_members.data();
      const auto by_key = [](const Member& a, const Member& b) { return a.first < b.first; };
      if (!std::is_sorted(members, members + kept, by_key)) std::sort(members, members + kept, by_key);
      begin_object();
      for (std::size_t i = 0; i < kept; ++i) {
        key(members[i].first);
        this->value(members[i].second, skip);
      }
      end_object();
      return;
    }
    case element_type::ARRAY: {
      begin_array();
      const simdjson::dom::array array = value.get_array().value_unsafe();  // named: the result is a temporary
      for (simdjson::dom::element item : array) this->value(item, skip);
      end_array();
      return;
    }
    case element_type::STRING:
      string(value.get_string().value_unsafe());
      return;
    case element_type::BOOL:
      boolean(value.get_bool().value_unsafe());
      return;
    case element_type::NULL_VALUE:
      before_value();
      put("null");
      return;
    case element_type::INT64:
      integer(value.get_int64().value_unsafe());
      return;
    default:  // parse_strict rejects floats and out-of-range integers before anything is written
      throw EthosError("internal_error", "canonical JSON cannot hold a float");
  }
}

}  // namespace ethos
