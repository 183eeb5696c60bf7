// batch_lines.cpp - fuzz target: untrusted verify-batch NDJSON, one report per line and merged.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view lines = ethos::fuzz::input(data, size);
  const std::string_view merged = "{\"merged\":true}";
  char* out = nullptr;
  std::size_t length = 0;
  ethos_verify_batch_sized(ethos::fuzz::fixed_document(), lines.data(), lines.size(), nullptr, 0, nullptr, 0, &out,
                           &length);
  ethos::fuzz::release(out);
  ethos_verify_batch(ethos::fuzz::fixed_document(), lines.data(), lines.size(), nullptr, 0, merged.data(), merged.size(),
                     &out);
  ethos::fuzz::release(out);
  return 0;
}
