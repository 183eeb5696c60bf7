// ladder.cpp - builds the tier readings: whitespace, typography (folds, deletions, hyphenation, NFC),
// case and skeleton, each computed from the one before and carrying original scalar ranges.
#include "match/ladder.hpp"

#include <algorithm>
#include <unordered_set>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "text/html_entities.hpp"
#include "text/normalize.hpp"
#include "text/unicode_props.hpp"
#include "text/utf8.hpp"

namespace ethos::match {
namespace {

using Unit = NormalizedScalar;
using Units = NormalizedScalars;

// Defined with build_typographic_tiers below; a claim ladder's tiers use them too.
bool typography_keeps(char32_t c, char32_t before);
void plain_readings(const std::u32string& original, std::size_t from, std::size_t to, TypographicReadings& out);

// Sized once and filled by index (here and in to_reading): a push_back per scalar was the largest
// single cost of a verify-batch request's claim ladder.
Units exact_units(const std::u32string& original) {
  Units units(original.size());
  for (std::size_t i = 0; i < original.size(); ++i) {
    units[i] = Unit{original[i], static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1)};
  }
  return units;
}

// The exact units with each marker one space standing for the whole marker (gtrex's
// separate_markers): a deleted marker could fuse the words or figures on either side of it.
Units marked_units(const std::u32string& original, const MarkerRanges& markers) {
  if (markers.empty()) return exact_units(original);
  Units units;
  units.reserve(original.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < original.size();) {
    if (next < markers.size() && markers[next].first == i) {
      units.push_back(Unit{U' ', markers[next].first, markers[next].second});
      i = markers[next].second;
      ++next;
      continue;
    }
    units.push_back(Unit{original[i], static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1)});
    ++i;
  }
  return units;
}

// The markers of a text: the caller's when given, else found here under the policy's pattern.
MarkerRanges markers_of(const std::u32string& original, const LadderOptions& options, const MarkerRanges* given) {
  if (given != nullptr) return *given;
  if (!options.markers) return {};
  return options.markers->find(original);
}

// Runs of Unicode White_Space become one space (covering the run), the edges are trimmed, and a
// run between two CJK characters, or beside CJK punctuation ("ます\n（項", "、 --list"),
// disappears when the policy treats it as a line wrap.
Units collapse_whitespace(const Units& in, bool cjk_wrap_spaces) {
  Units out;
  out.reserve(in.size());
  bool pending = false;
  Unit run{U' ', 0, 0};
  for (const Unit& unit : in) {
    if (is_unicode_white_space(unit.c)) {
      if (!pending) run = Unit{U' ', unit.start, unit.end};
      run.end = std::max(run.end, unit.end);
      pending = true;
      continue;
    }
    if (pending && !out.empty()) {
      const bool wrap = cjk_wrap_spaces && ((unicode::is_cjk_context(out.back().c) && unicode::is_cjk_context(unit.c)) ||
                                            unicode::is_cjk_punctuation(out.back().c) || unicode::is_cjk_punctuation(unit.c));
      if (!wrap) out.push_back(run);
    }
    pending = false;
    out.push_back(unit);
  }
  return out;
}

bool is_deleted_format_char(char32_t c) {
  // soft hyphen, zero-width space, word joiner, zero-width no-break space (BOM)
  return c == 0x00AD || c == 0x200B || c == 0x2060 || c == 0xFEFF;
}

// Presentation variants -> one spelling; nullptr when c is kept as is.
const char32_t* typographic_fold(char32_t c) {
  switch (c) {
    case 0x2018: case 0x2019: case 0x201A: case 0x201B: case 0x2032: case 0x2039: case 0x203A: case 0x02BC:
      return U"'";
    case 0x201C: case 0x201D: case 0x201E: case 0x201F: case 0x2033: case 0x00AB: case 0x00BB:
      return U"\"";
    case 0x2010: case 0x2011: case 0x2012: case 0x2013: case 0x2014: case 0x2015: case 0x2212: case 0xFE58:
    case 0xFE63:
      return U"-";
    case 0x2026: return U"...";
    case 0xFB00: return U"ff";
    case 0xFB01: return U"fi";
    case 0xFB02: return U"fl";
    case 0xFB03: return U"ffi";
    case 0xFB04: return U"ffl";
    case 0xFB05: case 0xFB06: return U"st";
    // TeX's T1 (Cork) encoding puts quotation marks, dashes and the f-ligatures on control codes.
    // A font without a Unicode map (dvips' Type 3 fonts of many R and LaTeX vignettes name their
    // glyphs /a16 ... /a31) reaches every extractor as those codes: PDFium and pdftotext give
    // "\x1Crst" for "ﬁrst" and "\x10PCM\x11" for "“PCM”". Both sides of a comparison go through
    // this fold, so such a text matches its proper spelling and itself.
    case 0x10: case 0x11: return U"\"";
    case 0x15: case 0x16: return U"-";
    case 0x1B: return U"ff";
    case 0x1C: return U"fi";
    case 0x1D: return U"fl";
    case 0x1E: return U"ffi";
    case 0x1F: return U"ffl";
    default: return nullptr;
  }
}

