// document_projection.cpp - strict load first, then the JSON tree the projections read.
#include "core/document_projection.hpp"

#include "core/api.hpp"
#include "json/strict_json.hpp"

namespace ethos {

nlohmann::json load_validated_document(std::string_view bytes) {
  // The strict loader is the single judge of validity (shape, references, integrity hashes);
  // only a document it accepts is read again as a tree, so projections never see bad input.
  open_source(bytes, R"({"grounding":"ethos-native"})");
  return parse_strict_dom(bytes, "document");
}

}  // namespace ethos
