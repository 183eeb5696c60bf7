// batch_verify.cpp - verify-batch: line splitting, per-line validation with line numbers, per-line and merged reports.
#include "core/batch_verify.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <cstdint>
#include <exception>
#include <memory>
#include <system_error>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "core/report.hpp"
#include "core/verifier.hpp"
#include "core/verify_deadline.hpp"
#include "json/sha256.hpp"

namespace ethos {
namespace {

// The progress observer of verify_each on this thread (BatchProgressScope), or none.
thread_local const BatchProgress* t_batch_progress = nullptr;

// Below this many lines a second thread costs more than it saves.
constexpr std::size_t kParallelLines = 64;
// Lines are handed to the threads in blocks of this many consecutive lines: a block's reports
// are written one after another into one buffer (no string per report), and a block is small
// enough that two threads stay busy to the end whatever the mix of cheap and costly lines.
constexpr std::size_t kBlockLines = 64;

// The request lines of an NDJSON input: split at "\n"; the "\n" after the last line is optional.
std::vector<std::string_view> split_lines(std::string_view ndjson) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < ndjson.size()) {
    std::size_t end = ndjson.find('\n', start);
    if (end == std::string_view::npos) end = ndjson.size();
    lines.push_back(ndjson.substr(start, end - start));
    start = end + 1;
  }
  if (lines.empty()) throw invalid_input("list must not be empty", "$", {{"input", "citations_ndjson"}});
  return lines;
}

// The error of one line, with the line's 1-based number added to its details.
EthosError at_line(const EthosError& error, std::size_t line) {
  nlohmann::json details = error.details().is_object() ? error.details() : nlohmann::json::object();
  details["line"] = static_cast<std::int64_t>(line);
  return EthosError(error.code(), error.what(), std::move(details));
}

// The first failure of a worker: the line it happened on and what was thrown.
struct Failure {
  std::size_t line = SIZE_MAX;
  std::exception_ptr error;
};

// Runs work(worker, first, last) over lines [0, count) in blocks taken in input order by one or
// two workers (each with its own state, made by the work on its first block). A worker stops at
// its first failure (work returns it), and once a failure is known no worker takes a new block:
// blocks are taken in input order, so every line before the earliest failure is in a block
// already taken, which its worker finishes (or fails earlier in). Hence when this rethrows the
// earliest failure, every line before it has been run and the caller's first bad line is the one
// it reports. finish(worker) runs on each worker's own thread when it is done (to free its state
// there, in parallel, rather than serially after the join).
template <typename Work, typename Finish>
void run_blocks(std::size_t count, const Work& work, const Finish& finish) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  Failure failures[2];
  const VerifyDeadline* const deadline = current_deadline();  // the call's budget, on both threads
  const auto worker = [&](std::size_t id) {
    const DeadlineScope deadline_scope(deadline);
    while (!failed.load(std::memory_order_relaxed)) {
      const std::size_t first = next.fetch_add(kBlockLines);
      if (first >= count) break;
      const Failure failure = work(id, first, std::min(count, first + kBlockLines));
      if (failure.error) {
        failures[id] = failure;
        failed.store(true, std::memory_order_relaxed);
        break;
      }
    }
    finish(id);
  };
  const bool parallel = count >= kParallelLines && std::thread::hardware_concurrency() > 1;
  std::thread helper;
  if (parallel) {
    try {
      helper = std::thread(worker, 1);
    } catch (const std::system_error&) {
      // No thread to be had: the one we are on does all the work.
    }
  }
  worker(0);
  if (helper.joinable()) helper.join();
  const Failure& first = failures[0].line <= failures[1].line ? failures[0] : failures[1];
  if (first.error) std::rethrow_exception(first.error);
}

template <typename Work>
void run_blocks(std::size_t count, const Work& work) {
  run_blocks(count, work, [](std::size_t) {});
}

