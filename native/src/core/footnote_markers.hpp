// footnote_markers.hpp - footnote markers glued to a word ("WYSIWYG¹", "like²") and listing line
// numbers, found from the geometry of the spans that set them (docs/matching.md "Font junctions and wrapped URLs").
#pragma once

#include <cstdint>
#include <string>

#include "core/source.hpp"

namespace ethos {

// Whether `marker`, a span that touches `before` (no character between them), is a footnote
// marker: one to three decimal digits, or one of * † ‡ § ¶ ‖, set smaller than `before` and
// raised above its baseline (the boxes say so: both spans need one), after a word of at least
// three letters or after closing punctuation. Never after a digit or a one- or two-letter word:
// there a raised figure is an exponent (10⁶, x², cm²) and dropping it changes what is said.
// `text_before`: the scalars of the text before the marker, at least the word before it.
bool is_footnote_marker_span(const Span& before, const Span& marker, const std::u32string& text_before);

// Whether `marker`, a span that `after` touches (no character between them), is a note's label
// set before its first word ("³If weights is ...", the start of a footnote): the same figures or
// symbols, smaller and raised against `after`, which starts with a letter, at the start of a line
// (`text_before`: the text before the marker, empty or ending in white space).
bool is_leading_note_marker(const Span& marker, const Span& after, const std::u32string& text_before);

// Whether `label`, a span that `after` touches, is a code listing's line number ("1 sudo apt
// update", "12 # deb https://..."): one to five decimal digits (and the space after them) at the
// start of a line, set at most 85 % as tall as the text after it, on that text's line (not
// raised: that is a note's label), with a gap before it of at least a third of that text's height
// (a listing's number column). A reader leaves it out of a quote that runs across the lines.
// `line_start`: nothing but the line's start lies before it.
bool is_listing_line_number(const Span& label, const Span& after, bool line_start);

}  // namespace ethos
