#ifndef WEBIMAGE_CWEBP_SHIM_H
#define WEBIMAGE_CWEBP_SHIM_H

#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>

// WebPDemuxGetI's feature flags: the ANIMATION_FLAG etc. enum values import, these make the intent plain.
static const uint32_t cwebp_animation_flag = ANIMATION_FLAG;
static const uint32_t cwebp_alpha_flag = ALPHA_FLAG;

#endif
