// answer_palette.hpp - the highlighting palettes of an answer check, as SGR parameters and as CSS (one table for text and HTML).
#pragma once

#include <string>

namespace ethos::answer {

// SGR parameters per verdict; empty means the terminal's own style. Every palette tells the five
// verdicts apart without hue too where it can (bold, underline, inverse), and the summary lines
// that follow always carry every figure as text: colour is never the only channel.
struct Palette {
  const char* verbatim;   // a word inside a verbatim run
  const char* novel;      // a word in no run
  const char* grounded;   // a word of a grounded quotation
  const char* failed;     // a word of a quotation that is not grounded
  const char* unchecked;  // a word of a quotation too short to check
};

// The palette `name` (classic, colorblind, neon, mono); throws EthosError invalid_input
// ($.palette of the options) for another name.
Palette palette_named(const std::string& name);

// CSS declarations with the look of SGR parameters `sgr` on a dark page: bold, underline,
// inverse video and the 8/16/256-colour foregrounds the palettes use, xterm's colour values.
std::string sgr_to_css(const char* sgr);

}  // namespace ethos::answer