// TeX's spacing accents. Its text fonts (OT1) have no accented letters: `\'e` is the accent glyph
// (named acute, grave, ... in the font, which extractors report as these spacing characters) set
// over the letter by a kern, so the text holds "Moir´e". An accent set above a letter comes before
// it; the cedilla and the ogonek, set below, come before or after it (read_spacing_accent). The
// combining mark each stands for, or 0. ASCII ^ and ~ are not accents here: in text they are code and math.
char32_t accent_above_mark(char32_t c) {
  switch (c) {
    case 0x00B4: return 0x0301;  // acute
    case 0x0060: return 0x0300;  // grave (also the ASCII backtick: see grave_is_accent)
    case 0x00A8: return 0x0308;  // dieresis
    case 0x02C6: return 0x0302;  // circumflex
    case 0x02DC: return 0x0303;  // tilde
    case 0x00AF: case 0x02C9: return 0x0304;  // macron
    case 0x02D8: return 0x0306;  // breve
    case 0x02D9: return 0x0307;  // dot above
    case 0x02DA: return 0x030A;  // ring
    case 0x02DD: return 0x030B;  // double acute (hungarumlaut)
    case 0x02C7: return 0x030C;  // caron
    default: return 0;
  }
}

char32_t accent_below_mark(char32_t c) {
  switch (c) {
    case 0x00B8: return 0x0327;  // cedilla
    case 0x02DB: return 0x0328;  // ogonek
    default: return 0;
  }
}

// The combining marks of the accents set above a letter (accent_above_mark's marks).
bool is_combining_above(char32_t c) {
  switch (c) {
    case 0x0300: case 0x0301: case 0x0302: case 0x0303: case 0x0304: case 0x0306: case 0x0307: case 0x0308:
    case 0x030A: case 0x030B: case 0x030C:
      return true;
    default:
      return false;
  }
}

// Whether c may be a spacing accent at all (one compare for nearly every scalar of a text).
inline bool may_be_spacing_accent(char32_t c) { return c == 0x60 || (c >= 0xA8 && c <= 0x2DD); }

// The letter an accent is set on: TeX puts accents on the dotless i and j (`\'\i`), which carry
// a dot in no accented letter.
char32_t accent_base(char32_t c) {
  if (c == 0x0131) return U'i';
  if (c == 0x0237) return U'j';
  return c;
}

// The letter that `letter` with `mark` composes to under NFC, or 0: only such pairs are read as one
// accented letter, so an accent typed for an apostrophe before a letter no accent goes on ("don´t")
// stays as it is.
char32_t accented(char32_t letter, char32_t mark) { return unicode::compose_pair(accent_base(letter), mark); }

// The backtick is both TeX's grave accent ("voil`a", "`a la", "citt`a") and the ASCII backtick of
// code spans (`apply`), of TeX-typed quotes (``quotes'', `quote', `x') and of TeX's own command
// (\`o in a table of accent commands). It is read as an accent only inside a word (after a letter)
// or on a one-letter word, and never next to another backtick, after a backslash, or before a
// letter followed by a backtick or an apostrophe: `c`, ``a, `a' and \`o stay. before/after2: the
// scalars before it and two after it (0 at the text's edges).
bool grave_is_accent(char32_t before, char32_t after2) {
  if (before == U'`' || before == U'\\' || after2 == U'`' || after2 == U'\'') return false;
  const bool letter_before = before != 0 && unicode::is_word_char(before) && !unicode::is_decimal_digit(before);
  const bool letter_after2 = after2 != 0 && unicode::is_word_char(after2);
  return letter_before || !letter_after2;
}

// A double quotation mark (any of them, folded to '"') stands between two spaces of its own:
// extractors differ in the space they put inside quotation marks ("Green Book ”" for the PDF's
// “Green Book”), and a space next to a quotation mark changes no word. The spaces cover no
// original scalar: empty ranges at the mark's edges, so an occurrence that ends right before the
// mark or starts right after it stays aligned (matcher.cpp) and no evidence range grows. The final
// whitespace pass merges them with real spaces beside the mark and trims them at a text's edges.
void push_spaced_double_quote(std::vector<Unit>& out, const Unit& mark) {
  out.push_back(Unit{U' ', mark.start, mark.start});
  out.push_back(Unit{U'"', mark.start, mark.end});
  out.push_back(Unit{U' ', mark.end, mark.end});
}

// Canonical composition (NFC) of the units. Only a stretch holding a scalar at or above U+0300
// can change: every scalar below it is a starter that is already NFC and never composes with a
// scalar before it (the quick check of UAX #15), so a cut before one is a cut NFC respects. Each
// stretch of scalars >= U+0300, with the scalar before it, is composed on its own; the rest (in
// Latin text, nearly everything) is copied.
Units compose(const Units& in) {
  Units out;
  out.reserve(in.size());
  std::u32string text;
  std::vector<unicode::ScalarRange32> ranges;
  for (std::size_t i = 0; i < in.size();) {
    if (in[i].c < 0x300 && (i + 1 >= in.size() || in[i + 1].c < 0x300)) {
      out.push_back(in[i++]);
      continue;
    }
    std::size_t j = i + 1;
    while (j < in.size() && in[j].c >= 0x300) ++j;
    text.clear();
    ranges.clear();
    for (std::size_t k = i; k < j; ++k) {
      text.push_back(in[k].c);
      ranges.push_back({in[k].start, in[k].end});
    }
    unicode::to_nfc(text, ranges);
    for (std::size_t k = 0; k < text.size(); ++k) out.push_back(Unit{text[k], ranges[k].start, ranges[k].end});
    i = j;
  }
  return out;
}

