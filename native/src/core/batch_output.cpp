// batch_output.cpp - verify-batch's output storage (large chunks, huge pages) and its one copy into the host's buffer.
#include "core/batch_output.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <system_error>
#include <thread>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ethos {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// A worker's chunks double from 1 MiB up to this: few chunks for a large batch, little untouched
// address space for a small one (a chunk's pages are only faulted in as they are written).
constexpr std::size_t kMaxChunk = std::size_t{64} << 20;
// A block is started in a new chunk when the current one has less than this left: a block of
// 64 reports of one check takes about 140 KB. A larger block still lands whole in its chunk,
// which then grows (one copy of the chunk, rare).
constexpr std::size_t kBlockRoom = std::size_t{256} << 10;
// Below this many output bytes a second thread costs more than it saves in copy_into (a copy
// runs at several GB/s; the fresh pages it faults in cost about as much again).
constexpr std::size_t kParallelCopyBytes = std::size_t{8} << 20;
// Below this many bytes a thread's part of the copy is left to fault its pages in as it writes
// (one system call saves little over a few dozen faults).
constexpr std::size_t kPrefaultBytes = std::size_t{1} << 20;

}  // namespace

void prefault_for_writing(char* data, std::size_t size) {
#if defined(__linux__)
  // MADV_POPULATE_WRITE is Linux 5.14's; headers before it lack the constant (its value is the
  // kernel ABI's) and kernels before it refuse the advice (EINVAL): then the copy faults page by page.
#if defined(MADV_POPULATE_WRITE)
  constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
  constexpr int kPopulateWrite = 23;
#endif
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + page - 1) & ~(page - 1);
  const std::uintptr_t last = (begin + size) & ~(page - 1);
  // Whole pages only: a page the range shares with other data is faulted by the copy as before.
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, kPopulateWrite);
#else
  (void)data;
  (void)size;
#endif
}

void advise_huge_pages(void* data, std::size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + kHugePage - 1) & ~(std::uintptr_t{kHugePage} - 1);
  const std::uintptr_t last = (begin + size) & ~(std::uintptr_t{kHugePage} - 1);
  // Advice only: a kernel without transparent huge pages refuses it and the pages stay small.
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)size;
#endif
}

BlockStore::~BlockStore() {
  if (!pool_) return;
  for (std::unique_ptr<std::string>& chunk : chunks_) pool_->give_back(std::move(chunk));
}

std::string& BlockStore::start_block() {
  if (chunks_.empty() || chunks_.back()->capacity() - chunks_.back()->size() < kBlockRoom) {
    std::unique_ptr<std::string> chunk = pool_ ? pool_->take(next_chunk_) : nullptr;
    if (!chunk) {
      chunk = std::make_unique<std::string>();
      // Reserved, not filled: the pages stay untouched (and unfaulted) until a report lands there.
      chunk->reserve(next_chunk_);
      advise_huge_pages(chunk->data(), chunk->capacity());
    }
    next_chunk_ = std::min(kMaxChunk, next_chunk_ * 2);
    chunks_.push_back(std::move(chunk));
  }
  block_begin_ = chunks_.back()->size();
  return *chunks_.back();
}

BlockStore::Block BlockStore::finish_block() const {
  return Block{chunks_.size() - 1, block_begin_, chunks_.back()->size()};
}

std::string_view BlockStore::view(const Block& block) const {
  return std::string_view(*chunks_[block.chunk]).substr(block.begin, block.end - block.begin);
}

BatchOutput::BatchOutput(std::string whole)
    : whole_(std::make_unique<std::string>(std::move(whole))), blocks_{std::string_view(*whole_)} {}

BatchOutput::BatchOutput(std::vector<std::string_view> blocks, std::vector<std::unique_ptr<BlockStore>> stores)
    : blocks_(std::move(blocks)), stores_(std::move(stores)) {}

std::size_t BatchOutput::size() const {
  std::size_t total = 0;
  for (std::string_view block : blocks_) total += block.size();
  return total;
}

void BatchOutput::release() {
  blocks_.clear();
  stores_.clear();
  whole_.reset();
}

std::string BatchOutput::take_string() {
  if (whole_) {
    std::string whole = std::move(*whole_);
    release();
    return whole;
  }
  std::string out;
  out.reserve(size());
  drain([&](std::string_view block) { out += block; });
  return out;
}

void BatchOutput::copy_into(char* dest) {
  // Where each block starts in dest.
  std::vector<std::size_t> starts(blocks_.size() + 1, 0);
  for (std::size_t i = 0; i < blocks_.size(); ++i) starts[i + 1] = starts[i] + blocks_[i].size();
  // No huge-page advice for dest: the stores still hold as many bytes as dest needs, so its huge
  // pages had to be assembled (compacted) first: on the 2-core benchmark machine, copying into
  // 4 KiB pages took 0.23-0.27 s of CPU for 206 MB, into advised huge pages 0.43-0.50 s.
  // Each thread first has the kernel supply its half's pages in one call (fresh memory when the
  // host allocated dest just now: about 52,000 pages for 213 MB), instead of one page-fault trap
  // per 4 KiB page in the middle of the copy.
  const auto copy = [&](std::size_t first, std::size_t last) {
    if (starts[last] - starts[first] >= kPrefaultBytes) prefault_for_writing(dest + starts[first], starts[last] - starts[first]);
    for (std::size_t i = first; i < last; ++i) std::memcpy(dest + starts[i], blocks_[i].data(), blocks_[i].size());
  };
  // The first block past half the bytes: the helper thread copies from there on.
  const std::size_t middle = static_cast<std::size_t>(
      std::upper_bound(starts.begin(), starts.end() - 1, starts.back() / 2) - starts.begin());
  std::thread helper;
  if (starts.back() >= kParallelCopyBytes && std::thread::hardware_concurrency() > 1) {
    try {
      helper = std::thread(copy, middle, blocks_.size());
    } catch (const std::system_error&) {
      // No thread to be had: the one we are on copies everything.
    }
  }
  copy(0, helper.joinable() ? middle : blocks_.size());
  if (helper.joinable()) helper.join();
  release();
}

}  // namespace ethos
