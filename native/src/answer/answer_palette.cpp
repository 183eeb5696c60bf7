// answer_palette.cpp - the palettes (docs/answers.md "Highlighting") and their CSS reading for the HTML page.
#include "answer/answer_palette.hpp"

#include <cstdio>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace ethos::answer {
namespace {

// xterm's 256-colour value of index `n` (16 system colours, the 6x6x6 cube, the grey ramp).
std::string xterm_colour(int n) {
  static const char* const kSystem[16] = {"#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd",
                                          "#00cdcd", "#e5e5e5", "#7f7f7f", "#ff0000", "#00ff00", "#ffff00",
                                          "#5c5cff", "#ff00ff", "#00ffff", "#ffffff"};
  if (n < 16) return kSystem[n];
  int r = 0, g = 0, b = 0;
  if (n >= 232) {
    r = g = b = 8 + 10 * (n - 232);
  } else {
    const int cube = n - 16;
    const auto level = [](int v) { return v == 0 ? 0 : 55 + 40 * v; };
    r = level(cube / 36);
    g = level(cube / 6 % 6);
    b = level(cube % 6);
  }
  // Each channel is 0..255, so two hex digits each; the buffer leaves room for any int the
  // compiler cannot rule out (gcc's -Wformat-truncation reasons about the int, not the range).
  char out[32];
  std::snprintf(out, sizeof out, "#%02x%02x%02x", static_cast<unsigned>(r) & 0xFFu, static_cast<unsigned>(g) & 0xFFu,
                static_cast<unsigned>(b) & 0xFFu);
  return out;
}

}  // namespace

Palette palette_named(const std::string& name) {
  if (name == "classic") return {"32", "", "1;4;32", "1;31", "33"};
  // Blue and orange (the pair colour-vision deficiencies keep apart), never red against green.
  if (name == "colorblind") return {"38;5;33", "", "1;4;38;5;33", "1;38;5;208", "4;38;5;245"};
  if (name == "neon") return {"1;96", "", "1;4;92", "1;95", "1;93"};
  // No colour at all: bold for verbatim, inverse video for what needs attention.
  if (name == "mono") return {"1", "", "1;4", "7", "4"};
  throw invalid_input("unknown palette", "$.palette", {{"input", "options"}});
}

std::string sgr_to_css(const char* sgr) {
  std::vector<int> codes;
  for (std::string_view rest(sgr); !rest.empty();) {
    const std::size_t cut = rest.find(';');
    int value = 0;
    for (const char c : rest.substr(0, cut)) value = value * 10 + (c - '0');
    codes.push_back(value);
    rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 1);
  }
  std::string css;
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const int code = codes[i];
    if (code == 1) {
      css += "font-weight:bold;";
    } else if (code == 4) {
      css += "text-decoration:underline;";
    } else if (code == 7) {
      // Inverse video: the page's text colour as the background.
      css += "background:#e0e0e0;color:#1e1e1e;";
    } else if (code >= 30 && code <= 37) {
      css += "color:" + xterm_colour(code - 30) + ";";
    } else if (code >= 90 && code <= 97) {
      css += "color:" + xterm_colour(code - 90 + 8) + ";";
    } else if (code == 38 && i + 2 < codes.size() && codes[i + 1] == 5) {
      css += "color:" + xterm_colour(codes[i + 2]) + ";";
      i += 2;
    }
  }
  return css;
}

}  // namespace ethos::answer
