// parse_cache.hpp - parsed documents cached by fingerprint of their inputs, so the same PDF bytes
// with the same options are never parsed twice; bounded in size, private to its user, and every
// entry authenticated on read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ethos::cli {

// Everything that can change a parse result; the key is sha256 over its c14n.
// The running ethos-core file's identity (device:inode:size:mtime), part of every cache key.
std::string core_build_identity();

struct ParseCacheKey {
  std::string source_sha256;           // bare hex of the PDF bytes
  std::string pages;                   // normalised --pages ("" = all)
  std::string pdfium_build;            // "" when unknown
  std::string ethos_version;
  const std::string* password = nullptr;  // only its sha256 enters the key

  std::string hex() const;
};

// The cache directory: `flag` (--cache-dir), else $ETHOS_CACHE_DIR, else
// $XDG_CACHE_HOME/ethos/documents, else $HOME/.cache/ethos/documents; nullopt when none is set.
std::optional<std::string> resolve_cache_dir(const std::string* flag);

// The size limit of the cache: $ETHOS_CACHE_MAX_BYTES (a positive integer, optionally followed by
// K, M or G, powers of 1024), else 1 GiB. A malformed value is invalid_arguments naming the variable.
constexpr std::uint64_t kDefaultCacheMaxBytes = 1ULL << 30;
std::uint64_t cache_max_bytes();

// What `cache info` reports and `cache clear` removed.
struct CacheStats {
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
};

class ParseCache {
 public:
  explicit ParseCache(std::string dir, std::uint64_t max_bytes = kDefaultCacheMaxBytes)
      : dir_(std::move(dir)), max_bytes_(max_bytes) {}

  // The cached document JSON for `key`, only if the entry was written by this user for this key,
  // this PDF (`source_sha256`) and this parser build, and its bytes are unchanged: a keyed MAC
  // (the key lives 0600 in the cache) and the content hash are checked, nothing is re-parsed.
  // Anything else (missing, unreadable, foreign, tampered) is a miss. A hit marks the entry as
  // recently used, so eviction removes the least recently used entries first.
  std::optional<std::string> load(const std::string& key, const std::string& source_sha256) const;

  // Best effort: creates the directory (0700), writes the entry atomically (0600) and evicts the
  // least recently used entries beyond the size limit; failures are ignored (an unwritable cache
  // only costs a re-parse next time). A document larger than the limit is not stored.
  void store(const std::string& key, const std::string& source_sha256, const std::string& document_json) const noexcept;

  // Entries and their bytes (this format's and earlier formats' entries alike).
  CacheStats info() const;
  // Removes every entry (and stale temporary files); returns what was removed. Throws host_io
  // naming --cache-dir when an entry cannot be removed.
  CacheStats clear() const;

  const std::string& directory() const { return dir_; }
  std::uint64_t max_bytes() const { return max_bytes_; }

 private:
  std::string entry_path(const std::string& key) const { return dir_ + "/" + key + ".entry"; }
  void evict() const;
  std::string dir_;
  std::uint64_t max_bytes_;
};

}  // namespace ethos::cli
