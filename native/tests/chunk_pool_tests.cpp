// chunk_pool_tests.cpp - verify-batch's output chunks: kept between batches up to the pool's cap,
// handed out empty and smallest-first, and the blocks written into reused chunks hold only their own bytes.
#include <cstdio>
#include <memory>
#include <string>

#include "core/batch_output.hpp"
#include "core/chunk_pool.hpp"
#include "test_check.hpp"

namespace {

std::unique_ptr<std::string> chunk_of(std::size_t capacity, const char* text) {
  auto chunk = std::make_unique<std::string>();
  chunk->reserve(capacity);
  *chunk = text;
  return chunk;
}

void test_kept_chunks_come_back_empty_smallest_first() {
  ethos::ChunkPool pool(std::size_t{64} << 20);
  CHECK(pool.take(1) == nullptr);
  pool.give_back(chunk_of(std::size_t{8} << 20, "old reports"));
  pool.give_back(chunk_of(std::size_t{2} << 20, "older"));
  CHECK(pool.retained_bytes() >= (std::size_t{10} << 20));
  std::unique_ptr<std::string> small = pool.take(std::size_t{1} << 20);
  CHECK(small != nullptr && small->empty() && small->capacity() >= (std::size_t{2} << 20) &&
        small->capacity() < (std::size_t{8} << 20));
  CHECK(pool.take(std::size_t{16} << 20) == nullptr);  // none large enough
  std::unique_ptr<std::string> large = pool.take(std::size_t{4} << 20);
  CHECK(large != nullptr && large->empty() && large->capacity() >= (std::size_t{8} << 20));
  CHECK(pool.retained_bytes() == 0);
}

void test_chunks_beyond_the_cap_are_freed() {
  ethos::ChunkPool pool(std::size_t{3} << 20);
  pool.give_back(chunk_of(std::size_t{2} << 20, "a"));
  const std::size_t kept = pool.retained_bytes();
  pool.give_back(chunk_of(std::size_t{2} << 20, "b"));  // would pass 3 MiB
  CHECK(pool.retained_bytes() == kept);
  CHECK(pool.take(1) != nullptr);
  CHECK(pool.take(1) == nullptr);
}

// A store built on the pool writes its blocks into the chunks an earlier store gave back: each
// block reads its own bytes only, and the store returns its chunks when destroyed.
void test_a_store_reuses_an_earlier_stores_chunks() {
  auto pool = std::make_shared<ethos::ChunkPool>();
  {
    ethos::BlockStore first(pool);
    std::string& out = first.start_block();
    out.append(std::size_t{300} << 10, 'x');
    first.finish_block();
  }
  const std::size_t kept = pool->retained_bytes();
  CHECK(kept >= (std::size_t{1} << 20));
  {
    ethos::BlockStore second(pool);
    std::string& out = second.start_block();
    CHECK(pool->retained_bytes() < kept);  // the chunk was taken from the pool
    out += "report one\n";
    const ethos::BlockStore::Block block = second.finish_block();
    CHECK(second.view(block) == "report one\n");
  }
  CHECK(pool->retained_bytes() == kept);
  ethos::BlockStore unpooled;  // no pool: fresh chunks, freed with the store
  std::string& out = unpooled.start_block();
  out += "r\n";
  CHECK(unpooled.view(unpooled.finish_block()) == "r\n");
}

}  // namespace

int main() {
  test_kept_chunks_come_back_empty_smallest_first();
  test_chunks_beyond_the_cap_are_freed();
  test_a_store_reuses_an_earlier_stores_chunks();
  return ethos_test::finish("chunk_pool_tests");
}
