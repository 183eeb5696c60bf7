// pdfium_scripts.cpp - document_script_names: PDFium's JavaScript action names as UTF-8.
#include "pdf/pdfium_scripts.hpp"

#include <algorithm>
#include <cstdint>

#include "text/utf8.hpp"

namespace ethos::pdf {
namespace {

// PDFium's UTF-16LE name to UTF-8, an unpaired surrogate as U+FFFD (the name is the document's
// own, untrusted, and must still be valid UTF-8 in our JSON).
std::string utf8_name(const std::vector<unsigned char>& buffer, unsigned long bytes) {
  std::string out;
  const std::size_t units = std::min<std::size_t>(bytes, buffer.size()) / 2;
  for (std::size_t i = 0; i < units; ++i) {
    char32_t cp = static_cast<char32_t>(buffer[2 * i] | (buffer[2 * i + 1] << 8));
    if (cp == 0) break;
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < units) {
      const char32_t low = static_cast<char32_t>(buffer[2 * i + 2] | (buffer[2 * i + 3] << 8));
      if (low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        ++i;
      }
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
    utf8::append(out, cp);
    if (out.size() >= kMaxScriptNameBytes) break;
  }
  return out;
}

}  // namespace

std::vector<std::string> document_script_names(const pdfium::Api& api, pdfium::Document* document, std::int64_t& total) {
  std::vector<std::string> names;
  const int count = api.FPDFDoc_GetJavaScriptActionCount(document);
  total = count > 0 ? count : 0;
  for (int i = 0; i < count && names.size() < kMaxScripts; ++i) {
    pdfium::JavaScriptAction* action = api.FPDFDoc_GetJavaScriptAction(document, i);
    if (action == nullptr) {
      names.emplace_back();
      continue;
    }
    const unsigned long needed = api.FPDFJavaScriptAction_GetName(action, nullptr, 0);
    std::string name;
    if (needed > 2) {
      std::vector<unsigned char> buffer(needed);
      const unsigned long got = api.FPDFJavaScriptAction_GetName(action, buffer.data(), needed);
      name = utf8_name(buffer, std::min(got, needed));
    }
    api.FPDFDoc_CloseJavaScriptAction(action);
    names.push_back(std::move(name));
  }
  return names;
}

}  // namespace ethos::pdf
