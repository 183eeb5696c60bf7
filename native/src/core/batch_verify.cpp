// batch_verify.cpp - verify-batch: line splitting, per-line validation with line numbers, per-line and merged reports.
#include "core/batch_verify.hpp"

#include <exception>
#include <functional>
#include <system_error>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "core/report.hpp"
#include "core/verifier.hpp"
#include "json/sha256.hpp"

namespace ethos {
namespace {

// Below this many lines a second thread costs more than it saves.
constexpr std::size_t kParallelLines = 64;

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

std::vector<CitationSet> load_lines(const BatchRun& run, std::string_view ndjson) {
  const std::vector<std::string_view> lines = split_lines(ndjson);
  std::vector<CitationSet> sets;
  sets.reserve(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    try {
      sets.push_back(load_citations(lines[i], run.config.max_checks, run.claim_validation));
    } catch (const EthosError& error) {
      throw at_line(error, i + 1);
    }
  }
  return sets;
}

std::string report_for(const BatchRun& run, BatchVerifier& verifier, const CitationSet& set,
                       const ReportConstants& constants) {
  return write_report(run.source, set, run.config, verifier.verify(set), run.statement_subject, constants);
}

}  // namespace

std::string verify_each(const BatchRun& run, std::string_view ndjson) {
  const std::vector<CitationSet> sets = load_lines(run, ndjson);
  // Lines are independent and the source is immutable: verify them on two threads (each with a
  // verifier of its own, caches included), each writing its own slots, joined in input order.
  std::vector<std::string> reports(sets.size());
  const ReportConstants constants = report_constants(run.source, run.config);  // read by both threads
  std::exception_ptr failures[2];
  const auto work = [&](std::size_t first, std::size_t step, std::exception_ptr& failure) {
    try {
      // One verifier per thread: its caches are reused by every line the thread verifies.
      BatchVerifier verifier(run.source, run.config);
      for (std::size_t i = first; i < sets.size(); i += step) reports[i] = report_for(run, verifier, sets[i], constants);
    } catch (...) {
      failure = std::current_exception();
    }
  };
  const bool parallel = sets.size() >= kParallelLines && std::thread::hardware_concurrency() > 1;
  std::thread helper;
  if (parallel) {
    try {
      helper = std::thread(work, 1, 2, std::ref(failures[1]));
    } catch (const std::system_error&) {
      // No thread to be had: the one we are on does all the work.
    }
  }
  if (helper.joinable()) {
    work(0, 2, failures[0]);
    helper.join();
  } else {
    work(0, 1, failures[0]);
  }
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  std::size_t total = 0;
  for (const std::string& report : reports) total += report.size() + 1;
  std::string out;
  out.reserve(total);
  for (const std::string& report : reports) {
    out += report;
    out += '\n';
  }
  return out;
}

std::string verify_merged(const BatchRun& run, std::string_view ndjson) {
  std::vector<CitationSet> sets = load_lines(run, ndjson);
  CitationSet merged;
  merged.document_fingerprint = sets.front().document_fingerprint;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    // One merged report speaks for one document: every line must pin the same fingerprint.
    if (sets[i].document_fingerprint != merged.document_fingerprint) {
      throw EthosError("source_mismatch", "the inputs do not belong to the same source",
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
  return report_for(run, verifier, merged, report_constants(run.source, run.config));
}

}  // namespace ethos
