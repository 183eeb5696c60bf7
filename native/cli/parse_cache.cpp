// parse_cache.cpp - cache key, directory resolution, validated reads and atomic writes.
#include "parse_cache.hpp"

#include <cerrno>
#include <cstdlib>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "core/api.hpp"
#include "host_io.hpp"
#include "json/c14n.hpp"
#include "json/sha256.hpp"

namespace ethos::cli {
namespace {

// mkdir -p; returns false when the directory cannot be made.
bool make_directories(const std::string& dir) {
  for (std::size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    const std::string prefix = dir.substr(0, slash);
    if (!prefix.empty() && ::mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST) return false;
    if (slash == std::string::npos) break;
  }
  struct stat st {};
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

const char* non_empty_env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

}  // namespace

// The running ethos-core binary itself (device, inode, size, modification time): a rebuilt parser
// with the same version number must not read the entries an older build wrote, or a layout fix
// would be hidden behind stale documents. The cache is local, so a local identity is enough.
std::string core_build_identity() {
  struct stat st {};
  if (::stat("/proc/self/exe", &st) != 0) return std::string();
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
         std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

std::string ParseCacheKey::hex() const {
  nlohmann::json inputs{{"source_sha256", source_sha256},
                        {"pages", pages},
                        {"pdfium_build", pdfium_build},
                        {"ethos_version", ethos_version},
                        {"core_build", core_build_identity()}};
  if (password != nullptr) inputs["password_sha256"] = sha256_hex(*password);
  return sha256_hex(to_c14n(inputs));
}

std::optional<std::string> resolve_cache_dir(const std::string* flag) {
  if (flag != nullptr) return *flag;
  if (const char* env = non_empty_env("ETHOS_CACHE_DIR")) return std::string(env);
  if (const char* xdg = non_empty_env("XDG_CACHE_HOME")) return std::string(xdg) + "/ethos/documents";
  if (const char* home = non_empty_env("HOME")) return std::string(home) + "/.cache/ethos/documents";
  return std::nullopt;
}

std::optional<std::string> ParseCache::load(const std::string& key, const std::string& source_sha256) const {
  try {
    std::string bytes = read_input_file(entry_path(key), "--cache-dir");
    // The strict loader re-checks every hash, so a truncated or edited entry is never served.
    open_source(bytes, R"({"grounding":"ethos-native"})");
    const nlohmann::json document = nlohmann::json::parse(bytes);
    if (document.at("source").at("fingerprint") != "sha256:" + source_sha256) return std::nullopt;
    return bytes;
  } catch (...) {
    return std::nullopt;
  }
}

void ParseCache::store(const std::string& key, const std::string& document_json) const noexcept {
  try {
    if (!make_directories(dir_)) return;
    write_file_atomic(entry_path(key), document_json, "--cache-dir");
  } catch (...) {
    // An unwritable cache is not an error of the parse.
  }
}

}  // namespace ethos::cli
