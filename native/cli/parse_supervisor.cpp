// parse_supervisor.cpp - fork, poll, enforce limits, reap: the parent side of a parse.
#include "parse_supervisor.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <map>
#include <optional>

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "host_io.hpp"
#include "parse_frames.hpp"
#include "parse_worker.hpp"
#include "process_memory.hpp"

namespace ethos::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kPagesPerWorker = 16;
constexpr int kPollIntervalMs = 5;  // how often worker RSS is sampled
// A worker killed by the kernel (or aborting in an allocator) with a peak RSS this close to the
// limit died of memory, not of a bug.
constexpr double kNearLimitFraction = 0.9;

struct Worker {
  pid_t pid = -1;
  int fd = -1;
  FrameReader reader;
  bool eof = false;
  int command_fd = -1;  // the probe's channel for its page run, until it is sent
  bool reaped = false;
  bool judged = false;  // its end has been examined
  int status = 0;
  long max_rss_kib = 0;
  int stderr_fd = -1;       // the read end of the worker's stderr, until EOF
  std::string stderr_tail;  // the last kStderrTailBytes it wrote
};

// How much of a worker's stderr is kept: a sanitizer's report of one error, an abort message.
constexpr std::size_t kStderrTailBytes = 8192;

// A worker's stderr as JSON text: bytes outside printable ASCII (and tab and newline) become "?",
// so the text is valid UTF-8 whatever the worker wrote.
std::string printable(const std::string& bytes) {
  std::string text = bytes;
  for (char& c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (!((byte >= 0x20 && byte < 0x7F) || byte == '\n' || byte == '\t')) c = '?';
  }
  return text;
}

class Supervisor {
 public:
  Supervisor(const ParseJob& job, Clock::time_point deadline)
      : job_(job), deadline_(deadline), memory_limit_(job.limits.max_memory_mib << 20) {}
  ~Supervisor() { kill_all(); }
  Supervisor(const Supervisor&) = delete;
  Supervisor& operator=(const Supervisor&) = delete;

  // Forks a worker for `task`. With `commanded`, the worker also gets a channel on which it
  // receives more work later (the probe, which goes on to parse the first run of pages).
  void spawn(const WorkerTask& task, bool commanded = false);

  // Hands the commanded worker `pages` (possibly none: it then just exits) and closes its channel.
  void command(std::size_t index, const std::vector<int>& pages) {
    Worker& worker = workers_.at(index);
    if (worker.command_fd < 0) return;
    std::string message = encode_page_list(pages);
    // A worker that has already died is noticed by the reaping loop; the send may simply fail.
    const char* p = message.data();
    std::size_t left = message.size();
    while (left > 0) {
      ssize_t n = ::send(worker.command_fd, p, left, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    ::close(worker.command_fd);
    worker.command_fd = -1;
  }

  bool failed() const { return error_.has_value(); }

  // Polls output, reaps and enforces the limits until `done()` or until every worker has ended;
  // frames go to on_frame. Raises the recorded worker failure, if any, at the end.
  template <typename OnFrame, typename Done>
  void pump(OnFrame on_frame, Done done) {
    while (!done() &&
           std::any_of(workers_.begin(), workers_.end(), [](const Worker& w) { return !w.eof || !w.reaped; })) {
      const auto now = Clock::now();
      if (now >= deadline_) {
        note_failure({{"limit", "max_parse_ms"}});
        fail(host_error("parse_timeout", {{"max_parse_ms", job_.limits.max_parse_ms}}));
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now).count();
      wait_for_output(static_cast<int>(std::min<long long>(kPollIntervalMs, left + 1)), on_frame);
      reap();
      check_memory();
    }
    if (error_) fail(*error_);
  }

 private:
  template <typename OnFrame>
  void wait_for_output(int timeout_ms, OnFrame& on_frame) {
    std::vector<pollfd> polls;
    std::vector<std::size_t> owners;
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      if (workers_[i].stderr_fd >= 0) {
        // Read while the worker runs, so a worker writing much to stderr never blocks on the pipe.
        polls.push_back(pollfd{workers_[i].stderr_fd, POLLIN, 0});
        owners.push_back(i);
      }
      if (workers_[i].eof) continue;
      polls.push_back(pollfd{workers_[i].fd, POLLIN, 0});
      owners.push_back(i);
    }
    if (polls.empty()) {
      // Only reaping is left (the workers are exiting); sleep briefly instead of spinning.
      ::poll(nullptr, 0, 1);
      return;
    }
    int ready = ::poll(polls.data(), polls.size(), std::max(0, timeout_ms));
    if (ready <= 0) return;
    for (std::size_t k = 0; k < polls.size(); ++k) {
      if (polls[k].revents == 0) continue;
      if (polls[k].fd == workers_[owners[k]].stderr_fd) {
        drain_stderr(workers_[owners[k]]);
      } else {
        drain(owners[k], on_frame);
      }
    }
  }

  // Reads what the worker's stderr holds now, keeping the tail; closes it at EOF.
  static void drain_stderr(Worker& worker) {
    char buffer[4096];
    while (worker.stderr_fd >= 0) {
      const ssize_t n = ::read(worker.stderr_fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (n <= 0) {
        ::close(worker.stderr_fd);
        worker.stderr_fd = -1;
        break;
      }
      worker.stderr_tail.append(buffer, static_cast<std::size_t>(n));
      if (worker.stderr_tail.size() > kStderrTailBytes) {
        worker.stderr_tail.erase(0, worker.stderr_tail.size() - kStderrTailBytes);
      }
    }
  }

  template <typename OnFrame>
  void drain(std::size_t index, OnFrame& on_frame) {
    Worker& worker = workers_[index];
    char buffer[1 << 16];
    while (true) {
      ssize_t n = ::read(worker.fd, buffer, sizeof buffer);
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) break;
        n = 0;  // a broken pipe ends the stream like EOF
      }
      if (n == 0) {
        worker.eof = true;
        ::close(worker.fd);
        worker.fd = -1;
        break;
      }
      worker.reader.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
      Frame frame;
      while (worker.reader.next(frame)) {
        if (frame.type == FrameType::kError) {
          record_error(index, worker_error(frame.payload));
        } else {
          on_frame(frame);
        }
      }
      if (worker.reader.broken()) {
        // Nothing after a malformed frame can be trusted: stop listening and stop the worker.
        record_error(index, host_error("internal_error"));
        kill_group(worker.pid);
        ::close(worker.fd);
        worker.fd = -1;
        worker.eof = true;
        break;
      }
    }
  }

