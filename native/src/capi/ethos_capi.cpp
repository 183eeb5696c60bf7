// ethos_capi.cpp - the only extern "C" code: handle wrappers and one guard turning exceptions into envelopes.
#include "ethos.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "answer/answer_check.hpp"
#include "answer/answer_html.hpp"
#include "answer/answer_render.hpp"
#include "core/anchor_report.hpp"
#include "core/api.hpp"
#include "core/batch_verify.hpp"
#include "core/chunk_export.hpp"
#include "core/security_report.hpp"
#include "core/release_decision.hpp"
#include "core/crop_descriptor.hpp"
#include "core/source.hpp"
#include "json/strict_json.hpp"
#include "sources/grounding_json.hpp"

// The opaque handle: a shared, immutable source (threads may verify against it concurrently).
struct ethos_document {
  std::shared_ptr<const ethos::Source> source;
  // verify-batch's output chunks and idle workers kept between batches on this document
  // (core/chunk_pool.hpp); shared with outputs not yet freed, which may outlive the document.
  std::shared_ptr<ethos::ChunkPool> output_chunks = std::make_shared<ethos::ChunkPool>();
  // The pool's idle verify-batch workers refer to the source: they go with the handle (the pool
  // itself may live on, holding chunks, in outputs not yet freed).
  ~ethos_document() { output_chunks->drop_workers(); }
};

// A verify-batch output held for the caller's copy (ethos_verify_batch_output).
struct ethos_batch_output {
  ethos::BatchOutput output;
  std::size_t size = 0;
  bool copied = false;
};

namespace {

// Copies a string into malloc'ed memory owned by the caller (freed by ethos_string_free).
char* to_c_string(const std::string& text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) throw std::bad_alloc();
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  return out;
}

std::string_view view(const char* data, size_t len) {
  return data == nullptr ? std::string_view() : std::string_view(data, len);
}

// Every exported function runs its body here: no exception ever crosses the C boundary.
template <typename Body>
int guarded(char** out_error, Body body) noexcept {
  if (out_error != nullptr) *out_error = nullptr;
  try {
    body();
    return ETHOS_OK;
  } catch (const std::bad_alloc&) {
    return ETHOS_OUT_OF_MEMORY;
  } catch (const ethos::EthosError& error) {
    try {
      if (out_error != nullptr) *out_error = to_c_string(error.envelope());
      return ETHOS_ERROR;
    } catch (...) {
      return ETHOS_OUT_OF_MEMORY;
    }
  } catch (...) {
    try {
      if (out_error != nullptr) *out_error = to_c_string(ethos::EthosError("internal_error", ethos::find_error_code("internal_error")->default_message).envelope());
      return ETHOS_ERROR;
    } catch (...) {
      return ETHOS_OUT_OF_MEMORY;
    }
  }
}

ethos::EthosError null_argument(const char* name) {
  return ethos::EthosError("invalid_arguments", "a required argument is missing", {{"argument", name}});
}

}  // namespace

#define ETHOS_EXPORT extern "C" __attribute__((visibility("default")))

ETHOS_EXPORT uint32_t ethos_abi_version(void) { return ETHOS_ABI_VERSION; }

ETHOS_EXPORT const char* ethos_version(void) { return ETHOS_VERSION_STRING; }

ETHOS_EXPORT void ethos_string_free(char* string) { std::free(string); }

ETHOS_EXPORT int ethos_document_open(const char* source, size_t source_len, const char* options_json, size_t options_len,
                                     ethos_document** out_document, char** out_error) {
  if (out_document != nullptr) *out_document = nullptr;
  return guarded(out_error, [&] {
    if (out_document == nullptr) throw null_argument("out_document");
    if (source == nullptr) throw null_argument("source");
    auto handle = std::make_unique<ethos_document>();
    handle->source = ethos::open_source(view(source, source_len), view(options_json, options_len));
    *out_document = handle.release();
  });
}

ETHOS_EXPORT void ethos_document_free(ethos_document* document) { delete document; }

ETHOS_EXPORT int ethos_document_describe(const ethos_document* document, char** out_json) {
  return guarded(out_json, [&] {
    if (document == nullptr) throw null_argument("document");
    *out_json = to_c_string(ethos::describe_source(*document->source));
  });
}

