#include "kernels/copy.h"

#include <string.h>

void nn_row_major_strides(const uint32_t *dims, uint32_t rank, ptrdiff_t *strides)
{
    ptrdiff_t s = 1;
    for (uint32_t i = rank; i-- > 0;) {
        strides[i] = s;
        s *= (ptrdiff_t)dims[i];
    }
}

static void copy_run(char *d, ptrdiff_t ds, const char *s, ptrdiff_t ss, uint32_t n, size_t elem)
{
    if (ds == 1 && ss == 1) {
        memcpy(d, s, (size_t)n * elem);
        return;
    }
    ptrdiff_t db = ds * (ptrdiff_t)elem, sb = ss * (ptrdiff_t)elem;
    switch (elem) {
    case 1:
        for (uint32_t i = 0; i < n; i++, d += db, s += sb)
            *d = *s;
        break;
    case 2:
        for (uint32_t i = 0; i < n; i++, d += db, s += sb)
            memcpy(d, s, 2);
        break;
    case 4:
        for (uint32_t i = 0; i < n; i++, d += db, s += sb)
            memcpy(d, s, 4);
        break;
    default:
        for (uint32_t i = 0; i < n; i++, d += db, s += sb)
            memcpy(d, s, elem);
        break;
    }
}

/* A 2-D box whose inner dim is contiguous in one layout and the outer dim
 * in the other (a transpose): copied in square tiles so both sides stay in
 * cache. */
static void copy_tiled(char *d, ptrdiff_t dso, ptrdiff_t dsi, const char *s, ptrdiff_t sso,
                       ptrdiff_t ssi, uint32_t no, uint32_t ni, size_t elem)
{
    enum { TILE = 32 };
    for (uint32_t o0 = 0; o0 < no; o0 += TILE) {
        uint32_t o1 = no - o0 < TILE ? no : o0 + TILE;
        for (uint32_t i0 = 0; i0 < ni; i0 += TILE) {
            uint32_t len = ni - i0 < TILE ? ni - i0 : TILE;
            for (uint32_t o = o0; o < o1; o++)
                copy_run(d + ((ptrdiff_t)o * dso + (ptrdiff_t)i0 * dsi) * (ptrdiff_t)elem, dsi,
                         s + ((ptrdiff_t)o * sso + (ptrdiff_t)i0 * ssi) * (ptrdiff_t)elem, ssi,
                         len, elem);
        }
    }
}

void nn_copy_strided(void *dst, const ptrdiff_t *dst_strides, const void *src,
                     const ptrdiff_t *src_strides, const uint32_t *dims, uint32_t rank, size_t elem)
{
    uint32_t n[NN_COPY_MAX_RANK];
    ptrdiff_t ds[NN_COPY_MAX_RANK], ss[NN_COPY_MAX_RANK];
    uint32_t r = 0;
    /* Drop unit dims and merge a dim into the previous one when the pair is
     * contiguous in both layouts. */
    for (uint32_t i = 0; i < rank; i++) {
        if (dims[i] == 0)
            return;
        if (dims[i] == 1)
            continue;
        if (r > 0 && ds[r - 1] == dst_strides[i] * (ptrdiff_t)dims[i] &&
            ss[r - 1] == src_strides[i] * (ptrdiff_t)dims[i]) {
            n[r - 1] *= dims[i];
            ds[r - 1] = dst_strides[i];
            ss[r - 1] = src_strides[i];
            continue;
        }
        n[r] = dims[i];
        ds[r] = dst_strides[i];
        ss[r] = src_strides[i];
        r++;
    }
    if (r == 0) {
        memcpy(dst, src, elem);
        return;
    }
    /* Transposed pair: when the destination's contiguous dim is not the
     * source's, move the source's contiguous dim next to it and tile. */
    uint32_t leaf = 1;
    if (r >= 2 && ds[r - 1] == 1 && ss[r - 1] != 1 && n[r - 1] >= 8) {
        for (uint32_t k = 0; k + 1 < r; k++) {
            if (ss[k] != 1 || n[k] < 8)
                continue;
            uint32_t tn = n[k];
            ptrdiff_t td = ds[k], ts = ss[k];
            for (uint32_t m = k; m + 2 < r; m++) {
                n[m] = n[m + 1];
                ds[m] = ds[m + 1];
                ss[m] = ss[m + 1];
            }
            n[r - 2] = tn;
            ds[r - 2] = td;
            ss[r - 2] = ts;
            leaf = 2;
            break;
        }
    }
    uint32_t idx[NN_COPY_MAX_RANK] = {0};
    char *d = dst;
    const char *s = src;
    uint32_t outer = r - leaf;
    for (;;) {
        if (leaf == 2)
            copy_tiled(d, ds[r - 2], ds[r - 1], s, ss[r - 2], ss[r - 1], n[r - 2], n[r - 1], elem);
        else
            copy_run(d, ds[r - 1], s, ss[r - 1], n[r - 1], elem);
        /* Advance the odometer over the outer dims. */
        uint32_t k = outer;
        for (;;) {
            if (k == 0)
                return;
            k--;
            idx[k]++;
            d += ds[k] * (ptrdiff_t)elem;
            s += ss[k] * (ptrdiff_t)elem;
            if (idx[k] < n[k])
                break;
            d -= ds[k] * (ptrdiff_t)n[k] * (ptrdiff_t)elem;
            s -= ss[k] * (ptrdiff_t)n[k] * (ptrdiff_t)elem;
            idx[k] = 0;
        }
    }
}

void nn_fill_elems(void *dst, size_t n, const void *value, size_t elem)
{
    if (n == 0)
        return;
    const unsigned char *v = value;
    size_t i = 1;
    while (i < elem && v[i] == v[0])
        i++;
    if (i == elem) {
        memset(dst, v[0], n * elem);
        return;
    }
    /* Doubling copies: the filled prefix seeds the next chunk. */
    char *d = dst;
    memcpy(d, v, elem);
    size_t done = 1;
    while (done < n) {
        size_t chunk = done < n - done ? done : n - done;
        memcpy(d + done * elem, d, chunk * elem);
        done += chunk;
    }
}
