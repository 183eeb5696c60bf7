// strict_json_tests.cpp - the strict reader's duplicate-key check on hostile sizes: still exact, near-linear work.
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "json/strict_json.hpp"
#include "test_check.hpp"

namespace {

// Key `i` of a generated object; the members are written in a scrambled order so a sort has work to do.
std::string key_of(std::size_t i) { return "key" + std::to_string(i); }

// {"key<p(0)>":0,...} with n members in the order p(i) = i * 7919 mod n (n not a multiple of 7919),
// then `tail` (already comma-led when not empty) before the closing brace.
std::string object_of(std::size_t n, const std::string& tail = std::string()) {
  std::string out = "{";
  for (std::size_t i = 0; i < n; ++i) {
    if (i != 0) out += ",";
    out += "\"" + key_of((i * 7919) % n) + "\":" + std::to_string(i % 1000);
  }
  return out + tail + "}";
}

// The envelope parse_strict throws for `bytes`, or "" when it accepts them.
std::string envelope_of(const std::string& bytes) {
  try {
    ethos::parse_strict(bytes, "config");
  } catch (const ethos::EthosError& error) {
    return error.envelope();
  }
  return std::string();
}

std::string dom_envelope_of(const std::string& bytes) {
  try {
    ethos::parse_strict_dom(bytes, "config");
  } catch (const ethos::EthosError& error) {
    return error.envelope();
  }
  return std::string();
}

// A duplicate as the last of 200,000 members is found, with the same envelope as in a small object
// (the large-object check must not change what is reported), by both readers.
void test_duplicate_deep_in_a_huge_object() {
  const std::size_t n = 200000;
  const std::string small = envelope_of("{\"a\":1,\"" + key_of(123) + "\":2,\"" + key_of(123) + "\":3}");
  CHECK(small.find("\"duplicate key\"") != std::string::npos);
  CHECK(small.find("\"path\":\"$.key123\"") != std::string::npos);
  const std::string huge = object_of(n, ",\"" + key_of(123) + "\":7");
  CHECK(envelope_of(huge) == small);
  CHECK(dom_envelope_of(huge) == small);
  CHECK(envelope_of(object_of(n)).empty());  // distinct keys load
  CHECK(dom_envelope_of(object_of(n)).empty());
}

// In a large object the first violation in document order is reported, whether it is a
// duplicate key or a bad value before or after it, and the first of several duplicates wins.
void test_first_violation_in_document_order() {
  std::string body;
  for (int i = 0; i < 100; ++i) body += (i ? "," : "") + std::string("\"k") + std::to_string(i) + "\":" + std::to_string(i);
  // A float at k100 comes before the duplicate of k10: the float is reported.
  std::string text = "{" + body + ",\"k100\":1.5,\"k10\":0}";
  std::string envelope = envelope_of(text);
  CHECK(envelope.find("number is not an integer") != std::string::npos && envelope.find("$.k100") != std::string::npos);
  CHECK(dom_envelope_of(text) == envelope);
  // The duplicate of k10 comes first: it is reported, not the float after it.
  text = "{" + body + ",\"k10\":0,\"k100\":1.5}";
  envelope = envelope_of(text);
  CHECK(envelope.find("duplicate key") != std::string::npos && envelope.find("$.k10\"") != std::string::npos);
  CHECK(dom_envelope_of(text) == envelope);
  // Two duplicates: k50 repeated first (later in the sort order than k5), then k5.
  text = "{" + body + ",\"k50\":0,\"k5\":0}";
  envelope = envelope_of(text);
  CHECK(envelope.find("duplicate key") != std::string::npos && envelope.find("$.k50\"") != std::string::npos);
  CHECK(dom_envelope_of(text) == envelope);
  // A value nested under a large object keeps its full path.
  text = "{" + body + ",\"inner\":{\"x\":1,\"x\":2}}";
  envelope = envelope_of(text);
  CHECK(envelope.find("$.inner.x\"") != std::string::npos);
  CHECK(dom_envelope_of(text) == envelope);
}

// Many nested objects (an array of 5,000 objects of 40 members each): a duplicate in the last is found.
void test_duplicate_in_the_last_of_many_objects() {
  std::string text = "[";
  for (int i = 0; i < 5000; ++i) text += (i ? "," : "") + object_of(40);
  text += "," + object_of(40, ",\"" + key_of(39) + "\":1") + "]";
  const std::string envelope = envelope_of(text);
  CHECK(envelope.find("duplicate key") != std::string::npos && envelope.find("$[5000].key39\"") != std::string::npos);
}

std::uint64_t comparisons_for(const std::string& bytes) {
  const std::uint64_t before = ethos::strict_key_comparisons();
  ethos::parse_strict(bytes, "config");
  return ethos::strict_key_comparisons() - before;
}

// Doubling the members of one object (or the number of objects) at most a little more than
// doubles the key comparisons: n log n, where the old check re-sorted all keys per key (~n^2 log n).
void test_comparisons_grow_near_linearly() {
  std::uint64_t previous = 0;
  for (std::size_t n = 25000; n <= 200000; n *= 2) {
    const std::uint64_t count = comparisons_for(object_of(n));
    CHECK(count > 0);
    if (previous != 0) {
      std::printf("one object: %zu keys, %llu comparisons (x%.2f)\n", n, static_cast<unsigned long long>(count),
                  static_cast<double>(count) / static_cast<double>(previous));
      CHECK(count <= previous * 5 / 2);
    }
    previous = count;
  }
  previous = 0;
  for (std::size_t objects = 1000; objects <= 8000; objects *= 2) {
    std::string text = "[";
    for (std::size_t i = 0; i < objects; ++i) text += (i ? "," : "") + object_of(i % 2 ? 20 : 60);
    const std::uint64_t count = comparisons_for(text + "]");
    if (previous != 0) CHECK(count <= previous * 5 / 2);
    previous = count;
  }
}

}  // namespace

int main() {
  test_duplicate_deep_in_a_huge_object();
  test_first_violation_in_document_order();
  test_duplicate_in_the_last_of_many_objects();
  test_comparisons_grow_near_linearly();
  return ethos_test::finish("strict_json_tests");
}
