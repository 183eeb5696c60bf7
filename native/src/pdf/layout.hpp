// layout.hpp - from raw pages to an Ethos document: per-page layout (runs in parse workers) and
// whole-document assembly (runs once in the parent). Neither talks to PDFium.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pdf/raw_page.hpp"

namespace ethos::pdf {

// The per-page result a worker sends back: elements, spans, tables and regions with page-local
// numbering; ids are assigned only by assemble_document so worker count never changes the output.
struct PageLayout;  // defined in layout_model.hpp

PageLayout layout_page(const RawPage& page);

// PageLayout crosses a pipe between a worker and the parent.
std::string encode_page_layout(const PageLayout& layout);
PageLayout decode_page_layout(std::string_view bytes);

struct AssembleInputs {
  std::string source_sha256;       // bare hex of the PDF bytes
  std::uint64_t source_bytes = 0;
  std::string pages_spec;          // normalised page selection ("" = all pages)
  std::string pdfium_build;        // e.g. "159.0.8149" when known, else ""
};

// Cross-page steps (running headers/footers, ids, chunks, warnings), then the canonical document
// JSON (no trailing newline) with config_sha256, payload_sha256 and fingerprint computed.
std::string assemble_document(std::vector<PageLayout> pages, const AssembleInputs& inputs);

// Renderings of an assembled (and loaded) document JSON for `doc parse --format markdown|text`.
std::string render_markdown(std::string_view document_json);
std::string render_text(std::string_view document_json);

}  // namespace ethos::pdf
