// registry.cpp - dispatches a grounding id to its loader (CONTRACTS.md §2.3, docs/sources.md).
#include "sources/registry.hpp"

#include <cstring>

#include "core/error.hpp"
#include "core/native_document.hpp"
#include "json/strict_json.hpp"
#include "sources/docling_json.hpp"
#include "sources/grounding_json.hpp"
#include "sources/opendataloader_json.hpp"
#include "sources/text_source.hpp"

namespace ethos::sources {
namespace {

using Loader = std::shared_ptr<Source> (*)(std::string_view);

struct Entry {
  const char* id;
  Loader load;
};

std::shared_ptr<Source> load_native(std::string_view bytes) { return load_native_document(bytes); }
std::shared_ptr<Source> load_text(std::string_view bytes) { return load_text_source(bytes, TextFlavor::plain); }
std::shared_ptr<Source> load_markdown(std::string_view bytes) { return load_text_source(bytes, TextFlavor::markdown); }

const Entry kLoaders[] = {
    {"ethos-native", load_native},
    {"ethos-grounding-json", load_grounding_json},
    {"opendataloader-json", load_opendataloader_json},
    {"docling-json", load_docling_json},
    {"text", load_text},
    {"markdown", load_markdown},
};

// Cheap first: only bytes that contain the artifact type at all are parsed a second time.
bool looks_like_grounding_json(std::string_view bytes) {
  constexpr std::string_view kMarker = "ethos.grounding.v1";
  if (bytes.find(kMarker) == std::string_view::npos) return false;
  try {
    const ParsedJson parsed = parse_syntax(bytes, "source");
    simdjson::dom::object root;
    if (parsed.root().get_object().get(root) != simdjson::SUCCESS) return false;
    std::string_view type;
    if (root["artifact_type"].get_string().get(type) != simdjson::SUCCESS) return false;
    return type == kMarker;
  } catch (const EthosError&) {
    return true;  // names the artifact type but is not valid JSON: report it in Grounding JSON codes
  }
}

}  // namespace

const std::vector<std::string>& grounding_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> out;
    for (const Entry& entry : kLoaders) out.emplace_back(entry.id);
    return out;
  }();
  return ids;
}

std::shared_ptr<Source> load_source(const std::optional<std::string>& grounding, std::string_view bytes) {
  if (!grounding) return looks_like_grounding_json(bytes) ? load_grounding_json(bytes) : load_native_document(bytes);
  for (const Entry& entry : kLoaders) {
    if (*grounding == entry.id) return entry.load(bytes);
  }
  throw EthosError("invalid_arguments", "unknown grounding", {{"argument", "--grounding"}, {"value", *grounding}});
}

}  // namespace ethos::sources