ETHOS_EXPORT int ethos_verify(const ethos_document* document, const char* citations, size_t citations_len,
                              const char* config, size_t config_len, const char* options_json, size_t options_len,
                              char** out_report) {
  return guarded(out_report, [&] {
    if (document == nullptr) throw null_argument("document");
    if (citations == nullptr) throw null_argument("citations");
    // NULL config = built-in default-v1; non-NULL empty bytes are an (invalid) config.
    const std::optional<std::string_view> config_bytes =
        config == nullptr ? std::nullopt : std::optional<std::string_view>(std::string_view(config, config_len));
    *out_report = to_c_string(ethos::verify(*document->source, view(citations, citations_len), config_bytes,
                                            view(options_json, options_len)));
  });
}

ETHOS_EXPORT int ethos_proof_summary(const char* report, size_t report_len, char** out_json) {
  return guarded(out_json, [&] {
    if (report == nullptr) throw null_argument("report");
    *out_json = to_c_string(ethos::proof_summary_json(view(report, report_len)));
  });
}

ETHOS_EXPORT int ethos_report_summary_text(const char* report, size_t report_len, char** out_text) {
  return guarded(out_text, [&] {
    if (report == nullptr) throw null_argument("report");
    *out_text = to_c_string(ethos::summary_text(view(report, report_len)));
  });
}

ETHOS_EXPORT int ethos_report_ci_text(const char* report, size_t report_len, const char* options_json, size_t options_len,
                                     char** out_text) {
  return guarded(out_text, [&] {
    if (report == nullptr) throw null_argument("report");
    if (options_json == nullptr) throw null_argument("options_json");
    *out_text = to_c_string(ethos::ci_format_text(view(report, report_len), view(options_json, options_len)));
  });
}

ETHOS_EXPORT int ethos_report_render_text(const char* report, size_t report_len, const char* options_json,
                                         size_t options_len, char** out_text) {
  return guarded(out_text, [&] {
    if (report == nullptr) throw null_argument("report");
    const std::string_view options = options_json == nullptr ? std::string_view() : view(options_json, options_len);
    *out_text = to_c_string(ethos::report_text(view(report, report_len), options));
  });
}

ETHOS_EXPORT int ethos_rag_chunks(const char* document, size_t document_len, char** out_jsonl) {
  return guarded(out_jsonl, [&] {
    if (document == nullptr) throw null_argument("document");
    *out_jsonl = to_c_string(ethos::chunks_jsonl(view(document, document_len)));
  });
}

ETHOS_EXPORT int ethos_security_report(const char* document, size_t document_len, char** out_json) {
  return guarded(out_json, [&] {
    if (document == nullptr) throw null_argument("document");
    *out_json = to_c_string(ethos::security_report_json(view(document, document_len)));
  });
}

ETHOS_EXPORT int ethos_crop_descriptors(const ethos_document* document, const char* report, size_t report_len,
                                        char** out_json) {
  return guarded(out_json, [&] {
    if (document == nullptr) throw null_argument("document");
    if (report == nullptr) throw null_argument("report");
    *out_json = to_c_string(ethos::crop_descriptors_json(*document->source, view(report, report_len)));
  });
}

ETHOS_EXPORT int ethos_crop_descriptors_with_options(const ethos_document* document, const char* report,
                                                     size_t report_len, const char* options_json, size_t options_len,
                                                     char** out_json) {
  return guarded(out_json, [&] {
    if (document == nullptr) throw null_argument("document");
    if (report == nullptr) throw null_argument("report");
    *out_json = to_c_string(ethos::crop_descriptors_json(*document->source, view(report, report_len),
                                                         view(options_json, options_len)));
  });
}

ETHOS_EXPORT int ethos_crop_element(const ethos_document* document, const char* request, size_t request_len,
                                    const char* check_id, size_t check_id_len, char** out_json) {
  return guarded(out_json, [&] {
    if (document == nullptr) throw null_argument("document");
    if (request == nullptr) throw null_argument("request");
    if (check_id == nullptr) throw null_argument("check_id");
    *out_json = to_c_string(ethos::crop_element_descriptor(*document->source, view(request, request_len),
                                                           view(check_id, check_id_len)));
  });
}

ETHOS_EXPORT int ethos_config_default(char** out_json) {
  return guarded(out_json, [&] { *out_json = to_c_string(ethos::default_config_json()); });
}

ETHOS_EXPORT int ethos_policy_explain(const char* options_json, size_t options_len, char** out_json) {
  return guarded(out_json, [&] {
    *out_json = to_c_string(ethos::explain_policy(options_json == nullptr ? std::string_view() : view(options_json, options_len)));
  });
}

ETHOS_EXPORT int ethos_config_pinned(const char* options_json, size_t options_len, char** out_json) {
  return guarded(out_json, [&] {
    *out_json = to_c_string(ethos::pinned_config_json(options_json == nullptr ? std::string_view() : view(options_json, options_len)));
  });
}

