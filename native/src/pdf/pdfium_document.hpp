// pdfium_document.hpp - a PDF loaded by PDFium from memory, with PDFium's load errors mapped to
// the stable error codes (CONTRACTS §1.4). Runs only inside parse workers.
#pragma once

#include <string>
#include <string_view>

#include "pdf/pdfium_api.hpp"

namespace ethos::pdf {

class PdfiumDocument {
 public:
  // `bytes` must outlive the document (PDFium reads from it lazily). Throws corrupt_pdf,
  // password_protected or unsupported_pdf_feature.
  PdfiumDocument(const pdfium::Api& api, std::string_view bytes, const std::string* password);
  ~PdfiumDocument();
  PdfiumDocument(const PdfiumDocument&) = delete;
  PdfiumDocument& operator=(const PdfiumDocument&) = delete;

  int page_count() const { return page_count_; }
  pdfium::Document* handle() const { return document_; }

 private:
  const pdfium::Api& api_;
  pdfium::Document* document_ = nullptr;
  int page_count_ = 0;
};

// FPDF_GetLastError after a failed load → error code: 4 password_protected, 5
// unsupported_pdf_feature, anything else (2 file, 3 format, 6 page, unknown) corrupt_pdf.
const char* load_error_code(unsigned long pdfium_error);

}  // namespace ethos::pdf
