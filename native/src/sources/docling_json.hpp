// docling_json.hpp - the DoclingDocument JSON adapter (`--grounding docling-json`, docs/sources.md).
#pragma once

#include <memory>
#include <string_view>

#include "core/source.hpp"

namespace ethos::sources {

// Maps a DoclingDocument (schema_name "DoclingDocument") to a Source: pages with sizes, body then
// furniture items in reading order (texts, tables, pictures; groups walked through), spans from
// text provenance charspans, tables with 0-based cells, boxes flipped to a top-left origin.
// Fingerprint = sha256 of the JSON bytes. Failures: invalid_input "docling-json adapter: ...".
std::shared_ptr<Source> load_docling_json(std::string_view bytes);

}  // namespace ethos::sources
