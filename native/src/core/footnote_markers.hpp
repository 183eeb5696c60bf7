// footnote_markers.hpp - footnote markers glued to a word ("WYSIWYG¹", "like²"), found from the
// geometry of the spans that set them (docs/matching.md "Font junctions and wrapped URLs").
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

}  // namespace ethos
