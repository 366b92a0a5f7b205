#ifndef WEBIMAGE_CTURBOJPEG_SHIM_H
#define WEBIMAGE_CTURBOJPEG_SHIM_H

#include <stddef.h>
#include <turbojpeg.h>

// TJSCALED is a function-like macro: the size of one dimension after DCT scaling by a factor.
static inline int ctj_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}

#endif