// A spacing accent at in[i] read with its letter (see accent_above_mark): the letter, then the
// combining mark, both standing for the accent and the letter together (composition then makes them
// one letter, evidence covers both glyphs). Returns false, appending nothing, when the accent has
// no letter to go on. i is moved past what was read.
//
// Where TeX puts the accent: one set above precedes its letter (`\'e` is \accent, the accent glyph
// first). A cedilla or ogonek precedes a lowercase letter of x-height (`\c{c}` is \accent too for
// c, s, n ...: "Fran¸cois") and follows a taller one (\ooalign for C, S, t, k: "C¸A"), so it goes
// with a following lowercase ASCII letter it composes with, else with the letter before it. A
// dotless i or j followed by an accent above takes it too (`ı´` -> í: the letter exists only to
// carry one).
bool read_spacing_accent(const Units& in, std::size_t& i, Units& out) {
  const Unit& unit = in[i];
  if ((unit.c == 0x0131 || unit.c == 0x0237) && i + 1 < in.size() && is_combining_above(in[i + 1].c)) {
    // A dotless i or j under a combining accent is the i or j with it (pdftotext gives "Mikulı́k"
    // for TeX's `\'\i`): the letter alone changes, so composition makes í of it.
    out.push_back(Unit{accent_base(unit.c), unit.start, unit.end});
    return true;
  }
  const char32_t below = accent_below_mark(unit.c);
  const char32_t next = i + 1 < in.size() ? in[i + 1].c : 0;
  const bool before_next = below != 0 && next >= U'a' && next <= U'z' && accented(next, below) != 0;
  // After its letter: an accent below (unless it goes on the next letter), or an accent above
  // after a dotless i or j. The letter must be in `out` as it was read (no fold or accent of its own).
  if (!before_next && i > 0 && !out.empty() && out.back().start == in[i - 1].start &&
      out.back().end == in[i - 1].end && out.back().c == in[i - 1].c) {
    const char32_t before = in[i - 1].c;
    const bool dotless = before == 0x0131 || before == 0x0237;
    char32_t mark = below;
    if (mark == 0 && dotless && unit.c != U'`') mark = accent_above_mark(unit.c);
    if (mark != 0 && accented(before, mark) != 0) {
      Unit& letter = out.back();
      letter.c = accent_base(before);
      letter.end = unit.end;
      out.push_back(Unit{mark, letter.start, unit.end});
      return true;
    }
  }
  // Before its letter: an accent above, or a cedilla or ogonek before a lowercase letter.
  const char32_t mark = below != 0 ? (before_next ? below : 0) : accent_above_mark(unit.c);
  if (mark == 0 || next == 0 || accented(next, mark) == 0) return false;
  if (unit.c == U'`' && !grave_is_accent(i > 0 ? in[i - 1].c : 0, i + 2 < in.size() ? in[i + 2].c : 0)) return false;
  const Unit& letter = in[i + 1];
  out.push_back(Unit{accent_base(letter.c), unit.start, letter.end});
  out.push_back(Unit{mark, unit.start, letter.end});
  ++i;
  return true;
}

// The spacing form of a combining mark above (accent_above_mark's inverse), or 0. The grave is left
// out: its spacing form is the ASCII backtick, which is code and TeX quotes as often as an accent.
char32_t spacing_accent_of(char32_t mark) {
  switch (mark) {
    case 0x0301: return 0x00B4;
    case 0x0308: return 0x00A8;
    case 0x0302: return 0x02C6;
    case 0x0303: return 0x02DC;
    case 0x0304: return 0x00AF;
    case 0x0306: return 0x02D8;
    case 0x0307: return 0x02D9;
    case 0x030A: return 0x02DA;
    case 0x030B: return 0x02DD;
    case 0x030C: return 0x02C7;
    default: return 0;
  }
}

// TeX's math accents (\hat, \tilde, \bar, \dot, \breve, \check, \ddot): a spacing accent a
// variable is drawn under, before or after it ("ˆσ", "βˆ").
bool is_math_accent(char32_t c) {
  switch (c) {
    case 0x02C6: case 0x02DC: case 0x00AF: case 0x02C9: case 0x02D8: case 0x02D9: case 0x02DA: case 0x02C7: case 0x00A8:
      return true;
    default:
      return false;
  }
}

