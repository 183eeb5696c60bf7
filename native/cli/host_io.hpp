// host_io.hpp - the CLI's side of the operating system: size-limited reads, atomic writes, streams.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace ethos::cli {

// CONTRACTS.md §1.4: any input file above 256 MiB is file_too_large (checked before reading).
constexpr std::uint64_t kMaxInputBytes = 256ULL * 1024ULL * 1024ULL;

// An error found by the CLI itself. The message is the code's fixed default template, exactly what
// ethos_error_envelope() uses, so the Python CLI prints the same bytes for the same failure.
EthosError host_error(const std::string& code, nlohmann::json details = nlohmann::json::object());

// How long a named pipe (FIFO) given as an input may take to get a writer that writes or closes
// it: past it the input is host_io with reason no_writer (ethos_py's FIFO_WRITER_WAIT_MS is the same).
constexpr int kFifoWriterWaitMs = 5000;

// Reads a whole input file named on the command line. `argument` is how the user named it
// (SOURCE, --citations, ...) and goes into the error details. Throws host_io / file_too_large.
std::string read_input_file(const std::string& path, const std::string& argument);
// The same with a configured limit (doc parse --max-file-bytes) instead of kMaxInputBytes.
std::string read_input_file(const std::string& path, const std::string& argument, std::uint64_t max_bytes);

// Replaces `path` with `bytes` atomically (temp file in the same directory, fsync, rename). On
// failure no temp file is left and an existing file is untouched. Throws host_io.
void write_file_atomic(const std::string& path, std::string_view bytes, const std::string& argument);

// Writes all of `bytes` to stdout; a failed write (closed pipe, full disk) throws internal_error.
void write_stdout(std::string_view bytes);

// Best effort: stderr is the last channel we have, so there is nowhere to report its failure.
void write_stderr(std::string_view bytes) noexcept;

}  // namespace ethos::cli
