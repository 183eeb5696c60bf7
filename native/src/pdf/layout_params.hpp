// layout_params.hpp - every layout threshold in one place; the profile hash covers all of them.
#pragma once

#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

namespace ethos::pdf::params {

// Glyph visibility (layout_glyphs.cpp).
constexpr double kMinVisibleFontSizePt = 0.5;     // smaller text cannot be read
constexpr std::uint32_t kNearWhiteChannel = 0xF0;  // every colour channel at least this is "white"
// Text is the background's colour when no channel differs by more than this: the near-white
// threshold's margin (0xFF - 0xF0), so white on white is judged as before.
constexpr std::uint32_t kSameColourChannelDelta = 0xFF - kNearWhiteChannel;
constexpr std::uint32_t kMaxInvisibleAlpha = 8;    // text painted with at most this alpha (of 255) is not seen
constexpr std::int64_t kMinHorizontalScalePercent = 5;  // narrower glyphs are squeezed to nothing (Tz 5)
constexpr std::int64_t kPageImagePercent = 90;      // text painted over by an image this large: a scan's OCR text
constexpr std::int64_t kScanImagePercent = 50;      // invisible text over an image this large: a scan's OCR layer
constexpr std::size_t kMaxPaintProbesPerPage = 16;  // of each kind: two page renders each (layers, images over text)
constexpr std::int64_t kMaxLooseDescentPercent = 50;  // a font-metric box further below the baseline is no text font's
// Tables (layout_tables.cpp), in quanta.
constexpr std::int64_t kRuleTolerance = 300;       // rules that almost meet still meet
constexpr std::int64_t kMinCellExtent = 200;       // closer rules are one (double) rule
constexpr std::int64_t kMinRuleLength = 300;       // shorter strokes are pieces of curves or marks
constexpr std::size_t kMaxGridLines = 200;         // more distinct rule positions: a plot, not a table
constexpr std::size_t kMaxWordsPerCell = 12;       // longer pieces are running text, not cells
constexpr std::size_t kMinColumnWords = 4;         // median words per line of a page text column
constexpr std::int64_t kMaxColumnSkew = 300;       // key/description rows: starts of one column this close are aligned
constexpr std::int64_t kMaxWrapIndentEms = 3;      // key/description rows: a wrapped description line may be indented this many ems
constexpr std::int64_t kMinCardColumnPercent = 25;  // a page column without running text: share of the text width
constexpr std::size_t kMaxCardGutterCrossings = 2;  // ... and lines crossing its gutter (a title, a footer)
constexpr std::int64_t kMinCardColumnHeightPercent = 50;  // ... and the height its lines reach over
constexpr std::int64_t kMinCardLineWidthRatioPercent = 33;  // ... and the mean line width of one side vs the other's
constexpr std::int64_t kMinPartGapGutters = 6;    // a white band across the page this many gutters high parts it
constexpr std::size_t kMinLeaderEntries = 3;       // ... for a part's gutter with this many dot-leader entries each side
constexpr std::size_t kLeaderTailGlyphs = 10;      // ... leaders among a line's last glyphs (dots, a page number)
constexpr std::int64_t kMaxFigureMarkGlyphs = 4;   // a column of figures: a mark in a figure's place (`.`, `-Inf`)
// Line building (layout_lines.cpp).
constexpr std::int64_t kMinWordGapPercent = 15;    // a pen gap this share of an em is a space (TeX's thin space: 16.7)
// Margin line numbers (layout_line_numbers.cpp).
constexpr std::size_t kMinLineNumbers = 5;         // fewer integers beside the text are not a numbering
constexpr std::size_t kMaxLineNumberDigits = 5;
// Page layout (layout_page.cpp).
constexpr std::int64_t kMinRegionExtent = 400;     // smaller images are decoration
constexpr std::int64_t kCaptionDistance = 3000;    // between an image and its caption
constexpr std::int64_t kMinGutter = 600;           // the narrowest column gutter accepted
constexpr std::int64_t kMaxRowFieldPercent = 25;   // a side of a cut this narrow, all in rows across it, is row fields
constexpr std::int64_t kMaxRowFieldGapGutters = 4;  // ... across a gap at most this many minimum gutters wide
constexpr std::int64_t kMaxListKeyPercent = 60;    // ... this narrow when its lines are a list's bulleted keys
constexpr std::size_t kMinListKeys = 3;            // ... at least this many of them
constexpr std::int64_t kMaxInColumnGapGutters = 2;  // a horizontal gap across both columns this many gutters wide reads within them
constexpr std::int64_t kHeadingSizePercent = 115;  // a heading's font vs the body size
constexpr std::size_t kMaxHeadingScalars = 200;
constexpr std::size_t kMaxBoldHeadingScalars = 120;
constexpr std::size_t kMaxHeadingLines = 3;
// Running headers and footers (assemble_running.cpp).
constexpr std::int64_t kEdgeBandPercent = 12;      // top/bottom band of the page height
constexpr std::int64_t kOuterBandPercent = 25;     // ... for the outermost elements of a page
constexpr std::int64_t kSameHeight = 600;          // "the same position" across pages
constexpr std::size_t kRunningWindowPages = 4;     // neighbours compared on each side (both parities)
constexpr std::size_t kDocumentRepeatPages = 3;    // a label at one place on this many pages anywhere
constexpr std::size_t kMaxRunningLines = 2;        // a taller element is body text, not furniture
constexpr std::size_t kMaxRunningBytes = 240;      // a longer one too
constexpr std::int64_t kRunningSimilarityPercent = 85;  // "the same text" when not digit-for-digit equal
constexpr std::int64_t kRunningSizeTolerancePercent = 10;  // "the same type size" across pages
// Chunks (assemble.cpp).
constexpr std::int64_t kChunkTokens = 512;

// The parameters as JSON, part of the profile object whose hash documents carry.
inline nlohmann::json layout_parameters() {
  return {{"caption_distance_q", kCaptionDistance},     {"chunk_tokens", kChunkTokens},
          {"edge_band_percent", kEdgeBandPercent},      {"heading_size_percent", kHeadingSizePercent},
          {"layout_version", 17},                       {"max_bold_heading_scalars", kMaxBoldHeadingScalars},
          {"max_heading_lines", kMaxHeadingLines},      {"max_heading_scalars", kMaxHeadingScalars},
          {"max_words_per_cell", kMaxWordsPerCell},     {"max_column_skew_q", kMaxColumnSkew},     {"max_wrap_indent_ems", kMaxWrapIndentEms},     {"min_column_words", kMinColumnWords},     {"min_cell_extent_q", kMinCellExtent},       {"min_rule_length_q", kMinRuleLength},
          {"max_grid_lines", kMaxGridLines},
          {"min_gutter_q", kMinGutter},                 {"min_region_extent_q", kMinRegionExtent},
          {"min_visible_font_size_cpt", static_cast<std::int64_t>(kMinVisibleFontSizePt * 100)},
          {"near_white_channel", kNearWhiteChannel},    {"rule_tolerance_q", kRuleTolerance},
          {"same_height_q", kSameHeight},
          {"running_window_pages", kRunningWindowPages}, {"max_running_lines", kMaxRunningLines},
          {"document_repeat_pages", static_cast<std::int64_t>(kDocumentRepeatPages)},
          {"max_running_bytes", kMaxRunningBytes},      {"running_similarity_percent", kRunningSimilarityPercent},
          {"running_size_tolerance_percent", kRunningSizeTolerancePercent},
          {"outer_band_percent", kOuterBandPercent},
          {"min_card_column_percent", kMinCardColumnPercent},
          {"max_card_gutter_crossings", static_cast<std::int64_t>(kMaxCardGutterCrossings)},
          {"min_card_column_height_percent", kMinCardColumnHeightPercent},
          {"min_card_line_width_ratio_percent", kMinCardLineWidthRatioPercent},
          {"max_figure_mark_glyphs", kMaxFigureMarkGlyphs},
          {"min_part_gap_gutters", kMinPartGapGutters},
          {"min_leader_entries", static_cast<std::int64_t>(kMinLeaderEntries)},
          {"leader_tail_glyphs", static_cast<std::int64_t>(kLeaderTailGlyphs)},
          {"max_row_field_percent", kMaxRowFieldPercent},
          {"max_row_field_gap_gutters", kMaxRowFieldGapGutters},
          {"max_in_column_gap_gutters", kMaxInColumnGapGutters},
          {"max_list_key_percent", kMaxListKeyPercent},
          {"min_list_keys", static_cast<std::int64_t>(kMinListKeys)},
          {"min_line_numbers", static_cast<std::int64_t>(kMinLineNumbers)},
          {"max_line_number_digits", static_cast<std::int64_t>(kMaxLineNumberDigits)},
          {"min_word_gap_percent", kMinWordGapPercent},
          {"max_loose_descent_percent", kMaxLooseDescentPercent},
          {"same_colour_channel_delta", kSameColourChannelDelta},
          {"min_horizontal_scale_percent", kMinHorizontalScalePercent},
          {"max_invisible_alpha", kMaxInvisibleAlpha},
          {"page_image_percent", kPageImagePercent},
          {"scan_image_percent", kScanImagePercent},
          {"max_paint_probes_per_page", static_cast<std::int64_t>(kMaxPaintProbesPerPage)}};
}

}  // namespace ethos::pdf::params
