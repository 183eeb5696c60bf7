// parse_command.cpp - the parse pipeline of ethos-core in check order (docs/cli.md "doc parse").
#include "parse_command.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "core/api.hpp"
#include "json/c14n.hpp"
#include "host_io.hpp"
#include "json/sha256.hpp"
#include "pages_spec.hpp"
#include "pdf_password.hpp"
#include "parse_cache.hpp"
#include "parse_supervisor.hpp"
#include "progress_bar.hpp"
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
  bool diagnostics = false;
  ParseLimits limits;
  PageSelection selection;
  // --password, else --password-file's contents, else $ETHOS_PDF_PASSWORD (pdf_password()).
  std::optional<std::string> password_text;
  const std::string* password() const { return password_text ? &*password_text : nullptr; }
  std::string library_path;
  bool use_cache = true;
  // A password-protected PDF's text is cached only when asked: the cache would otherwise keep a
  // decrypted copy of what the password protects.
  bool cache_decrypted = false;
  std::uint64_t cache_max_bytes = kDefaultCacheMaxBytes;
  std::optional<std::string> cache_dir;
  bool quiet = false;
};

// Every argument-level check, before any file is touched (the password file excepted).
ParseSettings read_settings(const ParsedArgs& args) {
  ParseSettings s;
  s.diagnostics = args.flag("--diagnostics");
  s.limits.max_file_bytes = positive_integer(args, "--max-file-bytes", s.limits.max_file_bytes, 1ULL << 50);
  // At most 9999: page ids are four digits (p0001..p9999) in the document contract.
  s.limits.max_pages = static_cast<std::int64_t>(positive_integer(args, "--max-pages", 5000, 9999));
  s.limits.max_parse_ms = static_cast<std::int64_t>(positive_integer(args, "--max-parse-ms", 120000, 1ULL << 40));
  s.limits.max_memory_mib = positive_integer(args, "--max-memory-mib", s.limits.max_memory_mib, 1ULL << 30);
  s.limits.workers = static_cast<int>(positive_integer(args, "--workers", 0, 1024));
  if (const std::string* pages = args.value("--pages")) s.selection = PageSelection::parse(*pages);
  s.password_text = pdf_password(args);
  s.library_path = pdf::resolve_pdfium_library_path(args.value("--pdfium-library"));
  s.use_cache = !args.flag("--no-cache");
  s.cache_decrypted = args.flag("--cache-decrypted");
  if (s.use_cache) s.cache_max_bytes = cache_max_bytes();
  if (s.use_cache && (s.password() == nullptr || s.cache_decrypted)) s.cache_dir = resolve_cache_dir(args.value("--cache-dir"));
  s.quiet = args.flag("--quiet");
  return s;
}

bool has_pdf_header(std::string_view bytes) {
  return bytes.substr(0, kHeaderWindow + 5).find("%PDF-") < kHeaderWindow;
}

// Runtime facts of one parse for --diagnostics (CONTRACTS §1.4 / §2.2): never hashed or cached.
struct ParseRun {
  std::string cache = "off";  // off | hit | miss
  ParseReport report;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