// Accents no letter composes with, read one way. TeX's math accents set a spacing accent glyph
// over a variable, which PDFium and pdftotext give before or after it in drawing order ("ˆσ",
// "βˆ(i)", "Bˆ"), where a writer types the letter and a combining mark ("σ̂", "β̂": Unicode has no
// precomposed letter, so composition leaves them apart); and TeX's typewriter \^{} and \~{} are
// the same spacing glyphs standing for code's caret and tilde ("xˆ2", R's "y ˜ x"), which a writer
// types in ASCII. So, on the composed units of both sides: a combining mark above left after a
// letter is written as its spacing accent; a math accent right after a letter and before a
// non-word scalar composes with that letter when Unicode has the accented letter ("aˆ =" reads
// "â ="); a math accent between a non-word scalar (or the text's start) and a lone letter goes
// after that letter ("(ˆσ)" reads "(σˆ)"); then the circumflex and the small tilde read as ASCII
// "^" and "~" (and the modifier macron as the macron). A moved or composed accent and its letter both cover the two scalars. Text with
// none of these scalars is returned as it is. (A caret before a letter it composes with is still
// read as TeX's text accent, before this step: a regular expression's "[ˆa-z]" reads "[â-z]", so a
// quote "[^a-z]" typed in ASCII does not meet it; "xˆ2" and "[ˆxy]" read "x^2" and "[^xy]".)
Units read_uncomposed_accents(Units in) {
  const auto candidate = [](const Unit& unit) {
    return (unit.c >= 0xA8 && unit.c <= 0x2DD) || (unit.c >= 0x300 && unit.c <= 0x30C);
  };
  if (std::none_of(in.begin(), in.end(), candidate)) return in;
  // The caret and the tilde as ASCII types them; the modifier macron as the macron.
  const auto ascii_form = [](char32_t c) -> char32_t {
    return c == 0x02C6 ? U'^' : c == 0x02DC ? U'~' : c == 0x02C9 ? 0x00AF : c;
  };
  Units out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const Unit& unit = in[i];
    const char32_t spacing = spacing_accent_of(unit.c);
    if (spacing != 0 && !out.empty() && !is_unicode_white_space(out.back().c)) {
      out.push_back(Unit{ascii_form(spacing), unit.start, unit.end});
      continue;
    }
    const bool before_non_word = i + 1 >= in.size() || !unicode::is_word_char(in[i + 1].c);
    if (is_math_accent(unit.c) && before_non_word && i > 0 && !out.empty() && out.back().start == in[i - 1].start &&
        out.back().end == in[i - 1].end && out.back().c == in[i - 1].c) {
      const char32_t composed = accented(out.back().c, accent_above_mark(unit.c));
      if (composed != 0) {
        out.back().c = composed;
        out.back().end = unit.end;
        continue;
      }
    }
    if (is_math_accent(unit.c) && (i == 0 || !unicode::is_word_char(in[i - 1].c)) && i + 1 < in.size()) {
      const Unit& letter = in[i + 1];
      const bool lone_letter = unicode::is_word_char(letter.c) && !unicode::is_decimal_digit(letter.c) &&
                               !(letter.c >= 0x300 && letter.c < 0x370) &&
                               (i + 2 >= in.size() || !unicode::is_word_char(in[i + 2].c));
      if (lone_letter) {
        out.push_back(Unit{letter.c, unit.start, letter.end});
        out.push_back(Unit{ascii_form(unit.c), unit.start, letter.end});
        ++i;
        continue;
      }
    }
    out.push_back(Unit{ascii_form(unit.c), unit.start, unit.end});
  }
  return out;
}

// HTML character references ("&amp;", "&rsquo;", "&#8217;") read as the characters they stand for,
// each covering the whole reference: model output and HTML-derived text carry them where the page
// shows the character. A text without "&" is returned as it is (nearly every text).
const Units& decode_html_references(const Units& in, Units& decoded) {
  if (std::none_of(in.begin(), in.end(), [](const Unit& unit) { return unit.c == U'&'; })) return in;
  std::u32string chars(in.size(), 0);
  for (std::size_t i = 0; i < in.size(); ++i) chars[i] = in[i].c;
  decoded.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const text::HtmlReference reference = in[i].c == U'&' ? text::html_reference_at(chars, i) : text::HtmlReference{};
    if (reference.length == 0) {
      decoded.push_back(in[i]);
      continue;
    }
    const Unit& last = in[i + reference.length - 1];
    for (std::size_t k = 0; k < reference.scalar_count; ++k) decoded.push_back(Unit{reference.scalars[k], in[i].start, last.end});
    i += reference.length - 1;
  }
  return decoded;
}

// Typography on exact units: HTML character references, line-end hyphenation (one reading), dash
// runs, deletions, folds, full-width ASCII, canonical composition; then whitespace again, since
// deletions can join two runs.
Units typography(const Units& raw, const std::unordered_set<std::uint32_t>& hyphens, bool join, const LadderOptions& options) {
  Units decoded;
  const Units& in = decode_html_references(raw, decoded);
  Units folded;
  folded.reserve(in.size());
  std::size_t plain_until = 0;  // units of a hyphen-minus run that stay as they are
  const bool no_hyphens = hyphens.empty();
  // White space beside CJK punctuation goes here, before full-width punctuation folds to ASCII
  // ("（" to "("), as collapse_whitespace drops it at the white-space tier.
  bool after_cjk_punctuation = false;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const Unit& unit = in[i];
    if (after_cjk_punctuation) {
      if (is_unicode_white_space(unit.c)) continue;
      after_cjk_punctuation = false;
    }
    if (unit.c >= 0x3001 && options.cjk_wrap_spaces && unicode::is_cjk_punctuation(unit.c)) {
      while (!folded.empty() && is_unicode_white_space(folded.back().c)) folded.pop_back();
      after_cjk_punctuation = true;
    }
    // TeX's \ldots as extractors read it, ". . ." (three full stops, one white-space scalar
    // between each two): an ellipsis, read as "..." like U+2026; the spaces cover nothing.
    if (unit.c == U'.' && i + 4 < in.size() && in[i + 2].c == U'.' && in[i + 4].c == U'.' &&
        is_unicode_white_space(in[i + 1].c) && is_unicode_white_space(in[i + 3].c)) {
      folded.push_back(unit);
      folded.push_back(in[i + 2]);
      folded.push_back(in[i + 4]);
      i += 4;
      continue;
    }
    // Nearly every scalar of a document: ASCII other than a dash or a double quotation mark, with
    // no recorded hyphen, which none of the rules below changes (no deletion or full-width form lies
    // in ASCII, and no fold in printable ASCII); asked first so the index build does not walk the rules per scalar.
    // (T1's control codes, 0x10 to 0x1F, fold: typographic_fold.)
    if (no_hyphens && unit.c < 0x80 && (unit.c >= 0x20 || unit.c < 0x10) && unit.c != U'-' && unit.c != U'"' &&
        unit.c != U'`') {
      folded.push_back(unit);
      continue;
    }
    if (may_be_spacing_accent(unit.c) && read_spacing_accent(in, i, folded)) continue;
    if (unit.c == U'-' && i >= plain_until) {
      // "--" and "---" are how en and em dashes are typed (TeX, plain text): one dash, covering
      // the run. Longer runs (rules) and runs holding a recorded line-end hyphen stay as they are.
      std::size_t run = 1;
      bool recorded = !hyphens.empty() && hyphens.count(unit.start) != 0;
      for (; i + run < in.size() && in[i + run].c == U'-'; ++run) {
        if (!hyphens.empty() && hyphens.count(in[i + run].start) != 0) recorded = true;
      }
      if ((run == 2 || run == 3) && !recorded) {
        folded.push_back(Unit{U'-', unit.start, in[i + run - 1].end});
        i += run - 1;
        continue;
      }
      plain_until = i + run;
    }
    if (!hyphens.empty() && hyphens.count(unit.start) != 0) {  // (most texts record none)
      // The hyphen that ended a line: keep it (hyphenated reading) or drop it (joined reading);
      // the line-break whitespace right after it goes either way.
      if (!join) folded.push_back(Unit{U'-', unit.start, unit.end});
      while (i + 1 < in.size() && is_unicode_white_space(in[i + 1].c)) ++i;
      continue;
    }
    if (is_deleted_format_char(unit.c)) continue;
    if (const char32_t* replacement = typographic_fold(unit.c)) {
      if (replacement[0] == U'"') {
        push_spaced_double_quote(folded, unit);
        continue;
      }
      for (const char32_t* r = replacement; *r != 0; ++r) folded.push_back(Unit{*r, unit.start, unit.end});
      continue;
    }
    if (unit.c == U'"' || unit.c == 0xFF02) {
      push_spaced_double_quote(folded, unit);
      continue;
    }
    if (unit.c >= 0xFF01 && unit.c <= 0xFF5E) {  // full-width forms of ASCII
      folded.push_back(Unit{unit.c - 0xFEE0, unit.start, unit.end});
      continue;
    }
    folded.push_back(unit);
  }
  return collapse_whitespace(read_uncomposed_accents(compose(folded)), options.cjk_wrap_spaces);
}

