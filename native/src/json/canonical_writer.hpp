// canonical_writer.hpp - writes canonical JSON (c14n v1) token by token, without building a DOM.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "json/inline_stack.hpp"

namespace ethos {

// Large outputs (reports of thousands of checks, payload hashes) are written straight to a sink
// instead of being assembled as a DOM first: that halves the work and the peak memory. Callers
// emit object members in canonical (byte-sorted) key order; the writer checks that order and
// throws internal_error on a violation, so a mistake cannot silently produce non-canonical bytes.
class CanonicalWriter {
 public:
  using Sink = std::function<void(std::string_view)>;
  explicit CanonicalWriter(Sink sink);  // buffered; call finish() at the end
  explicit CanonicalWriter(std::string& out);  // appends to out directly
  // Appends to out through room claimed at its end (a report is about 80 pieces: a library call
  // per piece cost more than the rest of the writing). out holds exactly what was written only
  // after finish() or the writer's end: callers read it after either, never in between.
  struct InPlace {};
  CanonicalWriter(std::string& out, InPlace);
  ~CanonicalWriter();
  CanonicalWriter(const CanonicalWriter&) = delete;
  CanonicalWriter& operator=(const CanonicalWriter&) = delete;

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view name);
  void string(std::string_view text);
  void integer(std::int64_t number);
  void boolean(bool value);
  // A complete DOM value (sorted by std::map), optionally leaving out members named in `skip`.
  void value(const nlohmann::json& value, std::initializer_list<std::string_view> skip = {});
  // A parsed input value: members are written in canonical order whatever order they came in.
  void value(simdjson::dom::element value, std::initializer_list<std::string_view> skip = {});
  // An already-canonical JSON text (for example a claim echo serialized once at load time).
  void raw(std::string_view canonical_json);
  // Members of the current object written once by another writer (one object's interior,
  // without its braces: `"a":1,"b":2`) and copied as bytes: first_key and last_key are the run's
  // first and last keys, which keep the key order check; last_key must outlive the next key().
  void raw_members(std::string_view first_key, std::string_view last_key, std::string_view members);

  // A name spelled in the program (a string literal: every key of a report): quotes, colon and
  // separator go out in one append with the name copied at a size the compiler knows, and the
  // escape test is folded away for a literal. Same bytes and order check as key(string_view).
  template <std::size_t N>
  void key(const char (&name)[N]) {
    const std::size_t size = std::char_traits<char>::length(name);  // a literal's is N - 1
    if (size > kShortKey || !plain_name(name, size)) return key(std::string_view(name, size));
    const bool first = enter_key(std::string_view(name, size));
    char buffer[kShortKey + 4];
    buffer[0] = ',';
    buffer[1] = '"';
    std::memcpy(buffer + 2, name, size);
    buffer[size + 2] = '"';
    buffer[size + 3] = ':';
    put(first ? std::string_view(buffer + 1, size + 3) : std::string_view(buffer, size + 4));
  }

  // Shorthands for one member.
  void member(std::string_view name, std::string_view text) { key(name); string(text); }
  void member(std::string_view name, const char* text) { key(name); string(text); }
  void member(std::string_view name, std::int64_t number) { key(name); integer(number); }
  void member_bool(std::string_view name, bool value) { key(name); boolean(value); }
  template <std::size_t N>
  void member(const char (&name)[N], std::string_view text) { key(name); string(text); }
  template <std::size_t N>
  void member(const char (&name)[N], const char* text) { key(name); string(text); }
  template <std::size_t N>
  void member(const char (&name)[N], std::int64_t number) { key(name); integer(number); }
  template <std::size_t N>
  void member_bool(const char (&name)[N], bool value) { key(name); boolean(value); }

  void finish();

 private:
  // Appends output into the claimed room [cursor_, room_end_) when it fits (kept inline: it runs
  // per token), else through put_slow. Without room (a plain string target) every piece takes
  // put_slow, which appends to the string as it is.
  void put(std::string_view text) {
    const std::size_t size = text.size();
    if (size <= static_cast<std::size_t>(room_end_ - cursor_)) {
      copy_short(cursor_, text.data(), size);
      cursor_ += size;
      return;
    }
    put_slow(text);
  }
  void put(char c) {
    if (cursor_ != room_end_) {
      *cursor_++ = c;
      return;
    }
    put_slow(std::string_view(&c, 1));
  }
  // A piece's bytes with fixed-size moves for the short pieces a report is made of (a memcpy of
  // a length known only at run time is a library call); longer ones through memcpy.
  static void copy_short(char* to, const char* from, std::size_t size) {
    if (size >= 8) {
      if (size > 16) {
        std::memcpy(to, from, size);
        return;
      }
      std::memcpy(to, from, 8);  // two overlapping moves cover 8..16 bytes
      std::memcpy(to + size - 8, from + size - 8, 8);
    } else if (size >= 4) {
      std::memcpy(to, from, 4);
      std::memcpy(to + size - 4, from + size - 4, 4);
    } else if (size > 0) {
      to[0] = from[0];
      to[size / 2] = from[size / 2];
      to[size - 1] = from[size - 1];
    }
  }
  void put_slow(std::string_view text);
  // Gives back the claimed room that was not written: the target's size is what was written.
  void release_room();
  void claim_room(std::size_t at_least);
  void flush();
  static constexpr std::size_t kFlushBytes = 1 << 16;
  static constexpr std::size_t kRoomBytes = 1 << 10;  // room claimed at a time in place
  static constexpr std::size_t kShortKey = 32;
  // No byte of name[0, size) needs escaping (inline: for a literal the compiler decides it).
  static bool plain_name(const char* name, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      const auto c = static_cast<unsigned char>(name[i]);
      if (c < 0x20 || c == '"' || c == '\\') return false;
    }
    return true;
  }
  // Checks name against the object's last key (throws when out of order), records it, and says
  // whether it is the object's first member (no separator before it). Inline: a report has about
  // 40 keys, and consecutive keys nearly always differ in their first byte, which decides here.
  bool enter_key(std::string_view name) {
    Level& level = *top_;
    const bool first = level.empty;
    if (!first) {
      const std::string_view last = level.last_key;
      const bool decided = !last.empty() && !name.empty() && last[0] != name[0];
      if (!decided || static_cast<unsigned char>(last[0]) > static_cast<unsigned char>(name[0])) {
        check_key_order(last, name);
      }
    }
    level.empty = false;
    level.last_key = name;
    return first;
  }
  // The full byte-order comparison; throws internal_error when name does not sort after last.
  static void check_key_order(std::string_view last, std::string_view name);
  void before_value();

  struct Level {
    bool is_object;
    bool empty;
    std::string_view last_key;  // callers' keys outlive the next key() (literals or DOM keys)
  };
  void push_level(bool is_object);
  void pop_level();

  Sink sink_;
  std::string buffer_;
  std::string* target_;
  bool in_place_ = false;       // the target's tail past cursor_ is claimed room (sink or InPlace)
  char* cursor_ = nullptr;      // next byte to write in the claimed room
  char* room_end_ = nullptr;    // end of the claimed room (== cursor_: none left)
  // The open objects and arrays (a report nests about six deep, a request line four).
  InlineStack<Level, 16> levels_;
  Level* top_ = nullptr;  // the innermost open level, nullptr at the top
};

}  // namespace ethos
