// pdfium_api.hpp - our own declarations of the part of PDFium's public C API we call (no PDFium
// headers ship with pypdfium2), as a table of function pointers filled by dlsym.
#pragma once

#include <cstddef>

namespace ethos::pdf::pdfium {

// Opaque handles, as in fpdfview.h (pointers to incomplete structs).
struct Document;
struct Page;
struct TextPage;
struct PageObject;
struct Font;
struct ClipPath;
struct PathSegment;
struct Annotation;
struct Link;
struct Action;
struct Bitmap;
struct PageObjectMark;
struct JavaScriptAction;

using Bool = int;  // FPDF_BOOL

// FS_RECTF: PDF user space, so top > bottom for a well-formed rectangle.
struct RectF {
  float left, top, right, bottom;
};

// FS_MATRIX: x' = a*x + c*y + e, y' = b*x + d*y + f.
struct Matrix {
  float a, b, c, d, e, f;
};

// FPDF_LIBRARY_CONFIG (fpdfview.h). Version 2 reads only the first four fields; the rest are
// zero-initialised so later versions see their defaults.
struct LibraryConfig {
  int version;
  const char** user_font_paths;
  void* isolate;
  unsigned v8_embedder_slot;
  void* platform;
  int renderer_type;
  int font_library_type;
  Bool brotli_enabled;
  Bool isolate_per_document;
};

// Constants of the public headers that extraction relies on.
constexpr unsigned long kErrSuccess = 0;
constexpr unsigned long kErrFile = 2;
constexpr unsigned long kErrFormat = 3;
constexpr unsigned long kErrPassword = 4;
constexpr unsigned long kErrSecurity = 5;
constexpr unsigned long kErrPage = 6;
constexpr int kPageObjText = 1;
constexpr int kPageObjPath = 2;
constexpr int kPageObjImage = 3;
constexpr int kPageObjForm = 5;
constexpr int kSegmentLineTo = 0;
constexpr int kSegmentBezierTo = 1;
constexpr int kSegmentMoveTo = 2;
constexpr int kFillModeNone = 0;
constexpr unsigned long kActionUri = 3;
constexpr unsigned long kActionUnsupported = 0;  // JavaScript, Named, SubmitForm, ... (not told apart)
constexpr unsigned long kActionLaunch = 4;
constexpr int kAnnotLink = 2;
constexpr int kRenderAnnotations = 0x01;  // FPDF_ANNOT: draw annotations as the page shows them

// Every PDFium function we call. Each member is named after its C symbol; pdfium_library.cpp
// resolves them all or refuses to load.
struct Api {
  void (*FPDF_InitLibraryWithConfig)(const LibraryConfig*);
  unsigned long (*FPDF_GetLastError)();
  Document* (*FPDF_LoadMemDocument64)(const void*, std::size_t, const char*);
  void (*FPDF_CloseDocument)(Document*);
  int (*FPDF_GetPageCount)(Document*);
  Page* (*FPDF_LoadPage)(Document*, int);
  void (*FPDF_ClosePage)(Page*);
  float (*FPDF_GetPageWidthF)(Page*);
  float (*FPDF_GetPageHeightF)(Page*);
  Bool (*FPDF_GetPageBoundingBox)(Page*, RectF*);
  int (*FPDFPage_GetRotation)(Page*);
  unsigned long (*FPDF_GetPageLabel)(Document*, int, void*, unsigned long);

  TextPage* (*FPDFText_LoadPage)(Page*);
  void (*FPDFText_ClosePage)(TextPage*);
  int (*FPDFText_CountChars)(TextPage*);
  unsigned (*FPDFText_GetUnicode)(TextPage*, int);
  Bool (*FPDFText_GetCharBox)(TextPage*, int, double*, double*, double*, double*);
  Bool (*FPDFText_GetLooseCharBox)(TextPage*, int, RectF*);
  Bool (*FPDFText_GetCharOrigin)(TextPage*, int, double*, double*);
  double (*FPDFText_GetFontSize)(TextPage*, int);
  Bool (*FPDFText_GetMatrix)(TextPage*, int, Matrix*);
  float (*FPDFText_GetCharAngle)(TextPage*, int);
  int (*FPDFText_IsGenerated)(TextPage*, int);
  int (*FPDFText_IsHyphen)(TextPage*, int);
  int (*FPDFText_HasUnicodeMapError)(TextPage*, int);
  PageObject* (*FPDFText_GetTextObject)(TextPage*, int);