Units lowercase(const Units& in) {
  Units out;
  out.reserve(in.size());
  std::u32string lowered;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char32_t c = in[i].c;
    if (c < 0x80) {  // ASCII lowercases within ASCII, one for one
      out.push_back(Unit{c >= U'A' && c <= U'Z' ? c + 32 : c, in[i].start, in[i].end});
      continue;
    }
    bool final_sigma = false;
    if (c == 0x03A3) {  // final sigma: after a cased letter and not before one (SpecialCasing)
      final_sigma = i > 0 && is_cased_letter(in[i - 1].c) && !(i + 1 < in.size() && is_cased_letter(in[i + 1].c));
    }
    lowered.clear();
    append_lowercase(c, final_sigma, lowered);
    for (char32_t l : lowered) out.push_back(Unit{l, in[i].start, in[i].end});
  }
  return out;
}

// Letters, marks and digits only; every other run becomes one space so words stay apart.
Units skeleton(const Units& in) {
  Units out;
  out.reserve(in.size());
  bool pending = false;
  Unit run{U' ', 0, 0};
  for (const Unit& unit : in) {
    if (!unicode::is_word_char(unit.c)) {
      if (!pending) run = Unit{U' ', unit.start, unit.end};
      run.end = std::max(run.end, unit.end);
      pending = true;
      continue;
    }
    if (pending && !out.empty()) out.push_back(run);
    pending = false;
    out.push_back(unit);
  }
  return out;
}

Units units_of(const Reading& reading) {
  Units units(reading.text.size());
  for (std::size_t i = 0; i < units.size(); ++i) units[i] = Unit{reading.text[i], reading.start[i], reading.end[i]};
  return units;
}

// Into `reading`'s existing storage (a rebuilt claim ladder's).
void to_reading_into(const Units& units, Reading& reading) {
  const std::size_t size = units.size();
  reading.text.resize(size);
  reading.start.resize(size);
  reading.end.resize(size);
  for (std::size_t i = 0; i < size; ++i) {
    reading.text[i] = units[i].c;
    reading.start[i] = units[i].start;
    reading.end[i] = units[i].end;
  }
}

Reading to_reading(const Units& units) {
  Reading reading;
  to_reading_into(units, reading);
  return reading;
}

// to_reading(exact_units(original)) without the units in between: the exact reading is the text
// itself, each scalar standing for itself. Every claim's ladder builds it (most claims are found
// at the exact tier), so it skips a copy of the text as units and a pass over them.
void exact_reading_into(const std::u32string& original, Reading& reading) {
  const std::size_t size = original.size();
  reading.text.assign(original);
  reading.start.resize(size);
  reading.end.resize(size);
  for (std::size_t i = 0; i < size; ++i) {
    reading.start[i] = static_cast<std::uint32_t>(i);
    reading.end[i] = static_cast<std::uint32_t>(i + 1);
  }
}

Reading exact_reading(const std::u32string& original) {
  Reading reading;
  exact_reading_into(original, reading);
  return reading;
}