  // The worker's own envelope, rebuilt; an unknown code or a malformed body is our bug.
  static EthosError worker_error(const std::string& payload) {
    const nlohmann::json body = nlohmann::json::parse(payload, nullptr, false);
    if (!body.is_object() || !body.contains("code") || !body["code"].is_string() || !body.contains("message") ||
        !body["message"].is_string() || find_error_code(body["code"].get<std::string>()) == nullptr) {
      return host_error("internal_error");
    }
    nlohmann::json details = body.value("details", nlohmann::json::object());
    return EthosError(body["code"].get<std::string>(), body["message"].get<std::string>(),
                      details.is_object() ? details : nlohmann::json::object());
  }

  void reap() {
    for (std::size_t index = 0; index < workers_.size(); ++index) {
      Worker& worker = workers_[index];
      if (worker.reaped) continue;
      int status = 0;
      struct rusage usage {};
      pid_t got = ::wait4(worker.pid, &status, WNOHANG, &usage);
      if (got != worker.pid) continue;
      worker.reaped = true;
      worker.status = status;
      worker.max_rss_kib = usage.ru_maxrss;
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) continue;
    }
    // Judged once a worker is both reaped and drained, so an error frame it managed to send
    // explains its death before the death itself does.
    for (std::size_t index = 0; index < workers_.size(); ++index) {
      Worker& worker = workers_[index];
      if (!worker.reaped || !worker.eof || worker.judged) continue;
      worker.judged = true;
      if (!(WIFEXITED(worker.status) && WEXITSTATUS(worker.status) == 0)) {
        nlohmann::json death{{"worker", index}, {"max_rss_kib", worker.max_rss_kib}};
        if (WIFSIGNALED(worker.status)) death["signal"] = WTERMSIG(worker.status);
        if (WIFEXITED(worker.status)) death["exit_status"] = WEXITSTATUS(worker.status);
        drain_stderr(worker);  // what it wrote as it died is in the pipe now
        if (!worker.stderr_tail.empty()) death["stderr"] = printable(worker.stderr_tail);
        record_error(index, death_error(worker), std::move(death));
      } else if (!worker.reader.idle()) {
        record_error(index, host_error("internal_error"));
      }
    }
  }

  // Workers hold ascending page runs, so the failure of the lowest-numbered failing worker is the
  // failure at the lowest page: the one a single worker would have met first. Workers after it
  // are stopped, workers before it run on (they may still fail earlier), and the error is raised
  // once all have ended, so the reported error does not depend on the worker count or timing.
  void record_error(std::size_t index, EthosError error, nlohmann::json facts = nlohmann::json::object()) {
    if (error_ && error_worker_ <= index) return;
    if (!facts.contains("worker")) facts["worker"] = index;
    note_failure(std::move(facts));
    error_ = std::move(error);
    error_worker_ = index;
    for (std::size_t later = index + 1; later < workers_.size(); ++later) {
      if (!workers_[later].reaped) kill_group(workers_[later].pid);
    }
  }

  EthosError death_error(const Worker& worker) const {
    const double peak = static_cast<double>(worker.max_rss_kib) * 1024.0;
    if (peak >= kNearLimitFraction * static_cast<double>(memory_limit_)) {
      return host_error("memory_limit_exceeded", {{"max_memory_mib", job_.limits.max_memory_mib}});
    }
    return host_error("internal_error");
  }

  // The limit is on the workers' resident memory together, not on each: N workers under a
  // per-worker limit could hold N times what the user allowed (issue 24 defect 10).
  void check_memory() {
    std::uint64_t total = 0;
    for (const Worker& worker : workers_) {
      if (worker.reaped) continue;
      if (std::optional<std::uint64_t> rss = resident_bytes(worker.pid)) total += *rss;
    }
    if (total > memory_limit_) {
      note_failure({{"limit", "max_memory_mib"}, {"rss_bytes", total}});
      fail(host_error("memory_limit_exceeded", {{"max_memory_mib", job_.limits.max_memory_mib}}));
    }
  }

  void note_failure(nlohmann::json facts) {
    if (job_.report != nullptr) job_.report->failure = std::move(facts);
  }

  static void kill_group(pid_t pid) noexcept {
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);  // in case it had not yet entered its own group
  }

  // Kills every worker's group and reaps it: nothing outlives a failed parse.
  void kill_all() noexcept {
    for (Worker& worker : workers_) {
      if (!worker.reaped) {
        kill_group(worker.pid);
        int status = 0;
        while (::waitpid(worker.pid, &status, 0) < 0 && errno == EINTR) {
        }
        worker.reaped = true;
      }
      if (worker.fd >= 0) {
        ::close(worker.fd);
        worker.fd = -1;
        worker.eof = true;
      }
      if (worker.command_fd >= 0) {
        ::close(worker.command_fd);
        worker.command_fd = -1;
      }
      if (worker.stderr_fd >= 0) {
        ::close(worker.stderr_fd);
        worker.stderr_fd = -1;
      }
    }
  }

  [[noreturn]] void fail(EthosError error) {
    kill_all();
    throw error;
  }

  const ParseJob& job_;
  Clock::time_point deadline_;
  std::uint64_t memory_limit_;
  std::vector<Worker> workers_;
  std::optional<EthosError> error_;  // the failure of the lowest-numbered failing worker
  std::size_t error_worker_ = 0;
};

