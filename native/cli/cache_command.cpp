// cache_command.cpp - `cache info` (location, entries, bytes, limit) and `cache clear` as one JSON
// object each on stdout (docs/cli.md "cache").
#include "cache_command.hpp"

#include <string>

#include <nlohmann/json.hpp>

#include "host_io.hpp"
#include "json/c14n.hpp"
#include "parse_cache.hpp"

namespace ethos::cli {
namespace {

// The cache `doc parse` would use with the same --cache-dir and environment.
ParseCache selected_cache(const ParsedArgs& args) {
  const std::uint64_t max_bytes = cache_max_bytes();
  const std::optional<std::string> dir = resolve_cache_dir(args.value("--cache-dir"));
  // Without $HOME, $XDG_CACHE_HOME or $ETHOS_CACHE_DIR there is no default cache to speak of.
  if (!dir || dir->empty()) throw host_error("invalid_arguments", {{"argument", "--cache-dir"}});
  return ParseCache(*dir, max_bytes);
}

int run_cache_info(const ParsedArgs& args) {
  const ParseCache cache = selected_cache(args);
  const CacheStats stats = cache.info();
  const nlohmann::json out{{"bytes", stats.bytes},
                           {"directory", cache.directory()},
                           {"entries", stats.entries},
                           {"max_bytes", cache.max_bytes()}};
  write_stdout(to_c14n(out) + "\n");
  return 0;
}

int run_cache_clear(const ParsedArgs& args) {
  const ParseCache cache = selected_cache(args);
  const CacheStats removed = cache.clear();
  const nlohmann::json out{
      {"directory", cache.directory()}, {"removed_bytes", removed.bytes}, {"removed_entries", removed.entries}};
  write_stdout(to_c14n(out) + "\n");
  return 0;
}

constexpr const char* kCacheDirHelp =
    "Parse cache directory (default: $ETHOS_CACHE_DIR, else ~/.cache/ethos/documents).";

}  // namespace

CommandSpec cache_info_command() {
  return CommandSpec{
      "cache info",
      "Show the parse cache's location, size and limit.",
      "Print the parse cache as JSON: its directory, the number of entries, their bytes and the size "
      "limit (max_bytes: $ETHOS_CACHE_MAX_BYTES, e.g. 500M, else 1 GiB). Past the limit, the least "
      "recently used entries are removed when a parse is stored.",
      {},
      {{"--cache-dir", "DIR", false, {}, kCacheDirHelp}},
      run_cache_info,
  };
}

CommandSpec cache_clear_command() {
  return CommandSpec{
      "cache clear",
      "Remove every entry of the parse cache.",
      "Remove every parsed document from the parse cache and print what was removed as JSON (directory, "
      "removed_entries, removed_bytes). Files that are not cache entries are left alone.",
      {},
      {{"--cache-dir", "DIR", false, {}, kCacheDirHelp}},
      run_cache_clear,
  };
}

}  // namespace ethos::cli