// At most one scalar per byte: sized for that, filled by index, ASCII decoded in place (texts
// are mostly ASCII; every claim of a verify-batch request is decoded), then cut to the count.
// Into `out`, whose storage is reused (a rebuilt claim ladder's text).
void decode_into(std::string_view utf8_text, std::u32string& out) {
  out.resize(utf8_text.size());
  std::size_t count = 0;
  std::size_t pos = 0;
#if defined(__SSE2__)
  // Sixteen ASCII bytes at a time, widened to scalars (a claim is nearly always ASCII); from the
  // first block holding any other byte on, the text is decoded one scalar at a time below.
  const __m128i zero = _mm_setzero_si128();
  while (pos + 16 <= utf8_text.size()) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(utf8_text.data() + pos));
    if (_mm_movemask_epi8(bytes) != 0) break;
    const __m128i low = _mm_unpacklo_epi8(bytes, zero), high = _mm_unpackhi_epi8(bytes, zero);
    char32_t* const to = &out[count];
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to), _mm_unpacklo_epi16(low, zero));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + 4), _mm_unpackhi_epi16(low, zero));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + 8), _mm_unpacklo_epi16(high, zero));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + 12), _mm_unpackhi_epi16(high, zero));
    pos += 16;
    count += 16;
  }
#endif
  while (pos < utf8_text.size()) {
    const auto byte = static_cast<unsigned char>(utf8_text[pos]);
    if (byte < 0x80) {
      out[count++] = byte;
      ++pos;
    } else {
      out[count++] = utf8::next(utf8_text, pos);
    }
  }
  out.resize(count);
}

std::u32string decode(std::string_view utf8_text) {
  std::u32string out;
  decode_into(utf8_text, out);
  return out;
}


// The recorded line-end hyphens that count (a hyphen character at a valid offset) and the
// hyphenation readings the policy allows: one typography reading per entry of the result.
std::vector<bool> hyphenation_readings(const std::u32string& original, const std::vector<std::int64_t>* hyphen_breaks,
                                       const LadderOptions& options, std::unordered_set<std::uint32_t>& hyphens) {
  hyphens.clear();
  if (hyphen_breaks != nullptr) {
    for (std::int64_t offset : *hyphen_breaks) {
      // Only a recorded hyphen character counts; offsets that point elsewhere are ignored.
      if (offset >= 0 && static_cast<std::size_t>(offset) < original.size()) {
        const char32_t c = original[static_cast<std::size_t>(offset)];
        if (c == U'-' || c == 0x2010 || c == 0x00AD) hyphens.insert(static_cast<std::uint32_t>(offset));
      }
    }
  }
  std::vector<bool> joins;
  if (hyphens.empty()) {
    joins.push_back(false);
  } else {
    if (options.joined_reading) joins.push_back(true);
    if (options.hyphenated_reading) joins.push_back(false);
    if (joins.empty()) {
      hyphens.clear();  // neither reading: the line break stays a plain space
      joins.push_back(false);
    }
  }
  return joins;
}

// Whether collapse_whitespace leaves a text as it is: ASCII, its only white space single spaces
// between other scalars (none at either end).
bool whitespace_keeps(const std::u32string& original) {
  const std::size_t n = original.size();
  for (std::size_t i = 0; i < n; ++i) {
    const char32_t c = original[i];
    if (c >= 0x80) return false;
    if (!is_unicode_white_space(c)) continue;
    if (c != U' ' || i == 0 || i + 1 == n || original[i + 1] == U' ') return false;
  }
  return true;
}

// Whether typography_keeps every scalar of a text.
bool keeps_typography(const std::u32string& original) {
  for (std::size_t i = 0; i < original.size(); ++i) {
    if (!typography_keeps(original[i], i > 0 ? original[i - 1] : 0)) return false;
  }
  return true;
}

}  // namespace

const std::vector<Reading>& Ladder::at(Tier tier) const {
  const int t = static_cast<int>(tier);
  const unsigned bit = 1u << t;
  if (lazy && (built & bit) == 0) {
    // build_ladder's steps without hyphenation artifacts (one reading per tier); each tier from
    // the one it extends, as build_ladder does. The one reading is written over whatever this
    // tier held for an earlier text (rebuild_claim_ladder), reusing its storage.
    tiers[t].resize(1);
    Reading& reading = tiers[t].front();
    if (!marker_ranges.empty()) {
      // A text with markers takes the steps one by one from its marked units (rare: only under a
      // policy with a marker_pattern, and only for the texts that hold a marker).
      Units units = marked_units(original, marker_ranges);
      switch (tier) {
        case Tier::exact: break;
        case Tier::whitespace: units = collapse_whitespace(units, options.cjk_wrap_spaces); break;
        case Tier::typography: units = typography(units, {}, false, options); break;
        case Tier::case_folded: units = lowercase(units_of(at(Tier::typography).front())); break;
        case Tier::skeleton: units = skeleton(units_of(at(Tier::case_folded).front())); break;
      }
      to_reading_into(units, reading);
    } else if (tier == Tier::exact || (tier == Tier::whitespace && whitespace_keeps(original))) {
      // (A text whose only white space is single spaces between other scalars reads at the
      // white-space tier as it reads exactly: nothing to collapse or trim.)
      exact_reading_into(original, reading);
    } else if (tier >= Tier::typography && keeps_typography(original)) {
      // Typography leaves every scalar as it is (most claims: ASCII with no double quotation
      // mark, backtick or double hyphen): the three typographic readings in the one pass the
      // document's plain stretches take (plain_readings), instead of three passes through units
      // copied from the tier before. A claim reaching typography is nearly always a miss, which
      // goes on to case and skeleton.
      thread_local TypographicReadings plain;
      plain.typography.clear();
      plain.case_folded.clear();
      plain.skeleton.clear();
      plain_readings(original, 0, original.size(), plain);
      const std::pair<Tier, const Units*> readings[] = {
          {Tier::typography, &plain.typography}, {Tier::case_folded, &plain.case_folded}, {Tier::skeleton, &plain.skeleton}};
      for (const auto& [each, units] : readings) {
        const int e = static_cast<int>(each);
        tiers[e].resize(1);
        to_reading_into(*units, tiers[e].front());
        built |= 1u << e;
      }
      // Kept for the next claim up to a claim's usual size; a long claim's units are let go.
      constexpr std::size_t kKeptUnits = std::size_t{1} << 16;
      if (plain.typography.capacity() > kKeptUnits) plain = TypographicReadings{};
    } else {
      Units units;
      switch (tier) {
        case Tier::exact: break;  // above
        case Tier::whitespace: units = collapse_whitespace(exact_units(original), options.cjk_wrap_spaces); break;
        case Tier::typography: units = typography(exact_units(original), {}, false, options); break;
        case Tier::case_folded: units = lowercase(units_of(at(Tier::typography).front())); break;
        case Tier::skeleton: units = skeleton(units_of(at(Tier::case_folded).front())); break;
      }
      to_reading_into(units, reading);
    }
    built |= bit;
  }
  return tiers[t];
}

