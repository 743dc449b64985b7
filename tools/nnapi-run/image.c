#include "image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nr_image_detect(const uint8_t *data, size_t size)
{
    if (size >= 2 && data[0] == 'B' && data[1] == 'M')
        return 1;
    return size >= 3 && data[0] == 'P' && (data[1] == '5' || data[1] == '6') &&
           (data[2] == ' ' || data[2] == '\n' || data[2] == '\r' || data[2] == '\t');
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

static int alloc_pixels(nr_image *img, int w, int h, int c, char *err, size_t err_size)
{
    if (w <= 0 || h <= 0 || w > 65536 || h > 65536) {
        snprintf(err, err_size, "image size %dx%d is not supported", w, h);
        return -1;
    }
    img->width = w;
    img->height = h;
    img->channels = c;
    img->pixels = malloc((size_t)w * (size_t)h * (size_t)c);
    if (img->pixels == NULL) {
        snprintf(err, err_size, "out of memory decoding the image");
        return -1;
    }
    return 0;
}

static int decode_bmp(const uint8_t *d, size_t size, nr_image *img, char *err, size_t err_size)
{
    if (size < 54) {
        snprintf(err, err_size, "truncated BMP header");
        return -1;
    }
    uint32_t pix_off = le32(d + 10), hdr = le32(d + 14);
    int32_t w = (int32_t)le32(d + 18), h = (int32_t)le32(d + 22);
    uint16_t bpp = le16(d + 28);
    uint32_t comp = le32(d + 30), n_colors = le32(d + 46);
    /* Compression 3 (bit fields) is accepted for 32-bit images in BGRA order. */
    if (hdr < 40 || (comp != 0 && !(comp == 3 && bpp == 32)) || (bpp != 8 && bpp != 24 && bpp != 32)) {
        snprintf(err, err_size, "BMP with %u bits per pixel, compression %u is not supported", bpp, comp);
        return -1;
    }
    int top_down = h < 0;
    if (top_down)
        h = -h;
    if (w <= 0 || h <= 0 || w > 65536 || h > 65536) {
        snprintf(err, err_size, "BMP size %dx%d is not supported", w, h);
        return -1;
    }
    size_t row = (((size_t)w * bpp + 31) / 32) * 4;
    if (pix_off > size || row * (size_t)h > size - pix_off) {
        snprintf(err, err_size, "truncated BMP pixel data");
        return -1;
    }
    const uint8_t *pal = NULL;
    int channels = 3;
    if (bpp == 8) {
        if (n_colors == 0 || n_colors > 256)
            n_colors = 256;
        size_t pal_off = 14 + (size_t)hdr;
        if (pal_off > pix_off || (size_t)n_colors * 4 > pix_off - pal_off) {
            snprintf(err, err_size, "truncated BMP palette");
            return -1;
        }
        pal = d + pal_off;
        channels = 1; /* gray unless some palette entry is coloured */
        for (uint32_t i = 0; i < n_colors; i++)
            if (pal[4 * i] != pal[4 * i + 1] || pal[4 * i + 1] != pal[4 * i + 2])
                channels = 3;
    }
    if (alloc_pixels(img, w, h, channels, err, err_size))
        return -1;
    for (int y = 0; y < h; y++) {
        const uint8_t *src = d + pix_off + row * (size_t)(top_down ? y : h - 1 - y);
        uint8_t *dst = img->pixels + (size_t)y * (size_t)w * (size_t)channels;
        for (int x = 0; x < w; x++) {
            const uint8_t *bgr;
            if (bpp == 8) {
                uint8_t k = src[x];
                if (k >= n_colors) {
                    snprintf(err, err_size, "BMP pixel refers to palette entry %u of %u", k, n_colors);
                    nr_image_free(img);
                    return -1;
                }
                bgr = pal + 4 * (size_t)k;
            } else {
                bgr = src + (size_t)x * (bpp / 8);
            }
            if (channels == 1) {
                dst[x] = bgr[0];
            } else {
                dst[3 * x] = bgr[2];
                dst[3 * x + 1] = bgr[1];
                dst[3 * x + 2] = bgr[0];
            }
        }
    }
    return 0;
}

/* The next whitespace-separated number of a PNM header, skipping comments. */
static int pnm_number(const uint8_t *d, size_t size, size_t *pos, unsigned *out)
{
    size_t p = *pos;
    for (;;) {
        while (p < size && (d[p] == ' ' || d[p] == '\t' || d[p] == '\n' || d[p] == '\r'))
            p++;
        if (p < size && d[p] == '#') {
            while (p < size && d[p] != '\n')
                p++;
            continue;
        }
        break;
    }
    unsigned v = 0;
    size_t start = p;
    while (p < size && d[p] >= '0' && d[p] <= '9' && v < 1000000)
        v = v * 10 + (unsigned)(d[p++] - '0');
    if (p == start)
        return -1;
    *out = v;
    *pos = p;
    return 0;
}

static int decode_pnm(const uint8_t *d, size_t size, nr_image *img, char *err, size_t err_size)
{
    int channels = d[1] == '6' ? 3 : 1;
    size_t pos = 2;
    unsigned w, h, maxval;
    if (pnm_number(d, size, &pos, &w) || pnm_number(d, size, &pos, &h) ||
        pnm_number(d, size, &pos, &maxval) || maxval == 0 || maxval > 65535 || pos >= size) {
        snprintf(err, err_size, "malformed PPM/PGM header");
        return -1;
    }
    pos++; /* the single whitespace byte before the raster */
    size_t bps = maxval > 255 ? 2 : 1;
    if (alloc_pixels(img, (int)w, (int)h, channels, err, err_size))
        return -1;
    size_t n = (size_t)w * h * (size_t)channels;
    if (pos > size || n * bps > size - pos) {
        snprintf(err, err_size, "truncated PPM/PGM raster");
        nr_image_free(img);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned v = bps == 2 ? (unsigned)(d[pos + 2 * i] << 8 | d[pos + 2 * i + 1]) : d[pos + i];
        img->pixels[i] = (uint8_t)((v * 255u + maxval / 2) / maxval);
    }
    return 0;
}

int nr_image_decode(const uint8_t *data, size_t size, nr_image *img, char *err, size_t err_size)
{
    memset(img, 0, sizeof *img);
    if (size >= 2 && data[0] == 'B' && data[1] == 'M')
        return decode_bmp(data, size, img, err, err_size);
    if (nr_image_detect(data, size))
        return decode_pnm(data, size, img, err, err_size);
    snprintf(err, err_size, "unknown image format (expected BMP, PPM or PGM)");
    return -1;
}

void nr_image_free(nr_image *img)
{
    free(img->pixels);
    memset(img, 0, sizeof *img);
}

/* Source position of output pixel i along one axis: lower index, upper index
 * and the weight of the upper one. */
static void axis_coord(int i, int in, int out, int *lo, int *hi, float *t)
{
    float s = ((float)i + 0.5f) * (float)in / (float)out - 0.5f;
    if (s < 0.0f)
        s = 0.0f;
    int l = (int)s;
    if (l > in - 1)
        l = in - 1;
    *lo = l;
    *hi = l + 1 < in ? l + 1 : in - 1;
    *t = s - (float)l;
    if (*t > 1.0f)
        *t = 1.0f;
}

static float pixel(const nr_image *img, int x, int y, int c, int channels)
{
    const uint8_t *p = img->pixels + ((size_t)y * (size_t)img->width + (size_t)x) * (size_t)img->channels;
    if (img->channels == channels)
        return p[c];
    if (img->channels == 1)
        return p[0];
    return 0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2];
}

void nr_image_resize(const nr_image *img, int width, int height, int channels, float *out)
{
    for (int y = 0; y < height; y++) {
        int y0, y1;
        float ty;
        axis_coord(y, img->height, height, &y0, &y1, &ty);
        for (int x = 0; x < width; x++) {
            int x0, x1;
            float tx;
            axis_coord(x, img->width, width, &x0, &x1, &tx);
            for (int c = 0; c < channels; c++) {
                float top = pixel(img, x0, y0, c, channels) * (1 - tx) + pixel(img, x1, y0, c, channels) * tx;
                float bot = pixel(img, x0, y1, c, channels) * (1 - tx) + pixel(img, x1, y1, c, channels) * tx;
                *out++ = top * (1 - ty) + bot * ty;
            }
        }
    }
}
