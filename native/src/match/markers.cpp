// markers.cpp - marker_pattern compiled once by RE2 and its matches as scalar ranges.
#include "match/markers.hpp"

#include <re2/re2.h>

#include "core/error.hpp"
#include "text/utf8.hpp"

namespace ethos::match {
namespace {

constexpr std::size_t kMaxPatternBytes = 1024;
// RE2's own bound on the memory of a compiled pattern (its default is 8 MiB): a policy file is
// input too, and a pattern like "(a{1000}){1000}" would otherwise ask for far more.
constexpr std::int64_t kMaxProgramBytes = std::int64_t{8} << 20;

}  // namespace

MarkerPattern::MarkerPattern(std::string pattern) : pattern_(std::move(pattern)) {}
MarkerPattern::~MarkerPattern() = default;

std::shared_ptr<const MarkerPattern> MarkerPattern::compile(std::string_view pattern, const std::string& path) {
  if (pattern.empty()) throw invalid_input("marker_pattern must not be empty", path);
  if (pattern.size() > kMaxPatternBytes) {
    throw invalid_input("marker_pattern is longer than 1024 bytes", path);
  }
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingUTF8);
  options.set_log_errors(false);
  options.set_max_mem(kMaxProgramBytes);
  std::shared_ptr<MarkerPattern> compiled(new MarkerPattern(std::string(pattern)));
  compiled->compiled_ = std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!compiled->compiled_->ok()) {
    throw invalid_input("marker_pattern is not a valid RE2 pattern (" + compiled->compiled_->error() +
                            "); write it in RE2 syntax, https://github.com/google/re2/wiki/Syntax",
                        path);
  }
  if (RE2::FullMatch("", *compiled->compiled_)) {
    throw invalid_input("marker_pattern matches empty text; a marker must be at least one character", path);
  }
  return compiled;
}

MarkerRanges MarkerPattern::find_utf8(std::string_view text) const {
  MarkerRanges out;
  const re2::StringPiece whole(text.data(), text.size());
  re2::StringPiece match;
  std::size_t from = 0;           // byte where the next search starts
  std::size_t counted = 0;        // bytes whose scalars are counted in `scalars`
  std::uint32_t scalars = 0;
  const auto scalar_at = [&](std::size_t byte) {
    while (counted < byte) {
      utf8::next(text, counted);
      ++scalars;
    }
    return scalars;
  };
  while (from <= text.size() &&
         compiled_->Match(whole, from, text.size(), RE2::UNANCHORED, &match, 1)) {
    const auto start = static_cast<std::size_t>(match.data() - text.data());
    const std::size_t end = start + match.size();
    if (end == start) {
      // An empty match is not a marker; search again from the next scalar.
      if (start >= text.size()) break;
      std::size_t next = start;
      utf8::next(text, next);
      from = next;
      continue;
    }
    const std::uint32_t first = scalar_at(start);
    out.emplace_back(first, scalar_at(end));
    from = end;
  }
  return out;
}

MarkerRanges MarkerPattern::find(std::u32string_view text) const {
  std::string bytes;
  bytes.reserve(text.size());
  for (char32_t c : text) utf8::append(bytes, c);
  return find_utf8(bytes);
}

}  // namespace ethos::match
