// numeric_guard.cpp - reads the figures of a token stretch as exact decimals with sign, scale and
// unit, and compares a near miss's figures with its source span's.
#include "match/numeric_guard.hpp"

#include <algorithm>

#include "match/guard_words.hpp"

namespace ethos::match {
namespace {

// value = sign * digits * 10^exponent, written "[-]digits[eN]" with no leading or trailing zeros
// in digits, so equal values have equal strings.
std::string canonical_decimal(bool negative, std::string digits, long long exponent) {
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return "0";
  digits.erase(0, first);
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  std::string out = negative ? "-" : "";
  out += digits;
  if (exponent != 0) out += "e" + std::to_string(exponent);
  return out;
}

struct Parsed {
  std::vector<std::string> values;
  bool literal = false;  // a date or time: compared as written
};

// Readings of one number token under the English (1,234.5) and European (1.234,5) conventions.
Parsed parse_number(const std::string& key, int scale) {
  Parsed parsed;
  bool negative = false;
  std::size_t pos = 0;
  if (!key.empty() && (key[0] == '-' || key[0] == '+')) {
    negative = key[0] == '-';
    pos = 1;
  }
  const std::string body = key.substr(pos);
  if (body.find_first_of(":/-") != std::string::npos) {
    parsed.literal = true;
    parsed.values.push_back(key);
    return parsed;
  }
  // Reads body with `decimal` as the decimal separator (0: none) and any other separator as grouping.
  const auto reading = [&](char decimal) {
    std::string digits;
    long long fraction = 0;
    bool after = false;
    for (char c : body) {
      if (c == decimal) {
        after = true;
      } else if (c >= '0' && c <= '9') {
        digits += c;
        if (after) ++fraction;
      }
    }
    return canonical_decimal(negative, digits, scale - fraction);
  };
  const std::size_t commas = static_cast<std::size_t>(std::count(body.begin(), body.end(), ','));
  const std::size_t dots = static_cast<std::size_t>(std::count(body.begin(), body.end(), '.'));
  const auto digits_after_last = [&](char c) { return body.size() - body.rfind(c) - 1; };
  if (commas == 0 && dots == 0) {
    parsed.values.push_back(reading(0));
  } else if (commas > 0 && dots > 0) {
    parsed.values.push_back(reading(body.rfind(',') > body.rfind('.') ? ',' : '.'));
  } else {
    const char sep = commas > 0 ? ',' : '.';
    const std::size_t count = commas > 0 ? commas : dots;
    if (count > 1) {
      parsed.values.push_back(reading(0));  // several separators: grouping
    } else if (digits_after_last(sep) == 3) {
      // "1,234" / "1.234": grouping in one convention, a decimal in the other.
      parsed.values.push_back(reading(0));
      parsed.values.push_back(reading(sep));
    } else {
      parsed.values.push_back(reading(sep));
    }
  }
  return parsed;
}

bool is_currency(const std::string& unit) { return unit.size() == 3 && unit[0] >= 'A' && unit[0] <= 'Z'; }

// value x 10^exponent, in canonical form.
std::string rescaled(const std::string& value, int exponent) {
  const bool negative = value[0] == '-';
  std::string digits = negative ? value.substr(1) : value;
  long long power = exponent;
  const std::size_t e = digits.find('e');
  if (e != std::string::npos) {
    power += std::stoll(digits.substr(e + 1));
    digits.resize(e);
  }
  return canonical_decimal(negative, digits, power);
}

std::string join_keys(const std::vector<Token>& tokens, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) {
    if (i > begin && tokens[i].kind != TokenKind::symbol && tokens[i - 1].kind != TokenKind::symbol) out += ' ';
    out += tokens[i].key;
  }
  return out;
}

}  // namespace

