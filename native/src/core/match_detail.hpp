// match_detail.hpp - writes `checks[].match` for stitched quotations and near misses (fragments,
// score, diff, guards; CONTRACTS §4). Plain tier matches are written by report.cpp.
#pragma once

#include "core/source.hpp"
#include "core/verifier.hpp"
#include "json/canonical_writer.hpp"

namespace ethos {

// Requires check.extras, check.located and a target text.
void write_match_detail(CanonicalWriter& out, const Source& source, const CheckResult& check);

}  // namespace ethos
