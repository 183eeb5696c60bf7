// anchor_request.cpp - fuzz target: untrusted evidence-anchor requests bound to a fixed document.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view request = ethos::fuzz::input(data, size);
  char* out = nullptr;
  ethos_anchor(ethos::fuzz::fixed_document(), request.data(), request.size(), nullptr, 0, &out);
  ethos::fuzz::release(out);
  return 0;
}
