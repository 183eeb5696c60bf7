// chunk_pool.cpp - what verify-batch keeps between calls on one document: output chunks and idle workers.
#include "core/chunk_pool.hpp"

#include <utility>

namespace ethos {

std::unique_ptr<std::string> ChunkPool::take(std::size_t min_capacity) {
  std::lock_guard<std::mutex> lock(mutex_);
  // The smallest chunk that fits: a small batch leaves the large chunks for a large one.
  std::size_t best = chunks_.size();
  for (std::size_t i = 0; i < chunks_.size(); ++i) {
    const std::size_t capacity = chunks_[i]->capacity();
    if (capacity >= min_capacity && (best == chunks_.size() || capacity < chunks_[best]->capacity())) best = i;
  }
  if (best == chunks_.size()) return nullptr;
  std::unique_ptr<std::string> chunk = std::move(chunks_[best]);
  chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(best));
  retained_ -= chunk->capacity();
  return chunk;
}

void ChunkPool::give_back(std::unique_ptr<std::string> chunk) {
  if (!chunk) return;
  chunk->clear();  // keeps the capacity: the pages stay in place
  std::lock_guard<std::mutex> lock(mutex_);
  if (retained_ + chunk->capacity() > retain_bytes_) return;  // freed as `chunk` goes
  retained_ += chunk->capacity();
  chunks_.push_back(std::move(chunk));
}

std::size_t ChunkPool::retained_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return retained_;
}

std::unique_ptr<KeptWorker> ChunkPool::take_worker(std::string_view key) {
  std::unique_ptr<KeptWorker> worker;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (key.empty() || key != worker_key_ || workers_.empty()) return nullptr;
    worker = std::move(workers_.back());
    workers_.pop_back();
  }
  return worker;
}

void ChunkPool::give_back_worker(std::string_view key, std::unique_ptr<KeptWorker> worker) {
  if (!worker || key.empty()) return;
  std::vector<std::unique_ptr<KeptWorker>> stale;  // freed after the lock is released
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (key != worker_key_) {
      stale.swap(workers_);
      worker_key_.assign(key);
    }
    if (workers_.size() < kKeptWorkers) workers_.push_back(std::move(worker));
  }
}

std::size_t ChunkPool::kept_workers() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return workers_.size();
}

void ChunkPool::drop_workers() {
  std::vector<std::unique_ptr<KeptWorker>> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    dropped.swap(workers_);
    worker_key_.clear();
  }
}

}  // namespace ethos
