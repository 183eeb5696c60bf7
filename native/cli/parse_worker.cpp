// parse_worker.cpp - a parse worker: limits itself, loads PDFium and the PDF, then streams one
// frame per page (extraction + layout) or one error frame back to the supervisor.
#include "parse_worker.hpp"

#include <cerrno>
#include <csignal>
#include <new>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "crop_render.hpp"
#include "json/c14n.hpp"
#include "parse_frames.hpp"
#include "pdf/layout.hpp"
#include "pdf/layout_model.hpp"
#include "pdf/pdfium_document.hpp"
#include "pdf/pdfium_extract.hpp"
#include "pdf/pdfium_library.hpp"

namespace ethos::cli {
namespace {

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool send(int fd, FrameType type, std::uint32_t page, std::string_view payload) {
  return write_all(fd, encode_frame_header(type, page, payload.size())) && write_all(fd, payload);
}

bool send_error(int fd, const EthosError& error) {
  nlohmann::json body{{"code", error.code()}, {"message", std::string(error.what())}, {"details", error.details()}};
  return send(fd, FrameType::kError, 0, to_c14n(body));
}

// The kernel-enforced backstop behind the supervisor's RSS polling: allocations far beyond the
// limit fail in the worker even if they happen between two polls. It is set above the limit
// because it counts address space PDFium maps but never touches.
// The parent's stdout carries the document and its stderr exactly one envelope; nothing PDFium
// might print may reach either. So the worker's stdin and stdout are /dev/null, and its stderr is
// the pipe the parent reads (`stderr_fd`; a sanitizer's report or an abort message of a worker
// that dies is kept as the tail of it, in --diagnostics), or /dev/null without one.
void redirect_stdio(int stderr_fd) {
  const int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0) ::_exit(1);
  for (int fd : {STDIN_FILENO, STDOUT_FILENO}) ::dup2(null_fd, fd);
  ::dup2(stderr_fd >= 0 ? stderr_fd : null_fd, STDERR_FILENO);
  ::close(null_fd);
  if (stderr_fd > STDERR_FILENO) ::close(stderr_fd);
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

void limit_self(std::uint64_t memory_limit_bytes) {
  // Die with the supervisor: an orphaned worker must not keep parsing.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) ::_exit(1);
  // AddressSanitizer maps terabytes of shadow memory before main(); under RLIMIT_DATA every later
  // mapping would then fail, so sanitizer builds rely on the supervisor's RSS polling alone.
  if (memory_limit_bytes > 0 && !kAddressSanitizer) {
    const rlim_t backstop = static_cast<rlim_t>(memory_limit_bytes) * 2 + (rlim_t{256} << 20);
    struct rlimit limit {backstop, backstop};
    ::setrlimit(RLIMIT_DATA, &limit);
  }
}

bool read_all(int fd, char* out, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::read(fd, out, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

std::uint32_t read_u32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

// Blocks until the supervisor sends this probe its pages; a closed channel means none.
std::vector<int> receive_pages(int command_fd, int page_count) {
  std::vector<int> pages;
  unsigned char header[4];
  if (!read_all(command_fd, reinterpret_cast<char*>(header), sizeof header)) return pages;
  const std::uint32_t count = read_u32(header);
  if (count > static_cast<std::uint32_t>(page_count)) return pages;  // never more than exist
  std::string body(std::size_t{count} * 4, '\0');
  if (!read_all(command_fd, body.data(), body.size())) return pages;
  pages.reserve(count);
  for (std::uint32_t k = 0; k < count; ++k) {
    pages.push_back(static_cast<int>(read_u32(reinterpret_cast<const unsigned char*>(body.data()) + 4 * k)));
  }
  return pages;
}

void work(int fd, const WorkerTask& task) {
  const pdf::pdfium::Api& api = pdf::load_pdfium(task.library_path);
  pdf::PdfiumDocument document(api, task.pdf, task.password);
  std::vector<int> received;
  if (task.probe) {
    if (!send(fd, FrameType::kPageCount, static_cast<std::uint32_t>(document.page_count()), {})) return;
    if (task.command_fd < 0) return;
    received = receive_pages(task.command_fd, document.page_count());
    ::close(task.command_fd);
  }
  for (int page : task.probe ? received : task.pages) {
    const std::string encoded = task.render != nullptr
                                    ? render_page_crops(api, document.handle(), page, *task.render)
                                    : pdf::encode_page_layout(pdf::layout_page(pdf::extract_page(api, document.handle(), page)));
    if (!send(fd, FrameType::kPage, static_cast<std::uint32_t>(page), encoded)) return;
  }
}

}  // namespace

std::string encode_page_list(const std::vector<int>& pages) {
  std::string out;
  out.reserve(4 + 4 * pages.size());
  auto put = [&out](std::uint32_t v) {
    for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
  };
  put(static_cast<std::uint32_t>(pages.size()));
  for (int page : pages) put(static_cast<std::uint32_t>(page));
  return out;
}

void run_worker(int out_fd, const WorkerTask& task) noexcept {
  // A parent started with a closed standard stream may have been given the pipe as fd 0-2; move
  // it out of the way before those are replaced.
  if (out_fd <= STDERR_FILENO) out_fd = ::fcntl(out_fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  if (out_fd < 0) ::_exit(1);
  int stderr_fd = task.stderr_fd;
  if (stderr_fd >= 0 && stderr_fd <= STDERR_FILENO) stderr_fd = ::fcntl(stderr_fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  redirect_stdio(stderr_fd);
  limit_self(task.memory_limit_bytes);
  int status = 0;
  try {
    work(out_fd, task);
  } catch (const EthosError& error) {
    status = send_error(out_fd, error) ? 0 : 1;
  } catch (const std::bad_alloc&) {
    status = send_error(out_fd, EthosError("memory_limit_exceeded", find_error_code("memory_limit_exceeded")->default_message)) ? 0 : 1;
  } catch (...) {
    status = 1;  // the supervisor reports a worker that ends without its pages as internal_error
  }
  ::close(out_fd);
  // _exit: the parent's atexit handlers and static destructors belong to the parent.
  ::_exit(status);
}

}  // namespace ethos::cli
