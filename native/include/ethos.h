/* ethos.h - the C ABI of the Ethos verifier core (the only interface Python and other hosts use). */
/*
 * Conventions (see docs/c-abi.md):
 *  - names are ethos_<noun>_<verb>; outputs (out_*) come last;
 *  - inputs are UTF-8 (pointer, length) pairs; the library copies what it keeps;
 *  - every call returns ETHOS_OK, ETHOS_ERROR or ETHOS_OUT_OF_MEMORY; on ETHOS_ERROR the out string
 *    holds the error envelope {"error":{"code","details","message"}} (canonical JSON);
 *  - output strings are NUL-terminated canonical JSON (or text) owned by the caller and released
 *    only with ethos_string_free; every free function accepts NULL;
 *  - an ethos_document is immutable once opened: any number of threads may verify against it.
 *
 * The block between BEGIN CDEF and END CDEF is read verbatim by the Python binding (cffi ABI
 * mode), so it must stay plain C declarations without preprocessor conditionals.
 */
#ifndef ETHOS_H
#define ETHOS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* BEGIN CDEF */
#define ETHOS_ABI_VERSION 1

#define ETHOS_OK 0
#define ETHOS_ERROR 1
#define ETHOS_OUT_OF_MEMORY 2

/* A loaded, validated and indexed grounding source. Immutable; thread-safe to share. */
typedef struct ethos_document ethos_document;

/* The ABI version this library implements; hosts refuse to run on a mismatch. */
uint32_t ethos_abi_version(void);

/* The library version as a static NUL-terminated string (never freed). */
const char *ethos_version(void);

/* Releases a string returned by any ethos_* call. Accepts NULL. */
void ethos_string_free(char *string);

/*
 * Loads a grounding source from its bytes. options_json (may be NULL/0 for defaults) is a JSON
 * object: {"grounding": ID} selects the loader (ethos-native, ethos-grounding-json,
 * opendataloader-json, docling-json, text, markdown; docs/sources.md); without it a JSON
 * object whose artifact_type is "ethos.grounding.v1" opens as Grounding JSON, anything else as a
 * native document. On success
 * *out_document receives the handle; on failure *out_error receives the envelope.
 */
int ethos_document_open(const char *source, size_t source_len, const char *options_json,
                        size_t options_len, ethos_document **out_document, char **out_error);

/* Releases a document. Accepts NULL. */
void ethos_document_free(ethos_document *document);

/*
 * Describes an open document as canonical JSON: {"document_fingerprint"?, "grounding":{parser,
 * capabilities}, "representation_sha256", "counts":{...}, "kind"}.
 */
int ethos_document_describe(const ethos_document *document, char **out_json);

/*
 * Verifies citations against the document and writes the report (canonical JSON, no trailing
 * newline). config (NULL = built-in default-v1; empty bytes are an invalid config) is a
 * verification config; options_json
 * (NULL/0 = defaults) is {"statement": bool, "subject_name": string, "claim_validation":
 * "strict"|"report"}. "Not grounded" is a successful report, never an error.
 */
int ethos_verify(const ethos_document *document, const char *citations, size_t citations_len,
                 const char *config, size_t config_len, const char *options_json,
                 size_t options_len, char **out_report);

/* Derives the proof summary (canonical JSON) from a report or a proof Statement. */
int ethos_proof_summary(const char *report, size_t report_len, char **out_json);

/* Renders the `--format summary` text (ends with a newline) of a report or Statement. */
int ethos_report_summary_text(const char *report, size_t report_len, char **out_text);

/* Renders a report or Statement for CI systems (`verify --format junit|sarif|github`; ends with a
 * newline). options_json (required): {"format": "junit"|"sarif"|"github", "citations_path"?: str,
 * "source_path"?: str}, the paths the results point at (docs/integrations.md). */
int ethos_report_ci_text(const char *report, size_t report_len, const char *options_json, size_t options_len,
                         char **out_text);

/* Renders a report or Statement as `verify --format text` prints it (ends with a newline).
 * options_json (NULL for the defaults): {"color"?: bool (default false: no escape sequences),
 * "palette"?: "classic"|"colorblind"|"neon"|"mono"}. Claims' control characters print as U+FFFD. */
int ethos_report_render_text(const char *report, size_t report_len, const char *options_json, size_t options_len,
                             char **out_text);

/*
 * The chunks of a native document JSON as chunks.jsonl (one canonical JSON object per chunk,
 * each ending with a newline), each line carrying the document and source fingerprints. The
 * document is validated exactly as ethos_document_open does.
 */
