// chunk_pool.hpp - large output chunks kept resident between verify-batch calls on one document.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ethos {

// verify-batch writes hundreds of MB of reports into fresh chunks on every call. Fresh memory is
// paid for page by page on first touch (on a virtual machine that hands freed memory back to its
// host, several microseconds a page: 213 MB of reports cost about 0.15 s of CPU). A document keeps
// the chunks of its last batches here, up to a cap, so the next batch writes into pages already
// in place. Thread-safe: batches on one document run concurrently.
class ChunkPool {
 public:
  // Memory kept at most: chunks given back beyond it are freed. The trade is documented in
  // docs/architecture.md ("verify-batch output memory"): a document that ran a large batch holds up to this much more
  // until it is freed.
  static constexpr std::size_t kDefaultRetainBytes = std::size_t{256} << 20;

  explicit ChunkPool(std::size_t retain_bytes = kDefaultRetainBytes) : retain_bytes_(retain_bytes) {}

  // An empty chunk of at least min_capacity bytes kept from an earlier batch, or null.
  std::unique_ptr<std::string> take(std::size_t min_capacity);
  // Keeps the chunk (emptied) for a later batch, or frees it when the pool holds its cap.
  void give_back(std::unique_ptr<std::string> chunk);
  std::size_t retained_bytes() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<std::string>> chunks_;
  std::size_t retained_ = 0;
  std::size_t retain_bytes_;
};

}  // namespace ethos
