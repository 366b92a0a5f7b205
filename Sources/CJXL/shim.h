#ifndef WEBIMAGE_CJXL_SHIM_H
#define WEBIMAGE_CJXL_SHIM_H

#include <jxl/decode.h>
#include <jxl/encode.h>

// JXL_TRUE and JXL_FALSE are macros; these give them a type Swift can pass as a JXL_BOOL.
static const JXL_BOOL cjxl_true = JXL_TRUE;
static const JXL_BOOL cjxl_false = JXL_FALSE;

#endif
