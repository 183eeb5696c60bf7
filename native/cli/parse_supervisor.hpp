// parse_supervisor.hpp - runs a parse in forked worker processes under wall-time and real-memory
// limits, and collects their page layouts in page order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "pages_spec.hpp"

namespace ethos::cli {

// CONTRACTS §1.6 defaults; every one is a flag of `doc parse`.
struct ParseLimits {
  std::uint64_t max_file_bytes = 256ULL << 20;
  std::int64_t max_pages = 5000;
  std::int64_t max_parse_ms = 120000;
  std::uint64_t max_memory_mib = 2048;  // all workers together (each also has a 2x + 256 MiB data-segment backstop)
  int workers = 0;                      // 0 = automatic
};

// What happened during a parse, for --diagnostics (runtime facts; never hashed or cached).
struct ParseReport {
  std::int64_t page_count = -1;   // from the probe
  int workers = 0;                // processes that parsed pages
  nlohmann::json failure;         // set when a worker failed or was killed: what is known of it
};

struct CropRenderJob;  // crop_render.hpp

struct ParseJob {
  std::string_view pdf;
  const std::string* password = nullptr;
  std::string library_path;
  PageSelection selection;
  ParseLimits limits;
  ParseReport* report = nullptr;  // filled when given
  // Set: the workers render these crops instead of laying pages out, and each page's result is
  // its PNGs (crop_render.hpp) — the same processes and limits serve both.
  const CropRenderJob* render = nullptr;
  // Called with (pages done, pages selected) once the selection is known and after each page.
  std::function<void(std::size_t, std::size_t)> on_progress;
};

// Workers for `pages` selected pages: `requested` when positive, else min(available cores,
// ceil(pages / 16)); never more than the pages, at least 1.
int worker_count(int requested, std::size_t pages, int available_cores);

// Splits `pages` into `workers` contiguous runs whose sizes differ by at most one.
std::vector<std::vector<int>> split_pages(const std::vector<int>& pages, int workers);

// Forks a probe (page count, load errors), then the workers; returns the encoded page layouts in
// ascending page order. Throws the workers' errors (corrupt_pdf, password_protected, ...),
// page_limit_exceeded, invalid_arguments (--pages beyond the document), parse_timeout,
// memory_limit_exceeded, or internal_error for a worker that died without a result.
std::vector<std::string> supervise_parse(const ParseJob& job);

// With $ETHOS_PARENT_PID naming this process's parent (the ethos command sets it), this process
// is sent SIGTERM when that parent dies, so killing `ethos doc parse` ends ethos-core too (and
// with it its workers, which die with it). Without the variable nothing changes: an ethos-core
// started from a shell outlives that shell as any program does.
void die_with_parent_if_asked();

}  // namespace ethos::cli