  nlohmann::json to_json() const {
    nlohmann::json out{{"cache", cache}};
    if (cache != "hit") {
      out["parse_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
      if (report.page_count >= 0) out["page_count"] = report.page_count;
      out["workers"] = report.workers;
    }
    if (!report.failure.is_null()) out["failure"] = report.failure;
    return out;
  }
};

// The canonical document JSON for `bytes` (no trailing newline), from the cache when possible.
std::string parse_document(std::string_view bytes, const ParseSettings& settings, ParseRun& run) {
  if (!has_pdf_header(bytes)) throw host_error("invalid_pdf");
  const std::string source_sha256 = sha256_hex(bytes);
  const std::string pdfium_build = pdf::pdfium_build_beside(settings.library_path);

  std::optional<ParseCache> cache;
  std::string key;
  if (settings.cache_dir) {
    cache.emplace(*settings.cache_dir, settings.cache_max_bytes);
    key = ParseCacheKey{source_sha256, settings.selection.normalized(), pdfium_build, ETHOS_VERSION_STRING,
                        settings.password()}
              .hex();
    // A hit never starts a worker: the entry's MAC binds it to these bytes, options and parser.
    if (std::optional<std::string> hit = cache->load(key, source_sha256)) {
      run.cache = "hit";
      return *hit;
    }
    run.cache = "miss";
  }

  ParseJob job;
  job.pdf = bytes;
  job.password = settings.password();
  job.library_path = settings.library_path;
  job.selection = settings.selection;
  job.limits = settings.limits;
  job.report = &run.report;
  std::vector<std::string> encoded;
  {
    // Gone (and erased) before anything else reaches stderr, an error envelope included.
    ProgressBar bar("parse", "pages", settings.quiet);
    if (bar.enabled()) job.on_progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
    encoded = supervise_parse(job);
  }

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
  if (cache) cache->store(key, source_sha256, document);
  return document;
}

std::string with_final_newline(std::string text) {
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

// Adds the top-level "diagnostics" member to a canonical document. Keys are sorted, so it goes
// right after "config_sha256" (always the first key, a 64-digit hash); anything unexpected falls
// back to a full re-serialisation.
std::string with_diagnostics(const std::string& document, const nlohmann::json& diagnostics) {
  const std::string prefix = "{\"config_sha256\":\"";
  const std::size_t after = prefix.size() + 64 + 1;
  const std::string member = "\"diagnostics\":" + to_c14n(diagnostics) + ",";
  if (document.compare(0, prefix.size(), prefix) == 0 && document.size() > after &&
      document.compare(after - 1, 2, "\",") == 0 && document.compare(after + 1, 13, "\"fingerprint\"") == 0) {
    return document.substr(0, after + 1) + member + document.substr(after + 1);
  }
  nlohmann::json parsed = nlohmann::json::parse(document);
  parsed["diagnostics"] = diagnostics;
  return to_c14n(parsed);
}

// With --diagnostics, a failure in which a parse worker took part carries what is known of it as
// the envelope's top-level "diagnostics" (CONTRACTS §1.4); other failures are thrown unchanged.
template <typename Body>
int with_failure_diagnostics(const ParseSettings& settings, ParseRun& run, Body body) {
  try {
    return body();
  } catch (const EthosError& error) {
    if (!settings.diagnostics || run.report.failure.is_null()) throw;
    nlohmann::json envelope = nlohmann::json::parse(error.envelope());
    envelope["diagnostics"] = run.to_json();
    write_stderr(to_c14n(envelope) + "\n");
    return error.exit_code();
  }
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
      pdf_password_options()[0],
      pdf_password_options()[1],
      {"--pdfium-library", "PATH", false, {}, "libpdfium.so to use (default: $ETHOS_PDFIUM_LIBRARY_PATH, else pypdfium2's)."},
      {"--max-file-bytes", "N", false, {}, "Largest accepted PDF in bytes (default 268435456)."},
      {"--max-pages", "N", false, {}, "Most pages a PDF may have (default 5000, at most 9999)."},
      {"--max-parse-ms", "N", false, {}, "Wall-time limit of the whole parse in ms (default 120000)."},
      {"--max-memory-mib", "N", false, {}, "Resident memory limit of all parse workers together in MiB (default 2048)."},
      {"--workers", "N", false, {}, "Parse worker processes (default: by cores and page count)."},
      {"--cache-dir", "DIR", false, {}, "Parsed-document cache (default: $ETHOS_CACHE_DIR, else ~/.cache/ethos/documents)."},
      {"--no-cache", "", false, {}, "Neither read nor write the cache."},
      {"--cache-decrypted", "", false, {}, "Also cache a password-protected PDF's parse (its decrypted text; off by default)."},
      {"--diagnostics", "", false, {}, "Add runtime facts (cache, timing, workers, a worker's failure) to the output."},
      {"--quiet", "", false, {}, "Draw no progress bar (drawn on stderr only when it is a terminal)."},
  };
}

std::vector<ReadSource> read_sources(const ParsedArgs& args, const std::vector<std::string>& paths,
                                     std::string_view argument) {
  die_with_parent_if_asked();
  const ParseSettings settings = read_settings(args);
  ParseRun run;
  std::vector<ReadSource> sources;
  for (const std::string& path : paths) {
    std::string bytes = read_input_file(path, std::string(argument), settings.limits.max_file_bytes);
    // The rule and the bytes of `fingerprint`: a PDF becomes the file `doc parse` would write.
    if (named_pdf(path) || has_pdf_header(bytes)) {
      sources.push_back({parse_document(bytes, settings, run) + "\n", true});
    } else {
      sources.push_back({std::move(bytes), false});
    }
  }
  return sources;
}

int run_doc_parse(const ParsedArgs& args) {
  die_with_parent_if_asked();
  const ParseSettings settings = read_settings(args);
  ParseRun run;
  return with_failure_diagnostics(settings, run, [&] {
    const std::string bytes = read_input_file(args.positionals.at(0), "PDF", settings.limits.max_file_bytes);
    std::string document = parse_document(bytes, settings, run);

    const std::string* format = args.value("--format");
    std::string output;
    if (format != nullptr && *format == "markdown") {
      output = with_final_newline(pdf::render_markdown(document));
    } else if (format != nullptr && *format == "text") {
      output = with_final_newline(pdf::render_text(document));
    } else {
      output = (settings.diagnostics ? with_diagnostics(document, run.to_json()) : document) + "\n";
    }
    if (const std::string* out = args.value("--out")) {
      write_file_atomic(*out, output, "--out");
    } else {
      write_stdout(output);
    }
    return 0;
  });
}

int run_fingerprint(const ParsedArgs& args) {
  die_with_parent_if_asked();
  const ParseSettings settings = read_settings(args);
  ParseRun run;
  return with_failure_diagnostics(settings, run, [&] {
    const std::string& path = args.positionals.at(0);
    const std::string bytes = read_input_file(path, "DOC", settings.limits.max_file_bytes);
    // A PDF is described as the file `doc parse` would write (with its final newline), so
    // `fingerprint X.pdf` and `fingerprint` of the parsed JSON print the same bytes.
    const bool pdf = named_pdf(path) || has_pdf_header(bytes);
    const std::string document = pdf ? parse_document(bytes, settings, run) + "\n" : bytes;
    const auto source = open_source(document, R"({"grounding":"ethos-native"})");
    write_stdout(describe_source(*source) + "\n");
    return 0;
  });
}

}  // namespace ethos::cli
