// text_source.hpp - plain text and Markdown files as page-less grounding sources (docs/sources.md).
#pragma once

#include <memory>
#include <string_view>

#include "core/source.hpp"

namespace ethos::sources {

enum class TextFlavor { plain, markdown };

// Splits UTF-8 text into block elements (paragraphs; for Markdown also headings, list items,
// quotes, code blocks and tables) without pages or geometry. Invalid UTF-8 or NUL bytes are
// invalid_input "text adapter: ..." / "markdown adapter: ...".
std::shared_ptr<Source> load_text_source(std::string_view bytes, TextFlavor flavor);

}  // namespace ethos::sources
