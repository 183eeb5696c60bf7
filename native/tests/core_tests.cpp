// core_tests.cpp - unit tests of the core's building blocks (c14n, hashes, strict JSON, citations, normalization).
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/citations.hpp"
#include "core/config.hpp"
#include "core/native_document.hpp"
#include "core/error.hpp"
#include "json/c14n.hpp"
#include "json/canonical_writer.hpp"
#include "json/inline_stack.hpp"
#include "json/sha256.hpp"
#include "json/strict_json.hpp"
#include "text/normalize.hpp"
#include "test_check.hpp"

namespace {

using ethos_test::failures;

// Returns the envelope of the error thrown by parse_strict, or "" if it parsed.
std::string parse_error(const std::string& text) {
  try {
    ethos::parse_strict(text, "test");
    const std::string fast_path = "";
    // The DOM twin must reject exactly what the fast path rejects, with the same envelope.
    try {
      ethos::parse_strict_dom(text, "test");
    } catch (const ethos::EthosError&) {
      return "parse_strict_dom rejected what parse_strict accepted";
    }
    return fast_path;
  } catch (const ethos::EthosError& error) {
    try {
      ethos::parse_strict_dom(text, "test");
      return "parse_strict_dom accepted what parse_strict rejected";
    } catch (const ethos::EthosError& twin) {
      if (twin.envelope() != error.envelope()) return "twin disagrees: " + twin.envelope() + " vs " + error.envelope();
    }
    return error.envelope();
  }
}

void test_c14n_and_hashes() {
  CHECK(ethos::sha256_hex(ethos::to_c14n(nlohmann::json::object())) ==
        "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
  CHECK(ethos::to_c14n(nlohmann::json::parse(R"({"b":1,"a":"\u0001\"\\\n\u007f é"})")) ==
        "{\"a\":\"\\u0001\\\"\\\\\\n\x7f \xc3\xa9\",\"b\":1}");
  CHECK(ethos::default_config().sha256 == "4bb224166a04a25fed2dd3ecdb9638ddcc5b398658532b73f1c0547e4983d0b0");
  // A context reset after a digest, or with input pending, starts over: verify-batch hashes one
  // claims array per line with one context per thread.
  const std::string abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  ethos::Sha256 digest;
  digest.update("abc");
  CHECK(digest.hex() == abc);
  digest.reset();
  digest.update("abc");
  CHECK(digest.hex() == abc);
  digest.reset();
  digest.update("left over");
  digest.reset();
  digest.update("ab");
  digest.update("c");
  CHECK(digest.hex() == abc);
  CHECK(ethos::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

// Integers are written in their shortest decimal form, the int64 extremes included.
// Digests' hex (known vectors), and the fingerprint check (sixteen characters a test with SSE2)
// against a character-by-character one: a valid digest with every byte value at every position,
// and lengths around 64.
void test_sha256_hex_check() {
  const auto plain = [](const std::string& text) {
    if (text.size() != 64) return false;
    for (char c : text) {
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    return true;
  };
  const std::string digest = ethos::sha256_hex("ethos");
  CHECK(ethos::is_sha256_hex(digest) && ethos::is_sha256_prefixed("sha256:" + digest));
  // Digests written sixteen bytes at a time (SSE2): known vectors, every nibble value in every half.
  std::string bytes;
  for (int b = 0; b < 256; ++b) bytes.push_back(static_cast<char>(b));
  CHECK(ethos::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(ethos::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(digest == "95175e23c3cbf2c28d29a4c95a25eb4946485930c168a8a216eb37a59a2c5636");
  CHECK(ethos::sha256_hex("The quick brown fox jumps over the lazy dog") ==
        "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
  CHECK(ethos::sha256_hex(bytes) == "40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880");
  int refused = 0;
  for (std::size_t at = 0; at < 64; ++at) {
    for (int byte = 0; byte < 256; ++byte) {
      std::string text = digest;
      text[at] = static_cast<char>(byte);
      CHECK(ethos::is_sha256_hex(text) == plain(text));
      CHECK(ethos::is_sha256_prefixed("sha256:" + text) == plain(text));
      if (!plain(text)) ++refused;
    }
  }
  CHECK(refused == 64 * (256 - 16));
  for (const std::string& text : {digest.substr(1), digest + "0", std::string(), std::string(64, '0'), std::string(64, 'f'),
                                  std::string(64, 'F'), std::string(64, '/'), std::string(64, 'g'), std::string(64, ':')}) {
    CHECK(ethos::is_sha256_hex(text) == plain(text));
  }
}

void test_integers() {
  std::string out;
  ethos::CanonicalWriter writer(out);
  writer.begin_array();
  for (std::int64_t number : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{42}, INT64_MAX, INT64_MIN}) {
    writer.integer(number);
  }
  writer.end_array();
  CHECK(out == "[0,-1,42,9223372036854775807,-9223372036854775808]");
}

void test_strict_json() {
  CHECK(parse_error(R"({"a":1,"a":2})").find("duplicate key") != std::string::npos);
  CHECK(parse_error(R"({"a":{"b":[1,1.5]}})").find("\"path\":\"$.a.b[1]\"") != std::string::npos);
  CHECK(parse_error(R"({"c":[{"k":1},{"k":1,"k":2}]})").find("\"path\":\"$.c[1].k\"") != std::string::npos);
  CHECK(parse_error(R"([1e3])").find("number is not an integer") != std::string::npos);
  CHECK(parse_error(R"([9007199254740992])").find("integer out of range") != std::string::npos);
  CHECK(parse_error("\xEF\xBB\xBF{}").find("byte order mark") != std::string::npos);
  CHECK(parse_error("[\"\xC3\x28\"]").find("invalid UTF-8") != std::string::npos);
  CHECK(parse_error(std::string(65, '[') + std::string(65, ']')).find("nesting too deep") != std::string::npos);
  CHECK(parse_error(R"({"x":[-0]})").empty());
  CHECK(ethos::to_c14n(ethos::parse_strict(R"({"x":[-0]})", "test").root()) == R"({"x":[0]})");
  CHECK(ethos::to_c14n(ethos::parse_strict(R"({"b":{"d":1,"c":[true,null]},"a":"é"})", "test").root()) ==
        "{\"a\":\"\xc3\xa9\",\"b\":{\"c\":[true,null],\"d\":1}}");
  CHECK(parse_error(R"([{"a":1},{"b":[1,{"c":2.5}]}])").find("\"path\":\"$[1].b[1].c\"") != std::string::npos);
  CHECK(parse_error(R"({"a":1,"b":{},"a":2} x)").find("duplicate key") != std::string::npos);
  // Objects of up to 32 members keep their keys on the stack, larger ones in a vector (scanned,
  // then sorted past 32 keys): a repeat is found in each, at its own path, and distinct keys pass.
  const auto object_of = [](std::size_t count, const std::string& last) {
    std::string text = "{\"o\":{";
    for (std::size_t i = 0; i < count; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
    return text + "\"" + last + "\":0}}";
  };
  for (std::size_t count : {std::size_t{3}, std::size_t{31}, std::size_t{32}, std::size_t{40}, std::size_t{100}}) {
    const std::string error = parse_error(object_of(count, "k0"));
    CHECK(error.find("duplicate key") != std::string::npos && error.find("\"path\":\"$.o.k0\"") != std::string::npos);
    CHECK(parse_error(object_of(count, "k" + std::to_string(count - 1))).find("duplicate key") != std::string::npos);
    CHECK(parse_error(object_of(count, "last")).empty());
  }
  CHECK(parse_error(R"([1,2)").find("invalid JSON syntax") != std::string::npos);
  // The walk keeps its first 16 path segments in itself, deeper ones aside: a path of 20 levels,
  // object keys and array indexes alternating, is spelled out whole.
  std::string deep, deep_path = "$";
  for (int i = 0; i < 10; ++i) {
    deep += "{\"k" + std::to_string(i) + "\":[0,";  // key k<i>, then item 1 of its array
    deep_path += ".k" + std::to_string(i) + "[1]";
  }
  deep += "1.5";
  for (int i = 0; i < 10; ++i) deep += "]}";
  CHECK(parse_error(deep).find("\"path\":\"" + deep_path + "\"") != std::string::npos);
}

// Opening a document reads it on two threads; a strictness violation must still win over any
// typed error, wherever each sits in the document, so the envelope never depends on timing.
void test_document_error_precedence() {
  const std::string input = R"({"schema_version":"1.0.0","payload":{"pages":[{"id":"p0001","id":"p0002"}]}})";
  for (int round = 0; round < 50; ++round) {
    try {
      ethos::load_native_document(input);
      CHECK(false);
    } catch (const ethos::EthosError& error) {
      CHECK(error.envelope().find("duplicate key") != std::string::npos);
      CHECK(error.envelope().find("\"path\":\"$.payload.pages[0].id\"") != std::string::npos);
    }
  }
  try {
    ethos::load_native_document(R"({"schema_version":"1.0.0"})");
    CHECK(false);
  } catch (const ethos::EthosError& error) {
    CHECK(error.envelope().find("missing required field") != std::string::npos);
  }
}

void test_normalization() {
  ethos::NormalizationOptions collapse;
  CHECK(ethos::normalize_text(" a \t\r\n b\xC2\xA0 ", collapse) == "a b");
  CHECK(ethos::normalize_text("a\xC2\xA0\xC2\xA0 b", collapse) == "a\xC2\xA0\xC2\xA0 b");
  CHECK(ethos::normalize_text("a\x0B b", collapse) == "a\x0B b");
  ethos::NormalizationOptions compat{ethos::NormalizationProfile::unicode_compat_v1, false};
  CHECK(ethos::normalize_text("\xE2\x80\x9C\xEF\xAC\x81ne\xE2\x80\x9D \xE2\x80\x94 x\xC2\xAD\xE2\x80\xA6", compat) == "\"fine\" - x...");
  ethos::NormalizationOptions lower{ethos::NormalizationProfile::collapse_whitespace, true};
  CHECK(ethos::normalize_text("ÉCOLE \xC4\xB0", lower) == "\xC3\xA9" "cole i\xCC\x87");
  CHECK(ethos::normalize_text("ΟΔΟΣ", lower) == "οδος");
  const auto mapped = ethos::normalize("  ab  cd", collapse, true);
  CHECK(mapped.text == "ab cd");
  CHECK(mapped.original_begin(3) == 6 && mapped.original_end(5) == 8);
}

// Runs a shared vector file of schemas/ (the same vectors pytest reads): {profile, vectors[]}.
void test_vector_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  CHECK(!bytes.str().empty());
  if (bytes.str().empty()) return;
  const nlohmann::json document = ethos::parse_strict_dom(bytes.str(), "vectors");
  const std::string profile = document.at("profile").get<std::string>();
  ethos::NormalizationOptions options;
  options.profile = profile == "unicode_compat_v1" ? ethos::NormalizationProfile::unicode_compat_v1
                                                   : ethos::NormalizationProfile::collapse_whitespace;
  for (const auto& vector : document.at("vectors")) {
    const std::string got = ethos::normalize_text(vector.at("input").get<std::string>(), options);
    if (got != vector.at("expected").get<std::string>()) {
      std::fprintf(stderr, "vector %s (%s): got \"%s\"\n", vector.at("name").get<std::string>().c_str(), profile.c_str(),
                   got.c_str());
      ++failures;
    }
  }
}

// The c14n v1 escape of one string, byte by byte: the reference the writer's word-at-a-time scan
// must match.
std::string reference_escape(const std::string& text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char byte : text) {
    const auto c = static_cast<unsigned char>(byte);
    if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else if (c == '\b') out += "\\b";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\f') out += "\\f";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20) out += std::string("\\u00") + kHex[c >> 4] + kHex[c & 0x0f];
    else out += byte;
  }
  return out + "\"";
}

std::string writer_escape(const std::string& text) {
  std::string out;
  ethos::CanonicalWriter writer(out);
  writer.string(text);
  return out;
}

// Keys must come in byte order (unsigned bytes, as c14n sorts them): the writer throws
// internal_error on a key that is not after the one before, whether the two differ in their
// first byte or later, and on a repeated key.
bool keys_in_order(const std::vector<std::string>& names) {
  std::string out;
  ethos::CanonicalWriter writer(out);
  writer.begin_object();
  try {
    for (const std::string& name : names) writer.member(name, std::int64_t{0});
  } catch (const ethos::EthosError& error) {
    CHECK(std::string(error.code()) == "internal_error");
    return false;
  }
  return true;
}

void test_key_order() {
  CHECK(keys_in_order({"", "a", "ab", "ac", "b", "z", "\xc3\xa9"}));
  CHECK(keys_in_order({"A", "a", "aa", "aaa"}));
  CHECK(!keys_in_order({"b", "a"}));
  CHECK(!keys_in_order({"ac", "ab"}));       // same first byte, out of order later
  CHECK(!keys_in_order({"ab", "a"}));        // a prefix sorts first
  CHECK(!keys_in_order({"a", "a"}));         // repeated
  CHECK(!keys_in_order({"\xc3\xa9", "z"}));  // bytes above 0x7f sort after ASCII
  CHECK(!keys_in_order({"a", ""}));
}

// A run of members written once and copied as bytes (verify-batch's report constants) gives the
// bytes of the same members written key by key, and its first and last keys keep the order check.
void test_raw_members() {
  std::string keyed;
  {
    ethos::CanonicalWriter writer(keyed);
    writer.begin_object();
    writer.member("a", std::int64_t{1});
    writer.member("b", "x");
    writer.member("c", std::int64_t{2});
    writer.member("d", std::int64_t{3});
    writer.end_object();
  }
  const auto with_run = [](const std::vector<std::string>& before, const std::vector<std::string>& after) {
    std::string out;
    ethos::CanonicalWriter writer(out);
    writer.begin_object();
    for (const std::string& name : before) writer.member(name, std::int64_t{1});
    writer.raw_members("b", "c", R"("b":"x","c":2)");
    for (const std::string& name : after) writer.member(name, std::int64_t{3});
    writer.end_object();
    return out;
  };
  CHECK(with_run({"a"}, {"d"}) == keyed);
  CHECK(with_run({}, {}) == R"({"b":"x","c":2})");
  const auto refused = [&](const std::vector<std::string>& before, const std::vector<std::string>& after) {
    try {
      with_run(before, after);
    } catch (const ethos::EthosError& error) {
      return std::string(error.code()) == "internal_error";
    }
    return false;
  };
  CHECK(refused({"b"}, {}));   // the run's first key repeats the key before it
  CHECK(refused({"bz"}, {}));  // ... or sorts before it
  CHECK(refused({}, {"c"}));   // a key after the run must sort after the run's last key
  CHECK(!refused({"a"}, {"ca"}));
}

// Every byte value at every position of a 16-byte block and an 8-byte word, in strings long enough for the clean
// skips to run before, over and after it, alone and next to other escapes.
void test_string_escape() {
  int mismatches = 0;
  for (int value = 0; value < 256; ++value) {
    for (std::size_t length = 1; length <= 40; ++length) {
      for (std::size_t at = 0; at < length; ++at) {
        std::string text(length, 'a');
        text[at] = static_cast<char>(value);
        if (writer_escape(text) != reference_escape(text)) ++mismatches;
        text[length - 1 - at] = '"';  // a second escape in the same or another word
        text[at] = static_cast<char>(value);
        if (writer_escape(text) != reference_escape(text)) ++mismatches;
      }
    }
  }
  CHECK(mismatches == 0);
  // Bytes next to the escape set's bounds (0x1f/0x20, 0x21/0x22/0x23, 0x5b/0x5c/0x5d, 0x7f, 0x80+).
  const std::string edges = "\x1f\x20\x21\x22\x23\x5b\x5c\x5d\x7f\x80\xff\xc3\xa9 tail of clean text";
  CHECK(writer_escape(edges) == reference_escape(edges));
  CHECK(writer_escape("") == "\"\"");
  // Keys: plain short ones take the one-append path, others the escaping one.
  std::string object;
  const std::string long_key(40, 'k');  // keys must outlive the next key() (order check)
  ethos::CanonicalWriter keys(object);
  keys.begin_object();
  keys.member("a", std::int64_t{1});
  keys.member("a\"b", std::int64_t{2});
  keys.member(long_key, std::int64_t{3});
  keys.member("z\n", std::int64_t{4});
  keys.end_object();
  CHECK(object == "{\"a\":1,\"a\\\"b\":2,\"" + long_key + "\":3,\"z\\n\":4}");
  CHECK(writer_escape(std::string(40, 'x') + "\n") == "\"" + std::string(40, 'x') + "\\n\"");
  test_key_order();
}

}  // namespace

// Keys spelled as string literals take key()'s literal path: the same bytes as the same names
// given as string views (first member and later ones), the same order check, escaping for a
// literal that needs it, names longer than the short-key buffer, and a char array holding a
// shorter name than its size.
void test_literal_keys() {
  std::string by_view, by_literal;
  {
    ethos::CanonicalWriter writer(by_view);
    writer.begin_object();
    for (std::string_view name : {"a\"b", "id", "match", "nested", "this_name_is_longer_than_thirty_two_bytes"}) {
      writer.key(name);
      if (name == "nested") {
        writer.begin_object();
        writer.member(std::string_view("x"), std::int64_t{1});
        writer.end_object();
      } else {
        writer.boolean(true);
      }
    }
    writer.end_object();
  }
  {
    ethos::CanonicalWriter writer(by_literal);
    writer.begin_object();
    writer.member_bool("a\"b", true);
    writer.member_bool("id", true);
    writer.key("match");
    writer.boolean(true);
    writer.key("nested");
    writer.begin_object();
    writer.member("x", std::int64_t{1});
    writer.end_object();
    writer.member_bool("this_name_is_longer_than_thirty_two_bytes", true);
    writer.end_object();
  }
  CHECK(by_literal == by_view);
  CHECK(by_literal == R"({"a\"b":true,"id":true,"match":true,"nested":{"x":1},"this_name_is_longer_than_thirty_two_bytes":true})");
  std::string out;
  ethos::CanonicalWriter writer(out);
  writer.begin_object();
  const char partly_filled[16] = "ab";
  writer.member("a", "x");
  writer.member(partly_filled, "y");
  bool refused = false;
  try {
    writer.member("a", "z");  // out of order after "ab"
  } catch (const ethos::EthosError& error) {
    refused = std::string(error.code()) == "internal_error";
  }
  CHECK(refused);
  CHECK(out == R"({"a":"x","ab":"y")");
}

// The writer keeps its first open levels in itself and deeper ones aside: separators and closing
// brackets stay right across that boundary, on the way down and back up.
void test_writer_deep_nesting() {
  constexpr int kDepth = 40;
  std::string out;
  ethos::CanonicalWriter writer(out);
  std::string expected;
  for (int i = 0; i < kDepth; ++i) {
    if (i % 2 == 0) {
      writer.begin_array();
      writer.integer(i);
      expected += "[" + std::to_string(i);  // the outer array, or the value of the object's "k"
    } else {
      writer.begin_object();
      writer.key("k");
      expected += ",{\"k\":";
    }
  }
  writer.integer(-1);  // the innermost object's "k"
  expected += "-1";
  for (int i = kDepth - 1; i >= 0; --i) {
    if (i % 2 == 0) {
      writer.end_array();
      expected += "]";
      if (i > 0) {
        // back inside the object at depth i - 1: one more member after "k"
        writer.key("z");
        writer.integer(i);
        expected += ",\"z\":" + std::to_string(i);
      }
    } else {
      writer.end_object();
      expected += "}";
      writer.integer(i);  // back in the array at depth i - 1: its next item
      expected += "," + std::to_string(i);
    }
  }
  CHECK(out == expected);
}

// The stack's first N items live in itself, the rest in its vector: pushing far past N and
// popping back to empty gives every item back at its index and as the top, in order.
void test_inline_stack() {
  ethos::InlineStack<int, 4> stack;
  CHECK(stack.empty());
  bool pushed = true;
  for (int i = 0; i < 11; ++i) {
    int& top = stack.push(i * 10);
    pushed = pushed && top == i * 10 && &top == &stack.top() && stack.size() == static_cast<std::size_t>(i + 1);
  }
  CHECK(pushed);
  bool indexed = true;
  for (int i = 0; i < 11; ++i) indexed = indexed && stack[static_cast<std::size_t>(i)] == i * 10;
  CHECK(indexed);
  stack.top() = -1;  // the top is writable where it lives
  CHECK(stack[10] == -1);
  bool popped = true;
  for (int i = 10; i > 0; --i) {
    stack.pop();
    popped = popped && stack.top() == (i - 1) * 10 && stack.size() == static_cast<std::size_t>(i);
  }
  stack.pop();
  CHECK(popped && stack.empty());
  stack.push(7);  // reused after emptying
  CHECK(stack.top() == 7 && stack.size() == 1);
}

// Writes one document of pieces of every length a report has (1..40 bytes, escapes, a text
// longer than the writer's room, integers, nesting).
void write_pieces(ethos::CanonicalWriter& writer) {
  writer.begin_array();
  std::string text;
  for (int size = 0; size <= 40; ++size) {
    writer.string(text);
    writer.integer(-size * 12345);
    text += static_cast<char>('a' + size % 26);
  }
  writer.begin_object();
  writer.member("a", "tab\there \"quoted\" \x01");
  writer.member_bool("b", false);
  writer.key("long");
  writer.string(std::string(5000, 'x') + "\n" + std::string(3000, 'y'));
  writer.end_object();
  writer.raw(R"({"raw":[1,2]})");
  writer.end_array();
}

// In place, the writer claims room at the end of its string and gives back what it did not
// write at finish() or its end; a sink gets the same bytes in pieces: all three write the bytes
// a plain string target gets, after what the string already held.
void test_writer_in_place() {
  std::string plain = "head";
  {
    ethos::CanonicalWriter writer(plain);
    write_pieces(writer);
  }
  std::string in_place = "head";
  {
    ethos::CanonicalWriter writer(in_place, ethos::CanonicalWriter::InPlace{});
    write_pieces(writer);
  }  // the room is given back here
  CHECK(in_place == plain);
  std::string finished = "head";
  ethos::CanonicalWriter writer(finished, ethos::CanonicalWriter::InPlace{});
  write_pieces(writer);
  writer.finish();
  CHECK(finished == plain);
  std::string sunk = "head";
  std::size_t calls = 0;
  ethos::CanonicalWriter sink_writer([&](std::string_view bytes) {
    sunk.append(bytes);
    ++calls;
  });
  for (int i = 0; i < 20; ++i) write_pieces(sink_writer);  // more than one flush of the buffer
  sink_writer.finish();
  std::string twenty = "head";
  for (int i = 0; i < 20; ++i) twenty += plain.substr(4);
  CHECK(sunk == twenty);
  CHECK(calls > 1);
}

std::string describe(const ethos::CitationSet& set) {
  std::string out = set.document_fingerprint ? *set.document_fingerprint : "-";
  out += "|" + set.claims_sha256;
  for (const ethos::Claim& claim : set.claims) {
    const ethos::Citation& c = claim.citation;
    out += "|" + claim.kind + "/" + (claim.text ? *claim.text : "-") + "/" + claim.echo + "/" + (c.page ? *c.page : "-") +
           "/" + (c.element_id ? *c.element_id : "-") + "/" + (c.span_id ? *c.span_id : "-") + "/" +
           (c.page_end ? *c.page_end : "-") + "/" + (c.document_scope ? "doc" : "-") + "/" + (c.bbox ? "bbox" : "-");
  }
  return out;
}

// verify-batch reads each line into the previous line's set: whatever that set held (more or
// fewer claims, a fingerprint, texts, locators), the result is what a fresh load gives.
void test_citations_reuse() {
  const std::string fingerprint = "sha256:" + std::string(64, 'a');
  const std::vector<std::string> inputs = {
      R"({"document_fingerprint":")" + fingerprint +
          R"(","claims":[{"kind":"quote","text":"a long enough quoted text to need its own allocation","citation":{"page":"p1","element_id":"e1"}},)"
          R"({"kind":"value","text":"42","citation":{"page":"p2","bbox":[0,0,10,10]}},)"
          R"({"kind":"presence","citation":{"page":"p1","page_end":"p3"}}]})",
      R"([{"kind":"quote","text":"short","citation":{"span_id":"s1"}}])",
      R"({"claims":[{"kind":"quote","text":"x","citation":{"page":"p1","scope":"document"}},{"kind":"presence","citation":{"element_id":"e9"}}]})",
  };
  simdjson::dom::parser parser;
  for (const std::string& first : inputs) {
    for (const std::string& second : inputs) {
      ethos::CitationSet reused;
      ethos::load_citations_into(parser, first, 100, ethos::ClaimValidation::strict, reused);
      ethos::load_citations_into(parser, second, 100, ethos::ClaimValidation::strict, reused);
      const ethos::CitationSet fresh = ethos::load_citations(second, 100, ethos::ClaimValidation::strict);
      CHECK(describe(reused) == describe(fresh));
    }
  }
}

int main(int argc, char** argv) {
  test_literal_keys();
  test_writer_deep_nesting();
  test_writer_in_place();
  test_inline_stack();
  test_citations_reuse();
  test_c14n_and_hashes();
  test_integers();
  test_sha256_hex_check();
  test_string_escape();
  test_raw_members();
  test_strict_json();
  test_normalization();
  test_document_error_precedence();
  for (int i = 1; i < argc; ++i) test_vector_file(argv[i]);
  return ethos_test::finish("core_tests");
}
