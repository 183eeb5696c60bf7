// vacuous_quote.cpp - counts the words of a quote, stopping at the second.
#include "core/vacuous_quote.hpp"

#include "text/unicode_props.hpp"
#include "text/utf8.hpp"

namespace ethos {

bool is_vacuous_quote(std::string_view quote_utf8) {
  int words = 0;
  bool in_word = false;
  for (std::size_t pos = 0; pos < quote_utf8.size();) {
    const char32_t c = utf8::next(quote_utf8, pos);
    if (unicode::is_cjk_ideograph_or_kana(c)) {
      ++words;
      in_word = false;
    } else if (unicode::is_word_char(c)) {
      if (!in_word) ++words;
      in_word = true;
    } else {
      in_word = false;
    }
    if (words > 1) return false;
  }
  return true;
}

}  // namespace ethos