  int (*FPDFTextObj_GetTextRenderMode)(PageObject*);
  Font* (*FPDFTextObj_GetFont)(PageObject*);
  std::size_t (*FPDFFont_GetBaseFontName)(Font*, char*, std::size_t);
  int (*FPDFFont_GetIsEmbedded)(Font*);
  int (*FPDFFont_GetFlags)(Font*);
  int (*FPDFFont_GetWeight)(Font*);

  int (*FPDFPage_CountObjects)(Page*);
  PageObject* (*FPDFPage_GetObject)(Page*, int);
  int (*FPDFPageObj_GetType)(PageObject*);
  Bool (*FPDFPageObj_GetBounds)(PageObject*, float*, float*, float*, float*);
  Bool (*FPDFPageObj_GetMatrix)(PageObject*, Matrix*);
  Bool (*FPDFPageObj_GetFillColor)(PageObject*, unsigned*, unsigned*, unsigned*, unsigned*);
  Bool (*FPDFPageObj_GetStrokeColor)(PageObject*, unsigned*, unsigned*, unsigned*, unsigned*);
  Bool (*FPDFPageObj_SetFillColor)(PageObject*, unsigned, unsigned, unsigned, unsigned);
  Bool (*FPDFPageObj_SetStrokeColor)(PageObject*, unsigned, unsigned, unsigned, unsigned);
  Bool (*FPDFPageObj_HasTransparency)(PageObject*);
  int (*FPDFPageObj_CountMarks)(PageObject*);
  PageObjectMark* (*FPDFPageObj_GetMark)(PageObject*, unsigned long);
  // Name and string parameters come as UTF-16LE; the last argument receives the byte length.
  Bool (*FPDFPageObjMark_GetName)(PageObjectMark*, void*, unsigned long, unsigned long*);
  Bool (*FPDFPageObjMark_GetParamStringValue)(PageObjectMark*, const char*, void*, unsigned long, unsigned long*);
  Bool (*FPDFPageObj_GetStrokeWidth)(PageObject*, float*);
  ClipPath* (*FPDFPageObj_GetClipPath)(PageObject*);
  int (*FPDFClipPath_CountPaths)(ClipPath*);
  int (*FPDFClipPath_CountPathSegments)(ClipPath*, int);
  PathSegment* (*FPDFClipPath_GetPathSegment)(ClipPath*, int, int);
  int (*FPDFFormObj_CountObjects)(PageObject*);
  PageObject* (*FPDFFormObj_GetObject)(PageObject*, unsigned long);
  int (*FPDFPath_CountSegments)(PageObject*);
  PathSegment* (*FPDFPath_GetPathSegment)(PageObject*, int);
  Bool (*FPDFPath_GetDrawMode)(PageObject*, int*, Bool*);
  Bool (*FPDFPathSegment_GetPoint)(PathSegment*, float*, float*);
  int (*FPDFPathSegment_GetType)(PathSegment*);
  Bool (*FPDFPathSegment_GetClose)(PathSegment*);

  int (*FPDFPage_GetAnnotCount)(Page*);
  Annotation* (*FPDFPage_GetAnnot)(Page*, int);
  void (*FPDFPage_CloseAnnot)(Annotation*);
  int (*FPDFAnnot_GetSubtype)(Annotation*);
  Bool (*FPDFAnnot_GetRect)(Annotation*, RectF*);
  Link* (*FPDFAnnot_GetLink)(Annotation*);
  Action* (*FPDFLink_GetAction)(Link*);
  unsigned long (*FPDFAction_GetType)(Action*);
  unsigned long (*FPDFAction_GetURIPath)(Document*, Action*, void*, unsigned long);

  // Document-level JavaScript (the /Names /JavaScript tree): names only, the code is never read.
  int (*FPDFDoc_GetJavaScriptActionCount)(Document*);
  JavaScriptAction* (*FPDFDoc_GetJavaScriptAction)(Document*, int);
  void (*FPDFDoc_CloseJavaScriptAction)(JavaScriptAction*);
  unsigned long (*FPDFJavaScriptAction_GetName)(JavaScriptAction*, void*, unsigned long);

  // Rendering (crops, pdfium_render.cpp). A bitmap without alpha is 4 bytes per pixel, BGRx.
  Bitmap* (*FPDFBitmap_Create)(int, int, int);
  Bool (*FPDFBitmap_FillRect)(Bitmap*, int, int, int, int, unsigned long);
  void* (*FPDFBitmap_GetBuffer)(Bitmap*);
  int (*FPDFBitmap_GetStride)(Bitmap*);
  void (*FPDFBitmap_Destroy)(Bitmap*);
  void (*FPDF_RenderPageBitmap)(Bitmap*, Page*, int, int, int, int, int, int);
};

}  // namespace ethos::pdf::pdfium