std::vector<NumericMention> numeric_mentions(const std::vector<Token>& tokens, std::size_t begin, std::size_t end) {
  std::vector<NumericMention> out;
  const auto key = [&](std::size_t k) -> const std::string& {
    static const std::string kNone;
    return k < end ? tokens[k].key : kNone;
  };
  // Unit after a figure ending before `j`: %, points, bp, per cent, currency; advances j.
  const auto unit_after = [&](std::size_t& j, std::string& unit) {
    if (key(j) == "basis" && (key(j + 1) == "points" || key(j + 1) == "point")) {
      unit = "basis_points";
      j += 2;
    } else if ((key(j) == "per" || key(j) == "pour" || key(j) == "por") && (key(j + 1) == "cent" || key(j + 1) == "ciento")) {
      unit = "percent";
      j += 2;
    } else if (j < end && tokens[j].kind != TokenKind::number) {
      if (auto u = guard_words::unit_of(key(j))) {
        unit = std::string(*u);
        ++j;
      }
    }
  };
  for (std::size_t i = begin; i < end; ++i) {
    const Token& token = tokens[i];
    // One lookup answers the three word lists a word is asked about below.
    const guard_words::NumericWord* word = token.kind == TokenKind::number ? nullptr : guard_words::numeric_word(token.key);
    if (token.kind != TokenKind::number && word == nullptr) continue;
    NumericMention mention;
    std::size_t j = i + 1;
    if (token.kind == TokenKind::number || word->spelled) {
      Parsed parsed;
      if (token.kind == TokenKind::number) {
        int scale = 0;
        if (j < end && tokens[j].kind == TokenKind::word) {
          if (auto e = guard_words::scale_exponent(key(j))) {
            scale = *e;
            ++j;
          }
        }
        parsed = parse_number(token.key, scale);
      } else {
        // A run of spelled-out numerals and scale words: "twenty-five", "three hundred", "two million".
        long long total = 0, current = 0;
        std::size_t k = i;
        while (k < end) {
          if (auto v = guard_words::spelled_number(key(k))) {
            current += *v;
          } else if (auto e = guard_words::scale_exponent(key(k)); e && key(k).size() > 2) {
            long long factor = 1;
            for (int p = 0; p < *e && factor < 1000000000000LL; ++p) factor *= 10;
            if (*e == 2) {
              current = std::max(current, 1LL) * factor;
            } else {
              total += std::max(current, 1LL) * factor;
              current = 0;
            }
          } else if (key(k) == "-" && k + 1 < end && guard_words::spelled_number(key(k + 1))) {
            // hyphenated numeral: twenty-five
          } else {
            break;
          }
          ++k;
        }
        j = k;
        parsed.values.push_back(canonical_decimal(false, std::to_string(total + current), 0));
      }
      mention.values = parsed.values;
      std::size_t text_begin = i;
      if (parsed.literal) {
        mention.unit = "date";
      } else {
        unit_after(j, mention.unit);
        std::size_t first = i;
        if (i > begin && tokens[i - 1].kind != TokenKind::number) {
          if (auto u = guard_words::unit_of(key(i - 1)); u && is_currency(std::string(*u))) {
            if (mention.unit.empty()) mention.unit = std::string(*u);
            first = i - 1;
            text_begin = first;
          }
        }
        // Accounting negatives: (1,234) is -1,234; a unit may follow the parenthesis.
        if (first > begin && key(first - 1) == "(" && key(j) == ")") {
          for (std::string& value : mention.values) {
            if (value != "0") value = value[0] == '-' ? value.substr(1) : "-" + value;
          }
          ++j;
          // A scale word or unit may follow the parenthesis: (120) million.
          if (auto e = guard_words::scale_exponent(key(j)); e && token.kind == TokenKind::number) {
            for (std::string& value : mention.values) value = rescaled(value, *e);
            ++j;
          }
          if (mention.unit.empty()) unit_after(j, mention.unit);
        }
      }
      mention.text = join_keys(tokens, text_begin, j);
      mention.pronoun = token.kind != TokenKind::number && j == i + 1 && mention.unit.empty() &&
                        (token.key == "one" || token.key == "uno");
      out.push_back(std::move(mention));
      i = j - 1;
      continue;
    }
    if (token.kind != TokenKind::word) continue;
    if (word->month) {
      out.push_back(NumericMention{{"month:" + std::to_string(*word->month)}, "date", token.key});
    } else if (word->scale && token.key.size() > 2) {
      out.push_back(NumericMention{{"scale:" + std::to_string(*word->scale)}, "", token.key});  // "millions of users"
    }
  }
  return out;
}

