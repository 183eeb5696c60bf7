// normalize.cpp - none / collapse_whitespace / unicode_compat_v1 and lowercase, with offset maps.
#include "text/normalize.hpp"

#include <algorithm>

#include "text/utf8.hpp"

namespace ethos {
namespace {

struct LowercaseEntry {
  char32_t code_point;
  char32_t target_or_offset;
  std::uint32_t pool_length;
};
#include "text/unicode_tables.inc"

// ASCII whitespace as Rust's is_ascii_whitespace: space, TAB, LF, FF, CR (not VT).
bool is_ascii_whitespace(char32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// Characters unicode_compat_v1 deletes outright (soft hyphen, zero-width space, BOM/ZWNBSP).
bool is_compat_deleted(char32_t c) { return c == 0x00AD || c == 0x200B || c == 0xFEFF; }

// unicode_compat_v1 presentation folds; returns the replacement or nullptr when unchanged.
const char* compat_replacement(char32_t c) {
  switch (c) {
    case 0x2018: case 0x2019: case 0x201A: case 0x201B: return "'";
    case 0x201C: case 0x201D: case 0x201E: case 0x201F: return "\"";
    case 0x2010: case 0x2011: case 0x2012: case 0x2013: case 0x2014: case 0x2015: case 0x2212: return "-";
    case 0x2026: return "...";
    case 0xFB00: return "ff";
    case 0xFB01: return "fi";
    case 0xFB02: return "fl";
    case 0xFB03: return "ffi";
    case 0xFB04: return "ffl";
    case 0xFB05: case 0xFB06: return "st";
    default: return nullptr;
  }
}

const LowercaseEntry* find_lowercase(char32_t c) {
  const auto* begin = std::begin(kLowercaseTable);
  const auto* end = std::end(kLowercaseTable);
  const auto* it = std::lower_bound(begin, end, c, [](const LowercaseEntry& e, char32_t v) { return e.code_point < v; });
  return (it != end && it->code_point == c) ? it : nullptr;
}

// "Cased" for the final-sigma rule: letters that have a case mapping either way. We approximate
// the Unicode Cased property with the lowercase table plus the lowercase letters of the scripts
// that carry case (Latin, Greek, Cyrillic, Armenian); both sides of a comparison use the same rule.
bool is_cased(char32_t c) {
  if (find_lowercase(c) != nullptr) return true;
  return (c >= 'a' && c <= 'z') || (c >= 0xDF && c <= 0x24F) || (c >= 0x370 && c <= 0x3FF) ||
         (c >= 0x400 && c <= 0x52F) || (c >= 0x561 && c <= 0x587) || (c >= 0x1E00 && c <= 0x1FFF);
}

// One decoded character of the pipeline with the source range it stands for.
struct Piece {
  std::uint32_t start;
  std::uint32_t end;
};

class Emitter {
 public:
  Emitter(NormalizedText& out, bool with_map) : out_(out), with_map_(with_map) {}
  void emit(std::string_view bytes, Piece from) {
    out_.text.append(bytes);
    if (with_map_) {
      out_.source_start.insert(out_.source_start.end(), bytes.size(), from.start);
      out_.source_end.insert(out_.source_end.end(), bytes.size(), from.end);
    }
  }
  // Copies input bytes that normalize to themselves; each byte maps to its own position.
  void emit_verbatim(std::string_view input, std::size_t start, std::size_t length) {
    out_.text.append(input.data() + start, length);
    if (with_map_) {
      for (std::size_t i = 0; i < length; ++i) {
        out_.source_start.push_back(static_cast<std::uint32_t>(start + i));
        out_.source_end.push_back(static_cast<std::uint32_t>(start + i + 1));
      }
    }
  }
  void emit_scalar(char32_t c, Piece from) {
    std::string bytes;
    utf8::append(bytes, c);
    emit(bytes, from);
  }

 private:
  NormalizedText& out_;
  bool with_map_;
};

// Whitespace stage: collapses runs to one space and trims; pending space is emitted lazily so a
// run at either edge disappears. `collapsible` decides which characters form runs, `trimmable`
// which are removed at the edges (collapse_whitespace trims more than it collapses).
template <typename Collapsible, typename Trimmable, typename Transform>
void whitespace_pass(std::string_view input, NormalizedText& out, bool with_map, Collapsible collapsible,
                     Trimmable trimmable, Transform transform) {
  Emitter emitter(out, with_map);
  // Edge trimming with Unicode White_Space: find the first/last non-trimmable scalar.
  std::size_t begin = 0;
  std::size_t end = input.size();
  while (begin < end) {
    std::size_t pos = begin;
    if (!trimmable(utf8::next(input, pos))) break;
    begin = pos;
  }
  while (end > begin) {
    std::size_t lead = end - 1;
    while (lead > begin && (static_cast<unsigned char>(input[lead]) & 0xC0) == 0x80) --lead;
    std::size_t pos = lead;
    if (!trimmable(utf8::next(input, pos))) break;
    end = lead;
  }
  bool pending = false;
  Piece run{0, 0};
  std::size_t pos = begin;
  while (pos < end) {
    // Fast path: printable ASCII other than space is never collapsed, folded or deleted by any
    // profile, so whole runs of it are copied at once.
    std::size_t plain = pos;
    while (plain < end && static_cast<unsigned char>(input[plain]) > 0x20 && static_cast<unsigned char>(input[plain]) < 0x7F) ++plain;
    if (plain > pos) {
      if (pending) {
        emitter.emit(" ", run);
        pending = false;
      }
      emitter.emit_verbatim(input, pos, plain - pos);
      pos = plain;
      continue;
    }
    const std::size_t start = pos;
    const char32_t c = utf8::next(input, pos);
    const Piece piece{static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(pos)};
    if (collapsible(c)) {
      if (!pending) run = piece;
      run.end = piece.end;
      pending = true;
      continue;
    }
    if (transform(c, piece, emitter, pending, run)) continue;  // deleted characters keep a run open
    if (pending) {
      emitter.emit(" ", run);
      pending = false;
    }
    emitter.emit(std::string_view(input.data() + start, pos - start), piece);
  }
}

}  // namespace

const char* unicode_version() { return ETHOS_UNICODE_VERSION; }

void append_lowercase(char32_t c, bool final_sigma, std::u32string& out) {
  if (c == 0x03A3) {
    out.push_back(final_sigma ? 0x03C2 : 0x03C3);
    return;
  }
  const LowercaseEntry* entry = find_lowercase(c);
  if (entry == nullptr) {
    out.push_back(c);
  } else if (entry->pool_length == 0) {
    out.push_back(entry->target_or_offset);
  } else {
    out.append(kLowercasePool + entry->target_or_offset, entry->pool_length);
  }
}

bool is_cased_letter(char32_t c) { return is_cased(c); }

namespace {

void lowercase_pass(const NormalizedText& input, NormalizedText& out, bool with_map) {
  Emitter emitter(out, with_map);
  const std::string_view text = input.text;
  std::size_t pos = 0;
  char32_t previous = 0;
  while (pos < text.size()) {
    const std::size_t start = pos;
    const char32_t c = utf8::next(text, pos);
    const Piece piece = with_map ? Piece{input.source_start[start], input.source_end[pos - 1]}
                                 : Piece{0, 0};
    if (c == 0x03A3) {
      // Final sigma: after a cased letter and not before one (Unicode SpecialCasing).
      std::size_t peek = pos;
      const bool followed = peek < text.size() && is_cased(utf8::next(text, peek));
      const bool final_form = previous != 0 && is_cased(previous) && !followed;
      emitter.emit_scalar(final_form ? 0x03C2 : 0x03C3, piece);
    } else if (const LowercaseEntry* entry = find_lowercase(c)) {
      if (entry->pool_length == 0) {
        emitter.emit_scalar(entry->target_or_offset, piece);
      } else {
        for (std::uint32_t i = 0; i < entry->pool_length; ++i) {
          emitter.emit_scalar(kLowercasePool[entry->target_or_offset + i], piece);
        }
      }
    } else {
      emitter.emit(text.substr(start, pos - start), piece);
    }
    previous = c;
  }
}

}  // namespace

NormalizedText normalize(std::string_view input, const NormalizationOptions& options, bool with_map) {
  NormalizedText out;
  out.text.reserve(input.size());
  const auto keep = [](char32_t, Piece, Emitter&, bool&, Piece&) { return false; };
  switch (options.profile) {
    case NormalizationProfile::none: {
      Emitter(out, with_map).emit_verbatim(input, 0, input.size());
      break;
    }
    case NormalizationProfile::collapse_whitespace:
      // CR and CRLF become LF first, but LF is itself collapsible, so the run rule covers both.
      whitespace_pass(input, out, with_map, is_ascii_whitespace, is_unicode_white_space, keep);
      break;
    case NormalizationProfile::unicode_compat_v1: {
      const auto fold = [](char32_t c, Piece piece, Emitter& emitter, bool& pending, Piece& run) {
        if (is_compat_deleted(c)) return true;
        const char* replacement = compat_replacement(c);
        if (replacement == nullptr) return false;
        if (pending) {
          emitter.emit(" ", run);
          pending = false;
        }
        emitter.emit(replacement, piece);
        return true;
      };
      // Deleted characters at the edges must not shield whitespace from trimming.
      const auto trimmable = [](char32_t c) { return is_unicode_white_space(c) || is_compat_deleted(c); };
      whitespace_pass(input, out, with_map, is_unicode_white_space, trimmable, fold);
      break;
    }
  }
  if (!options.lowercase) return out;
  NormalizedText lowered;
  lowered.text.reserve(out.text.size());
  lowercase_pass(out, lowered, with_map);
  return lowered;
}

std::string normalize_text(std::string_view input, const NormalizationOptions& options) {
  return normalize(input, options, false).text;
}

}  // namespace ethos