void Supervisor::spawn(const WorkerTask& task, bool commanded) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) fail(host_error("internal_error"));
  int channel[2] = {-1, -1};
  int errors[2] = {-1, -1};
  const auto close_all = [&] {
    for (int fd : {fds[0], fds[1], channel[0], channel[1], errors[0], errors[1]}) {
      if (fd >= 0) ::close(fd);
    }
  };
  if ((commanded && ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, channel) != 0) ||
      ::pipe2(errors, O_CLOEXEC) != 0) {
    close_all();
    fail(host_error("internal_error"));
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    close_all();
    fail(host_error("internal_error"));
  }
  if (pid == 0) {
    ::close(fds[0]);
    ::close(errors[0]);
    if (channel[0] >= 0) ::close(channel[0]);
    // Its own process group, so a kill reaches anything it might start.
    ::setpgid(0, 0);
    WorkerTask own = task;
    own.command_fd = channel[1];
    own.stderr_fd = errors[1];
    run_worker(fds[1], own);
  }
  ::setpgid(pid, pid);  // also from this side: no window where a kill misses the group
  ::close(fds[1]);
  ::close(errors[1]);
  if (channel[1] >= 0) ::close(channel[1]);
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  ::fcntl(errors[0], F_SETFL, ::fcntl(errors[0], F_GETFL) | O_NONBLOCK);
  Worker worker;
  worker.pid = pid;
  worker.fd = fds[0];
  worker.command_fd = channel[0];
  worker.stderr_fd = errors[0];
  workers_.push_back(std::move(worker));
}

int available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<int>(online) : 1;
}

}  // namespace

