// match_detail.cpp - canonical `match` objects of stitched quotations and near misses.
#include "core/match_detail.hpp"

#include "core/match_boxes.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

void write_boxes(CanonicalWriter& out, const Source& source, const Target& target, std::uint32_t start, std::uint32_t end) {
  out.begin_array();
  for (const PageBox& box : match_boxes(source, target, start, end)) {
    out.begin_object();
    out.key("bbox");
    out.begin_array();
    for (std::int64_t v : {box.bbox.x0, box.bbox.y0, box.bbox.x1, box.bbox.y1}) out.integer(v);
    out.end_array();
    out.member("page", box.page);
    out.end_object();
  }
  out.end_array();
}

std::string_view slice(std::string_view text, std::uint32_t start, std::uint32_t end) {
  const std::size_t begin = utf8::byte_offset_of_scalar(text, start);
  return text.substr(begin, utf8::byte_offset_of_scalar(text, end) - begin);
}

void write_guards(CanonicalWriter& out, const std::vector<match::Guard>& guards) {
  out.key("guards");
  out.begin_array();
  for (const match::Guard& guard : guards) {
    out.begin_object();
    out.member("detail", guard.detail);
    out.member("name", guard.name);
    out.member("verdict", guard.block ? "block" : "pass");
    out.end_object();
  }
  out.end_array();
}

}  // namespace

void write_match_detail(CanonicalWriter& out, const Source& source, const CheckResult& check) {
  const match::MatchExtras& extras = *check.extras;
  const match::Located& located = *check.located;
  const Target& target = *check.target;
  const std::string_view text = *target.text;
  const bool near_miss = extras.score_bp.has_value();
  out.begin_object();
  out.key("boxes");
  write_boxes(out, source, target, located.start, located.end);
  if (near_miss) {
    out.key("diff");
    out.begin_array();
    for (const match::DiffEntry& entry : extras.diff) {
      out.begin_object();
      out.member("op", match::edit_op_name(entry.op));
      out.member("quote", entry.quote);
      out.member("source", entry.source);
      out.end_object();
    }
    out.end_array();
  }
  out.member("end", static_cast<std::int64_t>(located.end));
  if (!extras.fragments.empty()) {
    out.key("fragments");
    out.begin_array();
    for (const match::FragmentMatch& fragment : extras.fragments) {
      out.begin_object();
      if (fragment.found) {
        out.key("boxes");
        write_boxes(out, source, target, fragment.found->start, fragment.found->end);
      }
      if (fragment.elided) out.member("elided", *fragment.elided);
      if (fragment.found) out.member("end", static_cast<std::int64_t>(fragment.found->end));
      out.member_bool("found", fragment.found.has_value());
      out.member("quote", fragment.quote);
      if (fragment.found) {
        out.member_bool("sound", match::tier_is_sound(fragment.found->tier));
        out.member("source_text", slice(text, fragment.found->start, fragment.found->end));
        out.member("start", static_cast<std::int64_t>(fragment.found->start));
        out.member("tier", match::tier_name(fragment.found->tier));
      }
      out.end_object();
    }
    out.end_array();
  }
  write_guards(out, extras.guards);
  if (!near_miss) out.member("occurrences", static_cast<std::int64_t>(located.occurrences));
  if (check.target->reading != nullptr) out.member("reading", check.target->reading);  // a further reading's offsets
  if (near_miss) out.member("score", *extras.score_bp);
  if (!near_miss) out.member_bool("sound", match::tier_is_sound(located.tier));
  out.member("source_text", slice(text, located.start, located.end));
  out.member("start", static_cast<std::int64_t>(located.start));
  if (!near_miss) out.member("tier", match::tier_name(located.tier));
  out.end_object();
}

}  // namespace ethos