// Parses and validates line i into set (its storage reused); a bad line's failure carries its
// 1-based number.
Failure parse_line(simdjson::dom::parser& parser, const BatchRun& run, std::string_view line, std::size_t i,
                   CitationSet& set) {
  try {
    load_citations_into(parser, line, run.config.max_checks, run.claim_validation, set);
  } catch (const EthosError& error) {
    return Failure{i, std::make_exception_ptr(at_line(error, i + 1))};
  } catch (...) {
    return Failure{i, std::current_exception()};
  }
  return Failure{};
}

// Every line parsed and validated (on two threads for a large batch) before anything is
// verified (the merged report needs them all at once); the first bad line in input order fails
// the batch.
std::vector<CitationSet> load_lines(const BatchRun& run, std::string_view ndjson) {
  const std::vector<std::string_view> lines = split_lines(ndjson);
  std::vector<CitationSet> sets(lines.size());
  // One JSON parser per worker, reused line after line (its buffers are allocated once).
  std::unique_ptr<simdjson::dom::parser> parsers[2];
  run_blocks(lines.size(), [&](std::size_t worker, std::size_t first, std::size_t last) {
    if (!parsers[worker]) parsers[worker] = std::make_unique<simdjson::dom::parser>();
    for (std::size_t i = first; i < last; ++i) {
      Failure failure = parse_line(*parsers[worker], run, lines[i], i, sets[i]);
      if (failure.error) return failure;
    }
    return Failure{};
  });
  return sets;
}

// What one worker of verify_each_blocks reuses line after line: its JSON parser (buffers
// allocated once), its verifier (caches included), and the request being verified and its
// verdicts (overwritten by the next line's: their vectors and strings keep their capacity, so a
// line allocates and frees none of them). Kept by the document between batches (ChunkPool) under
// worker_key: the verifier reads its own copy of the config, which outlives the call's.
struct EachWorker : KeptWorker {
  explicit EachWorker(const BatchRun& run) : config(run.config), verifier(run.source, config) {}
  VerificationConfig config;  // before verifier, which refers to it
  simdjson::dom::parser parser;
  BatchVerifier verifier;
  CitationSet set;
  Verdicts verdicts;
};

// What a worker's verifier depends on besides the document: the config as parsed (its hash), the
// matching policy (chosen by the config or the call's options) and the runtime crop settings.
// Empty (nothing kept) for a config without a hash.
std::string worker_key(const VerificationConfig& config) {
  if (config.sha256.empty()) return std::string();
  std::string key;
  for (const std::string* part : {&config.sha256, &config.text_normalization, &config.policy_json,
                                  &config.policy_fingerprint, &config.crop_document_fingerprint}) {
    key += *part;
    key += '\0';
  }
  key += config.policy ? 'p' : '-';
  key += config.crop_refs ? 'c' : '-';
  return key;
}

// Where a block of reports was written: the worker's store and the block in it.
struct BlockPlace {
  std::size_t store = 0;
  BlockStore::Block block;
};

}  // namespace