int ethos_rag_chunks(const char *document, size_t document_len, char **out_jsonl);

/* The security report (canonical JSON) of a native document JSON's security warnings. */
int ethos_security_report(const char *document, size_t document_len, char **out_json);

/* The built-in default-v1 verification config as canonical JSON. */
int ethos_config_default(char **out_json);

/*
 * A matching policy with every assumption spelled out (`explain --policy`), canonical JSON.
 * options_json (may be NULL/0 for the default policy): {"policy": preset name} or
 * {"policy_bytes_latin1": the policy file's bytes as U+0000..U+00FF scalars}.
 */
int ethos_policy_explain(const char *options_json, size_t options_len, char **out_json);

/*
 * `explain --pinned`: default-v1 with that policy (same options as ethos_policy_explain; NULL/0
 * for the default policy) written whole into matching.policy, config_version
 * "default-v1+<policy name>", canonical JSON. Passed back as a
 * config it decides exactly as a verify without a config (or with that policy) does.
 */
int ethos_config_pinned(const char *options_json, size_t options_len, char **out_json);

/*
 * A text as the matcher reads a quote under a policy (the same tier functions a claim goes
 * through, without parser artifacts): options_json (may be NULL/0) {"policy"?: preset name |
 * "policy_bytes_latin1"?: as for ethos_policy_explain, "tier"?: "exact"|"whitespace"|
 * "typography"|"case"|"skeleton"} (default: the default policy, up to its accept_up_to tier).
 * Returns canonical JSON {"policy": name, "text": the folded text, "tier": name}.
 */
int ethos_normalize_text(const char *text, size_t text_len, const char *options_json, size_t options_len,
                         char **out_json);

/*
 * Builds the error envelope for a host-side failure (file not found, argument error...) so
 * every surface prints the same bytes: code must be a known error code; details_json may be
 * NULL/0. Returns the envelope in *out_envelope and the code's exit status in *out_exit_code.
 */
int ethos_error_envelope(const char *code, size_t code_len, const char *details_json,
                         size_t details_len, char **out_envelope, int *out_exit_code);

/*
 * The app answer release decision (CONTRACTS.md §2.9, schema 1.1.0), canonical JSON. proof is a
 * proof summary, a verification report or a proof Statement; claims is the JSON array of
 * app-labelled claims; options_json is {"question": non-blank, "verification_report_ref"?,
 * "notes"?: [non-empty strings]}. Invalid input is an invalid_input envelope whose details name
 * the input ("report", "claims", "options"), the JSON path, the field and the claim id.
 */
int ethos_release_decision(const char *proof, size_t proof_len, const char *claims, size_t claims_len,
                           const char *options_json, size_t options_len, char **out_json);
/*
 * `grounding check`: validates a Grounding JSON v1 artifact and writes the
 * ethos.grounding_validation.v1 report (canonical JSON). An invalid artifact is report data
 * (structure "invalid" with one error), not a failure. options_json (may be NULL/0) is
 * {"source_artifact_sha256": "sha256:..."} to check the artifact's source binding.
 */
int ethos_grounding_check(const char *artifact, size_t artifact_len, const char *options_json,
                          size_t options_len, char **out_json);
/*
 * Binds the evidence refs of an evidence-anchor request (ethos.evidence_anchor_request.v1) to
 * the document and writes the evidence-anchor report (canonical JSON, no trailing newline).
 * options_json (NULL/0 = defaults) is {"statement": bool, "subject_name": string}. Anchors that
 * do not bind are report data; only an invalid request is an error.
 */
int ethos_anchor(const ethos_document *document, const char *request, size_t request_len,
                 const char *options_json, size_t options_len, char **out_report);
/*
 * verify-batch: verifies every line of ndjson (one citations request per line; the final newline
 * is optional) against the document in one call, with one config (as ethos_verify) and one set
 * of options: those of ethos_verify plus {"merged": bool}. Writes one report per line, in order,
 * each followed by a newline; with merged, one merged report (canonical JSON, no trailing
 * newline). Every line is validated: a bad line fails the whole call (no output), its envelope's
 * details naming the line (1-based; the first bad line in input order).
 */
int ethos_verify_batch(const ethos_document *document, const char *ndjson, size_t ndjson_len,
                       const char *config, size_t config_len, const char *options_json,
                       size_t options_len, char **out_reports);
/*
 * ethos_verify_batch that also writes the length of the reports to *out_len (may be NULL; 0 on
 * failure, where *out_reports is the usual NUL-terminated envelope): a caller copying a large
 * output need not scan it for its terminating NUL.
 */