void die_with_parent_if_asked() {
  const char* text = std::getenv("ETHOS_PARENT_PID");
  if (text == nullptr || *text == '\0') return;
  char* end = nullptr;
  const long parent = std::strtol(text, &end, 10);
  // Only the parent that asked: a variable inherited further down (a shell started from ethos,
  // say) names a grandparent and is ignored.
  if (*end != '\0' || parent <= 1 || parent != static_cast<long>(::getppid())) return;
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  // The parent may have died before prctl: then the signal was missed, so act on it now.
  if (static_cast<long>(::getppid()) != parent) ::raise(SIGTERM);
}

int worker_count(int requested, std::size_t pages, int cores) {
  if (pages == 0) return 0;
  std::size_t count = requested > 0 ? static_cast<std::size_t>(requested)
                                    : std::min<std::size_t>(static_cast<std::size_t>(std::max(1, cores)),
                                                            (pages + kPagesPerWorker - 1) / kPagesPerWorker);
  return static_cast<int>(std::clamp<std::size_t>(count, 1, pages));
}

std::vector<std::vector<int>> split_pages(const std::vector<int>& pages, int workers) {
  std::vector<std::vector<int>> runs;
  if (workers <= 0) return runs;
  const std::size_t n = static_cast<std::size_t>(workers);
  std::size_t begin = 0;
  for (std::size_t w = 0; w < n; ++w) {
    const std::size_t size = pages.size() / n + (w < pages.size() % n ? 1 : 0);
    runs.emplace_back(pages.begin() + static_cast<std::ptrdiff_t>(begin),
                      pages.begin() + static_cast<std::ptrdiff_t>(begin + size));
    begin += size;
  }
  return runs;
}

std::vector<std::string> supervise_parse(const ParseJob& job) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(job.limits.max_parse_ms);
  Supervisor supervisor(job, deadline);

  WorkerTask base;
  base.pdf = job.pdf;
  base.password = job.password;
  base.library_path = job.library_path;
  base.memory_limit_bytes = job.limits.max_memory_mib << 20;
  base.render = job.render;

  // Phase 1: a probe learns the page count (and meets every load error) before pages are split.
  // It then stays on as the first worker, so a small document loads PDFium only once.
  std::optional<std::int64_t> page_count;
  std::map<int, std::string> layouts;
  std::size_t selected = 0;  // known after the probe
  auto collect = [&](const Frame& frame) {
    if (frame.type == FrameType::kPageCount) page_count = frame.page;
    if (frame.type == FrameType::kPage) {
      layouts[static_cast<int>(frame.page)] = frame.payload;
      if (job.on_progress && selected > 0) job.on_progress(layouts.size(), selected);
    }
  };
  WorkerTask probe = base;
  probe.probe = true;
  supervisor.spawn(probe, /*commanded=*/true);
  supervisor.pump(collect, [&] { return page_count.has_value() || supervisor.failed(); });
  if (!page_count) throw host_error("internal_error");
  if (job.report != nullptr) job.report->page_count = *page_count;
  if (*page_count > job.limits.max_pages) {
    throw host_error("page_limit_exceeded", {{"max_pages", job.limits.max_pages}});
  }
  // A PDF without pages has nothing to parse; it is not a scan that OCR would help (ocr_required).
  if (*page_count == 0) throw host_error("corrupt_pdf", {{"reason", "no_pages"}});
  const std::vector<int> pages = job.selection.resolve(*page_count);
  selected = pages.size();
  if (job.on_progress && selected > 0) job.on_progress(0, selected);

  // Phase 2: contiguous page runs across the workers; results are keyed by page, so the order in
  // which workers finish never shows in the output.
  const int workers = worker_count(job.limits.workers, pages.size(), available_cores());
  std::vector<std::vector<int>> runs = split_pages(pages, workers);
  if (job.report != nullptr) job.report->workers = workers;
  supervisor.command(0, runs.empty() ? std::vector<int>{} : runs[0]);
  for (std::size_t k = 1; k < runs.size(); ++k) {
    WorkerTask task = base;
    task.pages = std::move(runs[k]);
    supervisor.spawn(task);
  }
  supervisor.pump(collect, [] { return false; });
  if (layouts.size() != pages.size()) throw host_error("internal_error");
  std::vector<std::string> ordered;
  ordered.reserve(layouts.size());
  for (int page : pages) {
    auto it = layouts.find(page);
    if (it == layouts.end()) throw host_error("internal_error");
    ordered.push_back(std::move(it->second));
  }
  return ordered;
}

}  // namespace ethos::cli
