// parse_tests.cpp - unit tests of the PDF parse plumbing that need no PDF: page selections, cache
// key and cache, worker frames, RSS polling, page splitting, the display-space transform, PDFium
// error mapping, and the supervisor's limits and failures against a fake PDFium.
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/error.hpp"
#include "json/sha256.hpp"
#include "pages_spec.hpp"
#include "parse_cache.hpp"
#include "parse_frames.hpp"
#include "parse_supervisor.hpp"
#include "parse_worker.hpp"
#include "pdf/pdfium_document.hpp"
#include "pdf/pdfium_geometry.hpp"
#include "process_memory.hpp"
#include "progress_bar.hpp"
#include "test_check.hpp"

namespace {


using ethos::cli::PageSelection;

// The envelope of what `fn` throws, or "" when it does not throw.
template <typename Fn>
std::string error_of(Fn fn) {
  try {
    fn();
  } catch (const ethos::EthosError& error) {
    return error.envelope();
  }
  return "";
}

const std::string kPagesError =
    R"({"error":{"code":"invalid_arguments","details":{"argument":"--pages"},"message":"the option --pages is missing, unknown or has an invalid value: run the command with --help to see its options"}})";
// Pages beyond the last are named with the document's page count (here 3).
const std::string kPagesBeyondError =
    R"({"error":{"code":"invalid_arguments","details":{"argument":"--pages","page_count":3},"message":"--pages names a page the PDF does not have: it has 3 pages"}})";

void test_pages_spec() {
  CHECK(PageSelection::parse("1-3,7,10-").normalized() == "1-3,7,10-");
  CHECK(PageSelection::parse("7,1-3").normalized() == "1-3,7");
  CHECK(PageSelection::parse("2,1,3").normalized() == "1-3");       // adjacent singles merge
  CHECK(PageSelection::parse("1-4,3-6").normalized() == "1-6");     // overlaps merge
  CHECK(PageSelection::parse("5-,2,8").normalized() == "2,5-");     // an open range absorbs later pages
  CHECK(PageSelection::parse("1-").normalized().empty());           // all pages
  CHECK(PageSelection::parse("4-4").normalized() == "4");
  CHECK(PageSelection().normalized().empty());
  for (const char* bad : {"", ",", "1,", ",1", "0", "1-0", "5-3", "a", "1 - 2", " 1", "1--2", "-3", "12345678901", "1,,2"}) {
    const std::string error = error_of([&] { PageSelection::parse(bad); });
    if (error != kPagesError) std::fprintf(stderr, "  spec '%s' gave %s\n", bad, error.c_str());
    CHECK(error == kPagesError);
  }
  CHECK((PageSelection::parse("1-3,7,10-").resolve(12) == std::vector<int>{0, 1, 2, 6, 9, 10, 11}));
  CHECK((PageSelection().resolve(3) == std::vector<int>{0, 1, 2}));
  CHECK((PageSelection::parse("3-").resolve(3) == std::vector<int>{2}));
  // Pages beyond the document are an argument error, found once the page count is known.
  CHECK(error_of([] { PageSelection::parse("4").resolve(3); }) == kPagesBeyondError);
  CHECK(error_of([] { PageSelection::parse("2-4").resolve(3); }) == kPagesBeyondError);
  CHECK(error_of([] { PageSelection::parse("4-").resolve(3); }) == kPagesBeyondError);
}

void test_cache_key() {
  const std::string source(64, 'a');
  ethos::cli::ParseCacheKey key{source, "", "159.0.8149", "0.1.0", nullptr};
  // The key is defined as sha256 over the c14n of exactly these fields (docs/pdf-parsing.md).
  const std::string build = ethos::cli::core_build_identity();
  CHECK(!build.empty());  // the test program's own file: /proc/self/exe always exists here
  CHECK(key.hex() == ethos::sha256_hex(R"({"core_build":")" + build +
                                       R"(","ethos_version":"0.1.0","pages":"","pdfium_build":"159.0.8149","source_sha256":")" +
                                       source + "\"}"));
  const std::string password = "secret";
  ethos::cli::ParseCacheKey with_password = key;
  with_password.password = &password;
  CHECK(with_password.hex() ==
        ethos::sha256_hex(R"({"core_build":")" + build + R"(","ethos_version":"0.1.0","pages":"","password_sha256":")" +
                          ethos::sha256_hex("secret") +
                          R"(","pdfium_build":"159.0.8149","source_sha256":")" + source + "\"}"));
  ethos::cli::ParseCacheKey other_pages = key;
  other_pages.pages = "1-3";
  CHECK(other_pages.hex() != key.hex());
  ethos::cli::ParseCacheKey other_build = key;
  other_build.pdfium_build = "";
  CHECK(other_build.hex() != key.hex());
}

