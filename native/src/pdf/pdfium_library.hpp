// pdfium_library.hpp - finds, loads and initialises the libpdfium.so that pypdfium2's wheel ships.
#pragma once

#include <string>

#include "pdf/pdfium_api.hpp"

namespace ethos::pdf {

// The library to load: `flag` (--pdfium-library) when given, else $ETHOS_PDFIUM_LIBRARY_PATH, else
// the wheel layout next to this executable (<exe dir>/../../pypdfium2_raw/libpdfium.so).
std::string resolve_pdfium_library_path(const std::string* flag);

// The PDFium build ("159.0.8149") from pypdfium2_raw/version.json beside the library; "" when the
// file is missing or unreadable. Reads a small JSON file only: PDFium is not loaded.
std::string pdfium_build_beside(const std::string& library_path);

// dlopens the library, resolves every symbol of pdfium::Api and calls FPDF_InitLibraryWithConfig,
// once per process (later calls return the same table). Only ever called in parse workers.
// Failure throws internal_error with a message that starts "PDFium not found" and says how to fix it.
const pdfium::Api& load_pdfium(const std::string& library_path);

}  // namespace ethos::pdf
