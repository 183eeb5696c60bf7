// stale_temps.hpp - the names of --out temp files and --crop-dir staging directories, and the removal of ones their writer left behind (killed mid-write).
#pragma once

#include <string>

namespace ethos::cli {

// The mkstemp template of an --out temp file in `directory`: ".ethos-out-<pid>-XXXXXX", the
// writer's process id in the name so a later run can tell an abandoned file from one being written.
std::string out_temp_template(const std::string& directory);

// How long an abandoned temp file is left alone (seconds since its last change): a writer in
// another PID namespace sharing the directory may have a process id that looks dead from here,
// but it is still writing (and so changing) its file.
constexpr long kStaleTempSeconds = 60;

// Removes from `directory` the temp files of our own naming (".ethos-out-<pid>-<6 to 8 chars>", regular
// files of this user) whose writer process is gone and that have not changed for
// kStaleTempSeconds: what `kill -9` during an --out write leaves. Best effort: anything it cannot
// read or remove is left, and it never fails. ethos_py/_host_io.py applies the same rule.
void remove_stale_out_temps(const std::string& directory) noexcept;

// The mkdtemp template of a --crop-dir staging directory in `directory`:
// ".ethos-crops-<pid>-XXXXXX", named like the --out temp files for the same reason.
std::string crop_staging_template(const std::string& directory);

// Removes from `directory` the staging directories of our own naming (".ethos-crops-<pid>-<6 to 8
// chars>", directories of this user) whose writer is gone and that have not changed for
// kStaleTempSeconds, with the regular files of this user in them: what `kill -9` during a
// --crop-dir write leaves. A directory holding anything else is left. Best effort, never fails.
void remove_stale_crop_staging(const std::string& directory) noexcept;

}  // namespace ethos::cli
