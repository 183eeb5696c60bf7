/* capi_smoke.c - calls the C ABI from C: version, error envelopes, NULL-safe frees, out params. */
#include <stdio.h>
#include <string.h>

#include "ethos.h"

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "FAILED: %s (line %d)\n", #cond, __LINE__); ++failures; } } while (0)

int main(void) {
  char *out = NULL;
  ethos_document *doc = NULL;
  int exit_code = 0;
  const char *bad = "{\"schema_version\":\"1.0.0\",\"bogus\":1}";

  CHECK(ethos_abi_version() == ETHOS_ABI_VERSION);
  CHECK(strlen(ethos_version()) > 0);

  CHECK(ethos_document_open(bad, strlen(bad), NULL, 0, &doc, &out) == ETHOS_ERROR);
  CHECK(doc == NULL);
  CHECK(out != NULL && strstr(out, "\"code\":\"invalid_input\"") != NULL);
  ethos_string_free(out);
  out = NULL;

  CHECK(ethos_document_open("{", 1, NULL, 0, &doc, &out) == ETHOS_ERROR);
  CHECK(out != NULL && strstr(out, "invalid JSON syntax") != NULL);
  ethos_string_free(out);
  out = NULL;

  CHECK(ethos_error_envelope("file_too_large", 14, NULL, 0, &out, &exit_code) == ETHOS_OK);
  CHECK(exit_code == 7);
  CHECK(out != NULL && strcmp(out, "{\"error\":{\"code\":\"file_too_large\",\"message\":\"an input file is larger than allowed: use a smaller file, or raise --max-file-bytes for a PDF\"}}") == 0);
  ethos_string_free(out);
  out = NULL;

  CHECK(ethos_config_default(&out) == ETHOS_OK);
  CHECK(out != NULL && strstr(out, "\"config_version\":\"default-v1\"") != NULL);
  ethos_string_free(out);

  /* The matcher's folding of a quote: NBSP and case forgiven by the default policy's case tier. */
  CHECK(ethos_normalize_text("A\xC2\xA0" "B", 4, "{\"tier\":\"case\"}", 15, &out) == ETHOS_OK);
  CHECK(out != NULL && strcmp(out, "{\"policy\":\"default\",\"text\":\"a b\",\"tier\":\"case\"}") == 0);
  ethos_string_free(out);
  CHECK(ethos_normalize_text("x", 1, "{\"tier\":\"loose\"}", 16, &out) == ETHOS_ERROR);
  CHECK(out != NULL && strstr(out, "invalid_input") != NULL);
  ethos_string_free(out);

  CHECK(ethos_verify(NULL, "[]", 2, NULL, 0, NULL, 0, &out) == ETHOS_ERROR);
  CHECK(out != NULL && strstr(out, "invalid_arguments") != NULL);
  ethos_string_free(out);

  ethos_string_free(NULL);
  ethos_document_free(NULL);
  if (failures == 0) printf("capi_smoke: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
