// batch_output.hpp - verify-batch's output: the workers' report blocks kept in large chunks, copied once into the host's buffer.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/chunk_pool.hpp"

namespace ethos {

// Asks the kernel to back the whole 2 MiB pages inside [data, data + size) with huge pages
// (Linux; elsewhere, or when the kernel declines, nothing changes). A verify-batch output is
// hundreds of MB of fresh memory: 4 KiB pages cost one page fault each (about 52,000 per
// 213 MB), a huge page one per 2 MiB.
void advise_huge_pages(void* data, std::size_t size);

// Asks the kernel to supply, in one call, the memory of the whole 4 KiB pages inside
// [data, data + size) that are not there yet, ready to be written (Linux 5.14+; elsewhere, or
// when the kernel refuses, nothing happens and the writes fault the pages in one by one). The
// bytes are not changed.
void prefault_for_writing(char* data, std::size_t size);

// One worker's report blocks, written straight into a few large chunks (huge pages where offered)
// one after another, instead of into a scratch string copied after or a fresh heap string per
// block: the memory is faulted in a few large pages at a time, and each report's bytes are
// written once before the host's copy.
class BlockStore {
 public:
  // Where a block lies: bytes [begin, end) of chunk `chunk` (offsets, not pointers: a chunk that
  // a block overflows grows, and may move, while the block is written).
  struct Block {
    std::size_t chunk = 0, begin = 0, end = 0;
  };
  // pool: where chunks come from when it has one large enough, and go back to when the store is
  // destroyed (null: fresh chunks, freed with the store).
  explicit BlockStore(std::shared_ptr<ChunkPool> pool = nullptr) : pool_(std::move(pool)) {}
  ~BlockStore();
  BlockStore(const BlockStore&) = delete;
  BlockStore& operator=(const BlockStore&) = delete;

  // The string the next block is appended to (the current chunk, or a new one when less than a
  // block's usual room is left); finish_block() then marks what was appended as the block.
  std::string& start_block();
  Block finish_block() const;
  // The bytes of a finished block; valid until the store is destroyed (no block written since).
  std::string_view view(const Block& block) const;

 private:
  std::shared_ptr<ChunkPool> pool_;
  std::vector<std::unique_ptr<std::string>> chunks_;
  std::size_t block_begin_ = 0;
  std::size_t next_chunk_ = std::size_t{1} << 20;  // the next chunk's capacity: doubles up to 64 MiB
};

// A batch's output: blocks in order (their concatenation is the output), held by the workers'
// stores or, for a merged report, one string.
class BatchOutput {
 public:
  BatchOutput() = default;
  explicit BatchOutput(std::string whole);  // a one-block output (the merged report)
  BatchOutput(std::vector<std::string_view> blocks, std::vector<std::unique_ptr<BlockStore>> stores);

  std::size_t size() const;  // total bytes
  // Hands each block, in order, to take(std::string_view), then frees the storage.
  template <typename Take>
  void drain(Take&& take) {
    for (std::string_view block : blocks_) take(block);
    release();
  }
  // Copies the blocks, in order, into dest (size() bytes, small pages: see copy_into) and frees them:
  // for a large output on two threads, each copying (and faulting in) half of dest.
  void copy_into(char* dest);
  // The output as one string (moved out, not copied, when it is one string already).
  std::string take_string();

 private:
  void release();
  std::unique_ptr<std::string> whole_;  // on the heap: blocks_ points into it, and an output is moved
  std::vector<std::string_view> blocks_;
  std::vector<std::unique_ptr<BlockStore>> stores_;
};

}  // namespace ethos
