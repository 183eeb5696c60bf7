// crop_descriptor.hpp - crop descriptors (CONTRACTS §2.11): which rectangle of which page shows a
// check's evidence, under a logical ref that does not depend on the geometry; and crop_element
// requests, which name one element of a document.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/source.hpp"

namespace ethos {

// Everything needed to write one descriptor and, with the source PDF, render its crop.
struct CropPlan {
  std::string crop_ref;                    // "crop-<64 hex>.json"
  std::string page;                        // page id, as in the report's evidence
  std::int64_t page_index = 0;             // 1-based page of the PDF
  std::int64_t page_width = 0, page_height = 0;  // quanta
  Bbox bbox;                               // the evidence (or element) rectangle
  std::vector<std::string> check_ids;      // v%04d
  std::optional<std::string> text_sha256;  // bare hex of the raw evidence text, when known
  std::vector<Bbox> highlights;            // the cited characters' boxes on this page
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

// One plan per check of `report` (bare or Statement) whose evidence names a page of `source`, in
// check order. Throws internal_error when the source has no fingerprint or two checks would share
// a ref with different content, invalid_input when the report is not one of this source.
std::vector<CropPlan> crop_plans_for_report(const Source& source, std::string_view report_json);

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

// The fixed failure for a PDF whose fingerprint is not the document's source fingerprint.
void require_source_pdf(const Source& source, std::string_view pdf_fingerprint, const char* argument);

// In-process entry points (C ABI): the descriptors of a report as a canonical JSON array, and the
// descriptor of a crop_element request. Neither renders: a request asking for a rendering is
// invalid_arguments for --crop-source-pdf here (rendering runs in ethos-core's workers).
std::string crop_descriptors_json(const Source& source, std::string_view report_json);
std::string crop_element_descriptor(const Source& source, std::string_view request_json, std::string_view check_id);

}  // namespace ethos
