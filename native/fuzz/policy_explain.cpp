// policy_explain.cpp - fuzz target: untrusted policy files, explained and used to verify (both read them from the options' latin-1 bytes).
#include <string>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string options = "{\"policy_bytes_latin1\":" + ethos::fuzz::latin1_json_string(ethos::fuzz::input(data, size)) + "}";
  char* out = nullptr;
  ethos_policy_explain(options.data(), options.size(), &out);
  ethos::fuzz::release(out);
  const std::string citations = ethos::fuzz::fixed_citations();
  ethos_verify(ethos::fuzz::fixed_document(), citations.data(), citations.size(), nullptr, 0, options.data(),
               options.size(), &out);
  ethos::fuzz::release(out);
  return 0;
}
