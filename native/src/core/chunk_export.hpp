// chunk_export.hpp - `rag chunk`: a document's chunks as chunks.jsonl lines (CONTRACTS.md §2.12).
#pragma once

#include <string>
#include <string_view>

namespace ethos {

// One canonical JSON object per chunk, each followed by "\n", in chunk order. Every line carries
// the fingerprints a retrieval pipeline needs to pin later citations to this exact document.
std::string chunks_jsonl(std::string_view document_bytes);

}  // namespace ethos