int ethos_verify_batch_sized(const ethos_document *document, const char *ndjson, size_t ndjson_len,
                             const char *config, size_t config_len, const char *options_json,
                             size_t options_len, char **out_reports, size_t *out_len);
/*
 * A verify-batch output kept by the library until the caller copies it into memory of its own.
 * ethos_verify_batch_output verifies as ethos_verify_batch does, but writes the output to
 * *out_output and its length to *out_len (0 and NULL on failure, where *out_error holds the
 * envelope). ethos_batch_output_copy then copies the output into dest (dest_len must be that
 * length; no NUL is added) and releases the library's copy: a host that allocates its own string
 * object at that length gets hundreds of MB of reports copied once, not twice. An output is
 * copied at most once; ethos_batch_output_free (NULL-safe) releases it, copied or not.
 */
typedef struct ethos_batch_output ethos_batch_output;
int ethos_verify_batch_output(const ethos_document *document, const char *ndjson, size_t ndjson_len,
                              const char *config, size_t config_len, const char *options_json,
                              size_t options_len, ethos_batch_output **out_output, size_t *out_len,
                              char **out_error);
int ethos_batch_output_copy(ethos_batch_output *output, char *dest, size_t dest_len, char **out_error);
void ethos_batch_output_free(ethos_batch_output *output);
/*
 * Crop descriptors (ethos.crop_descriptor.v1, descriptor_only) of every check with evidence in a
 * report or Statement produced with options {"crop_refs": true} against this document, as a
 * canonical JSON array in check order. Rendering is ethos-core's (`verify --crop-source-pdf`).
 */
int ethos_crop_descriptors(const ethos_document *document, const char *report, size_t report_len,
                           char **out_json);

/*
 * The crop descriptor (canonical JSON) of a crop_element request (ethos.crop_element_request.v1)
 * under check_id (vNNNN). A request whose rendering is "rendered" is invalid here: rendering is
 * ethos-core's (`crop_element --crop-source-pdf`).
 */
int ethos_crop_element(const ethos_document *document, const char *request, size_t request_len,
                       const char *check_id, size_t check_id_len, char **out_json);

/*
 * ethos_crop_descriptors with options (NULL or a JSON object): {"crop_source_pdf_fingerprint":
 * "sha256:..."} names the PDF the crops come from, as verify was given it; a foreign source
 * without a document fingerprint takes the PDF's as its crop identity (docs/sources.md "Crops").
 */
int ethos_crop_descriptors_with_options(const ethos_document *document, const char *report, size_t report_len,
                                        const char *options_json, size_t options_len, char **out_json);
/*
 * `check-answer`: the verbatim coverage of a free-form answer against one or more documents
 * (document_count >= 1; documents[0] first on ties) and the verdicts of its quotations, as the
 * ethos.answer_check.v1 result (canonical JSON, no trailing newline; docs/answers.md). request is
 * {"answer": string, "ngram"?: 3..1000, "scope"?: "all"|"quotes", "policy"?: preset name,
 * "subsequence"?: bool (the order-only readings, summary.subsequence and summary.window)}.
 */
int ethos_check_answer(const ethos_document *const *documents, size_t document_count, const char *request,
                       size_t request_len, char **out_json);

/* The `check-answer --format text` rendering of a result (ends with a newline). */
int ethos_answer_summary_text(const char *result, size_t result_len, char **out_text);

/*
 * The highlighted `check-answer --format text` output: answer is the text the result was computed
 * for; options {"palette"?: "classic"|"colorblind"|"neon"|"mono", "color"?: bool, "part"?:
 * "all"|"words"}. Without color, part "all" is ethos_answer_summary_text's text (docs/answers.md).
 */
int ethos_answer_render_text(const char *result, size_t result_len, const char *answer, size_t answer_len,
                             const char *options, size_t options_len, char **out_text);

/*
 * The `check-answer --format html` page: one self-contained HTML document (no script, nothing
 * fetched, every text escaped) with the answer highlighted as ethos_answer_render_text does and
 * each run and quotation linked to where it is. options {"palette"?: as above, "links"?: [string
 * or null per result document: the location of its PDF, for `#page=N` links]} (docs/answers.md).
 */
int ethos_answer_render_html(const char *result, size_t result_len, const char *answer, size_t answer_len,
                             const char *options, size_t options_len, char **out_html);
/* END CDEF */

#ifdef __cplusplus
}
#endif

#endif /* ETHOS_H */