bool same_figure(const NumericMention& a, const NumericMention& b) {
  if (a.unit != b.unit) return false;
  for (const std::string& x : a.values) {
    if (std::find(b.values.begin(), b.values.end(), x) != b.values.end()) return true;
  }
  return false;
}

namespace {

// value without sign and exponent, and its exponent: "-125e-1" -> ("125", -1).
std::pair<std::string, long long> mantissa_of(const std::string& value) {
  std::string v = value[0] == '-' ? value.substr(1) : value;
  const std::size_t e = v.find('e');
  if (e == std::string::npos) return {v, 0};
  return {v.substr(0, e), std::stoll(v.substr(e + 1))};
}

std::string describe_change(const NumericMention& source, const NumericMention& quote) {
  const std::string what = "source \"" + source.text + "\", quote \"" + quote.text + "\"";
  if (source.unit != quote.unit) {
    NumericMention same_unit = quote;
    same_unit.unit = source.unit;
    if (same_figure(source, same_unit)) {
      if (is_currency(source.unit) && is_currency(quote.unit)) return "currency changed: " + what;
      return "unit changed (" + (source.unit.empty() ? std::string("none") : source.unit) + " vs " +
             (quote.unit.empty() ? std::string("none") : quote.unit) + "): " + what;
    }
  }
  if (source.values.size() == 1 && quote.values.size() == 1 && source.unit != "date") {
    const std::string& a = source.values[0];
    const std::string& b = quote.values[0];
    if (a.rfind("scale:", 0) != 0 && b.rfind("scale:", 0) != 0) {
      if ((a[0] == '-') != (b[0] == '-') && mantissa_of(a) == mantissa_of(b)) return "sign changed: " + what;
      const auto ma = mantissa_of(a), mb = mantissa_of(b);
      if (ma.first == mb.first && ma.second != mb.second) return "decimal shift or scale changed: " + what;
    }
  }
  return "figure changed: " + what;
}

}  // namespace

Guard numeric_guard(const std::vector<NumericMention>& quote, const std::vector<NumericMention>& source) {
  Guard guard{"numeric", false, ""};
  const auto note = [&guard](const std::string& text) {
    guard.block = true;
    if (!guard.detail.empty()) guard.detail += "; ";
    guard.detail += text;
  };
  // Longest common subsequence of figures: the unmatched ones were added, dropped or changed.
  const std::size_t m = quote.size(), n = source.size();
  std::vector<std::size_t> lcs((m + 1) * (n + 1), 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return lcs[i * (n + 1) + j]; };
  for (std::size_t i = m; i-- > 0;) {
    for (std::size_t j = n; j-- > 0;) {
      at(i, j) = same_figure(quote[i], source[j]) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::size_t i = 0, j = 0;
  while (i < m || j < n) {
    if (i < m && j < n && same_figure(quote[i], source[j])) {
      ++i;
      ++j;
    } else if (i < m && j < n && at(i + 1, j + 1) == at(i, j)) {
      note(describe_change(source[j], quote[i]));  // one figure in place of another
      ++i;
      ++j;
    } else if (j < n && (i == m || at(i, j + 1) >= at(i + 1, j))) {
      if (!source[j].pronoun) note("figure dropped: source \"" + source[j].text + "\"");
      ++j;
    } else {
      if (!quote[i].pronoun) note("figure added: quote \"" + quote[i].text + "\"");
      ++i;
    }
  }
  if (!guard.block) guard.detail = quote.empty() ? "no figures" : "same figures";
  return guard;
}

}  // namespace ethos::match
