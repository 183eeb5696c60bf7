// crop_request.cpp - fuzz target: untrusted crop_element requests against a fixed document.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view request = ethos::fuzz::input(data, size);
  const std::string_view check_id = "v0001";
  char* out = nullptr;
  ethos_crop_element(ethos::fuzz::fixed_document(), request.data(), request.size(), check_id.data(), check_id.size(), &out);
  ethos::fuzz::release(out);
  return 0;
}