Ladder build_claim_ladder(std::string_view utf8_text, const LadderOptions& options) {
  Ladder ladder;
  rebuild_claim_ladder(ladder, utf8_text, options);
  return ladder;
}

void rebuild_claim_ladder(Ladder& ladder, std::string_view utf8_text, const LadderOptions& options) {
  decode_into(utf8_text, ladder.original);
  ladder.lazy = true;
  ladder.options = options;
  ladder.built = 0;  // the readings' storage stays, to be written over tier by tier
  if (options.markers) {
    ladder.marker_ranges = options.markers->find(ladder.original);
  } else {
    ladder.marker_ranges.clear();
  }
  ladder.indexed = false;
  for (auto& index : ladder.indexes) index.clear();
}

Ladder build_ladder(std::string_view utf8_text, const LadderOptions& options, LineArtifacts artifacts) {
  Ladder ladder;
  ladder.original = decode(utf8_text);
  ladder.marker_ranges = markers_of(ladder.original, options, nullptr);
  const Units exact = marked_units(ladder.original, ladder.marker_ranges);
  ladder.tiers[0].push_back(ladder.marker_ranges.empty() ? exact_reading(ladder.original) : to_reading(exact));
  ladder.tiers[1].push_back(to_reading(collapse_whitespace(exact, options.cjk_wrap_spaces)));
  std::unordered_set<std::uint32_t> hyphens;
  for (bool join : hyphenation_readings(ladder.original, artifacts.hyphen_breaks, options, hyphens)) {
    const Units typo = typography(exact, hyphens, join, options);
    const Units cased = lowercase(typo);
    ladder.tiers[2].push_back(to_reading(typo));
    ladder.tiers[3].push_back(to_reading(cased));
    ladder.tiers[4].push_back(to_reading(skeleton(cased)));
  }
  return ladder;
}

std::vector<Reading> build_tier(const std::u32string& original, Tier tier, const LadderOptions& options,
                                const std::vector<std::int64_t>* hyphen_breaks, const MarkerRanges* markers) {
  std::vector<Reading> readings;
  const MarkerRanges ranges = markers_of(original, options, markers);
  if (tier == Tier::exact || tier == Tier::whitespace) {
    Units units = marked_units(original, ranges);
    if (tier == Tier::whitespace) units = collapse_whitespace(units, options.cjk_wrap_spaces);
    readings.push_back(to_reading(units));
    return readings;
  }
  std::unordered_set<std::uint32_t> hyphens;
  for (bool join : hyphenation_readings(original, hyphen_breaks, options, hyphens)) {
    // Each stage is dropped as soon as the next exists: document-wide texts are large.
    Units units = typography(marked_units(original, ranges), hyphens, join, options);
    if (tier != Tier::typography) units = lowercase(units);
    if (tier == Tier::skeleton) units = skeleton(units);
    readings.push_back(to_reading(units));
  }
  return readings;
}

namespace {

// Whether typography leaves this scalar of a text without recorded hyphens exactly as it is and
// composition cannot touch it: ASCII other than a double quotation mark, a backtick (a grave
// accent, maybe) and the second hyphen-minus of a run (runs of two or three become one dash).
// Those rules are all typography does to ASCII; the white-space step that ends it is done by the
// caller. Lowercase letters, most of a text, are answered by the first two tests.
bool typography_keeps(char32_t c, char32_t before) {
  if (c > U'`') return c < 0x80;
  if (c < 0x20 && typographic_fold(c) != nullptr) return false;  // T1's control codes
  // A full stop after white space may be the second of a spaced ellipsis (". . .", read as "...").
  return c != U'"' && c != U'`' && c != U'&' && !(c == U'-' && before == U'-') &&
         !(c == U'.' && before <= U' ' && is_unicode_white_space(before));
}

// The three readings of original[from, to) appended to `out` (offsets into original), for a
// stretch that holds only scalars typography keeps, in one pass: white-space runs become one
// space (the stretch starts and ends with letters, so there is no edge to trim), case is ASCII
// lowercase one for one, and skeleton turns each run of non-word units of the case reading into
// one space, as the separate passes do.
void plain_readings(const std::u32string& original, std::size_t from, std::size_t to, TypographicReadings& out) {
  bool space_pending = false, gap_pending = false;
  Unit space{U' ', 0, 0}, gap{U' ', 0, 0};
  const auto to_skeleton = [&](const Unit& unit) {
    if (!unicode::is_word_char(unit.c)) {
      if (!gap_pending) gap = Unit{U' ', unit.start, unit.end};
      gap.end = std::max(gap.end, unit.end);
      gap_pending = true;
      return;
    }
    if (gap_pending && !out.skeleton.empty()) out.skeleton.push_back(gap);
    gap_pending = false;
    out.skeleton.push_back(unit);
  };
  const auto to_case = [&](const Unit& unit) {
    out.typography.push_back(unit);
    const Unit lowered{unit.c >= U'A' && unit.c <= U'Z' ? unit.c + 32 : unit.c, unit.start, unit.end};
    out.case_folded.push_back(lowered);
    to_skeleton(lowered);
  };
  for (std::size_t i = from; i < to; ++i) {
    const Unit unit{original[i], static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1)};
    if (is_unicode_white_space(unit.c)) {
      if (!space_pending) space = Unit{U' ', unit.start, unit.end};
      space.end = std::max(space.end, unit.end);
      space_pending = true;
      continue;
    }
    if (space_pending && !out.typography.empty()) to_case(space);
    space_pending = false;
    to_case(unit);
  }
  // A stretch ends with a letter (or is the text's tail): no run is left open that a later
  // scalar could extend; a trailing run is trimmed, as the separate passes trim it.
}

