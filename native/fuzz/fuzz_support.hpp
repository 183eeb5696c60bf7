// fuzz_support.hpp - what the fuzz targets share: the fixed document they verify against, and calls that free what the C ABI returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ethos.h"

namespace ethos::fuzz {

// The golden suite's two-page report document (tests/golden/sources/report.json: headings, a
// table with spans, joinable elements), opened once per process; aborts when it cannot be opened,
// since every input would then test nothing.
const ethos_document* fixed_document();

// Its bytes, for the targets that take a document JSON rather than a handle.
const std::string& fixed_document_bytes();

// A citations request against the fixed document: a quote on its first page.
std::string fixed_citations();

// The fuzz input as a string (it may hold any byte, NUL included).
inline std::string_view input(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Frees an ABI output string; every call's output goes through here so the leak checker of a
// fuzz run sees the targets themselves as clean.
inline void release(char*& text) {
  ethos_string_free(text);
  text = nullptr;
}

// The bytes as a JSON string of U+0000..U+00FF scalars (the options' "policy_bytes_latin1").
std::string latin1_json_string(std::string_view bytes);

}  // namespace ethos::fuzz
