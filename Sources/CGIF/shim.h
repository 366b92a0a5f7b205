#ifndef WEBIMAGE_CGIF_SHIM_H
#define WEBIMAGE_CGIF_SHIM_H

#include <gif_lib.h>

// giflib's status values are plain macros; named here so Swift code reads as the C API does.
static const int cgif_ok = GIF_OK;
static const int cgif_error = GIF_ERROR;
static const int cgif_no_transparent_color = NO_TRANSPARENT_COLOR;
static const int cgif_graphics_ext_func_code = GRAPHICS_EXT_FUNC_CODE;
static const int cgif_application_ext_func_code = APPLICATION_EXT_FUNC_CODE;

#endif
