// verify_config.cpp - fuzz target: untrusted verification configs (with and without a matching policy) on a fixed request.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view config = ethos::fuzz::input(data, size);
  const std::string citations = ethos::fuzz::fixed_citations();
  char* out = nullptr;
  ethos_verify(ethos::fuzz::fixed_document(), citations.data(), citations.size(), config.data(), config.size(), nullptr,
               0, &out);
  ethos::fuzz::release(out);
  return 0;
}
