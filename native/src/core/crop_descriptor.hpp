// crop_descriptor.hpp - crop descriptors (CONTRACTS §2.11): which rectangle of which page shows a
// check's evidence, under a logical ref that does not depend on the geometry; and crop_element
// requests, which name one element of a document.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/crop_geometry.hpp"
#include "core/source.hpp"

namespace ethos {

// Everything needed to write one descriptor and, with the source PDF, render its crop.
// The smallest width a rendered crop shows (before its margin), so one cell or word is never a sliver.
constexpr std::int64_t kCropMinWidthQ = 14400;  // 144 pt, 288 px at 144 dpi

struct CropPlan {
  std::string crop_ref;                    // "crop-<64 hex>.json"
  std::string page;                        // page id, as in the report's evidence
  std::int64_t page_index = 0;             // 1-based page of the PDF
  std::int64_t page_width = 0, page_height = 0;  // quanta
  Bbox bbox;                               // the evidence (or element) rectangle
  std::vector<std::string> check_ids;      // v%04d
  std::optional<std::string> text_sha256;  // bare hex of the raw evidence text, when known
  std::vector<Bbox> highlights;            // the cited characters' boxes on this page
  CropGeometry geometry = CropGeometry::display_quanta;  // how the boxes lie on the PDF page
  std::optional<Bbox> view;                // what a rendering shows, when more than bbox (pdf::CropRequest::view)
  bool refused = false;                    // the check was not grounded: its highlight is styled apart
};

// What a rendering adds to a descriptor.
struct RenderedCrop {
  std::string source_pdf_fingerprint;  // "sha256:" of the PDF bytes
  std::string png;
  std::int64_t width_px = 0, height_px = 0;
};

// "crop-" + sha256(c14n({check_id, document_fingerprint, page, version})) + ".json".
std::string crop_ref_for(std::string_view check_id, std::string_view document_fingerprint, std::string_view page);

// "request-" + sha256(c14n({document_fingerprint, element_id, rendering, [source_pdf_fingerprint],
// version})).
std::string crop_request_ref_for(std::string_view document_fingerprint, std::string_view element_id,
                                 std::string_view rendering, const std::optional<std::string>& source_pdf_fingerprint);

// The document identity crops are named after: the source's fingerprint, else (a foreign source
// without one) the fingerprint of the PDF the crops are rendered from; neither is internal_error
// (descriptor_without_fingerprint).
std::string crop_identity(const Source& source, const std::optional<std::string>& pdf_fingerprint);

// The checks verify makes before naming crops: a source with pages (else invalid_arguments for
// --crop-dir, reason source_without_pages) and, when the PDF is given and the source declares
// the file it was parsed from, that file (else source_mismatch). Returns crop_identity.
std::string crop_identity_for_verify(const Source& source, const std::optional<std::string>& pdf_fingerprint);

// One plan per check of `report` (bare or Statement) whose evidence names a page of `source`, in
// check order, named after crop_identity(source, pdf_fingerprint). Throws internal_error when
// there is no identity or two checks would share a ref with different content, invalid_input when
// the report is not one of this source, source_mismatch when its crop refs name another identity.
std::vector<CropPlan> crop_plans_for_report(const Source& source, std::string_view report_json,
                                            const std::optional<std::string>& pdf_fingerprint = std::nullopt);

// A crop_element request, validated against `source` (every failure is exit 2 with a fixed
// message): the plan of the requested element under `check_id`, and whether it asks for a
// rendering (then its source_pdf_fingerprint is returned too).
struct CropElementRequest {
  CropPlan plan;
  bool rendered = false;
  std::optional<std::string> source_pdf_fingerprint;
};
CropElementRequest crop_element_request(const Source& source, std::string_view request_json, std::string_view check_id);

// The descriptor as canonical JSON (no trailing newline); `rendered` adds the rendering fields.
std::string crop_descriptor_json(const CropPlan& plan, std::string_view document_fingerprint,
                                 const RenderedCrop* rendered);

// The PNG file name of a descriptor: its crop_ref with ".png" for ".json".
std::string rendered_ref_for(std::string_view crop_ref);

// The fixed failure for a PDF whose fingerprint is not the document's source fingerprint; a
// source that does not declare the file it was parsed from (Docling, OpenDataLoader) accepts any
// PDF unless `strict` (crop_element requests name the PDF themselves).
void require_source_pdf(const Source& source, std::string_view pdf_fingerprint, const char* argument, bool strict = true);

// In-process entry points (C ABI): the descriptors of a report as a canonical JSON array, and the
// descriptor of a crop_element request. Neither renders: a request asking for a rendering is
// invalid_arguments for --crop-source-pdf here (rendering runs in ethos-core's workers).
// options_json: empty or {"crop_source_pdf_fingerprint": "sha256:..."} (the PDF a foreign source
// without a fingerprint is rendered from, as given to verify).
std::string crop_descriptors_json(const Source& source, std::string_view report_json, std::string_view options_json = {});
std::string crop_element_descriptor(const Source& source, std::string_view request_json, std::string_view check_id);

}  // namespace ethos
