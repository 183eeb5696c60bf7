// capi_concurrency_tests.cpp - one document shared by threads through the C ABI: concurrent verify,
// verify-batch, check-answer and describe calls give the bytes a lone call gives (built and run under
// ThreadSanitizer by tests/test_native.py, where any data race fails the run).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ethos.h"
#include "test_check.hpp"

namespace {

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string take(char* owned) {
  std::string text = owned != nullptr ? owned : "";
  ethos_string_free(owned);
  return text;
}

// The fingerprint of an open document, from its description.
std::string fingerprint_of(const ethos_document* document) {
  char* out = nullptr;
  if (ethos_document_describe(document, &out) != ETHOS_OK) return take(out);
  const std::string description = take(out);
  const std::string key = "\"document_fingerprint\":\"";
  const std::size_t at = description.find(key);
  if (at == std::string::npos) return "";
  const std::size_t start = at + key.size();
  return description.substr(start, description.find('"', start) - start);
}

// A request of quotes cited in every way a verify call searches (element, page, range, document),
// some grounded, some near misses, so each call walks the lazily built, shared index.
std::string request(const std::string& fingerprint, int variant) {
  const char* quotes[] = {"Revenue grew", "Revenue fell sharply", "year over year", "reaching $4.3 million",
                          "Quarterly Report", "not reaching", "grew 12.5%", "Total assets"};
  std::string claims;
  for (int k = 0; k < 8; ++k) {
    const std::string quote = quotes[(k + variant) % 8];
    const char* citations[] = {"{\"page\":\"p0001\"}", "{\"scope\":\"document\"}", "{\"element_id\":\"e000002\"}",
                               "{\"page\":\"p0001\",\"page_end\":\"p0002\"}"};
    if (!claims.empty()) claims += ',';
    claims += "{\"kind\":\"quote\",\"text\":\"" + quote + "\",\"citation\":" + citations[(k + variant) % 4] + "}";
  }
  return "{\"document_fingerprint\":\"" + fingerprint + "\",\"claims\":[" + claims + "]}";
}

std::string verify(const ethos_document* document, const std::string& citations) {
  char* out = nullptr;
  const int code = ethos_verify(document, citations.data(), citations.size(), nullptr, 0, nullptr, 0, &out);
  return std::to_string(code) + take(out);
}

std::string batch(const ethos_document* document, const std::string& lines) {
  char* out = nullptr;
  const int code = ethos_verify_batch(document, lines.data(), lines.size(), nullptr, 0, nullptr, 0, &out);
  return std::to_string(code) + take(out);
}

std::string describe(const ethos_document* document) {
  char* out = nullptr;
  const int code = ethos_document_describe(document, &out);
  return std::to_string(code) + take(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DOCUMENT.json\n", argv[0]);
    return 2;
  }
  const std::string source = read_file(argv[1]);
  constexpr int kThreads = 4, kRounds = 6, kVariants = 8;
  // Each round opens a fresh document, so the threads race on the first, lazy builds of its
  // index, tiers, near-miss tokens and readings, not only on finished ones.
  for (int round = 0; round < kRounds; ++round) {
    ethos_document* reference_document = nullptr;
    char* error = nullptr;
    CHECK(ethos_document_open(source.data(), source.size(), nullptr, 0, &reference_document, &error) == ETHOS_OK);
    ethos_string_free(error);
    const std::string fingerprint = fingerprint_of(reference_document);
    std::vector<std::string> expected;
    for (int v = 0; v < kVariants; ++v) expected.push_back(verify(reference_document, request(fingerprint, v)));
    std::string lines;
    for (int v = 0; v < kVariants; ++v) lines += request(fingerprint, v) + "\n";
    const std::string expected_batch = batch(reference_document, lines);
    const std::string expected_description = describe(reference_document);
    ethos_document_free(reference_document);

    ethos_document* shared = nullptr;
    CHECK(ethos_document_open(source.data(), source.size(), nullptr, 0, &shared, &error) == ETHOS_OK);
    ethos_string_free(error);
    std::vector<std::vector<std::string>> got(kThreads);
    std::vector<std::string> got_batch(kThreads), got_description(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int v = 0; v < kVariants; ++v) got[t].push_back(verify(shared, request(fingerprint, (v + t + round) % kVariants)));
        got_batch[t] = batch(shared, lines);
        got_description[t] = describe(shared);
      });
    }
    for (std::thread& thread : threads) thread.join();
    ethos_document_free(shared);
    for (int t = 0; t < kThreads; ++t) {
      for (int v = 0; v < kVariants; ++v) CHECK(got[t][v] == expected[(v + t + round) % kVariants]);
      CHECK(got_batch[t] == expected_batch);
      CHECK(got_description[t] == expected_description);
    }
    CHECK(expected.front().rfind("0{", 0) == 0);
  }
  return ethos_test::finish("capi_concurrency_tests");
}
