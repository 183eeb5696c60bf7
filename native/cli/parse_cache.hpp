// parse_cache.hpp - parsed documents cached by fingerprint of their inputs, so the same PDF bytes
// with the same options are never parsed twice.
#pragma once

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

class ParseCache {
 public:
  explicit ParseCache(std::string dir) : dir_(std::move(dir)) {}

  // The cached document JSON for `key`, only if it still opens through the strict loader and
  // belongs to `source_sha256`; anything else (missing, unreadable, tampered) is a miss.
  std::optional<std::string> load(const std::string& key, const std::string& source_sha256) const;

  // Best effort: creates the directory and writes the entry atomically; failures are ignored
  // (an unwritable cache only costs a re-parse next time).
  void store(const std::string& key, const std::string& document_json) const noexcept;

 private:
  std::string entry_path(const std::string& key) const { return dir_ + "/" + key + ".json"; }
  std::string dir_;
};

}  // namespace ethos::cli
