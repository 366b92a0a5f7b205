#ifndef WEBIMAGE_CAVIF_SHIM_H
#define WEBIMAGE_CAVIF_SHIM_H

#include <avif/avif.h>

// libavif's limits are macros with arithmetic, which Swift does not import; these make them constants.
static const uint32_t cavif_default_image_size_limit = AVIF_DEFAULT_IMAGE_SIZE_LIMIT;
static const uint32_t cavif_default_image_dimension_limit = AVIF_DEFAULT_IMAGE_DIMENSION_LIMIT;
static const uint32_t cavif_default_image_count_limit = AVIF_DEFAULT_IMAGE_COUNT_LIMIT;
// The quantizer range, for mapping a quality onto it.
static const int cavif_quantizer_best_quality = AVIF_QUANTIZER_BEST_QUALITY;
static const int cavif_quantizer_worst_quality = AVIF_QUANTIZER_WORST_QUALITY;

#endif
