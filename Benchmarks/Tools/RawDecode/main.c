// Decodes one file N times with the C baseline, for instruction counting (Scripts/bench.sh --instructions).
// Usage: RawDecode jpeg|png|webp|gif|avif|jxl|heic FILE N
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CRawCodecs.h"

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: RawDecode jpeg|png|webp|gif|avif|jxl|heic FILE N\n");
        return 2;
    }
    FILE *file = fopen(argv[2], "rb");
    if (!file) return 2;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    unsigned char *data = malloc((size_t)size);
    if (!data || fread(data, 1, (size_t)size, file) != (size_t)size) return 2;
    fclose(file);
    int (*decode)(const unsigned char *, size_t, unsigned char *, int *, int *) =
        !strcmp(argv[1], "jpeg") ? raw_jpeg_decode :
        !strcmp(argv[1], "png") ? raw_png_decode :
        !strcmp(argv[1], "webp") ? raw_webp_decode :
        !strcmp(argv[1], "avif") ? raw_avif_decode :
        !strcmp(argv[1], "jxl") ? raw_jxl_decode :
        !strcmp(argv[1], "heic") ? raw_heif_decode : raw_gif_decode;
    int width, height, failed = 0;
    for (int i = 0, n = atoi(argv[3]); i < n; i++) {
        failed |= decode(data, (size_t)size, NULL, &width, &height);
    }
    free(data);
    return failed ? 1 : 0;
}
