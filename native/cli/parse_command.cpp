// parse_command.cpp - the parse pipeline of ethos-core in check order (docs/cli.md "doc parse").
#include "parse_command.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

#include "core/api.hpp"
#include "host_io.hpp"
#include "json/sha256.hpp"
#include "pages_spec.hpp"
#include "parse_cache.hpp"
#include "parse_supervisor.hpp"
#include "pdf/layout.hpp"
#include "pdf/layout_model.hpp"
#include "pdf/pdfium_library.hpp"

namespace ethos::cli {
namespace {

constexpr std::size_t kHeaderWindow = 1024;  // "%PDF-" must start within the first KiB

// A positive decimal integer no larger than `max`, else invalid_arguments for `name`.
std::uint64_t positive_integer(const ParsedArgs& args, std::string_view name, std::uint64_t fallback,
                               std::uint64_t max) {
  const std::string* text = args.value(name);
  if (text == nullptr) return fallback;
  if (text->empty() || text->size() > 19 ||
      !std::all_of(text->begin(), text->end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw host_error("invalid_arguments", {{"argument", std::string(name)}});
  }
  const std::uint64_t value = std::stoull(*text);
  if (value == 0 || value > max) throw host_error("invalid_arguments", {{"argument", std::string(name)}});
  return value;
}

struct ParseSettings {
  ParseLimits limits;
  PageSelection selection;
  const std::string* password = nullptr;
  std::string library_path;
  bool use_cache = true;
  std::optional<std::string> cache_dir;
};

// Every argument-level check, before any file is touched.
ParseSettings read_settings(const ParsedArgs& args) {
  ParseSettings s;
  s.limits.max_file_bytes = positive_integer(args, "--max-file-bytes", s.limits.max_file_bytes, 1ULL << 50);
  s.limits.max_pages = static_cast<std::int64_t>(positive_integer(args, "--max-pages", 5000, 1'000'000'000));
  s.limits.max_parse_ms = static_cast<std::int64_t>(positive_integer(args, "--max-parse-ms", 120000, 1ULL << 40));
  s.limits.max_memory_mib = positive_integer(args, "--max-memory-mib", s.limits.max_memory_mib, 1ULL << 30);
  s.limits.workers = static_cast<int>(positive_integer(args, "--workers", 0, 1024));
  if (const std::string* pages = args.value("--pages")) s.selection = PageSelection::parse(*pages);
  s.password = args.value("--password");
  s.library_path = pdf::resolve_pdfium_library_path(args.value("--pdfium-library"));
  s.use_cache = !args.flag("--no-cache");
  if (s.use_cache) s.cache_dir = resolve_cache_dir(args.value("--cache-dir"));
  return s;
}

bool has_pdf_header(std::string_view bytes) {
  return bytes.substr(0, kHeaderWindow + 5).find("%PDF-") < kHeaderWindow;
}

// The canonical document JSON for `bytes` (no trailing newline), from the cache when possible.
std::string parse_document(std::string_view bytes, const ParseSettings& settings) {
  if (!has_pdf_header(bytes)) throw host_error("invalid_pdf");
  const std::string source_sha256 = sha256_hex(bytes);
  const std::string pdfium_build = pdf::pdfium_build_beside(settings.library_path);

  std::optional<ParseCache> cache;
  std::string key;
  if (settings.cache_dir) {
    cache.emplace(*settings.cache_dir);
    key = ParseCacheKey{source_sha256, settings.selection.normalized(), pdfium_build, ETHOS_VERSION_STRING,
                        settings.password}
              .hex();
    // A hit never starts a worker: the entry was already validated by the strict loader.
    if (std::optional<std::string> hit = cache->load(key, source_sha256)) return *hit;
  }

  ParseJob job;
  job.pdf = bytes;
  job.password = settings.password;
  job.library_path = settings.library_path;
  job.selection = settings.selection;
  job.limits = settings.limits;
  std::vector<std::string> encoded = supervise_parse(job);

  std::vector<pdf::PageLayout> pages;
  pages.reserve(encoded.size());
  for (std::string& page : encoded) {
    pages.push_back(pdf::decode_page_layout(page));
    std::string().swap(page);  // release each encoded page as soon as it is decoded
  }
  pdf::AssembleInputs inputs;
  inputs.source_sha256 = source_sha256;
  inputs.source_bytes = bytes.size();
  inputs.pages_spec = settings.selection.normalized();
  inputs.pdfium_build = pdfium_build;
  std::string document = pdf::assemble_document(std::move(pages), inputs);
  if (cache) cache->store(key, document);
  return document;
}

std::string with_final_newline(std::string text) {
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

bool named_pdf(const std::string& path) {
  if (path.size() < 4) return false;
  std::string tail = path.substr(path.size() - 4);
  std::transform(tail.begin(), tail.end(), tail.begin(), [](unsigned char c) { return std::tolower(c); });
  return tail == ".pdf";
}

}  // namespace

std::vector<OptionSpec> parse_options() {
  return {
      {"--pages", "SPEC", false, {}, "Pages to parse, e.g. 1-3,7,10- (default: all)."},
      {"--password", "P", false, {}, "Password of an encrypted PDF."},
      {"--pdfium-library", "PATH", false, {}, "libpdfium.so to use (default: $ETHOS_PDFIUM_LIBRARY_PATH, else pypdfium2's)."},
      {"--max-file-bytes", "N", false, {}, "Largest accepted PDF in bytes (default 268435456)."},
      {"--max-pages", "N", false, {}, "Most pages a PDF may have (default 5000)."},
      {"--max-parse-ms", "N", false, {}, "Wall-time limit of the whole parse in ms (default 120000)."},
      {"--max-memory-mib", "N", false, {}, "Resident memory limit per parse worker in MiB (default 2048)."},
      {"--workers", "N", false, {}, "Parse worker processes (default: by cores and page count)."},
      {"--cache-dir", "DIR", false, {}, "Parsed-document cache (default: $ETHOS_CACHE_DIR, else ~/.cache/ethos/documents)."},
      {"--no-cache", "", false, {}, "Neither read nor write the cache."},
  };
}

int run_doc_parse(const ParsedArgs& args) {
  const ParseSettings settings = read_settings(args);
  const std::string bytes = read_input_file(args.positionals.at(0), "PDF", settings.limits.max_file_bytes);
  const std::string document = parse_document(bytes, settings);

  const std::string* format = args.value("--format");
  std::string output;
  if (format != nullptr && *format == "markdown") {
    output = with_final_newline(pdf::render_markdown(document));
  } else if (format != nullptr && *format == "text") {
    output = with_final_newline(pdf::render_text(document));
  } else {
    output = document + "\n";
  }
  if (const std::string* out = args.value("--out")) {
    write_file_atomic(*out, output, "--out");
  } else {
    write_stdout(output);
  }
  return 0;
}

int run_fingerprint(const ParsedArgs& args) {
  const ParseSettings settings = read_settings(args);
  const std::string& path = args.positionals.at(0);
  const std::string bytes = read_input_file(path, "DOC", settings.limits.max_file_bytes);
  // A PDF is described as the file `doc parse` would write (with its final newline), so
  // `fingerprint X.pdf` and `fingerprint` of the parsed JSON print the same bytes.
  const bool pdf = named_pdf(path) || has_pdf_header(bytes);
  const std::string document = pdf ? parse_document(bytes, settings) + "\n" : bytes;
  const auto source = open_source(document, R"({"grounding":"ethos-native"})");
  write_stdout(describe_source(*source) + "\n");
  return 0;
}

}  // namespace ethos::cli