BatchOutput verify_each_blocks(const BatchRun& run, std::string_view ndjson) {
  const std::vector<std::string_view> lines = split_lines(ndjson);
  // Lines are independent and the source is immutable: each worker parses a line, verifies it
  // and writes its report at once, so a request lives only while its line is handled (its memory
  // is reused, still in the cache, by the next line) and no phase waits for another. Each block's
  // reports are written straight into the worker's own store; the blocks are handed back in input
  // order (copied once by the host). A bad line fails the batch as in load_lines (run_blocks
  // reports the earliest failure, every line before it having been run); the reports of the
  // lines already verified are then dropped with the stores.
  std::vector<BlockPlace> places((lines.size() + kBlockLines - 1) / kBlockLines);
  const ReportConstants constants = report_constants(run.source, run.config, true);  // read by both workers
  // A worker comes from the document's idle workers when one was built for this config (its
  // caches already hold what earlier batches built), and goes back there when its thread is done;
  // a worker that failed is not kept (its state may be mid-request).
  const std::string key = run.output_chunks ? worker_key(run.config) : std::string();
  std::unique_ptr<EachWorker> workers[2];
  bool failed[2] = {false, false};
  std::vector<std::unique_ptr<BlockStore>> stores(2);
  const BatchProgress* progress = t_batch_progress;  // worker 0 runs on this thread and reports
  std::atomic<std::size_t> lines_done{0};
  run_blocks(lines.size(), [&](std::size_t id, std::size_t first, std::size_t last) {
    std::size_t i = first;
    try {
      if (!workers[id]) {
        if (!key.empty()) {
          std::unique_ptr<KeptWorker> kept = run.output_chunks->take_worker(key);
          // Only verify-batch gives workers back, and only EachWorkers.
          if (kept) workers[id].reset(static_cast<EachWorker*>(kept.release()));
        }
        if (!workers[id]) workers[id] = std::make_unique<EachWorker>(run);
        stores[id] = std::make_unique<BlockStore>(run.output_chunks);
      }
      EachWorker& worker = *workers[id];
      std::string& out = stores[id]->start_block();
      for (; i < last; ++i) {
        Failure failure = parse_line(worker.parser, run, lines[i], i, worker.set);
        if (failure.error) {
          failed[id] = true;
          return failure;
        }
        worker.verifier.verify(worker.set, worker.verdicts);
        append_report(out, run.source, worker.set, run.config, worker.verdicts, run.statement_subject, constants);
        out += '\n';
      }
      places[first / kBlockLines] = BlockPlace{id, stores[id]->finish_block()};
      if (progress != nullptr) {
        const std::size_t done = lines_done.fetch_add(last - first, std::memory_order_relaxed) + (last - first);
        if (id == 0) (*progress)(done, lines.size());
      }
    } catch (...) {
      failed[id] = true;
      return Failure{i, std::current_exception()};
    }
    return Failure{};
  }, [&](std::size_t id) {
    if (workers[id] && !failed[id] && !key.empty()) {
      run.output_chunks->give_back_worker(key, std::move(workers[id]));
    }
    workers[id].reset();
  });
  // Every block is written (a failure has thrown above): the stores no longer change.
  std::vector<std::string_view> blocks(places.size());
  for (std::size_t b = 0; b < places.size(); ++b) blocks[b] = stores[places[b].store]->view(places[b].block);
  return BatchOutput(std::move(blocks), std::move(stores));
}

BatchProgressScope::BatchProgressScope(const BatchProgress* progress) : previous_(t_batch_progress) {
  t_batch_progress = progress;
}

BatchProgressScope::~BatchProgressScope() { t_batch_progress = previous_; }

std::string verify_each(const BatchRun& run, std::string_view ndjson) {
  return verify_each_blocks(run, ndjson).take_string();
}

std::string verify_merged(const BatchRun& run, std::string_view ndjson) {
  std::vector<CitationSet> sets = load_lines(run, ndjson);
  CitationSet merged;
  merged.document_fingerprint = sets.front().document_fingerprint;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    // One merged report speaks for one document: every line must pin the same fingerprint.
    if (sets[i].document_fingerprint != merged.document_fingerprint) {
      throw EthosError("source_mismatch", find_error_code("source_mismatch")->default_message,
                       {{"line", static_cast<std::int64_t>(i + 1)}, {"path", "$.document_fingerprint"}});
    }
  }
  std::size_t total = 0;
  for (const CitationSet& set : sets) total += set.claims.size();
  merged.claims.reserve(total);
  for (CitationSet& set : sets) {
    for (Claim& claim : set.claims) merged.claims.push_back(std::move(claim));
  }
  // The attestation hashes the merged claims array, as it would for one request holding them.
  Sha256 digest;
  digest.update("[");
  for (std::size_t i = 0; i < merged.claims.size(); ++i) {
    if (i > 0) digest.update(",");
    digest.update(merged.claims[i].echo);
  }
  digest.update("]");
  merged.claims_sha256 = digest.hex();
  BatchVerifier verifier(run.source, run.config);
  return write_report(run.source, merged, run.config, verifier.verify(merged), run.statement_subject,
                      report_constants(run.source, run.config));
}

}  // namespace ethos
