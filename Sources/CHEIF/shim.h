#ifndef WEBIMAGE_CHEIF_SHIM_H
#define WEBIMAGE_CHEIF_SHIM_H

// libheif's C API imports as it is: it has no variadic functions, and its constants are enums.
#include <libheif/heif.h>

#endif
