// quote_negation.cpp - the negation check before a grounded quote, run on the text from the space before the word that precedes it.
#include "core/quote_negation.hpp"

#include <algorithm>

#include "match/guard_words.hpp"
#include "match/occurrence_guards.hpp"
#include "text/utf8.hpp"

namespace ethos {

std::optional<match::Guard> negation_before_quote(std::string_view target_utf8, const match::Located& where,
                                                  std::size_t* start_byte_out, bool ascii) {
  const std::string_view text = target_utf8;
  const std::size_t start_byte =
      ascii ? std::min<std::size_t>(where.start, text.size()) : utf8::byte_offset_of_scalar(text, where.start);
  // The white space negation_before skips back over (space, tab, line breaks, no-break space).
  if (start_byte_out != nullptr) *start_byte_out = start_byte;
  std::size_t word_end = start_byte;
  while (word_end > 0) {
    const auto c = static_cast<unsigned char>(text[word_end - 1]);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      --word_end;
    } else if (c == 0xA0 && word_end >= 2 && static_cast<unsigned char>(text[word_end - 2]) == 0xC2) {
      word_end -= 2;  // U+00A0
    } else {
      break;
    }
  }
  // White space after a sentence's or clause's end (or a closing parenthesis, a percent sign):
  // the word before ends in a scalar no word token ends in and no number ends in but a digit, so
  // it is no single word and no negator.
  if (word_end > 0 && word_end < start_byte) {
    switch (text[word_end - 1]) {
      case '.': case ',': case ';': case ':': case '!': case '?': case ')': case '%': return std::nullopt;
      default: break;
    }
  }
  // The word before ends at word_end and stops at an ASCII space (a token boundary that no
  // apostrophe rule crosses), and the boundary rule looks two scalars back at most, reading a
  // space as it reads the start of a text: from right after that space on, the check reads the same.
  const std::size_t space = word_end == 0 ? std::string_view::npos : text.rfind(' ', word_end - 1);
  if (space == std::string_view::npos) return match::negation_before(text, where);
  const std::size_t from = space + 1;
  // The word before of ASCII letters only, with white space after it (the word before nearly every
  // grounded quote): negation_before would read it whole (a space before it, no apostrophe in it)
  // and look up its lowercase, so that lookup answers here, and only a negator goes on to the full
  // check for its guard. No scalars decoded, no strings made.
  constexpr std::size_t kLongestWord = 32;
  if (word_end > from && word_end < start_byte && word_end - from <= kLongestWord) {
    char lower[kLongestWord];
    bool letters = true;
    for (std::size_t i = from; i < word_end && letters; ++i) {
      const char c = text[i];
      letters = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      lower[i - from] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
    if (letters && !match::guard_words::is_negation(std::string_view(lower, word_end - from))) return std::nullopt;
  }
  match::Located shifted = where;
  // The scalars from `from` to the quote's start (where.start less those before `from`): counted
  // over the word before, not over the text from its first byte again.
  shifted.start = static_cast<std::uint32_t>(utf8::scalar_count(text.substr(from, start_byte - from)));
  return match::negation_before(text.substr(from), shifted);
}

std::optional<match::Guard> negation_after_quote(std::string_view text, const match::Located& where,
                                                 std::size_t start_byte, bool ascii) {
  std::size_t end_byte = std::min(start_byte, text.size());
  if (ascii) {
    end_byte = std::min<std::size_t>(where.end, text.size());
  } else {
    for (std::uint32_t k = where.start; k < where.end && end_byte < text.size(); ++k) utf8::next(text, end_byte);
  }
  if (end_byte == 0 || end_byte >= text.size()) return std::nullopt;
  // Nearly every quote ends before no hyphen: only '-' and U+2010/U+2011 (E2 80 90/91) go on.
  const auto lead = static_cast<unsigned char>(text[end_byte]);
  if (lead != '-' && !(lead == 0xE2 && text.substr(end_byte, 2) == "\xE2\x80" && end_byte + 2 < text.size() &&
                       (static_cast<unsigned char>(text[end_byte + 2]) == 0x90 ||
                        static_cast<unsigned char>(text[end_byte + 2]) == 0x91))) {
    return std::nullopt;
  }
  // The window: the scalar before the end, the hyphen, the white space after it, and at most six
  // scalars more (a suffix has at most four letters, so a longer word is none either way).
  std::size_t pos = end_byte - 1;
  while (pos > 0 && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) --pos;
  std::u32string window;
  window.push_back(utf8::next(text, pos));
  window.push_back(utf8::next(text, pos));
  std::size_t more = 0;
  while (pos < text.size() && more < 6) {
    const char32_t c = utf8::next(text, pos);
    window.push_back(c);
    if (!(more == 0 && (c == U' ' || c == U'\n' || c == U'\r'))) ++more;
  }
  return match::negation_after_end(window, 1);
}

}  // namespace ethos
