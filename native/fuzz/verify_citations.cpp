// verify_citations.cpp - fuzz target: untrusted citations requests verified against a fixed document, as report and as Statement.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view citations = ethos::fuzz::input(data, size);
  const std::string_view statement = "{\"statement\":true,\"claim_validation\":\"report\"}";
  char* out = nullptr;
  ethos_verify(ethos::fuzz::fixed_document(), citations.data(), citations.size(), nullptr, 0, nullptr, 0, &out);
  ethos::fuzz::release(out);
  ethos_verify(ethos::fuzz::fixed_document(), citations.data(), citations.size(), nullptr, 0, statement.data(),
               statement.size(), &out);
  ethos::fuzz::release(out);
  return 0;
}
