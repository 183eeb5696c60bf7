// opendataloader_json.hpp - the OpenDataLoader JSON adapter (`--grounding opendataloader-json`, CONTRACTS §2.3).
#pragma once

#include <memory>
#include <string_view>

#include "core/source.hpp"

namespace ethos::sources {

// Maps the documented subset ({tool, pages, elements, tables?, source_fingerprint?}) or a real
// OpenDataLoader 2.x tree ({"file name", "number of pages", kids}) to a Source (adapter 0.2.0).
// Any mapping failure is invalid_input "opendataloader-json adapter: <reason>" with the path.
std::shared_ptr<Source> load_opendataloader_json(std::string_view bytes);

}  // namespace ethos::sources
