// pdfium_scripts.hpp - the names of a PDF's document-level JavaScript actions (never their code).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pdf/pdfium_api.hpp"

namespace ethos::pdf {

// One entry per action of the document's /Names /JavaScript tree, in PDFium's order: its name as
// UTF-8 ("" when it has none), cut to kMaxScriptNameBytes. At most kMaxScripts entries; the count
// of all of them is returned in `total`. Page, link and annotation actions are not among them:
// PDFium's public API reports a JavaScript action there only as an unsupported action type.
std::vector<std::string> document_script_names(const pdfium::Api& api, pdfium::Document* document, std::int64_t& total);

constexpr std::size_t kMaxScripts = 64;
constexpr std::size_t kMaxScriptNameBytes = 256;

}  // namespace ethos::pdf
