#ifndef WEBIMAGE_CGIF_SHIM_H
#define WEBIMAGE_CGIF_SHIM_H

#include <gif_lib.h>

// giflib's status values are plain macros; named here so Swift code reads as the C API does.
static const int cgif_ok = GIF_OK;
static const int cgif_error = GIF_ERROR;
static const int cgif_no_transparent_color = NO_TRANSPARENT_COLOR;
static const int cgif_graphics_ext_func_code = GRAPHICS_EXT_FUNC_CODE;
static const int cgif_application_ext_func_code = APPLICATION_EXT_FUNC_CODE;
// A plain-text block is a graphic rendering block: it consumes the graphic control extension before it.
static const int cgif_plaintext_ext_func_code = PLAINTEXT_EXT_FUNC_CODE;
// The out-of-memory codes of the reader and the writer, reported as imageTooLarge rather than as bad data.
static const int cgif_decode_error_not_enough_memory = D_GIF_ERR_NOT_ENOUGH_MEM;
static const int cgif_encode_error_not_enough_memory = E_GIF_ERR_NOT_ENOUGH_MEM;
// The disposal methods of the graphic control extension, named as the coder maps them.
static const int cgif_disposal_unspecified = DISPOSAL_UNSPECIFIED;
static const int cgif_dispose_do_not = DISPOSE_DO_NOT;
static const int cgif_dispose_background = DISPOSE_BACKGROUND;
static const int cgif_dispose_previous = DISPOSE_PREVIOUS;

#endif