// is_safe_cut at original[cut], and not inside an HTML character reference (decoded as one unit).
bool safe_cut_at(const std::u32string& original, std::size_t cut) {
  return is_safe_cut(cut >= 2 ? original[cut - 2] : 0, original[cut - 1], original[cut]) &&
         !may_split_reference([&original](std::size_t pos) { return original[pos]; }, cut);
}

// Appends `units` with their offsets moved by `shift`.
void append_shifted(Units& out, const Units& units, std::uint32_t shift) {
  for (const Unit& unit : units) out.push_back(Unit{unit.c, unit.start + shift, unit.end + shift});
}

}  // namespace

std::vector<TypographicReadings> build_typographic_tiers(const std::u32string& original, const LadderOptions& options,
                                                         const std::vector<std::int64_t>* hyphen_breaks,
                                                         const MarkerRanges* markers) {
  std::vector<TypographicReadings> readings;
  std::unordered_set<std::uint32_t> hyphens;
  const std::vector<bool> joins = hyphenation_readings(original, hyphen_breaks, options, hyphens);
  const MarkerRanges ranges = markers_of(original, options, markers);
  if (hyphens.empty() && ranges.empty()) {
    // No recorded hyphen (nearly every text): the text is cut between two ASCII letters, where no
    // step carries anything across (is_safe_cut), into stretches typography keeps as they are,
    // read in one pass (plain_readings), and the stretches between them, read by the passes.
    // The pieces' readings put end to end are the whole text's.
    // Typography can read longer than the text (a double quotation mark gets two spaces, a
    // ligature its letters): an eighth of slack keeps the arrays from doubling while they fill.
    TypographicReadings built;
    const std::size_t room = original.size() + original.size() / 8 + 16;
    built.typography.reserve(room);
    built.case_folded.reserve(room);
    built.skeleton.reserve(room);
    const std::size_t n = original.size();
    std::size_t from = 0;
    while (from < n) {
      // The longest stretch from `from` of scalars typography keeps, cut back to a safe cut.
      std::size_t end = from;
      while (end < n && typography_keeps(original[end], end > 0 ? original[end - 1] : 0)) ++end;
      std::size_t cut = end;
      while (cut < n && cut > from && !safe_cut_at(original, cut)) --cut;
      if (cut > from) {
        plain_readings(original, from, cut, built);
        from = cut;
        continue;
      }
      // Up to the first safe cut after a scalar typography changes (or the end of the text).
      std::size_t next = std::max(end, from + 1);
      while (next < n && !safe_cut_at(original, next)) ++next;
      const Units typo = typography(exact_units(original.substr(from, next - from)), hyphens, false, options);
      const Units cased = lowercase(typo);
      const auto shift = static_cast<std::uint32_t>(from);
      append_shifted(built.typography, typo, shift);
      append_shifted(built.case_folded, cased, shift);
      append_shifted(built.skeleton, skeleton(cased), shift);
      from = next;
    }
    readings.push_back(std::move(built));
    return readings;
  }
  const Units exact = marked_units(original, ranges);
  for (bool join : joins) {
    TypographicReadings built;
    built.typography = typography(exact, hyphens, join, options);
    built.case_folded = lowercase(built.typography);
    built.skeleton = skeleton(built.case_folded);
    readings.push_back(std::move(built));
  }
  return readings;
}

NormalizedScalars build_whitespace_tier(const std::u32string& original, const LadderOptions& options,
                                        const MarkerRanges* markers) {
  return collapse_whitespace(marked_units(original, markers_of(original, options, markers)), options.cjk_wrap_spaces);
}

NormalizedScalars build_exact_tier(const std::u32string& original, const LadderOptions& options, const MarkerRanges* markers) {
  return marked_units(original, markers_of(original, options, markers));
}

Reading normalize_for_tier(std::string_view utf8_text, Tier tier, const LadderOptions& options) {
  const std::u32string original = decode(utf8_text);
  const Units exact = marked_units(original, markers_of(original, options, nullptr));
  switch (tier) {
    case Tier::exact: return to_reading(exact);
    case Tier::whitespace: return to_reading(collapse_whitespace(exact, options.cjk_wrap_spaces));
    case Tier::typography: return to_reading(typography(exact, {}, false, options));
    case Tier::case_folded: return to_reading(lowercase(typography(exact, {}, false, options)));
    case Tier::skeleton: return to_reading(skeleton(lowercase(typography(exact, {}, false, options))));
  }
  return to_reading(exact);
}

}  // namespace ethos::match