void test_cache_dir_resolution() {
  const std::string flag = "/from/flag";
  ::setenv("ETHOS_CACHE_DIR", "/from/env", 1);
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  ::setenv("HOME", "/home/someone", 1);
  CHECK(ethos::cli::resolve_cache_dir(&flag) == std::optional<std::string>("/from/flag"));
  CHECK(ethos::cli::resolve_cache_dir(nullptr) == std::optional<std::string>("/from/env"));
  ::unsetenv("ETHOS_CACHE_DIR");
  CHECK(ethos::cli::resolve_cache_dir(nullptr) == std::optional<std::string>("/xdg/ethos/documents"));
  ::setenv("XDG_CACHE_HOME", "", 1);  // empty counts as unset
  CHECK(ethos::cli::resolve_cache_dir(nullptr) == std::optional<std::string>("/home/someone/.cache/ethos/documents"));
  ::unsetenv("XDG_CACHE_HOME");
  ::unsetenv("HOME");
  CHECK(!ethos::cli::resolve_cache_dir(nullptr).has_value());
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

void test_cache_store_and_load(const std::string& example_document, const std::string& scratch) {
  std::string dir_template = scratch + "/ethos-cache-test-XXXXXX";
  const char* made = ::mkdtemp(dir_template.data());
  CHECK(made != nullptr);
  if (made == nullptr) return;
  const std::string root = made;
  const std::string document = read_file(example_document);
  // The example's source.fingerprint, without the prefix.
  const std::string source = "fc0221416382bdb4365b663c143905257413fa927e8057a8602931a120ef645a";
  const std::string key(64, 'b');

  const mode_t old_mask = ::umask(022);  // a usual umask: files would be 0644 without care
  const std::string dir = root + "/nested/dir";
  ethos::cli::ParseCache cache(dir);
  CHECK(!cache.load(key, source).has_value());  // missing directory: a miss, not an error
  cache.store(key, source, document);            // creates the directories
  CHECK(cache.load(key, source) == std::optional<std::string>(document));
  CHECK(!cache.load(key, std::string(64, 'c')).has_value());  // another source's entry is never served
  CHECK(!cache.load(std::string(64, 'd'), source).has_value());

  // Private: the directory 0700, the entry and the MAC key 0600, whatever the umask.
  CHECK(mode_of(dir) == 0700);
  CHECK(mode_of(dir + "/" + key + ".entry") == 0600);
  CHECK(mode_of(dir + "/.ethos-cache-key") == 0600);
  // A directory made by an earlier version (0755) is tightened before use.
  CHECK(::chmod(dir.c_str(), 0755) == 0);
  CHECK(cache.load(key, source).has_value());
  CHECK(mode_of(dir) == 0700);
  // An entry others could read or write is not trusted.
  CHECK(::chmod((dir + "/" + key + ".entry").c_str(), 0644) == 0);
  CHECK(!cache.load(key, source).has_value());
  CHECK(::chmod((dir + "/" + key + ".entry").c_str(), 0600) == 0);

  // Tampering: any changed content byte, or a planted entry that is a valid document with a
  // recomputed header but no knowledge of the MAC key, is a miss.
  const std::string entry_file = dir + "/" + key + ".entry";
  const std::string entry = read_file(entry_file);
  const std::size_t newline = entry.find('\n');
  std::string changed = entry;
  changed[newline + 10] = changed[newline + 10] == 'a' ? 'b' : 'a';
  write_text(entry_file, changed);
  CHECK(!cache.load(key, source).has_value());
  std::string header = entry.substr(0, newline);
  const std::size_t mac_at = header.find("\"mac\":\"") + 7;
  header[mac_at] = header[mac_at] == '0' ? '1' : '0';
  write_text(entry_file, header + entry.substr(newline));
  CHECK(!cache.load(key, source).has_value());
  // An entry of another key, copied under this key's name, is a miss (the header names its key).
  const std::string other_key(64, 'e');
  cache.store(other_key, source, document);
  write_text(entry_file, read_file(dir + "/" + other_key + ".entry"));
  CHECK(!cache.load(key, source).has_value());
  CHECK(cache.load(other_key, source).has_value());
  // Another MAC key (a cache written by someone else, copied in): every entry is a miss.
  write_text(dir + "/.ethos-cache-key", std::string(32, 'k'));
  CHECK(!cache.load(other_key, source).has_value());
  ::umask(old_mask);

  // An unwritable cache (its path is a file) is silently skipped.
  ethos::cli::ParseCache blocked(dir + "/" + key + ".entry/sub");
  blocked.store(key, source, document);
  CHECK(!blocked.load(key, source).has_value());
  std::filesystem::remove_all(root);
}

void test_cache_bound_info_clear(const std::string& scratch) {
  std::string dir_template = scratch + "/ethos-cache-bound-XXXXXX";
  const char* made = ::mkdtemp(dir_template.data());
  CHECK(made != nullptr);
  if (made == nullptr) return;
  const std::string dir = made;
  const std::string source(64, 'a');
  const std::string doc(1000, 'x');
  // Room for two entries (each 1000 bytes plus a header of about 400).
  ethos::cli::ParseCache cache(dir, 3000);
  const std::string k1(64, '1'), k2(64, '2'), k3(64, '3');
  cache.store(k1, source, doc);
  ::usleep(20000);  // distinct modification times
  cache.store(k2, source, doc);
  ::usleep(20000);
  CHECK(cache.load(k1, source).has_value());  // a hit makes k1 the most recently used
  ::usleep(20000);
  cache.store(k3, source, doc);               // over the limit: k2, the least recently used, goes
  CHECK(cache.load(k1, source).has_value());
  CHECK(!cache.load(k2, source).has_value());
  CHECK(cache.load(k3, source).has_value());
  ethos::cli::CacheStats stats = cache.info();
  CHECK(stats.entries == 2);
  CHECK(stats.bytes > 2000 && stats.bytes <= 3000);
  // A document larger than the whole limit is not stored (and evicts nothing).
  cache.store(std::string(64, '4'), source, std::string(4000, 'y'));
  CHECK(cache.info().entries == 2);

  // clear removes entries of this and the earlier format and leaves other files alone.
  write_text(dir + "/" + std::string(64, 'f') + ".json", "{}");
  write_text(dir + "/notes.txt", "mine");
  CHECK(cache.info().entries == 3);
  const ethos::cli::CacheStats removed = cache.clear();
  CHECK(removed.entries == 3);
  CHECK(removed.bytes == stats.bytes + 2);
  CHECK(cache.info().entries == 0 && cache.info().bytes == 0);
  CHECK(read_file(dir + "/notes.txt") == "mine");
  CHECK(!cache.load(k1, source).has_value());

  // The limit's variable: bytes or K/M/G; anything else names the variable.
  ::setenv("ETHOS_CACHE_MAX_BYTES", "500M", 1);
  CHECK(ethos::cli::cache_max_bytes() == 500ULL << 20);
  ::setenv("ETHOS_CACHE_MAX_BYTES", "4096", 1);
  CHECK(ethos::cli::cache_max_bytes() == 4096);
  for (const char* bad : {"0", "-1", "1T", "lots", "1.5G", "99999999999999999999"}) {
    ::setenv("ETHOS_CACHE_MAX_BYTES", bad, 1);
    CHECK(error_of([] { ethos::cli::cache_max_bytes(); }).find(R"("argument":"ETHOS_CACHE_MAX_BYTES")") !=
          std::string::npos);
  }
  ::unsetenv("ETHOS_CACHE_MAX_BYTES");
  CHECK(ethos::cli::cache_max_bytes() == ethos::cli::kDefaultCacheMaxBytes);
  std::filesystem::remove_all(dir);
}

void test_progress_render() {
  using ethos::cli::ProgressBar;
  // Half done in 10 s: 0.5 pages/s, 10 s left; the line fills the width exactly.
  const std::string line = ProgressBar::render("parse", "pages", 5, 10, 10.0, 80);
  CHECK(line.size() == 79);
  CHECK(line.rfind("parse:  50%|", 0) == 0);
  CHECK(line.find(" 5/10 pages [00:10<00:10, 0.5 pages/s]") != std::string::npos);
  CHECK(line.find(std::string(13, '#')) != std::string::npos);
  const std::string start = ProgressBar::render("parse", "pages", 0, 10, 0.0, 80);
  CHECK(start.find("0/10 pages [00:00<?, ? pages/s]") != std::string::npos);
  CHECK(ProgressBar::render("parse", "pages", 10, 10, 2.0, 80).find("100%|") != std::string::npos);
  // Not a terminal (the test's stderr is a file or a pipe under ctest) and no progress fd: off.
  ::unsetenv("ETHOS_PROGRESS_FD");
  if (::isatty(STDERR_FILENO) == 0) CHECK(!ProgressBar("parse", "pages", false).enabled());
  CHECK(!ProgressBar("parse", "pages", true).enabled());
}

void test_frames() {
  const std::string payload = "layout bytes \x00\x01 with a NUL";
  std::string stream = ethos::cli::encode_frame_header(ethos::cli::FrameType::kPage, 0x01020304u, payload.size()) + payload;
  stream += ethos::cli::encode_frame_header(ethos::cli::FrameType::kPageCount, 7, 0);
  CHECK(stream.size() == 2 * ethos::cli::kFrameHeaderBytes + payload.size());
  CHECK(stream[0] == 'P' && stream[1] == '\x04' && stream[4] == '\x01');  // little-endian page

  // Delivered one byte at a time, the frames still come out whole and in order.
  ethos::cli::FrameReader reader;
  std::vector<ethos::cli::Frame> frames;
  for (char c : stream) {
    reader.feed(std::string_view(&c, 1));
    ethos::cli::Frame frame;
    while (reader.next(frame)) frames.push_back(frame);
  }
  CHECK(frames.size() == 2);
  if (frames.size() == 2) {
    CHECK(frames[0].type == ethos::cli::FrameType::kPage && frames[0].page == 0x01020304u && frames[0].payload == payload);
    CHECK(frames[1].type == ethos::cli::FrameType::kPageCount && frames[1].page == 7 && frames[1].payload.empty());
  }
  CHECK(reader.idle() && !reader.broken());

  ethos::cli::FrameReader partial;
  partial.feed(stream.substr(0, 5));
  ethos::cli::Frame frame;
  CHECK(!partial.next(frame) && !partial.idle());  // a worker dying mid-frame leaves this state

  // The probe's work order: count, then the pages, all u32 little-endian.
  CHECK(ethos::cli::encode_page_list({3, 258}) == std::string("\x02\0\0\0\x03\0\0\0\x02\x01\0\0", 12));
  CHECK(ethos::cli::encode_page_list({}) == std::string(4, '\0'));

  ethos::cli::FrameReader garbage;
  garbage.feed(std::string(ethos::cli::kFrameHeaderBytes, 'Z'));
  CHECK(!garbage.next(frame) && garbage.broken());
}

void test_process_memory() {
  CHECK(ethos::cli::statm_resident_pages("1000 250 30 4 0 60 0\n") == std::optional<std::uint64_t>(250));
  CHECK(ethos::cli::statm_resident_pages("1000 250") == std::optional<std::uint64_t>(250));
  CHECK(!ethos::cli::statm_resident_pages("").has_value());
  CHECK(!ethos::cli::statm_resident_pages("1000").has_value());
  CHECK(!ethos::cli::statm_resident_pages("1000 x 3").has_value());
  CHECK(!ethos::cli::statm_resident_pages("1000 99999999999999999999999 3").has_value());
  // This process is resident; touching 64 MiB raises the figure by about that much.
  const auto before = ethos::cli::resident_bytes(::getpid());
  CHECK(before.has_value() && *before > 0);
  std::vector<char> block(64u << 20, 1);
  const auto after = ethos::cli::resident_bytes(::getpid());
  CHECK(after.has_value() && before.has_value() && *after >= *before + (60u << 20));
  CHECK(block[12345] == 1);
  CHECK(!ethos::cli::resident_bytes(-5).has_value());
}

void test_worker_split() {
  using ethos::cli::worker_count;
  CHECK(worker_count(0, 1, 8) == 1);
  CHECK(worker_count(0, 16, 8) == 1);
  CHECK(worker_count(0, 17, 8) == 2);   // ceil(17 / 16)
  CHECK(worker_count(0, 1000, 4) == 4);  // bounded by cores
  CHECK(worker_count(3, 2, 8) == 2);    // never more workers than pages
  CHECK(worker_count(5, 100, 1) == 5);  // --workers overrides the core count
  CHECK(worker_count(0, 0, 4) == 0);
  const std::vector<int> pages{0, 1, 2, 6, 9, 10, 11};
  const auto runs = ethos::cli::split_pages(pages, 3);
  CHECK((runs == std::vector<std::vector<int>>{{0, 1, 2}, {6, 9}, {10, 11}}));
}

bool near(double a, double b) { return std::fabs(a - b) < 1e-9; }

void test_display_transform() {
  constexpr double kPi = 3.14159265358979323846;
  // A 200×100 page whose box starts at (10, 20) in user space; the point (30, 90) is 20 right of
  // the left edge and 10 below the top edge.
  using ethos::pdf::DisplayTransform;
  const DisplayTransform r0(10, 20, 210, 120, 0), r90(10, 20, 210, 120, 1), r180(10, 20, 210, 120, 2),
      r270(10, 20, 210, 120, 3);
  double x = 0, y = 0;
  r0.map_point(30, 90, x, y);
  CHECK(near(x, 20) && near(y, 30));
  CHECK(near(r0.width(), 200) && near(r0.height(), 100) && r0.rotation_degrees() == 0);
  // Turned a quarter clockwise the page is 100 wide; the point's distance to the (old) bottom edge
  // becomes its distance from the left, its distance from the old left edge its distance from the top.
  r90.map_point(30, 90, x, y);
  CHECK(near(x, 70) && near(y, 20));
  CHECK(near(r90.width(), 100) && near(r90.height(), 200) && r90.rotation_degrees() == 90);
  r180.map_point(30, 90, x, y);
  CHECK(near(x, 180) && near(y, 70));
  r270.map_point(30, 90, x, y);
  CHECK(near(x, 30) && near(y, 180));
  // Corners of the box land on the corners of the display page for every rotation.
  for (const DisplayTransform* t : {&r0, &r90, &r180, &r270}) {
    const ethos::pdf::Rect box = t->map_rect(10, 20, 210, 120);
    CHECK(near(box.x0, 0) && near(box.y0, 0) && near(box.x1, t->width()) && near(box.y1, t->height()));
    const ethos::pdf::Rect inner = t->map_rect(50, 30, 60, 40);
    CHECK(inner.x0 >= 0 && inner.x1 <= t->width() && inner.y0 >= 0 && inner.y1 <= t->height());
    CHECK(inner.x0 <= inner.x1 && inner.y0 <= inner.y1);
  }
  // Upright text on a page turned 90° clockwise runs downwards on the display: -90° (= 270°).
  CHECK(near(r0.map_angle(0), 0));
  CHECK(near(r90.map_angle(0), 1.5 * kPi));
  CHECK(near(r90.map_angle(kPi / 2), 0));
  CHECK(near(r270.map_angle(0), kPi / 2));
  CHECK(near(DisplayTransform(0, 0, 10, 10, -1).map_angle(0), kPi / 2));  // -1 quarter = 270°
}

void test_load_error_mapping() {
  using ethos::pdf::load_error_code;
  CHECK(std::string(load_error_code(2)) == "corrupt_pdf");
  CHECK(std::string(load_error_code(3)) == "corrupt_pdf");
  CHECK(std::string(load_error_code(4)) == "password_protected");
  CHECK(std::string(load_error_code(5)) == "unsupported_pdf_feature");
  CHECK(std::string(load_error_code(6)) == "corrupt_pdf");
  CHECK(std::string(load_error_code(99)) == "corrupt_pdf");
}

// Without a loadable PDFium the worker's error crosses the pipe as the parse's envelope.
void test_supervisor_pdfium_missing() {
  ethos::cli::ParseJob job;
  const std::string pdf = "%PDF-1.7\n";
  job.pdf = pdf;
  job.library_path = "/nonexistent/libpdfium.so";
  const std::string error = error_of([&] { ethos::cli::supervise_parse(job); });
  CHECK(error == R"({"error":{"code":"internal_error","details":{"reason":"not_found"},"message":"PDFium not found: install pypdfium2 (pip install pypdfium2), or name the library with --pdfium-library or ETHOS_PDFIUM_LIBRARY_PATH"}})");
}

// The supervisor against a fake PDFium (fake_pdfium.c) whose "PDF" names its misbehaviour.
std::string fake_parse(const std::string& library, const std::string& pdf, ethos::cli::ParseLimits limits = {},
                       const std::string& pages = "") {
  ethos::cli::ParseJob job;
  job.pdf = pdf;
  job.library_path = library;
  job.limits = limits;
  if (!pages.empty()) job.selection = PageSelection::parse(pages);
  return error_of([&] { ethos::cli::supervise_parse(job); });
}

std::string code_of(const std::string& envelope) {
  const std::size_t at = envelope.find("\"code\":\"");
  if (at == std::string::npos) return envelope.empty() ? "(no error)" : envelope;
  const std::size_t begin = at + 8;
  return envelope.substr(begin, envelope.find('"', begin) - begin);
}

bool no_children_left() {
  int status = 0;
  return ::waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD;
}

void test_supervisor_limits(const std::string& fake, const std::string& incomplete_fake) {
  using Clock = std::chrono::steady_clock;
  ethos::cli::ParseLimits quick;
  quick.max_parse_ms = 300;
  auto start = Clock::now();
  CHECK(code_of(fake_parse(fake, "%PDF-fake sleep", quick)) == "parse_timeout");
  CHECK(Clock::now() - start < std::chrono::seconds(5));
  CHECK(no_children_left());  // the hung worker was killed and reaped

  ethos::cli::ParseLimits small;
  small.max_memory_mib = 64;
  small.max_parse_ms = 60000;
  start = Clock::now();
  const std::string grown = fake_parse(fake, "%PDF-fake grow", small);
  CHECK(code_of(grown) == "memory_limit_exceeded");
  CHECK(grown.find("\"max_memory_mib\":64") != std::string::npos);
  CHECK(Clock::now() - start < std::chrono::seconds(30));  // long before the wall-time limit
  CHECK(no_children_left());

  CHECK(code_of(fake_parse(fake, "%PDF-fake crash")) == "internal_error");
  CHECK(no_children_left());

  CHECK(code_of(fake_parse(fake, "%PDF-fake error 2")) == "corrupt_pdf");
  CHECK(code_of(fake_parse(fake, "%PDF-fake error 3")) == "corrupt_pdf");
  CHECK(code_of(fake_parse(fake, "%PDF-fake error 4")) == "password_protected");
  CHECK(code_of(fake_parse(fake, "%PDF-fake error 5")) == "unsupported_pdf_feature");
  CHECK(code_of(fake_parse(fake, "%PDF-fake error 6")) == "corrupt_pdf");
  CHECK(code_of(fake_parse(fake, "%PDF-1.7 not understood by the fake")) == "corrupt_pdf");

  CHECK(code_of(fake_parse(fake, "%PDF-fake pages 5001")) == "page_limit_exceeded");
  ethos::cli::ParseLimits few_pages;
  few_pages.max_pages = 10;
  CHECK(code_of(fake_parse(fake, "%PDF-fake pages 11", few_pages)) == "page_limit_exceeded");
  CHECK(code_of(fake_parse(fake, "%PDF-fake pages 3", {}, "4")) == "invalid_arguments");
  // Pages that exist reach the workers, whose page loads fail in the fake.
  CHECK(code_of(fake_parse(fake, "%PDF-fake pages 3", {}, "2-3")) == "corrupt_pdf");
  ethos::cli::ParseLimits three_workers;
  three_workers.workers = 3;
  CHECK(code_of(fake_parse(fake, "%PDF-fake pages 40", three_workers)) == "corrupt_pdf");
  CHECK(no_children_left());
  // A document without pages has nothing to parse: corrupt_pdf naming that, not ocr_required
  // (which tells the user to OCR it), and no worker is started for pages.
  CHECK(fake_parse(fake, "%PDF-fake pages 0") ==
        R"({"error":{"code":"corrupt_pdf","details":{"reason":"no_pages"},"message":"the PDF file has no pages, so there is nothing to parse: give a PDF with at least one page"}})");
  CHECK(no_children_left());

  CHECK(fake_parse(incomplete_fake, "%PDF-fake pages 1") ==
        R"({"error":{"code":"internal_error","details":{"reason":"missing_symbol","symbol":"FPDFAction_GetURIPath"},"message":"PDFium not found: install pypdfium2 (pip install pypdfium2), or name the library with --pdfium-library or ETHOS_PDFIUM_LIBRARY_PATH"}})");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: ethos_parse_tests DOCUMENT_EXAMPLE_JSON SCRATCH_DIR FAKE_PDFIUM INCOMPLETE_FAKE_PDFIUM\n");
    return 2;
  }
  test_pages_spec();
  test_cache_key();
  test_cache_store_and_load(argv[1], argv[2]);
  test_cache_bound_info_clear(argv[2]);
  test_progress_render();
  test_cache_dir_resolution();
  test_frames();
  test_process_memory();
  test_worker_split();
  test_display_transform();
  test_load_error_mapping();
  test_supervisor_pdfium_missing();
  test_supervisor_limits(argv[3], argv[4]);
  return ethos_test::finish("parse_tests");
}
