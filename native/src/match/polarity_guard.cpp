// polarity_guard.cpp - negation counts and antonym swaps between a quote and its near-miss span.
#include "match/polarity_guard.hpp"

#include <map>

#include "match/guard_words.hpp"

namespace ethos::match {

std::vector<std::string> negations_in(const std::vector<Token>& tokens, std::size_t begin, std::size_t end) {
  std::vector<std::string> out;
  for (std::size_t i = begin; i < end; ++i) {
    if (tokens[i].kind == TokenKind::word && guard_words::is_negation(tokens[i].key)) out.push_back(tokens[i].key);
  }
  return out;
}

std::vector<std::string> qualifiers_in(const std::vector<Token>& tokens, std::size_t begin, std::size_t end) {
  std::vector<std::string> out;
  for (std::size_t i = begin; i < end; ++i) {
    if (tokens[i].kind == TokenKind::word && guard_words::is_qualifier(tokens[i].key)) out.push_back(tokens[i].key);
  }
  return out;
}

Guard polarity_guard(const std::vector<Token>& quote, const std::vector<Token>& source, const Alignment& alignment) {
  Guard guard{"polarity", false, ""};
  const auto note = [&guard](const std::string& text) {
    guard.block = true;
    if (!guard.detail.empty()) guard.detail += "; ";
    guard.detail += text;
  };
  // Multiset difference of negators: what the quote has more of was added, what it has less of dropped.
  std::map<std::string, int> balance;
  for (const std::string& word : negations_in(quote, 0, quote.size())) ++balance[word];
  for (const std::string& word : negations_in(source, alignment.source_begin, alignment.source_end)) --balance[word];
  for (const auto& [word, count] : balance) {
    if (count > 0) note("negation added: \"" + word + "\"");
    if (count < 0) note("negation dropped: \"" + word + "\"");
  }
  for (const EditRun& run : alignment.runs) {
    if (run.op != EditOp::replace) continue;
    for (std::size_t q = run.quote_begin; q < run.quote_end; ++q) {
      for (std::size_t s = run.source_begin; s < run.source_end; ++s) {
        if (guard_words::are_antonyms(quote[q].key, source[s].key)) {
          note("direction reversed: \"" + source[s].key + "\" -> \"" + quote[q].key + "\"");
        }
      }
    }
  }
  if (!guard.block) guard.detail = "same negations, no direction word reversed";
  return guard;
}

}  // namespace ethos::match