ETHOS_EXPORT int ethos_normalize_text(const char* text, size_t text_len, const char* options_json, size_t options_len,
                                      char** out_json) {
  return guarded(out_json, [&] {
    if (text == nullptr && text_len != 0) throw null_argument("text");
    *out_json = to_c_string(ethos::normalize_text_json(view(text, text_len), view(options_json, options_len)));
  });
}

ETHOS_EXPORT int ethos_error_envelope(const char* code, size_t code_len, const char* details_json, size_t details_len,
                                      char** out_envelope, int* out_exit_code) {
  return guarded(out_envelope, [&] {
    if (code == nullptr) throw null_argument("code");
    const ethos::ErrorCodeInfo* info = ethos::find_error_code(view(code, code_len));
    if (info == nullptr) throw ethos::EthosError("invalid_arguments", "unknown error code", {{"argument", "code"}});
    nlohmann::json details = nlohmann::json::object();
    if (details_json != nullptr && details_len > 0) {
      details = ethos::parse_strict_dom(view(details_json, details_len), "details");
      if (!details.is_object()) throw ethos::invalid_input("expected an object", "$", {{"input", "details"}});
    }
    std::string message = ethos::error_message(*info, details);
    const ethos::EthosError error(info->code, std::move(message), std::move(details));
    *out_envelope = to_c_string(error.envelope());
    if (out_exit_code != nullptr) *out_exit_code = error.exit_code();
  });
}

ETHOS_EXPORT int ethos_release_decision(const char* proof, size_t proof_len, const char* claims, size_t claims_len,
                                        const char* options_json, size_t options_len, char** out_json) {
  return guarded(out_json, [&] {
    if (proof == nullptr) throw null_argument("proof");
    if (claims == nullptr) throw null_argument("claims");
    if (options_json == nullptr) throw null_argument("options_json");
    *out_json = to_c_string(ethos::release_decision_json(view(proof, proof_len), view(claims, claims_len),
                                                         view(options_json, options_len)));
  });
}

ETHOS_EXPORT int ethos_grounding_check(const char* artifact, size_t artifact_len, const char* options_json,
                                       size_t options_len, char** out_json) {
  return guarded(out_json, [&] {
    if (artifact == nullptr && artifact_len != 0) throw null_argument("artifact");
    *out_json = to_c_string(ethos::sources::grounding_check(view(artifact, artifact_len), view(options_json, options_len)));
  });
}

ETHOS_EXPORT int ethos_anchor(const ethos_document* document, const char* request, size_t request_len,
                              const char* options_json, size_t options_len, char** out_report) {
  return guarded(out_report, [&] {
    if (document == nullptr) throw null_argument("document");
    if (request == nullptr) throw null_argument("request");
    *out_report = to_c_string(
        ethos::anchor_evidence(*document->source, view(request, request_len), view(options_json, options_len)));
  });
}

ETHOS_EXPORT int ethos_check_answer(const ethos_document* const* documents, size_t document_count,
                                    const char* request, size_t request_len, char** out_json) {
  return guarded(out_json, [&] {
    if (documents == nullptr && document_count > 0) throw null_argument("documents");
    if (request == nullptr) throw null_argument("request");
    std::vector<const ethos::Source*> sources;
    for (size_t i = 0; i < document_count; ++i) {
      if (documents[i] == nullptr) throw null_argument("documents");
      sources.push_back(documents[i]->source.get());
    }
    *out_json = to_c_string(ethos::answer::check_answer(sources, view(request, request_len)));
  });
}

ETHOS_EXPORT int ethos_answer_summary_text(const char* result, size_t result_len, char** out_text) {
  return guarded(out_text, [&] {
    if (result == nullptr) throw null_argument("result");
    *out_text = to_c_string(ethos::answer::answer_summary_text(view(result, result_len)));
  });
}

ETHOS_EXPORT int ethos_answer_render_text(const char* result, size_t result_len, const char* answer, size_t answer_len,
                                          const char* options, size_t options_len, char** out_text) {
  return guarded(out_text, [&] {
    if (result == nullptr) throw null_argument("result");
    if (answer == nullptr) throw null_argument("answer");
    if (options == nullptr) throw null_argument("options");
    *out_text = to_c_string(
        ethos::answer::answer_render_text(view(result, result_len), view(answer, answer_len), view(options, options_len)));
  });
}

