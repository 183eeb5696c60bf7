// batch_workers_tests.cpp - verify-batch workers kept on a document between batches: reused only
// for the config they were built for, and the reports the same bytes as with fresh workers.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/api.hpp"
#include "core/batch_output.hpp"
#include "core/chunk_pool.hpp"
#include "test_check.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// `copies` request lines: the example request's claims one per line, over and over (more than
// one block of lines, so two workers run when the machine has two cores).
std::string requests(const std::string& citations_json, std::size_t copies) {
  const nlohmann::json citations = nlohmann::json::parse(citations_json);
  std::string ndjson;
  for (std::size_t i = 0; i < copies; ++i) {
    for (const nlohmann::json& claim : citations["claims"]) {
      nlohmann::json line = {{"document_fingerprint", citations["document_fingerprint"]},
                             {"claims", nlohmann::json::array({claim})}};
      ndjson += line.dump();
      ndjson += '\n';
    }
  }
  return ndjson;
}

std::string batch(const ethos::Source& source, const std::string& ndjson, const std::string& options,
                  std::shared_ptr<ethos::ChunkPool> pool) {
  return ethos::verify_batch_blocks(source, ndjson, std::nullopt, options, std::move(pool)).take_string();
}

void test_workers_are_kept_and_reused_for_their_config(const std::string& document_path,
                                                       const std::string& citations_path) {
  const std::shared_ptr<const ethos::Source> source = ethos::open_source(read_file(document_path), "");
  const std::string ndjson = requests(read_file(citations_path), 40);
  const std::string strict = R"({"policy":"strict"})";
  const std::string lenient = R"({"policy":"permissive"})";
  const std::string fresh_strict = batch(*source, ndjson, strict, nullptr);
  const std::string fresh_lenient = batch(*source, ndjson, lenient, nullptr);
  CHECK(!fresh_strict.empty() && fresh_strict != fresh_lenient);

  auto pool = std::make_shared<ethos::ChunkPool>();
  CHECK(batch(*source, ndjson, strict, pool) == fresh_strict);
  const std::size_t kept = pool->kept_workers();
  CHECK(kept >= 1 && kept <= ethos::ChunkPool::kKeptWorkers);
  // The next batch takes them (their config copies outlive the first call's config) and gives
  // them back: the same reports. A thread builds its worker when it takes its first block, so a
  // batch whose second thread found no block left keeps one worker; the next may keep two.
  CHECK(batch(*source, ndjson, strict, pool) == fresh_strict);
  CHECK(pool->kept_workers() >= kept && pool->kept_workers() <= ethos::ChunkPool::kKeptWorkers);
  // Another policy: the strict workers are not used, and are replaced by its own.
  CHECK(batch(*source, ndjson, lenient, pool) == fresh_lenient);
  CHECK(batch(*source, ndjson, strict, pool) == fresh_strict);
  // A bad line fails the batch; what is kept still gives the same reports after it.
  bool threw = false;
  try {
    batch(*source, ndjson + "not json\n", strict, pool);
  } catch (const ethos::EthosError&) {
    threw = true;
  }
  CHECK(threw);
  CHECK(batch(*source, ndjson, strict, pool) == fresh_strict);
  pool->drop_workers();
  CHECK(pool->kept_workers() == 0);
}

struct Counted : ethos::KeptWorker {
  explicit Counted(int& alive) : alive_(alive) { ++alive_; }
  ~Counted() override { --alive_; }
  int& alive_;
};

void test_the_pool_keeps_the_last_keys_workers_up_to_its_cap() {
  int alive = 0;
  ethos::ChunkPool pool;
  CHECK(pool.take_worker("a") == nullptr);
  pool.give_back_worker("a", std::make_unique<Counted>(alive));
  pool.give_back_worker("a", std::make_unique<Counted>(alive));
  pool.give_back_worker("a", std::make_unique<Counted>(alive));  // beyond the cap: freed
  CHECK(alive == static_cast<int>(ethos::ChunkPool::kKeptWorkers) && pool.kept_workers() == ethos::ChunkPool::kKeptWorkers);
  CHECK(pool.take_worker("b") == nullptr);
  std::unique_ptr<ethos::KeptWorker> taken = pool.take_worker("a");
  CHECK(taken != nullptr && pool.kept_workers() == ethos::ChunkPool::kKeptWorkers - 1);
  pool.give_back_worker("b", std::move(taken));  // another key: the "a" workers go
  CHECK(alive == 1 && pool.kept_workers() == 1);
  CHECK(pool.take_worker("a") == nullptr);
  pool.give_back_worker("", std::make_unique<Counted>(alive));  // no key: not kept
  CHECK(alive == 1);
  pool.drop_workers();
  CHECK(alive == 0 && pool.take_worker("b") == nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: batch_workers_tests DOCUMENT_JSON CITATIONS_JSON\n");
    return 2;
  }
  test_the_pool_keeps_the_last_keys_workers_up_to_its_cap();
  test_workers_are_kept_and_reused_for_their_config(argv[1], argv[2]);
  return ethos_test::finish("batch_workers_tests");
}
