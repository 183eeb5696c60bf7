// match_tests.cpp - the matching ladder against the shared vectors (schemas/matching-vectors.json),
// plus policy parsing, presets and fingerprints.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "json/c14n.hpp"
#include "json/sha256.hpp"
#include "json/strict_json.hpp"
#include "match/find_all.hpp"
#include "match/ladder.hpp"
#include "match/matcher.hpp"
#include "match/policy.hpp"
#include "match/gram_index.hpp"
#include "match/junction_reading.hpp"
#include "match/offset_map.hpp"
#include "match/tokens.hpp"
#include "text/utf8.hpp"
#include "random_text.hpp"
#include "test_check.hpp"

namespace {

using ethos_test::failures;

using ethos::match::Tier;

std::string to_utf8(const std::u32string& text) {
  std::string out;
  for (char32_t c : text) ethos::utf8::append(out, c);
  return out;
}

void fail_vector(const std::string& name, const std::string& what) {
  std::fprintf(stderr, "vector \"%s\": %s\n", name.c_str(), what.c_str());
  ++failures;
}

// Runs one search vector: the reported verdict and match as the verifier derives them.
void run_search(const nlohmann::json& vector, const ethos::match::Policy& policy, const std::vector<std::int64_t>& hyphens) {
  const std::string name = vector.at("name").get<std::string>();
  const std::string kind = vector.value("kind", std::string("quote"));
  ethos::match::LineArtifacts artifacts;
  artifacts.hyphen_breaks = &hyphens;
  const auto target = ethos::match::build_ladder(vector.at("text").get<std::string>(), policy.ladder, artifacts);
  const auto expected = ethos::match::build_ladder(vector.at("quote").get<std::string>(), policy.ladder);
  const auto rule = kind == "quote" ? ethos::match::TextRule::contains : ethos::match::TextRule::equals;
  const auto found = ethos::match::search_ladder(target, expected, rule, policy);
  std::string status = "text_mismatch";
  std::optional<ethos::match::Located> reported;
  if (found.whole && policy.accepts(found.whole->tier)) {
    status = "grounded";
    reported = found.whole;
  } else if (found.clipped && policy.accepts(found.clipped->tier)) {
    status = "token_boundary";
    reported = found.clipped;
  } else if (found.whole) {
    reported = found.whole;
  }
  if (status != vector.at("status").get<std::string>()) fail_vector(name, "status " + status);
  if (vector.at("tier").is_null()) {
    if (reported) fail_vector(name, std::string("unexpected match at ") + ethos::match::tier_name(reported->tier));
    return;
  }
  if (!reported) return fail_vector(name, "no match reported");
  if (vector.at("tier").get<std::string>() != ethos::match::tier_name(reported->tier)) {
    fail_vector(name, std::string("tier ") + ethos::match::tier_name(reported->tier));
  }
  if (vector.at("start").get<std::int64_t>() != reported->start || vector.at("end").get<std::int64_t>() != reported->end) {
    fail_vector(name, "offsets " + std::to_string(reported->start) + ".." + std::to_string(reported->end));
  }
}

void test_vectors(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  CHECK(!bytes.str().empty());
  if (bytes.str().empty()) return;
  const nlohmann::json document = ethos::parse_strict_dom(bytes.str(), "vectors");
  const ethos::match::LadderOptions options = ethos::match::preset_policy("default")->ladder;
  for (const auto& vector : document.at("tier_vectors")) {
    const auto tier = ethos::match::tier_from_name(vector.at("tier").get<std::string>());
    CHECK(tier.has_value());
    const std::string got = to_utf8(ethos::match::normalize_for_tier(vector.at("input").get<std::string>(), *tier, options).text);
    if (got != vector.at("expected").get<std::string>()) fail_vector(vector.at("name").get<std::string>(), "got \"" + got + "\"");
  }
  for (const auto& vector : document.at("search_vectors")) {
    run_search(vector, *ethos::match::preset_policy(vector.at("policy").get<std::string>()), {});
  }
  for (const auto& vector : document.at("hyphenation_vectors")) {
    run_search(vector, *ethos::match::preset_policy("default"), vector.at("hyphen_breaks").get<std::vector<std::int64_t>>());
  }
}

std::string policy_error(const std::string& text) {
  try {
    ethos::match::load_policy(text);
    return "";
  } catch (const ethos::EthosError& error) {
    return error.envelope();
  }
}

void test_policies() {
  const auto* strict = ethos::match::preset_policy("strict");
  const auto* standard = ethos::match::preset_policy("default");
  const auto* permissive = ethos::match::preset_policy("permissive");
  CHECK(strict && standard && permissive && !ethos::match::preset_policy("lenient"));
  CHECK(strict->accepts(Tier::whitespace) && !strict->accepts(Tier::typography));
  CHECK(standard->accepts(Tier::case_folded) && !standard->accepts(Tier::skeleton));
  CHECK(permissive->accepts(Tier::skeleton));
  // The fingerprint is the hash of the canonical policy, and a preset is its own canonical form.
  CHECK(standard->fingerprint == "sha256:" + ethos::sha256_hex(standard->canonical_json));
  CHECK(ethos::match::load_policy(standard->canonical_json).fingerprint == standard->fingerprint);
  CHECK(strict->fingerprint != standard->fingerprint && standard->fingerprint != permissive->fingerprint);
  // A user policy written with other key order and spacing has the same fingerprint.
  nlohmann::json reordered = nlohmann::json::parse(standard->canonical_json);
  CHECK(ethos::match::load_policy(reordered.dump(2)).fingerprint == standard->fingerprint);

  const auto with = [&](const char* pointer, nlohmann::json value) {
    nlohmann::json policy = nlohmann::json::parse(standard->canonical_json);
    policy[nlohmann::json::json_pointer(pointer)] = std::move(value);
    return policy_error(policy.dump());
  };
  CHECK(with("/tiers", nlohmann::json::array({"case", "exact"})).find("$.tiers[1]") != std::string::npos);
  CHECK(with("/tiers", nlohmann::json::array()).find("list must not be empty") != std::string::npos);
  CHECK(with("/accept_up_to", "skeletons").find("$.accept_up_to") != std::string::npos);
  CHECK(with("/tiers", nlohmann::json::array({"exact", "whitespace"})).find("accept_up_to must name a listed tier") !=
        std::string::npos);
  CHECK(with("/guards/numeric", "yes").find("$.guards.numeric") != std::string::npos);
  CHECK(with("/near_miss/max_candidates", 0).find("$.near_miss.max_candidates") != std::string::npos);
  CHECK(with("/near_miss/max_quote_tokens", 5000).find("$.near_miss.max_quote_tokens") != std::string::npos);
  CHECK(with("/elision/window_chars", -1).find("$.elision.window_chars") != std::string::npos);
  CHECK(with("/near_miss/min_score_bp", 10001).find("$.near_miss.min_score_bp") != std::string::npos);
  CHECK(with("/boundaries/extra", true).find("unknown field") != std::string::npos);
  CHECK(with("/policy_version", "2.0.0").find("$.policy_version") != std::string::npos);
  CHECK(policy_error(R"({"name":"x","name":"y"})").find("duplicate key") != std::string::npos);
  CHECK(policy_error(R"({"name":"x"})").find("missing required field") != std::string::npos);
}

void test_token_boundaries() {
  const std::u32string text = U"Revenue grew 12.5% to \u00bd";
  CHECK(!ethos::match::is_token_boundary(text, 2));   // inside Revenue
  CHECK(ethos::match::is_token_boundary(text, 7));    // after Revenue
  CHECK(!ethos::match::is_token_boundary(text, 15));  // 12|.5
  CHECK(!ethos::match::is_token_boundary(text, 16));  // 12.|5
  CHECK(!ethos::match::is_token_boundary(text, 17));  // 12.5|%
  CHECK(ethos::match::is_token_boundary(text, 18));   // after %
  CHECK(ethos::match::is_token_boundary(text, 0) && ethos::match::is_token_boundary(text, text.size()));
  const std::u32string fraction = U"1\u00bd";  // "1" is not a token of "1½"
  CHECK(!ethos::match::is_token_boundary(fraction, 1));
  const std::u32string compound = U"pre-5G";  // a hyphen after a word is not a sign
  CHECK(ethos::match::is_token_boundary(compound, 4));
}

// find_all against repeated std::find on random texts: small alphabets (overlapping and adjacent
// occurrences), scalars that share a low byte (U+0061 and U+0161: one skip-table entry), empty
// and one-scalar needles, needles longer than the text; UTF-32 and UTF-16.
template <typename CharT>
void check_find_all(const std::basic_string<CharT>& text, const std::basic_string<CharT>& needle) {
  std::vector<std::size_t> want;
  for (std::size_t pos = text.find(needle); pos != std::basic_string<CharT>::npos; pos = text.find(needle, pos + 1)) {
    want.push_back(pos);
  }
  CHECK(ethos::match::find_all(std::basic_string_view<CharT>(text), std::basic_string_view<CharT>(needle)) == want);
  // The skipping scan is the vector scan's fallback: checked on its own where the vector one runs.
  CHECK(ethos::match::find_all_skipping(std::basic_string_view<CharT>(text), std::basic_string_view<CharT>(needle)) ==
        want);
}

void test_find_all() {
  std::uint32_t seed = 777;
  const auto next = [&seed]() {
    seed = seed * 1103515245U + 12345U;
    return (seed >> 16) & 0x7FFFU;
  };
  const char32_t letters[] = {U'a', U'b', U'\u0161', U'\u0162', U'c', U'\u4e2d', U'd', U'e'};
  for (int round = 0; round < 300; ++round) {
    const std::size_t alphabet = 1 + next() % (round % 2 == 0 ? 3 : 8);
    std::u32string text(next() % 200, U'a');
    for (char32_t& c : text) c = letters[next() % alphabet];
    for (int probe = 0; probe < 20; ++probe) {
      std::u32string needle;
      if (probe % 4 == 0 && !text.empty()) {  // taken from the text: at least one occurrence
        const std::size_t at = next() % text.size();
        needle = text.substr(at, 1 + next() % 12);
      } else {
        needle.resize(next() % 6);
        for (char32_t& c : needle) c = letters[next() % alphabet];
      }
      check_find_all(text, needle);
      check_find_all(std::u16string(text.begin(), text.end()), std::u16string(needle.begin(), needle.end()));
    }
  }
  // Needles longer than the one-byte skips' cap of 255 (and about it), in texts of up to 2,000
  // scalars of a small alphabet: every occurrence, overlapping ones too.
  for (int round = 0; round < 60; ++round) {
    std::u32string text(300 + next() % 1700, U'a');
    for (char32_t& c : text) c = letters[next() % (2 + round % 3)];
    for (int probe = 0; probe < 6; ++probe) {
      const std::size_t at = next() % (text.size() - 250);
      std::u32string needle = text.substr(at, 250 + next() % 300);
      if (probe % 2 == 1) needle[next() % needle.size()] = letters[next() % 8];  // maybe absent
      check_find_all(text, needle);
      check_find_all(std::u16string(text.begin(), text.end()), std::u16string(needle.begin(), needle.end()));
    }
  }
  check_find_all(std::u32string(700, U'a'), std::u32string(300, U'a'));  // every overlap of a long needle
  // The vector scan tests 16 (UTF-16) or 8 (UTF-32) positions a round and the rest one by one:
  // texts of every length around those rounds, hits in the first and last lanes and the tail;
  // scalars above U+7FFF (signed 16-bit lanes) and ones that agree in their low 16 bits only.
  const char32_t wide[] = {U'a', U'\uff41', U'\U0001f600', U'\uf600', U'b'};
  for (std::size_t size = 0; size <= 70; ++size) {
    for (std::size_t m = 1; m <= 5; ++m) {
      std::u32string text(size, U'a');
      for (std::size_t i = 0; i < size; ++i) text[i] = wide[(i * 7 + size + m) % (m == 1 ? 2 : 5)];
      for (std::size_t at = 0; at + m <= size; at += 1 + size / 7) {
        const std::u32string needle = text.substr(at, m);
        check_find_all(text, needle);
        std::u16string text16, needle16;  // BMP only: the astral scalar is not one UTF-16 unit
        for (char32_t c : text) text16.push_back(static_cast<char16_t>(c > 0xFFFF ? U'c' : c));
        for (char32_t c : needle) needle16.push_back(static_cast<char16_t>(c > 0xFFFF ? U'c' : c));
        check_find_all(text16, needle16);
      }
      check_find_all(text, std::u32string(m, U'\uf600'));  // low 16 bits of U+1F600: not a hit
    }
  }
  check_find_all(std::u32string(U"aaaa"), std::u32string(U"aa"));            // overlapping: 0, 1, 2
  check_find_all(std::u32string(U"ab"), std::u32string(U"abc"));             // longer than the text
  check_find_all(std::u32string(U"x\u0161a\u0161"), std::u32string(U"a\u0161"));  // low bytes shared
}

// The gram index finds exactly what a scan finds, ascending: small and large alphabets (long
// buckets of repeats), texts of thousands of scalars (many buckets), needles shorter than a gram
// and than a gram plus the sampling stride, needles long enough for several grams per residue
// class, absent needles, both character widths.
template <typename Text>
void check_gram_index(std::uint32_t seed) {
  using Char = typename Text::value_type;
  const auto next = [&seed]() {
    seed = seed * 1103515245U + 12345U;
    return (seed >> 16) & 0x7FFFU;
  };
  for (int round = 0; round < 120; ++round) {
    const std::size_t alphabet = 1 + next() % (round % 3 == 0 ? 2 : 40);
    Text text(next() % (round % 4 == 0 ? 6000 : 300), Char{'a'});
    for (Char& c : text) c = static_cast<Char>(0x61 + next() % alphabet + (alphabet > 30 ? 0x4000 : 0));
    const ethos::match::BasicGramIndex<Char> index(text);
    for (int probe = 0; probe < 30; ++probe) {
      Text needle;
      if (!text.empty() && probe % 2 == 0) {
        const std::size_t start = next() % text.size();
        needle = text.substr(start, 1 + next() % 24);
      } else {
        needle = Text(1 + next() % 6, static_cast<Char>(0x61 + next() % (alphabet + 1)));
      }
      std::vector<std::size_t> scanned;
      for (std::size_t pos = text.find(needle); pos != Text::npos; pos = text.find(needle, pos + 1)) scanned.push_back(pos);
      if (index.find_all(needle) != scanned) {
        ++failures;
        std::fprintf(stderr, "gram index disagrees with a scan (round %d, probe %d)\n", round, probe);
        return;
      }
    }
  }
}

void test_gram_index() {
  check_gram_index<std::u32string>(777);
  check_gram_index<std::u16string>(4242);
}

// OffsetMap::push_all gives the map of pushing its units one by one: identity runs that continue
// the open segment or break it (a gap, a start going back), constant runs, empty ranges, a shift
// that wraps, appended to maps that end in either kind of segment.
void test_offset_map_push_all() {
  std::uint32_t seed = 99;
  const auto next = [&seed]() {
    seed = seed * 1103515245U + 12345U;
    return (seed >> 16) & 0x7FFFU;
  };
  struct Unit {
    std::uint32_t start, end;
  };
  for (int round = 0; round < 200; ++round) {
    ethos::match::OffsetMap one_by_one, all;
    std::uint32_t at = next() % 50;
    for (int batch = 0; batch < 4; ++batch) {
      std::vector<Unit> units;
      const std::size_t count = next() % 40;
      for (std::size_t k = 0; k < count; ++k) {
        switch (next() % 6) {
          case 0: at += next() % 3; units.push_back({at, at}); break;                 // empty range
          case 1: units.push_back({at, at + 1 + next() % 3}); break;                 // constant or identity
          case 2: at = at > 2 ? at - next() % 3 : at; units.push_back({at, at + 1}); ++at; break;  // may go back
          default: units.push_back({at, at + 1}); ++at; break;                       // identity run
        }
      }
      const std::uint32_t shift = round % 7 == 0 ? 0xFFFFFFF0U : next() % 1000;
      for (const Unit& unit : units) one_by_one.push(unit.start + shift, unit.end + shift);
      all.push_all(units.begin(), units.end(), shift);
    }
    bool same = one_by_one.size() == all.size() && one_by_one.memory_bytes() == all.memory_bytes();
    for (std::size_t pos = 0; same && pos < all.size(); ++pos) {
      same = one_by_one.start(pos) == all.start(pos) && one_by_one.end(pos) == all.end(pos);
    }
    if (!same) {
      ++failures;
      std::fprintf(stderr, "push_all disagrees with push (round %d)\n", round);
      return;
    }
  }
}

// build_typographic_tiers (plain ASCII stretches read in one pass, the rest by the passes, cut
// between two ASCII letters) gives build_tier's typography, case and skeleton readings, scalars
// and offsets: texts mixing plain stretches with every scalar the passes change (quotation marks,
// dash runs, ligatures, composing marks, final sigma, CJK, no-break and other spaces, deletions),
// white space at the edges, with and without recorded line-end hyphens.
void test_typographic_tiers_one_pass() {
  static const char32_t kAlphabet[] = {U'a', U'b', U'Z', U'e', U'1', U' ', U' ', U'\n', U'\t', U'-', U'"', U'.', U',',
                                       U'\'', 0x201C, 0x2019, 0x2013, 0xFB01, 0x0301, 0x00E9, 0x03A3, 0x03C3,
                                       0x4E2D, 0x00A0, 0x00AD, 0x2026, 0xFF21, 0x1D400, U'x', U'y', 0x00B4,
                                       U'`', 0x00B8, 0x0131, 0x02DA};
  std::uint32_t seed = 31;
  const auto next = [&seed]() {
    seed = seed * 1103515245U + 12345U;
    return (seed >> 16) & 0x7FFFU;
  };
  for (int round = 0; round < 400; ++round) {
    std::u32string text;
    const std::size_t length = next() % 80;
    const bool plain_heavy = round % 2 == 0;  // long ASCII-letter stretches between the rest
    for (std::size_t k = 0; k < length; ++k) {
      const std::size_t pick = next() % (sizeof kAlphabet / sizeof kAlphabet[0]);
      text.push_back(plain_heavy && next() % 3 != 0 ? kAlphabet[pick % 5] : kAlphabet[pick]);
    }
    std::vector<std::int64_t> hyphens;
    for (std::size_t k = 0; k < text.size(); ++k) {
      if (round % 5 == 0 && text[k] == U'-') hyphens.push_back(static_cast<std::int64_t>(k));
    }
    for (const auto& preset : {"default", "strict"}) {
      const auto options = ethos::match::preset_policy(preset)->ladder;
      const auto built = ethos::match::build_typographic_tiers(text, options, &hyphens);
      const ethos::match::Tier tiers[] = {ethos::match::Tier::typography, ethos::match::Tier::case_folded,
                                          ethos::match::Tier::skeleton};
      bool same = true;
      for (std::size_t t = 0; t < 3 && same; ++t) {
        const auto expected = ethos::match::build_tier(text, tiers[t], options, &hyphens);
        same = expected.size() == built.size();
        for (std::size_t r = 0; same && r < expected.size(); ++r) {
          const auto& units = t == 0 ? built[r].typography : t == 1 ? built[r].case_folded : built[r].skeleton;
          same = units.size() == expected[r].text.size();
          for (std::size_t k = 0; same && k < units.size(); ++k) {
            same = units[k].c == expected[r].text[k] && units[k].start == expected[r].start[k] &&
                   units[k].end == expected[r].end[k];
          }
        }
      }
      if (!same) {
        ++failures;
        std::fprintf(stderr, "build_typographic_tiers disagrees with build_tier (round %d, %s)\n", round, preset);
        return;
      }
    }
  }
}

// A claim ladder's white-space and typographic tiers, from the exact reading (a text with single
// spaces only), from one pass (a text typography keeps as it is) or from the tier passes, are
// build_tier's (each tier by its own passes), whichever tier is asked first: ASCII texts with and
// without what typography changes (double quotation marks, backticks, runs of hyphens), white
// space of every ASCII kind at the edges and inside, and words between single spaces.
void test_claim_ladder_plain_tiers() {
  static const char kAlphabet[] = {'a', 'b', 'Z', 'e', '1', ' ', ' ', '\n', '\t', '\r', '\v', '\f', '-', '.', ',',
                                   '\'', '(', '%', '$', '_', '~', '"', '`'};
  std::uint32_t seed = 57;
  const auto next = [&seed]() {
    seed = seed * 1103515245U + 12345U;
    return (seed >> 16) & 0x7FFFU;
  };
  int plain = 0, single_spaced = 0;
  for (int round = 0; round < 600; ++round) {
    std::string text;
    const std::size_t length = next() % 40;
    // Two rounds in three without '"' and '`' (the last two letters): mostly one-pass texts.
    const std::size_t letters = sizeof kAlphabet - (round % 3 != 0 ? 2 : 0);
    for (std::size_t k = 0; k < length; ++k) {
      const char c = kAlphabet[next() % letters];
      // One round in three: words (no white space but single spaces between them).
      if (round % 3 == 2 && (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f')) {
        if (!text.empty() && text.back() != ' ' && k + 1 < length) text.push_back(' ');
        continue;
      }
      text.push_back(c);
    }
    const auto options = ethos::match::preset_policy(round % 2 == 0 ? "default" : "strict")->ladder;
    const ethos::match::Ladder lazy = ethos::match::build_claim_ladder(text, options);
    if (text.find('"') == std::string::npos && text.find('`') == std::string::npos && text.find("--") == std::string::npos) ++plain;
    if (round % 3 == 2 && (text.empty() || text.back() != ' ')) ++single_spaced;
    for (int k = 0; k < 4; ++k) {
      const auto tier = static_cast<Tier>(1 + (k + round) % 4);
      const auto expected = ethos::match::build_tier(lazy.original, tier, options, nullptr);
      const auto& got = lazy.at(tier);
      CHECK(got.size() == 1 && expected.size() == 1 && got[0].text == expected[0].text &&
            got[0].start == expected[0].start && got[0].end == expected[0].end);
    }
  }
  // A claim longer than the units a thread keeps (they are let go after it), then a short one.
  for (const std::string& text : {std::string(14000 * 5, 'x').replace(0, 0, "Word "), std::string("a short claim")}) {
    std::string spaced = text;
    for (std::size_t k = 5; k < spaced.size(); k += 7) spaced[k] = ' ';
    const ethos::match::LadderOptions options;
    const ethos::match::Ladder lazy = ethos::match::build_claim_ladder(spaced, options);
    for (Tier tier : {Tier::skeleton, Tier::typography, Tier::case_folded, Tier::whitespace}) {
      const auto expected = ethos::match::build_tier(lazy.original, tier, options, nullptr);
      const auto& got = lazy.at(tier);
      CHECK(got.size() == 1 && got[0].text == expected[0].text && got[0].start == expected[0].start &&
            got[0].end == expected[0].end);
    }
  }
  CHECK(plain > 300);  // the one-pass paths must be reached, or this proves nothing
  CHECK(single_spaced > 150);
}

void test_indexed_ladder() {
  // An indexed ladder gives the same result as a scanned one.
  const auto policy = ethos::match::preset_policy("default");
  const std::string text = "Revenue grew. revenue grew 12.5%; REVENUE grew, revenue\ngrew";
  auto indexed = ethos::match::build_ladder(text, policy->ladder);
  indexed.indexed = true;
  const auto scanned = ethos::match::build_ladder(text, policy->ladder);
  for (const char* quote : {"revenue grew", "12.5", "REVENUE GREW", "grew revenue", "venue"}) {
    const auto expected = ethos::match::build_ladder(quote, policy->ladder);
    const auto a = ethos::match::search_ladder(indexed, expected, ethos::match::TextRule::contains, *policy);
    const auto b = ethos::match::search_ladder(scanned, expected, ethos::match::TextRule::contains, *policy);
    CHECK(a.whole.has_value() == b.whole.has_value() && a.clipped.has_value() == b.clipped.has_value());
    if (a.whole && b.whole) {
      CHECK(a.whole->tier == b.whole->tier && a.whole->start == b.whole->start && a.whole->occurrences == b.whole->occurrences);
    }
  }
}

// Random texts from the characters every tier treats specially: each reading must map every
// scalar to a non-empty range inside the original, in order, and any reported match must lie
// inside the original text with its source text equal to the original characters there.
void test_random_ladders() {
  static const char32_t kPool[] = {U'a', U'B', U'1', U'9', U' ', U'\n', U'\t', 0x00A0, 0x3000, U'-', U'.', U',', U'%', U'+',
                                   0x00AD, 0x200B, 0xFEFF, 0x2019, 0x201C, 0x2014, 0x2212, 0x2026, 0xFB01, 0xFB03,
                                   0xFF21, 0xFF11, 0x0301, 0x0323, 0x0302, 0x1100, 0x1161, 0x11A8, 0xAC00, 0x03A3,
                                   0x0130, 0x4E2D, 0x6587, 0x30AB, 0x00BD, 0x212B, 0x0344, 0x0F73};
  std::uint32_t seed = 987654321;
  const auto next = [&seed]() {
    seed = seed * 1664525U + 1013904223U;
    return seed >> 8;
  };
  const auto* policy = ethos::match::preset_policy("permissive");
  for (int round = 0; round < 400; ++round) {
    std::u32string scalars(next() % 40, U'a');
    for (char32_t& c : scalars) c = kPool[next() % (sizeof kPool / sizeof kPool[0])];
    const std::string text = to_utf8(scalars);
    std::vector<std::int64_t> hyphens;
    for (std::size_t i = 0; i < scalars.size(); ++i) {
      if (scalars[i] == U'-' && next() % 2 == 0) hyphens.push_back(static_cast<std::int64_t>(i));
    }
    hyphens.push_back(static_cast<std::int64_t>(scalars.size()) + 3);  // out of range: ignored
    ethos::match::LineArtifacts artifacts;
    artifacts.hyphen_breaks = &hyphens;
    const auto ladder = ethos::match::build_ladder(text, policy->ladder, artifacts);
    CHECK(ladder.original == scalars);
    for (int t = 0; t < ethos::match::kTierCount; ++t) {
      for (const auto& reading : ladder.tiers[t]) {
        CHECK(reading.start.size() == reading.text.size() && reading.end.size() == reading.text.size());
        for (std::size_t i = 0; i < reading.text.size(); ++i) {
          // Every unit covers original scalars, except the spaces set around a double quotation
          // mark, which are empty ranges at the mark's edges.
          CHECK((reading.start[i] < reading.end[i] || (reading.text[i] == U' ' && reading.start[i] == reading.end[i])) &&
                reading.end[i] <= scalars.size());
          if (i > 0) CHECK(reading.start[i] >= reading.start[i - 1]);
        }
      }
    }
    if (scalars.size() < 4) continue;
    const std::size_t from = next() % (scalars.size() - 2);
    const std::string quote = to_utf8(scalars.substr(from, 1 + next() % (scalars.size() - from - 1)));
    const auto expected = ethos::match::build_ladder(quote, policy->ladder);
    // A claim's lazy ladder gives the same readings, whatever order its tiers are asked for in.
    const auto lazy = ethos::match::build_claim_ladder(quote, policy->ladder);
    for (int k = 0; k < ethos::match::kTierCount; ++k) {
      const auto tier = static_cast<ethos::match::Tier>((k + round) % ethos::match::kTierCount);
      const auto& want = expected.at(tier);
      const auto& got = lazy.at(tier);
      CHECK(got.size() == 1 && want.size() == 1 && got[0].text == want[0].text && got[0].start == want[0].start &&
            got[0].end == want[0].end);
    }
    const auto found = ethos::match::search_ladder(ladder, expected, ethos::match::TextRule::contains, *policy);
    for (const auto& located : {found.whole, found.clipped}) {
      if (located) CHECK(located->start < located->end && located->end <= scalars.size() && located->occurrences >= 1);
    }
  }
}

}  // namespace

#include "guard_tests.hpp"

// Decoding (ASCII in place, other scalars through utf8::next) and the exact reading filled by
// index: every scalar kept once, in order, with its own one-scalar range; a claim ladder and a
// full ladder agree at every tier.
void test_decoded_readings() {
  const std::string text = "a\xC3\xA9 b\xE2\x80\x99" "c \xF0\x9F\x98\x80" "z  \xE4\xB8\xAD" "x";  // 1-, 2-, 3-, 4-byte scalars
  const std::u32string want = U"a\u00e9 b\u2019c \U0001F600z  \u4e2dx";
  const ethos::match::LadderOptions options;
  const ethos::match::Ladder full = ethos::match::build_ladder(text, options, {});
  const ethos::match::Ladder lazy = ethos::match::build_claim_ladder(text, options);
  CHECK(full.original == want && lazy.original == want);
  const ethos::match::Reading& exact = lazy.at(Tier::exact).front();
  CHECK(exact.text == want && exact.start.size() == want.size() && exact.end.size() == want.size());
  bool identity = true;
  for (std::size_t i = 0; i < want.size(); ++i) identity = identity && exact.start[i] == i && exact.end[i] == i + 1;
  CHECK(identity);
  for (Tier tier : {Tier::exact, Tier::whitespace, Tier::typography, Tier::case_folded, Tier::skeleton}) {
    const ethos::match::Reading& a = full.at(tier).front();
    const ethos::match::Reading& b = lazy.at(tier).front();
    CHECK(a.text == b.text && a.start == b.start && a.end == b.end);
  }
  CHECK(lazy.at(Tier::whitespace).front().text == U"a\u00e9 b\u2019c \U0001F600z \u4e2dx");  // the double space collapsed
  CHECK(ethos::match::build_claim_ladder("", options).original.empty());
}

// A claim's text decoded sixteen ASCII bytes at a time (and the rest scalar by scalar) gives the
// scalars utf8::next reads: every length 0-70, all ASCII or with one multi-byte scalar (two, three
// or four bytes) at every position, so blocks, their tails and a block cut by a scalar are all met.
void test_decode_blocks() {
  const std::string multi[] = {"\xC3\xA9", "\xE2\x80\x99", "\xF0\x9F\x98\x80", "\x7F"};
  int checked = 0;
  for (std::size_t length = 0; length <= 70; ++length) {
    std::string ascii;
    for (std::size_t k = 0; k < length; ++k) ascii.push_back(static_cast<char>(' ' + (k * 7 + length) % 95));
    for (std::size_t at = 0; at <= length; ++at) {
      for (const std::string& scalar : multi) {
        for (const std::string& text : {ascii, ascii.substr(0, at) + scalar + ascii.substr(at)}) {
          std::u32string want;
          for (std::size_t pos = 0; pos < text.size();) want.push_back(ethos::utf8::next(text, pos));
          CHECK(ethos::match::build_claim_ladder(text, ethos::match::LadderOptions{}).original == want);
          ++checked;
        }
      }
    }
  }
  CHECK(checked > 10000);
}

// A claim ladder rebuilt for a new text (verify-batch reuses earlier claims' ladders) gives at
// every tier what a fresh one gives, whichever tiers the old text had reached and whether the new
// text is longer or shorter: nothing of the old readings is left over.
void test_rebuilt_claim_ladder() {
  const ethos::match::LadderOptions options;
  const std::string texts[] = {"The \xE2\x80\x9CGreen Book\xE2\x80\x9D  rose -- 12 %", "short", "",
                               "A much longer claim text, \xEF\xAC\x81nal: CAF\xC3\x89 au lait\xE2\x80\xA6 and more words here"};
  for (const std::string& before : texts) {
    for (int reached = 0; reached < ethos::match::kTierCount; ++reached) {
      for (const std::string& after : texts) {
        ethos::match::Ladder reused = ethos::match::build_claim_ladder(before, options);
        for (int t = 0; t <= reached; ++t) reused.at(static_cast<Tier>(t));
        ethos::match::rebuild_claim_ladder(reused, after, options);
        const ethos::match::Ladder fresh = ethos::match::build_claim_ladder(after, options);
        CHECK(reused.original == fresh.original);
        for (int t = ethos::match::kTierCount - 1; t >= 0; --t) {  // the last tier first: it builds the ones it extends
          const auto& a = reused.at(static_cast<Tier>(t));
          const auto& b = fresh.at(static_cast<Tier>(t));
          CHECK(a.size() == 1 && b.size() == 1);
          CHECK(a.front().text == b.front().text && a.front().start == b.front().start && a.front().end == b.front().end);
        }
      }
    }
  }
}


// TeX's spacing accents (docs/matching.md, typography): an accent set above a letter precedes it,
// one set below follows it; the typography reading holds the composed letter, mapped to both
// glyphs. Where the accent has no letter it composes with, or the backtick is code, it stays.
std::u32string typography_of(const std::u32string& text) {
  const auto readings = ethos::match::build_tier(text, Tier::typography, ethos::match::LadderOptions{}, nullptr);
  return readings.front().text;
}

void test_spacing_accents() {
  const ethos::match::LadderOptions options;
  struct Case {
    std::u32string input, typography;
  };
  const Case cases[] = {
      {U"Moir\u00B4e", U"Moir\u00E9"},                      // acute before its letter
      {U"P\u00B4eter Juh\u00B4asz", U"P\u00E9ter Juh\u00E1sz"},
      {U"P\u02C7rikryl", U"P\u0159ikryl"},                  // caron
      {U"Mikul\u00B4\u0131k", U"Mikul\u00EDk"},              // acute on a dotless i
      {U"Mikul\u0131\u00B4k", U"Mikul\u00EDk"},              // the dotless i, then its accent
      {U"Mikul\u0131\u0301k \u0131\u0327", U"Mikul\u00EDk \u0131\u0327"},  // a combining accent above it; not below
      {U"q\u00B8 Fran\u00B8cais", U"q\u00B8 Fran\u00E7ais"},  // before a lowercase letter (TeX's \accent)
      {U"GARC\u00B8ON t\u00B8a n\u00B8", U"GAR\u00C7ON \u0163a \u0146"},  // after a taller letter or none after
      {U"Franc\u00B8ais", U"Fran\u00E7ais"},                  // a on its right takes no cedilla: the c before it
      {U"\u00A8uber na\u00A8\u0131ve \u02DAAngstr\u00A8om", U"\u00FCber na\u00EFve \u00C5ngstr\u00F6m"},
      {U"Erd\u02DDos gar\u02D8con \u02D8a \u02C6etre \u02DCn \u02D9z \u00AFa", U"Erd\u0151s gar\u02D8con \u0103 \u00EAtre \u00F1 \u017C \u0101"},
      {U"voil`a `a la citt`a `E", U"voil\u00E0 \u00E0 la citt\u00E0 \u00C8"},  // the grave accent
      {U"`apply` and ``quoted'' or `b` and `foo' `a' \\`o", U"`apply` and ``quoted'' or `b` and `foo' `a' \\`o"},  // backticks stay
      {U"don\u00B4t 5\u00B4 \u00B4 e", U"don\u00B4t 5\u00B4 \u00B4 e"},  // no letter the accent composes with
      {U"Moire\u0301", U"Moir\u00E9"},
      // Math accents no letter composes with, after or before their variable; a combining one
      // written as the spacing accent after its letter; a composing one after its letter.
      {U"B\u02C6 x\u00AF \u02C6\u03C3 \u03B2\u02C6(n) (\u02C9\u00B9)", U"B^ x\u00AF \u03C3^ \u03B2^(n) (\u00B9\u00AF)"},
      {U"B\u0302 \u03C3\u0302 x\u0304 t\u0303", U"B^ \u03C3^ x\u00AF t~"},
      {U"a\u02C6 = 2, A\u02DC)", U"\u00E2 = 2, \u00C3)"},
      // TeX's typewriter caret and tilde read as ASCII; a caret before a digit or a word stays in place.
      {U"x\u02C62 y \u02DC x [\u02C6xy] %e\u02C6x (\u02C61)", U"x^2 y ~ x [^xy] %e^x (^1)"},
  };
  for (const Case& c : cases) {
    if (typography_of(c.input) != c.typography) {
      ++failures;
      std::fprintf(stderr, "spacing accents: typography of \"%s\" is \"%s\"\n", ethos_test::utf8_of(c.input).c_str(),
                   ethos_test::utf8_of(typography_of(c.input)).c_str());
    }
  }
  // Offsets: the composed letter stands for the accent and the letter.
  const auto readings = ethos::match::build_tier(U"Moir\u00B4e x \u00B8ca T\u00B8a", Tier::typography, options, nullptr);
  const auto& r = readings.front();
  CHECK(r.text == U"Moir\u00E9 x \u00E7a \u0162a");
  CHECK(r.start[4] == 4 && r.end[4] == 6 && r.start[5] == 6 && r.end[5] == 7);
  CHECK(r.start[8] == 9 && r.end[8] == 11 && r.start[9] == 11);
  CHECK(r.start[11] == 13 && r.end[11] == 15 && r.start[12] == 15);
  // Searches: the quote as an LLM or pdftotext writes it grounds at typography with the evidence
  // covering both glyphs; a quote copied from the accent text grounds against composed text; a
  // mark-only difference is refused at every tier it is refused today.
  const auto policy = ethos::match::preset_policy("default");
  const auto search = [&](const std::string& target, const std::string& quote) {
    const auto t = ethos::match::build_ladder(target, policy->ladder);
    const auto q = ethos::match::build_ladder(quote, policy->ladder);
    return ethos::match::search_ladder(t, q, ethos::match::TextRule::contains, *policy);
  };
  const auto moire = search("the Moir\xC2\xB4" "e pattern", "Moir\xC3\xA9");
  CHECK(moire.whole && moire.whole->tier == Tier::typography && moire.whole->start == 4 && moire.whole->end == 10);
  const auto mikulik = search("Mikul\xC2\xB4\xC4\xB1k et al.", "MIKUL\xC3\x8DK");
  CHECK(mikulik.whole && mikulik.whole->tier == Tier::case_folded && mikulik.whole->start == 0 && mikulik.whole->end == 8);
  const auto copied = search("the Moire\xCC\x81 pattern", "Moir\xC2\xB4" "e pattern");
  CHECK(copied.whole && copied.whole->tier == Tier::typography && copied.whole->start == 4 && copied.whole->end == 18);
  CHECK(!search("the Moir\xC2\xB4" "e pattern", "Moire pattern").whole);  // the accent is no difference to drop
  CHECK(!search("my r\xC2\xB4" "esum\xC2\xB4" "e", "my resume").whole);
  CHECK(!search("my resume", "my r\xC2\xB4" "esum\xC2\xB4" "e").whole);
  CHECK(!search("my r\xC3\xA9sum\xC3\xA9", "my resume").whole);  // as before: marks count at every tier
  CHECK(!search("the e pattern", "the \xC3\xA9 pattern").whole);
  // A backtick code span keeps its word: found in case-folded text as before.
  const auto code = search("call `apply` here", "Apply");
  CHECK(code.whole && code.whole->tier == Tier::case_folded && code.whole->start == 6);
}

// TeX's spaced ellipsis (". . .", one white-space scalar between the full stops) reads as "..." at
// the typography tier and above, each full stop mapped to itself; other dot runs stay as they are;
// the one-pass readings agree with build_tier on random texts full of dots and spaces.
void test_spaced_ellipsis() {
  const ethos::match::LadderOptions options;
  const auto typography = [&](const char* text) {
    return ethos::match::normalize_for_tier(text, Tier::typography, options);
  };
  const auto reading = typography("a, b, . . . , z");
  CHECK(reading.text == U"a, b, ... , z");
  CHECK(reading.start[6] == 6 && reading.start[7] == 8 && reading.start[8] == 10);
  CHECK(typography("x .\u00A0.\n. y").text == U"x ... y");
  CHECK(typography("a . . b").text == U"a . . b");          // two stops: no ellipsis
  CHECK(typography("a .  . . b").text == U"a . . . b");     // two spaces: none either
  CHECK(typography("and so on . . . .").text == U"and so on ... .");
  CHECK(ethos::match::normalize_for_tier("a . . . b", Tier::whitespace, options).text == U"a . . . b");
  const std::vector<std::u32string> atoms = {U"a", U"b", U"ab", U"Z", U".", U". . .", U" ", U"  ", U"\n", U"\u00A0",
                                             U" .", U"-", U"\"", U"\u2026", U"\u3001", U"\uFF08", U"\u4E2D", U"x"};
  std::mt19937 rng(7);
  for (int round = 0; round < 400; ++round) {
    const std::u32string text = ethos_test::random_text(rng, rng() % 40, true, atoms);
    const auto built = ethos::match::build_typographic_tiers(text, options, nullptr);
    const auto expected = ethos::match::build_tier(text, Tier::typography, options, nullptr);
    bool same = built.size() == 1 && expected.size() == 1 && built[0].typography.size() == expected[0].text.size();
    for (std::size_t k = 0; same && k < expected[0].text.size(); ++k) {
      same = built[0].typography[k].c == expected[0].text[k] && built[0].typography[k].start == expected[0].start[k] &&
             built[0].typography[k].end == expected[0].end[k];
    }
    CHECK(same);
    const std::string utf8 = ethos_test::utf8_of(text);
    const ethos::match::Ladder claim = ethos::match::build_claim_ladder(utf8, options);
    CHECK(claim.at(Tier::typography).front().text == expected[0].text);
  }
}

// White space beside CJK punctuation (a line wrap, or an extractor's space) reads as nothing from
// the white-space tier on, before typography folds full-width punctuation to ASCII; not without
// cjk_wrap_spaces; white space between CJK and Latin text stays.
void test_cjk_punctuation_spaces() {
  ethos::match::LadderOptions options;
  const auto tier = [&](const char* text, Tier t) { return ethos::match::normalize_for_tier(text, t, options).text; };
  CHECK(tier("\u307E\u3059\n\uFF08\u9805", Tier::whitespace) == U"\u307E\u3059\uFF08\u9805");  // ます⏎（項
  CHECK(tier("\u307E\u3059\n\uFF08\u9805", Tier::typography) == U"\u307E\u3059(\u9805");
  CHECK(tier("\u3001 --list", Tier::whitespace) == U"\u3001--list");                           // 、 --list
  CHECK(tier("\u3001 --list", Tier::typography) == U"\u3001-list");
  CHECK(tier("\uFF09\n\u3002", Tier::whitespace) == U"\uFF09\u3002");                            // ）⏎。
  CHECK(tier("\u4E2D\u6587 text", Tier::whitespace) == U"\u4E2D\u6587 text");                 // CJK then Latin: a space
  const ethos::match::Reading reading = ethos::match::normalize_for_tier("a\u3001 b", Tier::typography, options);
  CHECK(reading.text == U"a\u3001b" && reading.start[2] == 3);
  options.cjk_wrap_spaces = false;
  CHECK(tier("\u3001 --list", Tier::whitespace) == U"\u3001 --list");
  CHECK(tier("\u3001 --list", Tier::typography) == U"\u3001 -list");
}

// A quote's white space at a font junction, and a URL or path wrap it leaves out
// (match/junction_reading.hpp): grounded only where every white-space difference is one of them.
void test_junction_reading() {
  using ethos::match::JunctionText;
  const ethos::match::Policy& policy = *ethos::match::preset_policy("default");
  JunctionText xtx;
  xtx.text = U"compute xTx or xxT here";  // x | T (superscript) | x, x | x | T
  xtx.junctions = {9, 10, 17};
  auto found = ethos::match::find_across_junctions(xtx, "compute xT x or xxT here", policy);
  CHECK(found && found->start == 0 && found->end == 23 && found->tier == Tier::whitespace);
  CHECK(!ethos::match::find_across_junctions(xtx, "compute xTx or xxT here", policy));  // no liberty taken
  CHECK(!ethos::match::find_across_junctions(xtx, "compute xT y or xxT here", policy));
  CHECK(!ethos::match::find_across_junctions(xtx, "compute xTx or x xT here", policy));  // no junction there
  CHECK(!ethos::match::find_across_junctions(xtx, "compute x", policy));                 // ends inside xTx
  JunctionText power;
  power.text = U"holds 105 cells";
  power.junctions = {8};
  CHECK(!ethos::match::find_across_junctions(power, "holds 10 5 cells", policy));  // never between digits
  JunctionText url;
  url.text = U"page (https:// ESS.R-project.org/) and /usr/ share/man or and/ or";
  url.line_breaks = {14, 44, 62};
  found = ethos::match::find_across_junctions(url, "page (https://ESS.R-project.org/) and /usr/share/man", policy);
  CHECK(found && found->start == 0 && found->end == 54);
  CHECK(!ethos::match::find_across_junctions(url, "or and/or", policy));  // one slash: no path
  CHECK(ethos::match::is_url_wrap(url.text, 14) && ethos::match::is_url_wrap(url.text, 44));
  CHECK(!ethos::match::is_url_wrap(url.text, 62));
  JunctionText row;  // a two-column table's row reading, its description wrapped inside a URL
  row.text = U"[9] | Braams: see http://a.org/info/ babel.pdf.";
  row.line_breaks = {36};
  row.separators = {4};
  found = ethos::match::find_across_junctions(row, "[9] Braams: see http://a.org/info/babel.pdf.", policy);
  CHECK(found && found->start == 0 && found->end == 47);
  CHECK(!ethos::match::find_across_junctions(row, "[9] Braams: see http://a.org/info/label.pdf.", policy));
  JunctionText callout;
  callout.text = U"(see Sec-\n\u2461 tion 5.4.1). Steps \u2461 and \u2462 run.";
  callout.hyphen_breaks = {8};
  CHECK(ethos::match::is_callout_marker(callout.text, {}, 10) && !ethos::match::is_callout_marker(callout.text, {}, 31));
  found = ethos::match::find_across_junctions(callout, "(see Section 5.4.1).", policy);
  CHECK(found && found->start == 0 && found->end == 24 && found->tier == Tier::typography);
  CHECK(!ethos::match::find_across_junctions(callout, "Steps and \u2462 run.", policy));
  JunctionText footnote;  // "WYSIWYG1 editors like2", the 1 and the 2 set as footnote markers
  footnote.text = U"are WYSIWYG1 editors like2";
  footnote.junctions = {11, 25};
  footnote.footnote_markers = {{11, 12}, {25, 26}};
  found = ethos::match::find_across_junctions(footnote, "are WYSIWYG editors like", policy);
  CHECK(found && found->start == 0 && found->end == 25);
  CHECK(ethos::match::find_across_junctions(footnote, "WYSIWYG editors", policy).has_value());
  CHECK(!ethos::match::find_across_junctions(footnote, "are WYSIWYG editors alike", policy));
  footnote.footnote_markers.clear();  // the same raised figures unrecorded: nothing is left out
  CHECK(!ethos::match::find_across_junctions(footnote, "are WYSIWYG editors like", policy));
  url.line_breaks = {44, 62};  // a typed space after the scheme is no wrap
  CHECK(!ethos::match::find_across_junctions(url, "page (https://ESS.R-project.org/)", policy));
}

int main(int argc, char** argv) {
  test_decoded_readings();
  test_rebuilt_claim_ladder();
  test_claim_ladder_plain_tiers();
  test_decode_blocks();
  test_policies();
  test_indexed_ladder();
  test_gram_index();
  test_offset_map_push_all();
  test_typographic_tiers_one_pass();
  test_find_all();
  test_random_ladders();
  test_token_boundaries();
  test_guards();  // guard_tests.hpp: stitched quotations, near misses, numeric and polarity guards
  test_negation_before();
  test_spacing_accents();
  test_spaced_ellipsis();
  test_cjk_punctuation_spaces();
  test_junction_reading();
  for (int i = 1; i < argc; ++i) test_vectors(argv[i]);
  return ethos_test::finish("match_tests");
}
