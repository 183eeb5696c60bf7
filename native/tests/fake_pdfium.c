/* fake_pdfium.c - a stand-in libpdfium.so for testing the parse supervisor without PDFs: the
 * "PDF" bytes name a behaviour ("%PDF-fake sleep", "crash", "grow", "error N", "pages N") that
 * provokes each failure the supervisor must turn into its stable error code. Functions the
 * supervisor never reaches in these scenarios exist only so every symbol resolves. */
#define _DEFAULT_SOURCE 1 /* usleep */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static unsigned long last_error = 0;
static int page_count = 1;
static char document_handle;

EXPORT void FPDF_InitLibraryWithConfig(const void* config) { (void)config; }
EXPORT unsigned long FPDF_GetLastError(void) { return last_error; }

EXPORT void* FPDF_LoadMemDocument64(const void* data, size_t size, const char* password) {
  (void)password;
  char text[64] = {0};
  memcpy(text, data, size < sizeof text - 1 ? size : sizeof text - 1);
  const char* command = text + strlen("%PDF-fake ");
  if (strncmp(text, "%PDF-fake ", 10) != 0) {
    last_error = 3;
    return NULL;
  }
  if (strncmp(command, "sleep", 5) == 0) {
    for (;;) pause();
  }
  if (strncmp(command, "crash", 5) == 0) abort();
  if (strncmp(command, "grow", 4) == 0) {
    /* Touch memory steadily, as a runaway parse would, until the supervisor kills us. */
    for (;;) {
      char* block = malloc(1 << 20);
      if (block == NULL) abort();
      memset(block, 1, 1 << 20);
      usleep(1000);
    }
  }
  if (strncmp(command, "error ", 6) == 0) {
    last_error = strtoul(command + 6, NULL, 10);
    return NULL;
  }
  if (strncmp(command, "pages ", 6) == 0) page_count = atoi(command + 6);
  return &document_handle;
}

EXPORT void FPDF_CloseDocument(void* document) { (void)document; }
EXPORT int FPDF_GetPageCount(void* document) {
  (void)document;
  return page_count;
}
/* No page ever loads: a worker asked for pages reports corrupt_pdf. */
EXPORT void* FPDF_LoadPage(void* document, int index) {
  (void)document;
  (void)index;
  return NULL;
}

#define UNUSED_SYMBOL(name) \
  EXPORT void name(void) {}
UNUSED_SYMBOL(FPDF_ClosePage)
UNUSED_SYMBOL(FPDF_GetPageWidthF)
UNUSED_SYMBOL(FPDF_GetPageHeightF)
UNUSED_SYMBOL(FPDF_GetPageBoundingBox)
UNUSED_SYMBOL(FPDFPage_GetRotation)
UNUSED_SYMBOL(FPDF_GetPageLabel)
UNUSED_SYMBOL(FPDFText_LoadPage)
UNUSED_SYMBOL(FPDFText_ClosePage)
UNUSED_SYMBOL(FPDFText_CountChars)
UNUSED_SYMBOL(FPDFText_GetUnicode)
UNUSED_SYMBOL(FPDFText_GetCharBox)
UNUSED_SYMBOL(FPDFText_GetLooseCharBox)
UNUSED_SYMBOL(FPDFText_GetCharOrigin)
UNUSED_SYMBOL(FPDFText_GetFontSize)
UNUSED_SYMBOL(FPDFText_GetMatrix)
UNUSED_SYMBOL(FPDFText_GetCharAngle)
UNUSED_SYMBOL(FPDFText_IsGenerated)
UNUSED_SYMBOL(FPDFText_IsHyphen)
UNUSED_SYMBOL(FPDFText_HasUnicodeMapError)
UNUSED_SYMBOL(FPDFText_GetTextObject)
UNUSED_SYMBOL(FPDFTextObj_GetTextRenderMode)
UNUSED_SYMBOL(FPDFTextObj_GetFont)
UNUSED_SYMBOL(FPDFFont_GetBaseFontName)
UNUSED_SYMBOL(FPDFFont_GetIsEmbedded)
UNUSED_SYMBOL(FPDFFont_GetFlags)
UNUSED_SYMBOL(FPDFFont_GetWeight)
UNUSED_SYMBOL(FPDFPage_CountObjects)
UNUSED_SYMBOL(FPDFPage_GetObject)
UNUSED_SYMBOL(FPDFPageObj_GetType)
UNUSED_SYMBOL(FPDFPageObj_GetBounds)
UNUSED_SYMBOL(FPDFPageObj_GetMatrix)
UNUSED_SYMBOL(FPDFPageObj_GetFillColor)
UNUSED_SYMBOL(FPDFPageObj_GetStrokeColor)
UNUSED_SYMBOL(FPDFPageObj_SetFillColor)
UNUSED_SYMBOL(FPDFPageObj_SetStrokeColor)
UNUSED_SYMBOL(FPDFPageObj_HasTransparency)
UNUSED_SYMBOL(FPDFPageObj_CountMarks)
UNUSED_SYMBOL(FPDFPageObj_GetMark)
UNUSED_SYMBOL(FPDFPageObjMark_GetName)
UNUSED_SYMBOL(FPDFPageObjMark_GetParamStringValue)
UNUSED_SYMBOL(FPDFPageObj_GetStrokeWidth)
UNUSED_SYMBOL(FPDFPageObj_GetClipPath)
UNUSED_SYMBOL(FPDFClipPath_CountPaths)
UNUSED_SYMBOL(FPDFClipPath_CountPathSegments)
UNUSED_SYMBOL(FPDFClipPath_GetPathSegment)
UNUSED_SYMBOL(FPDFFormObj_CountObjects)
UNUSED_SYMBOL(FPDFFormObj_GetObject)
UNUSED_SYMBOL(FPDFPath_CountSegments)
UNUSED_SYMBOL(FPDFPath_GetPathSegment)
UNUSED_SYMBOL(FPDFPath_GetDrawMode)
UNUSED_SYMBOL(FPDFPathSegment_GetPoint)
UNUSED_SYMBOL(FPDFPathSegment_GetType)
UNUSED_SYMBOL(FPDFPathSegment_GetClose)
UNUSED_SYMBOL(FPDFPage_GetAnnotCount)
UNUSED_SYMBOL(FPDFPage_GetAnnot)
UNUSED_SYMBOL(FPDFPage_CloseAnnot)
UNUSED_SYMBOL(FPDFAnnot_GetSubtype)
UNUSED_SYMBOL(FPDFAnnot_GetRect)
UNUSED_SYMBOL(FPDFAnnot_GetLink)
UNUSED_SYMBOL(FPDFLink_GetAction)
UNUSED_SYMBOL(FPDFAction_GetType)
UNUSED_SYMBOL(FPDFBitmap_Create)
UNUSED_SYMBOL(FPDFBitmap_FillRect)
UNUSED_SYMBOL(FPDFBitmap_GetBuffer)
UNUSED_SYMBOL(FPDFBitmap_GetStride)
UNUSED_SYMBOL(FPDFBitmap_Destroy)
UNUSED_SYMBOL(FPDF_RenderPageBitmap)
UNUSED_SYMBOL(FPDFDoc_GetJavaScriptActionCount)
UNUSED_SYMBOL(FPDFDoc_GetJavaScriptAction)
UNUSED_SYMBOL(FPDFDoc_CloseJavaScriptAction)
UNUSED_SYMBOL(FPDFJavaScriptAction_GetName)
#ifndef FAKE_PDFIUM_MISSING_SYMBOL
UNUSED_SYMBOL(FPDFAction_GetURIPath)
#endif
