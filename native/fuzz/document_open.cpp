// document_open.cpp - fuzz target: every grounding loader on untrusted source bytes, then describe and verify on what opens.
#include <array>
#include <string>

#include "fuzz_support.hpp"

namespace {

// The first input byte picks the loader; the rest is the source. "" = detect (native or Grounding JSON).
constexpr std::array<const char*, 7> kLoaders = {"", "ethos-native", "ethos-grounding-json", "opendataloader-json",
                                                 "docling-json", "text", "markdown"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string loader = kLoaders[data[0] % kLoaders.size()];
  const std::string_view source = ethos::fuzz::input(data + 1, size - 1);
  const std::string options = loader.empty() ? std::string() : "{\"grounding\":\"" + loader + "\"}";
  ethos_document* document = nullptr;
  char* error = nullptr;
  if (ethos_document_open(source.data(), source.size(), options.empty() ? nullptr : options.data(), options.size(),
                          &document, &error) != 0) {
    ethos::fuzz::release(error);
    return 0;
  }
  char* out = nullptr;
  ethos_document_describe(document, &out);
  ethos::fuzz::release(out);
  // A document-scope quote walks the whole index the loader built.
  const std::string citations =
      "{\"claims\":[{\"kind\":\"quote\",\"text\":\"the total was 12\",\"citation\":{\"scope\":\"document\"}}]}";
  ethos_verify(document, citations.data(), citations.size(), nullptr, 0, nullptr, 0, &out);
  ethos::fuzz::release(out);
  ethos_document_free(document);
  return 0;
}