ETHOS_EXPORT int ethos_answer_render_html(const char* result, size_t result_len, const char* answer, size_t answer_len,
                                          const char* options, size_t options_len, char** out_html) {
  return guarded(out_html, [&] {
    if (result == nullptr) throw null_argument("result");
    if (answer == nullptr) throw null_argument("answer");
    if (options == nullptr) throw null_argument("options");
    *out_html = to_c_string(
        ethos::answer::answer_render_html(view(result, result_len), view(answer, answer_len), view(options, options_len)));
  });
}

namespace {

// ethos_verify_batch's body; out_len (may be NULL) receives the length of *out_reports.
int verify_batch_into(const ethos_document* document, const char* ndjson, size_t ndjson_len, const char* config,
                      size_t config_len, const char* options_json, size_t options_len, char** out_reports,
                      size_t* out_len) {
  if (out_len != nullptr) *out_len = 0;
  return guarded(out_reports, [&] {
    if (document == nullptr) throw null_argument("document");
    if (ndjson == nullptr) throw null_argument("ndjson");
    // NULL config = built-in default-v1; non-NULL empty bytes are an (invalid) config.
    const std::optional<std::string_view> config_bytes =
        config == nullptr ? std::nullopt : std::optional<std::string_view>(std::string_view(config, config_len));
    // The workers' blocks are copied once, straight into the caller's buffer (no joined copy first).
    ethos::BatchOutput output =
        ethos::verify_batch_blocks(*document->source, view(ndjson, ndjson_len), config_bytes, view(options_json, options_len),
                                   document->output_chunks);
    const std::size_t size = output.size();
    char* reports = static_cast<char*>(std::malloc(size + 1));
    if (reports == nullptr) throw std::bad_alloc();
    output.copy_into(reports);
    reports[size] = '\0';
    *out_reports = reports;
    if (out_len != nullptr) *out_len = size;
  });
}

}  // namespace

ETHOS_EXPORT int ethos_verify_batch(const ethos_document* document, const char* ndjson, size_t ndjson_len,
                                    const char* config, size_t config_len, const char* options_json, size_t options_len,
                                    char** out_reports) {
  return verify_batch_into(document, ndjson, ndjson_len, config, config_len, options_json, options_len, out_reports,
                           nullptr);
}

ETHOS_EXPORT int ethos_verify_batch_sized(const ethos_document* document, const char* ndjson, size_t ndjson_len,
                                          const char* config, size_t config_len, const char* options_json,
                                          size_t options_len, char** out_reports, size_t* out_len) {
  return verify_batch_into(document, ndjson, ndjson_len, config, config_len, options_json, options_len, out_reports,
                           out_len);
}

ETHOS_EXPORT int ethos_verify_batch_output(const ethos_document* document, const char* ndjson, size_t ndjson_len,
                                           const char* config, size_t config_len, const char* options_json,
                                           size_t options_len, ethos_batch_output** out_output, size_t* out_len,
                                           char** out_error) {
  if (out_output != nullptr) *out_output = nullptr;
  if (out_len != nullptr) *out_len = 0;
  return guarded(out_error, [&] {
    if (document == nullptr) throw null_argument("document");
    if (ndjson == nullptr) throw null_argument("ndjson");
    if (out_output == nullptr) throw null_argument("out_output");
    const std::optional<std::string_view> config_bytes =
        config == nullptr ? std::nullopt : std::optional<std::string_view>(std::string_view(config, config_len));
    auto held = std::make_unique<ethos_batch_output>();
    held->output =
        ethos::verify_batch_blocks(*document->source, view(ndjson, ndjson_len), config_bytes, view(options_json, options_len),
                                   document->output_chunks);
    held->size = held->output.size();
    if (out_len != nullptr) *out_len = held->size;
    *out_output = held.release();
  });
}

ETHOS_EXPORT int ethos_batch_output_copy(ethos_batch_output* output, char* dest, size_t dest_len, char** out_error) {
  return guarded(out_error, [&] {
    if (output == nullptr) throw null_argument("output");
    if (dest == nullptr && dest_len != 0) throw null_argument("dest");
    if (output->copied) {
      throw ethos::EthosError("invalid_arguments", "the batch output was already copied", {{"argument", "output"}});
    }
    if (dest_len != output->size) {
      throw ethos::EthosError("invalid_arguments", "dest_len is not the batch output's length", {{"argument", "dest_len"}});
    }
    output->copied = true;
    if (output->size > 0) output->output.copy_into(dest);
  });
}

ETHOS_EXPORT void ethos_batch_output_free(ethos_batch_output* output) { delete output; }
