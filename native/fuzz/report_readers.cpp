// report_readers.cpp - fuzz target: every reader of a report or Statement (proof summary, summary text, release decision, crop descriptors).
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view report = ethos::fuzz::input(data, size);
  char* out = nullptr;
  ethos_proof_summary(report.data(), report.size(), &out);
  ethos::fuzz::release(out);
  ethos_report_summary_text(report.data(), report.size(), &out);
  ethos::fuzz::release(out);
  const std::string_view claims = "[{\"id\":\"c1\",\"text\":\"Revenue grew\",\"check_ids\":[\"v0001\"],\"question_relevance\":\"direct_answer\",\"claim_type\":\"source_fact\",\"claim_support\":\"supported\"}]";
  const std::string_view options = "{\"question\":\"How did revenue change?\"}";
  ethos_release_decision(report.data(), report.size(), claims.data(), claims.size(), options.data(), options.size(), &out);
  ethos::fuzz::release(out);
  ethos_crop_descriptors(ethos::fuzz::fixed_document(), report.data(), report.size(), &out);
  ethos::fuzz::release(out);
  return 0;
}
