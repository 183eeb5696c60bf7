// batch_verify.hpp - verify-batch: many citations requests (NDJSON) against one source, one config.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/batch_output.hpp"
#include "core/chunk_pool.hpp"
#include "core/citations.hpp"
#include "core/config.hpp"
#include "core/source.hpp"

namespace ethos {

// What every request of a batch shares: the source, the resolved config (policy included), the
// claim validation mode and the Statement subject (set when each report is to be wrapped).
struct BatchRun {
  const Source& source;
  const VerificationConfig& config;
  ClaimValidation claim_validation;
  std::optional<std::string> statement_subject;
  // Where the workers' output chunks come from and go back to (the document's; null: fresh ones).
  std::shared_ptr<ChunkPool> output_chunks = nullptr;
};

// Every request line is parsed and validated, and a bad line fails the whole batch (EthosError
// whose details gain "line", 1-based; the first bad line in input order; nothing is returned). A final "\n" ends the last
// line; an empty line is a request that is not JSON. An input without any line is invalid.

// One report per line, in input order, each exactly what verify gives for that line, each
// followed by "\n".
std::string verify_each(const BatchRun& run, std::string_view ndjson);
// verify_each's output as the workers' blocks, not joined.
BatchOutput verify_each_blocks(const BatchRun& run, std::string_view ndjson);

// One report for all lines: the report verify gives for a single request holding every line's
// claims in order (check ids v0001… run across the lines, so they stay unique) under the
// lines' common document_fingerprint. All lines must agree on it (the same value, or all
// without one): a line that differs is `source_mismatch` (exit 2). The config's max_checks
// limits each line, not the total. No trailing newline.
std::string verify_merged(const BatchRun& run, std::string_view ndjson);

// Progress of verify_each on the calling thread, for a command-line progress bar: called there
// with (lines done, lines) after each block of lines that thread finishes (the second thread's
// blocks are counted, not reported). Set for the scope of a call; thread-local, so a host's other
// threads are never observed, and nothing is called when unset (the library's callers).
using BatchProgress = std::function<void(std::size_t done, std::size_t total)>;
class BatchProgressScope {
 public:
  explicit BatchProgressScope(const BatchProgress* progress);
  ~BatchProgressScope();
  BatchProgressScope(const BatchProgressScope&) = delete;
  BatchProgressScope& operator=(const BatchProgressScope&) = delete;

 private:
  const BatchProgress* previous_;
};

}  // namespace ethos
