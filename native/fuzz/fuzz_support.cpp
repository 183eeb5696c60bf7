// fuzz_support.cpp - the fixed document of the fuzz targets and the latin-1 JSON string helper.
#include "fuzz_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace ethos::fuzz {

const std::string& fixed_document_bytes() {
  static const std::string bytes = [] {
    std::ifstream in(ETHOS_FUZZ_DOCUMENT, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.empty()) {
      std::fprintf(stderr, "fuzz: cannot read %s\n", ETHOS_FUZZ_DOCUMENT);
      std::abort();
    }
    return text;
  }();
  return bytes;
}

const ethos_document* fixed_document() {
  static const ethos_document* document = [] {
    const std::string& bytes = fixed_document_bytes();
    ethos_document* opened = nullptr;
    char* error = nullptr;
    if (ethos_document_open(bytes.data(), bytes.size(), nullptr, 0, &opened, &error) != 0) {
      std::fprintf(stderr, "fuzz: the fixed document does not open: %s\n", error != nullptr ? error : "?");
      std::abort();
    }
    return opened;  // kept for the process's life: every input reuses its index
  }();
  return document;
}

std::string fixed_citations() {
  // The fingerprint is read from the document so the request is never stale.
  const std::string& bytes = fixed_document_bytes();
  const std::size_t key = bytes.find("\"fingerprint\"");
  const std::size_t begin = key == std::string::npos ? key : bytes.find("\"sha256:", key);
  std::string fingerprint;
  if (begin != std::string::npos) fingerprint = bytes.substr(begin + 1, bytes.find('"', begin + 1) - begin - 1);
  return "{\"document_fingerprint\":\"" + fingerprint +
         "\",\"claims\":[{\"kind\":\"quote\",\"text\":\"Revenue grew\",\"citation\":{\"page\":\"p0001\"}}]}";
}

std::string latin1_json_string(std::string_view bytes) {
  static const char* const kHex = "0123456789abcdef";
  std::string out = "\"";
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out += "\\u00";
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  }
  out += '"';
  return out;
}

}  // namespace ethos::fuzz
