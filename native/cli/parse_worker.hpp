// parse_worker.hpp - the body of a forked parse worker: the only code that ever runs PDFium.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ethos::cli {

struct CropRenderJob;  // crop_render.hpp

struct WorkerTask {
  std::string_view pdf;                  // the PDF bytes (shared with the parent by fork)
  const std::string* password = nullptr;
  std::string library_path;              // libpdfium.so
  bool probe = false;                    // report the page count, then read pages from command_fd
  int command_fd = -1;                   // the probe's channel: encode_page_list bytes, then EOF
  std::vector<int> pages;                // 0-based pages to lay out, ascending
  std::uint64_t memory_limit_bytes = 0;  // the RLIMIT_DATA backstop is derived from it
  const CropRenderJob* render = nullptr;  // set: render these crops instead of laying pages out
  int stderr_fd = -1;                    // the worker's standard error (the parent keeps its tail); -1: /dev/null
};

// The probe's work order: a little-endian u32 count, then that many u32 0-based page indices.
std::string encode_page_list(const std::vector<int>& pages);

// Runs `task` in the current (freshly forked) process, writes frames to `out_fd` and ends the
// process with _exit: it never returns into the parent's code.
[[noreturn]] void run_worker(int out_fd, const WorkerTask& task) noexcept;

}  // namespace ethos::cli
