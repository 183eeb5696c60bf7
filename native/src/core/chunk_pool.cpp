// chunk_pool.cpp - large output chunks kept resident between verify-batch calls on one document.
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

}  // namespace ethos
