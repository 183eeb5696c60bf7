// pdfium_library.cpp - dlopen/dlsym of PDFium into the pdfium::Api table, path resolution, build id.
#include "pdf/pdfium_library.hpp"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <dlfcn.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace ethos::pdf {
namespace {

// Every member of pdfium::Api, in declaration order. The static_assert below catches a member
// added to the struct but not listed here.
#define ETHOS_PDFIUM_SYMBOLS(X)                                                                     \
  X(FPDF_InitLibraryWithConfig) X(FPDF_GetLastError) X(FPDF_LoadMemDocument64) X(FPDF_CloseDocument) \
  X(FPDF_GetPageCount) X(FPDF_LoadPage) X(FPDF_ClosePage) X(FPDF_GetPageWidthF)                       \
  X(FPDF_GetPageHeightF) X(FPDF_GetPageBoundingBox) X(FPDFPage_GetRotation) X(FPDF_GetPageLabel)      \
  X(FPDFText_LoadPage) X(FPDFText_ClosePage) X(FPDFText_CountChars) X(FPDFText_GetUnicode)            \
  X(FPDFText_GetCharBox) X(FPDFText_GetLooseCharBox) X(FPDFText_GetCharOrigin)                        \
  X(FPDFText_GetFontSize) X(FPDFText_GetCharAngle) X(FPDFText_GetMatrix) X(FPDFText_IsGenerated)     \
  X(FPDFText_IsHyphen) X(FPDFText_HasUnicodeMapError) X(FPDFText_GetTextObject)                      \
  X(FPDFTextObj_GetTextRenderMode)                                                                    \
  X(FPDFTextObj_GetFont) X(FPDFFont_GetBaseFontName) X(FPDFFont_GetIsEmbedded) X(FPDFFont_GetFlags)   \
  X(FPDFFont_GetWeight) X(FPDFPage_CountObjects) X(FPDFPage_GetObject) X(FPDFPageObj_GetType)         \
  X(FPDFPageObj_GetBounds) X(FPDFPageObj_GetMatrix) X(FPDFPageObj_GetFillColor)                       \
  X(FPDFPageObj_GetStrokeColor) X(FPDFPageObj_SetFillColor) X(FPDFPageObj_SetStrokeColor)             \
  X(FPDFPageObj_HasTransparency) X(FPDFPageObj_CountMarks) X(FPDFPageObj_GetMark)                     \
  X(FPDFPageObjMark_GetName) X(FPDFPageObjMark_GetParamStringValue)                                   \
  X(FPDFPageObj_GetStrokeWidth) X(FPDFPageObj_GetClipPath) X(FPDFClipPath_CountPaths)                 \
  X(FPDFClipPath_CountPathSegments) X(FPDFClipPath_GetPathSegment) X(FPDFFormObj_CountObjects)        \
  X(FPDFFormObj_GetObject) X(FPDFPath_CountSegments) X(FPDFPath_GetPathSegment)                       \
  X(FPDFPath_GetDrawMode) X(FPDFPathSegment_GetPoint) X(FPDFPathSegment_GetType)                      \
  X(FPDFPathSegment_GetClose) X(FPDFPage_GetAnnotCount) X(FPDFPage_GetAnnot) X(FPDFPage_CloseAnnot)   \
  X(FPDFAnnot_GetSubtype) X(FPDFAnnot_GetRect) X(FPDFAnnot_GetLink) X(FPDFLink_GetAction)             \
  X(FPDFAction_GetType) X(FPDFAction_GetURIPath) \
  X(FPDFDoc_GetJavaScriptActionCount) X(FPDFDoc_GetJavaScriptAction) X(FPDFDoc_CloseJavaScriptAction) \
  X(FPDFJavaScriptAction_GetName) \
  X(FPDFBitmap_Create) X(FPDFBitmap_FillRect) X(FPDFBitmap_GetBuffer) X(FPDFBitmap_GetStride) \
  X(FPDFBitmap_Destroy) X(FPDF_RenderPageBitmap)

#define ETHOS_COUNT_SYMBOL(name) +1
constexpr std::size_t kSymbolCount = 0 ETHOS_PDFIUM_SYMBOLS(ETHOS_COUNT_SYMBOL);
#undef ETHOS_COUNT_SYMBOL
static_assert(sizeof(pdfium::Api) == kSymbolCount * sizeof(void (*)()),
              "every pdfium::Api member must be listed in ETHOS_PDFIUM_SYMBOLS");

// The wrapper maps this exact text to PdfiumNotFoundError (CONTRACTS §1.7).
EthosError pdfium_not_found(const char* reason, const char* symbol = nullptr) {
  nlohmann::json details{{"reason", reason}};
  if (symbol != nullptr) details["symbol"] = symbol;
  return EthosError("internal_error", "PDFium not found: install pypdfium2 (pip install pypdfium2), or name the library with --pdfium-library or ETHOS_PDFIUM_LIBRARY_PATH", std::move(details));
}

std::string executable_dir() {
  std::string buffer(4096, '\0');
  ssize_t n = ::readlink("/proc/self/exe", buffer.data(), buffer.size() - 1);
  if (n <= 0) return ".";
  buffer.resize(static_cast<std::size_t>(n));
  std::size_t slash = buffer.rfind('/');
  return slash == std::string::npos ? "." : buffer.substr(0, slash);
}

std::string dirname_of(const std::string& path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

std::string resolve_pdfium_library_path(const std::string* flag) {
  if (flag != nullptr) return *flag;
  if (const char* env = std::getenv("ETHOS_PDFIUM_LIBRARY_PATH"); env != nullptr && *env != '\0') return env;
  return executable_dir() + "/../../pypdfium2_raw/libpdfium.so";
}

std::string pdfium_build_beside(const std::string& library_path) {
  std::ifstream in(dirname_of(library_path) + "/version.json", std::ios::binary);
  if (!in) return "";
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json version = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!version.is_object()) return "";
  std::string build;
  for (const char* part : {"major", "minor", "build"}) {
    auto it = version.find(part);
    if (it == version.end() || !it->is_number_unsigned()) return "";
    if (!build.empty()) build += '.';
    build += std::to_string(it->get<std::uint64_t>());
  }
  return build;
}

const pdfium::Api& load_pdfium(const std::string& library_path) {
  static pdfium::Api api{};
  static bool loaded = false;
  if (loaded) return api;

  if (::access(library_path.c_str(), F_OK) != 0) throw pdfium_not_found("not_found");
  void* handle = ::dlopen(library_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw pdfium_not_found("unloadable");
  pdfium::Api resolved{};
  // memcpy instead of a cast: ISO C++ has no conversion from void* to a function pointer.
#define ETHOS_BIND_SYMBOL(name)                                             \
  {                                                                         \
    void* symbol = ::dlsym(handle, #name);                                  \
    if (symbol == nullptr) {                                                \
      ::dlclose(handle);                                                    \
      throw pdfium_not_found("missing_symbol", #name);                      \
    }                                                                       \
    static_assert(sizeof(resolved.name) == sizeof(symbol), "pointer size"); \
    std::memcpy(&resolved.name, &symbol, sizeof(symbol));                   \
  }
  ETHOS_PDFIUM_SYMBOLS(ETHOS_BIND_SYMBOL)
#undef ETHOS_BIND_SYMBOL

  pdfium::LibraryConfig config{};
  config.version = 2;
  resolved.FPDF_InitLibraryWithConfig(&config);
  api = resolved;
  loaded = true;
  return api;
}

}  // namespace ethos::pdf
