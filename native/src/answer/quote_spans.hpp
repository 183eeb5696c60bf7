// quote_spans.hpp - the quotations of a free-form answer: where each quoted span starts and ends.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ethos::answer {

// A quotation: scalars [start, end) of the answer inside its marks, padding spaces stripped.
struct QuoteSpan {
  std::size_t start = 0, end = 0;
};

// The quoted spans of an answer, in order, not nested (a quotation inside a quotation is checked
// as part of the outer one). Pairs: “…”, „…“ and „…”, «…» and »…«, 「…」, 『…』, ‚…‘ and ‚…’,
// straight "…", and single quotes '…' and ‘…’ only where they cannot be apostrophes: the opener
// starts a word (nothing word-like before it, no space after), the closer ends one (no space
// before, nothing word-like after), both in one paragraph. An opener without its closer (before a
// blank line for single quotes, before the end for the others) is no quotation.
std::vector<QuoteSpan> quote_spans(const std::u32string& answer);

}  // namespace ethos::answer
