// pdfium_document.cpp - FPDF_LoadMemDocument64 with the password, and its error mapping.
#include "pdf/pdfium_document.hpp"

#include "core/error.hpp"

namespace ethos::pdf {

const char* load_error_code(unsigned long pdfium_error) {
  switch (pdfium_error) {
    case pdfium::kErrPassword:
      return "password_protected";
    case pdfium::kErrSecurity:
      return "unsupported_pdf_feature";
    default:
      return "corrupt_pdf";
  }
}

PdfiumDocument::PdfiumDocument(const pdfium::Api& api, std::string_view bytes, const std::string* password)
    : api_(api) {
  document_ = api_.FPDF_LoadMemDocument64(bytes.data(), bytes.size(), password ? password->c_str() : nullptr);
  if (document_ == nullptr) {
    const char* code = load_error_code(api_.FPDF_GetLastError());
    throw EthosError(code, find_error_code(code)->default_message);
  }
  page_count_ = api_.FPDF_GetPageCount(document_);
  if (page_count_ < 0) {
    api_.FPDF_CloseDocument(document_);
    throw EthosError("corrupt_pdf", find_error_code("corrupt_pdf")->default_message);
  }
}

PdfiumDocument::~PdfiumDocument() { api_.FPDF_CloseDocument(document_); }

}  // namespace ethos::pdf
