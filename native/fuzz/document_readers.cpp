// document_readers.cpp - fuzz target: the calls that take a document or artifact as JSON bytes (RAG chunks, security report, Grounding JSON check).
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = ethos::fuzz::input(data, size);
  char* out = nullptr;
  ethos_rag_chunks(bytes.data(), bytes.size(), &out);
  ethos::fuzz::release(out);
  ethos_security_report(bytes.data(), bytes.size(), &out);
  ethos::fuzz::release(out);
  ethos_grounding_check(bytes.data(), bytes.size(), nullptr, 0, &out);
  ethos::fuzz::release(out);
  return 0;
}
