/*
 * Image input for nnapi-run: binary PPM (P6) and PGM (P5), and uncompressed
 * BMP (8-bit paletted, 24-bit, 32-bit), resized with bilinear interpolation.
 */
#ifndef NNAPI_RUN_IMAGE_H
#define NNAPI_RUN_IMAGE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int width, height;
    int channels; /* 1 (gray) or 3 (RGB) */
    uint8_t *pixels; /* top row first, channels interleaved */
} nr_image;

/* Whether the bytes start like an image nnapi-run can decode. */
int nr_image_detect(const uint8_t *data, size_t size);

/* Decodes an image. Returns 0, or -1 with a message in err. */
int nr_image_decode(const uint8_t *data, size_t size, nr_image *img, char *err, size_t err_size);
void nr_image_free(nr_image *img);

/* Bilinear resize to width x height with `channels` channels (gray is
 * replicated to RGB, RGB turned to gray by BT.601 luma), pixel centres
 * aligned (half-pixel), values in [0, 255]. out holds width*height*channels. */
void nr_image_resize(const nr_image *img, int width, int height, int channels, float *out);

#endif
