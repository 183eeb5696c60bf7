// foot_notes_reading.cpp - notes at a page's foot, and the page-break reading without them (foot_notes_reading.hpp).
#include "core/foot_notes_reading.hpp"

#include <algorithm>
#include <cstdint>

#include "core/footnote_markers.hpp"
#include "match/document_index.hpp"
#include "text/normalize.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

bool is_note_symbol(char32_t c) { return c == U'*' || c == 0x2020 || c == 0x2021 || c == 0x00A7 || c == 0x00B6; }

// "13 The fakeroot package ...", "1The ...", "* Also ...", "†See ...": the note's label (one to
// three digits before white space or a letter, or a note symbol), or empty when none starts it.
std::u32string note_label(const std::string& text) {
  std::u32string label;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const char32_t c = utf8::next(text, pos);
    if (c >= U'0' && c <= U'9' && label.size() < 4) {
      label.push_back(c);
      continue;
    }
    if (label.empty()) return is_note_symbol(c) ? std::u32string(1, c) : std::u32string();
    const bool ends = is_unicode_white_space(c) || (c < 0x80 && ((c | 0x20) >= U'a' && (c | 0x20) <= U'z'));
    return label.size() <= 3 && ends ? label : std::u32string();
  }
  return {};
}

// The footnote markers the page's text carries (footnote_markers.hpp).
std::vector<std::u32string> page_markers(const Source& source, const Page& page) {
  std::vector<std::u32string> markers;
  const Span* previous = nullptr;
  std::size_t decoded_element = static_cast<std::size_t>(-1);
  std::u32string decoded;
  for (std::size_t index : source.spans_on_page(page.id)) {
    const Span& span = source.spans[index];
    const Span* before = previous;
    previous = &span;
    if (before == nullptr || !span.element || before->element != span.element || !before->char_end ||
        !span.char_start || *before->char_end != *span.char_start || *span.char_start <= 0) {
      continue;
    }
    const Element& element = source.elements[*span.element];
    if (!element.text) continue;
    if (decoded_element != *span.element) {
      decoded.clear();
      for (std::size_t pos = 0; pos < element.text->size();) decoded.push_back(utf8::next(*element.text, pos));
      decoded_element = *span.element;
    }
    const auto start = static_cast<std::size_t>(*span.char_start);
    if (start > decoded.size()) continue;
    const std::size_t from = start > 64 ? start - 64 : 0;
    if (!is_footnote_marker_span(*before, span, decoded.substr(from, start - from))) continue;
    std::u32string label;
    for (std::size_t pos = 0; pos < span.text.size();) label.push_back(utf8::next(span.text, pos));
    markers.push_back(std::move(label));
  }
  return markers;
}

// The height of one of the element's lines (its box over its line count).
std::int64_t line_height(const Element& element) {
  if (!element.bbox || !element.text) return 0;
  const std::int64_t lines = 1 + static_cast<std::int64_t>(element.line_breaks.size()) +
                             std::count(element.text->begin(), element.text->end(), '\n');
  return (element.bbox->y1 - element.bbox->y0) / lines;
}

}  // namespace

std::vector<std::size_t> foot_notes_of_page(const Source& source, std::size_t page) {
  if (page >= source.pages.size()) return {};
  const Page& info = source.pages[page];
  const match::DocumentIndex& index = source.match_index();
  std::vector<std::size_t> running;
  for (std::size_t element : source.elements_on_page(info.id)) {
    if (index.running_number(element) != match::DocumentIndex::npos) running.push_back(element);
  }
  // From the page's last running element back, while each is a note at the foot.
  std::size_t first_note = running.size();
  while (first_note > 1) {
    const Element& element = source.elements[running[first_note - 1]];
    if (!element.text || !element.bbox || info.height <= 0 || element.bbox->y0 * 2 < info.height ||
        element.kind == "table" || !element.table_ref.empty() || note_label(*element.text).empty()) {
      break;
    }
    --first_note;
  }
  if (first_note == running.size()) return {};
  // A note labelled by a symbol is one only when the page's text carries that symbol as a
  // footnote marker: an asterisk also opens each line of a code comment. (A numbered note's
  // marker is often set on the page before, or apart from its word: its number is enough.)
  std::vector<std::u32string> markers;
  bool markers_read = false;
  for (std::size_t n = first_note; n < running.size(); ++n) {
    const std::u32string label = note_label(*source.elements[running[n]].text);
    if (label[0] >= U'0' && label[0] <= U'9') continue;
    if (!markers_read) markers = page_markers(source, info);
    markers_read = true;
    if (std::find(markers.begin(), markers.end(), label) == markers.end()) first_note = n + 1;
  }
  if (first_note == running.size()) return {};
  // Smaller type than the body: the median line height of the elements before the notes.
  std::vector<std::int64_t> body;
  for (std::size_t n = 0; n < first_note; ++n) {
    const Element& element = source.elements[running[n]];
    const std::int64_t height = line_height(element);
    if (height <= 0) continue;
    const std::int64_t lines = 1 + static_cast<std::int64_t>(element.line_breaks.size());
    for (std::int64_t l = 0; l < lines && l < 64; ++l) body.push_back(height);
  }
  if (body.empty()) return {};
  std::nth_element(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(body.size() / 2), body.end());
  const std::int64_t median = body[body.size() / 2];
  std::vector<std::size_t> notes;
  for (std::size_t n = first_note; n < running.size(); ++n) {
    const std::int64_t height = line_height(source.elements[running[n]]);
    if (height <= 0 || height * 100 > median * 92) {
      notes.clear();  // a note in body type: the run is not notes after all, or not only notes
      continue;
    }
    notes.push_back(running[n]);
  }
  return notes;
}

std::optional<StreamReading> running_without_foot_notes(const Source& source, const std::vector<std::size_t>& pages) {
  if (pages.size() < 2) return std::nullopt;
  std::vector<std::size_t> skipped;
  for (std::size_t n = 0; n + 1 < pages.size(); ++n) {
    const std::vector<std::size_t> notes = foot_notes_of_page(source, pages[n]);
    skipped.insert(skipped.end(), notes.begin(), notes.end());
  }
  if (skipped.empty()) return std::nullopt;
  const match::DocumentIndex& index = source.match_index();
  StreamReading out;
  out.name = "foot_notes_skipped";
  std::uint32_t scalars = 0;
  for (std::size_t page : pages) {
    if (page >= source.pages.size()) continue;
    for (std::size_t element : source.elements_on_page(source.pages[page].id)) {
      if (index.running_number(element) == match::DocumentIndex::npos) continue;
      if (std::find(skipped.begin(), skipped.end(), element) != skipped.end()) continue;
      const Element& owner = source.elements[element];
      if (!out.pieces.empty()) {
        out.text += '\n';
        ++scalars;
      }
      const auto length = static_cast<std::uint32_t>(utf8::scalar_count(*owner.text));
      for (std::int64_t h : owner.hyphen_breaks) {
        if (h >= 0 && h < length) out.hyphen_breaks.push_back(scalars + static_cast<std::uint32_t>(h));
      }
      out.pieces.push_back({scalars, scalars + length, element, 0});
      out.text += *owner.text;
      scalars += length;
    }
  }
  return out;
}

}  // namespace ethos
