// parse_cache.cpp - cache key, directory resolution, authenticated reads, private atomic writes and
// least-recently-used eviction.
#include "parse_cache.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <nlohmann/json.hpp>

#include "host_io.hpp"
#include "json/c14n.hpp"
#include "json/sha256.hpp"

namespace ethos::cli {
namespace {

// The entry format: one c14n header line, then the document bytes exactly as parsed.
constexpr const char* kEntryFormat = "ethos.parse-cache.v2";
constexpr const char* kEntrySuffix = ".entry";
constexpr const char* kLegacySuffix = ".json";          // entries of earlier versions (unauthenticated)
constexpr const char* kSecretName = ".ethos-cache-key";  // the MAC key, 0600
constexpr const char* kTempPrefix = ".ethos-cache-";     // entries being written
constexpr std::size_t kSecretBytes = 32;

const char* non_empty_env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

// mkdir -p with 0700 for what it creates (the XDG cache convention); false when it cannot.
bool make_directories(const std::string& dir) {
  for (std::size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    const std::string prefix = dir.substr(0, slash);
    if (!prefix.empty() && ::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) return false;
    if (slash == std::string::npos) break;
  }
  return true;
}

// The directory may hold the cache only if it is ours and nobody else can enter it: whoever can
// write it could plant entries, whoever can read it could read decrypted text. A directory we own
// with wider permissions (made by an earlier version) is tightened to 0700; one owned by someone
// else is never used.
bool private_directory(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) return false;
  if ((st.st_mode & 077) != 0 && ::chmod(dir.c_str(), 0700) != 0) return false;
  return true;
}

// Opens `path` for reading only if it is a regular file of ours that nobody else can read or
// write (and not a symbolic link); -1 otherwise.
int open_private(const std::string& path, struct stat& st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 077) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool read_all(int fd, std::string& out, std::size_t expected) {
  out.resize(expected);
  std::size_t got = 0;
  while (got < expected) {
    const ssize_t n = ::read(fd, out.data() + got, expected - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<std::size_t>(n);
  }
  return true;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Writes `bytes` to a new 0600 temp file in `dir` (mkstemp's mode, whatever the umask) and
// returns its path, or "" on failure (nothing left behind).
std::string write_temp(const std::string& dir, std::string_view bytes) {
  std::string temp = dir + "/" + kTempPrefix + "XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return std::string();
  const bool written = ::fchmod(fd, 0600) == 0 && write_all(fd, bytes);
  if (::close(fd) != 0 || !written) {
    ::unlink(temp.c_str());
    return std::string();
  }
  return temp;
}

// The cache's MAC key. With `create`, a missing key is made (random, 0600); link() publishes it
// only if no other process did first, so concurrent first writers agree on one key.
std::optional<std::string> cache_secret(const std::string& dir, bool create) {
  const std::string path = dir + "/" + kSecretName;
  for (int attempt = 0; attempt < 2; ++attempt) {
    struct stat st {};
    const int fd = open_private(path, st);
    if (fd >= 0) {
      std::string secret;
      const bool ok = static_cast<std::size_t>(st.st_size) == kSecretBytes && read_all(fd, secret, kSecretBytes);
      ::close(fd);
      if (ok) return secret;
      return std::nullopt;  // a key of the wrong shape: the cache is not trusted (cache clear resets it)
    }
    if (!create || errno != ENOENT) return std::nullopt;
    std::string secret(kSecretBytes, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(secret.data()), static_cast<int>(kSecretBytes)) != 1) {
      return std::nullopt;
    }
    const std::string temp = write_temp(dir, secret);
    if (temp.empty()) return std::nullopt;
    const bool linked = ::link(temp.c_str(), path.c_str()) == 0;
    ::unlink(temp.c_str());
    if (linked) return secret;
    // Another process published its key first: read that one.
  }
  return std::nullopt;
}

std::string hex_of(const unsigned char* bytes, std::size_t size) {
  static const char* const kDigits = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (std::size_t i = 0; i < size; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

// HMAC-SHA256 over everything an entry is bound to: the key (which covers the options), the PDF
// bytes' hash, the parser build and the content's hash. Without the secret nobody can forge it.
std::string entry_mac(const std::string& secret, const std::string& key, const std::string& source_sha256,
                      const std::string& parser, const std::string& content_sha256) {
  const std::string message = std::string(kEntryFormat) + "\n" + key + "\n" + source_sha256 + "\n" + parser + "\n" +
                              content_sha256;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
           reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &size) == nullptr) {
    return std::string();
  }
  return hex_of(mac, size);
}

bool ends_with(const std::string& text, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return text.size() >= n && text.compare(text.size() - n, n, suffix) == 0;
}

// Entries of this and earlier formats: 64 hex digits and a known suffix. Nothing else in the
// directory is ever counted, evicted or removed.
bool is_entry_name(const std::string& name) {
  for (const char* suffix : {kEntrySuffix, kLegacySuffix}) {
    if (ends_with(name, suffix) && name.size() == 64 + std::strlen(suffix) &&
        is_sha256_hex(std::string_view(name).substr(0, 64))) {
      return true;
    }
  }
  return false;
}

struct DirEntry {
  std::string path;
  std::uint64_t bytes = 0;
  std::int64_t mtime_ns = 0;
  bool entry = false;  // false: a temp file of ours
};

std::vector<DirEntry> list_entries(const std::string& dir) {
  std::vector<DirEntry> found;
  DIR* handle = ::opendir(dir.c_str());
  if (handle == nullptr) return found;
  while (const dirent* item = ::readdir(handle)) {
    const std::string name = item->d_name;
    const bool entry = is_entry_name(name);
    if (!entry && name.rfind(kTempPrefix, 0) != 0) continue;
    DirEntry e;
    e.path = dir + "/" + name;
    struct stat st {};
    if (::lstat(e.path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    e.bytes = static_cast<std::uint64_t>(st.st_size);
    e.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    e.entry = entry;
    found.push_back(std::move(e));
  }
  ::closedir(handle);
  // Oldest first, by name for equal times: eviction order never depends on readdir's order.
  std::sort(found.begin(), found.end(), [](const DirEntry& a, const DirEntry& b) {
    return a.mtime_ns != b.mtime_ns ? a.mtime_ns < b.mtime_ns : a.path < b.path;
  });
  return found;
}

// Parses "N", "NK", "NM", "NG" (optionally "KiB", "MB", ...); nullopt when malformed or zero.
std::optional<std::uint64_t> parse_size(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 18) return std::nullopt;
  std::uint64_t value = std::stoull(text.substr(0, digits));
  std::string unit = text.substr(digits);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  int shift = 0;
  if (unit == "K" || unit == "KB" || unit == "KIB") shift = 10;
  else if (unit == "M" || unit == "MB" || unit == "MIB") shift = 20;
  else if (unit == "G" || unit == "GB" || unit == "GIB") shift = 30;
  else if (!(unit.empty() || unit == "B")) return std::nullopt;
  if (value == 0 || value > (UINT64_MAX >> shift)) return std::nullopt;
  return value << shift;
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

std::uint64_t cache_max_bytes() {
  const char* text = non_empty_env("ETHOS_CACHE_MAX_BYTES");
  if (text == nullptr) return kDefaultCacheMaxBytes;
  const std::optional<std::uint64_t> value = parse_size(text);
  if (!value) throw host_error("invalid_arguments", {{"argument", "ETHOS_CACHE_MAX_BYTES"}});
  return *value;
}

std::optional<std::string> ParseCache::load(const std::string& key, const std::string& source_sha256) const {
  try {
    if (!private_directory(dir_)) return std::nullopt;
    const std::optional<std::string> secret = cache_secret(dir_, /*create=*/false);
    if (!secret) return std::nullopt;
    struct stat st {};
    const int fd = open_private(entry_path(key), st);
    if (fd < 0) return std::nullopt;
    std::string bytes;
    const bool read = read_all(fd, bytes, static_cast<std::size_t>(st.st_size));
    // Marks the entry as used now: eviction goes by modification time, oldest first.
    if (read) ::futimens(fd, nullptr);
    ::close(fd);
    if (!read) return std::nullopt;

    const std::size_t newline = bytes.find('\n');
    if (newline == std::string::npos) return std::nullopt;
    const nlohmann::json header = nlohmann::json::parse(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(newline));
    const std::string parser = core_build_identity();
    if (header.at("format") != kEntryFormat || header.at("key") != key || header.at("source_sha256") != source_sha256 ||
        header.at("parser") != parser) {
      return std::nullopt;
    }
    std::string content = bytes.substr(newline + 1);
    const std::string content_sha256 = sha256_hex(content);
    const std::string expected = entry_mac(*secret, key, source_sha256, parser, content_sha256);
    const std::string mac = header.at("mac").get<std::string>();
    if (header.at("content_sha256") != content_sha256 || expected.empty() || mac.size() != expected.size() ||
        CRYPTO_memcmp(mac.data(), expected.data(), expected.size()) != 0) {
      return std::nullopt;
    }
    return content;
  } catch (...) {
    return std::nullopt;
  }
}

void ParseCache::store(const std::string& key, const std::string& source_sha256,
                       const std::string& document_json) const noexcept {
  try {
    if (document_json.size() >= max_bytes_) return;  // would evict everything, itself included
    if (!make_directories(dir_) || !private_directory(dir_)) return;
    const std::optional<std::string> secret = cache_secret(dir_, /*create=*/true);
    if (!secret) return;
    const std::string parser = core_build_identity();
    const std::string content_sha256 = sha256_hex(document_json);
    const std::string mac = entry_mac(*secret, key, source_sha256, parser, content_sha256);
    if (mac.empty()) return;
    const nlohmann::json header{{"content_sha256", content_sha256}, {"format", kEntryFormat}, {"key", key},
                                {"mac", mac}, {"parser", parser}, {"source_sha256", source_sha256}};
    const std::string temp = write_temp(dir_, to_c14n(header) + "\n" + document_json);
    if (temp.empty()) return;
    if (::rename(temp.c_str(), entry_path(key).c_str()) != 0) {
      ::unlink(temp.c_str());
      return;
    }
    evict();
  } catch (...) {
    // An unwritable cache is not an error of the parse.
  }
}

void ParseCache::evict() const {
  std::vector<DirEntry> entries = list_entries(dir_);
  std::uint64_t total = 0;
  for (const DirEntry& e : entries) total += e.entry ? e.bytes : 0;
  for (const DirEntry& e : entries) {
    if (total <= max_bytes_) break;
    if (!e.entry) continue;
    if (::unlink(e.path.c_str()) == 0) total -= e.bytes;
  }
}

CacheStats ParseCache::info() const {
  CacheStats stats;
  for (const DirEntry& e : list_entries(dir_)) {
    if (!e.entry) continue;
    ++stats.entries;
    stats.bytes += e.bytes;
  }
  return stats;
}

CacheStats ParseCache::clear() const {
  CacheStats removed;
  for (const DirEntry& e : list_entries(dir_)) {
    if (::unlink(e.path.c_str()) != 0) {
      if (errno == ENOENT) continue;  // removed meanwhile by another process
      const int err = errno;
      throw host_error("host_io", {{"argument", "--cache-dir"},
                                   {"reason", err == EACCES || err == EPERM || err == EROFS ? "permission_denied"
                                                                                            : "io_error"}});
    }
    if (!e.entry) continue;
    ++removed.entries;
    removed.bytes += e.bytes;
  }
  return removed;
}

}  // namespace ethos::cli
