// layout_classify.hpp - text patterns that type a block: list markers, captions, heading numbers.
#pragma once

#include <cstdint>
#include <string_view>

namespace ethos::pdf {

// A bullet glyph ("•", "◦", "▪", the Symbol/Wingdings private-use bullets).
bool is_bullet(char32_t c);

// "• item", "- item", "1. item", "a) item", "(iv) item", "iii. item".
bool starts_with_list_marker(std::string_view text);

// "Figure 3", "Fig. 3", "Table 2", "TABLE IV", "Tab. 1".
bool starts_with_caption_label(std::string_view text);

// Depth of a leading section number ("2" -> 1, "2.1" -> 2, "A.1.3" -> 3, "IV. TITLE" -> 1)
// followed by a space and more text; 0 when the text does not start with one.
std::int64_t section_number_depth(std::string_view text);

// Letters all upper case, at least three of them ("INTRODUCTION"): a title set in capitals.
bool upper_case_title(std::string_view text);

}  // namespace ethos::pdf
