// chunk_export.cpp - chunks.jsonl lines: each chunk plus the document identity and its warnings.
#include "core/chunk_export.hpp"

#include <map>

#include "core/document_projection.hpp"
#include "json/c14n.hpp"

namespace ethos {

std::string chunks_jsonl(std::string_view document_bytes) {
  using json = nlohmann::json;
  const json document = load_validated_document(document_bytes);
  const json& payload = document.at("payload");

  // Warnings are referenced by id from chunks; both warning lists share one id space (w%04d).
  std::map<std::string, const json*> warnings_by_id;
  for (const char* list : {"security_warnings", "parser_warnings"}) {
    for (const json& warning : payload.at(list)) warnings_by_id.emplace(warning.at("id").get<std::string>(), &warning);
  }

  std::string out;
  for (const json& chunk : payload.at("chunks")) {
    json warnings = json::array();
    if (auto refs = chunk.find("warning_refs"); refs != chunk.end()) {
      for (const json& ref : *refs) warnings.push_back(*warnings_by_id.at(ref.get<std::string>()));
    }
    const json line{
        {"schema_version", "1.0.0"},
        {"document_fingerprint", document.at("fingerprint")},
        {"source_fingerprint", document.at("source").at("fingerprint")},
        {"config_sha256", document.at("config_sha256")},
        {"id", chunk.at("id")},
        {"text", chunk.at("text")},
        {"element_refs", chunk.at("element_refs")},
        {"page_refs", chunk.at("page_refs")},
        {"bboxes", chunk.at("bboxes")},
        {"token_estimate", chunk.at("token_estimate")},
        {"warnings", std::move(warnings)},
    };
    out += to_c14n(line);
    out += '\n';
  }
  return out;
}

}  // namespace ethos
