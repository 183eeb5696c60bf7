// chunk_pool.hpp - what verify-batch keeps between calls on one document: output chunks and idle workers.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ethos {

// A verify-batch worker's state (parser, verifier and its caches) kept between batches; what it
// holds is core/batch_verify.cpp's business. Destroyed through this base.
class KeptWorker {
 public:
  virtual ~KeptWorker() = default;
};

// verify-batch writes hundreds of MB of reports into fresh chunks on every call. Fresh memory is
// paid for page by page on first touch (on a virtual machine that hands freed memory back to its
// host, several microseconds a page: 213 MB of reports cost about 0.15 s of CPU). A document keeps
// the chunks of its last batches here, up to a cap, so the next batch writes into pages already
// in place. It also keeps the workers of its last batch: a worker's verifier builds the element
// ladders, joined texts and near-miss indexes of the elements its requests cite (6 % of a
// 100,000-request batch's instructions), which the next batch on the same document and config
// reuses instead of building again. Thread-safe: batches on one document run concurrently.
class ChunkPool {
 public:
  // Memory kept at most: chunks given back beyond it are freed. The trade is documented in
  // docs/architecture.md ("verify-batch output memory"): a document that ran a large batch holds up to this much more
  // until it is freed.
  static constexpr std::size_t kDefaultRetainBytes = std::size_t{256} << 20;
  // Idle workers kept at most (a batch runs on one or two).
  static constexpr std::size_t kKeptWorkers = 2;

  explicit ChunkPool(std::size_t retain_bytes = kDefaultRetainBytes) : retain_bytes_(retain_bytes) {}

  // An empty chunk of at least min_capacity bytes kept from an earlier batch, or null.
  std::unique_ptr<std::string> take(std::size_t min_capacity);
  // Keeps the chunk (emptied) for a later batch, or frees it when the pool holds its cap.
  void give_back(std::unique_ptr<std::string> chunk);
  std::size_t retained_bytes() const;

  // An idle worker given back under `key` (what it was built for: the batch's config), or null.
  std::unique_ptr<KeptWorker> take_worker(std::string_view key);
  // Keeps the worker for a later batch under `key`. Workers kept under another key are freed
  // (the last config's workers are the ones worth keeping), and so is a worker beyond
  // kKeptWorkers. An empty key keeps nothing.
  void give_back_worker(std::string_view key, std::unique_ptr<KeptWorker> worker);
  std::size_t kept_workers() const;
  // Frees the kept workers (they refer to the document's source: its handle calls this before
  // the source goes, while outputs may still hold the pool for their chunks).
  void drop_workers();

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<std::string>> chunks_;
  std::size_t retained_ = 0;
  std::size_t retain_bytes_;
  std::string worker_key_;
  std::vector<std::unique_ptr<KeptWorker>> workers_;
};

}  // namespace ethos
