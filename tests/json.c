/* JSON reader for the conformance vectors; see json.h. */
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Deep enough for the vectors (about 6 levels), shallow enough that malformed
 * input cannot exhaust the stack. */
#define JSON_MAX_DEPTH 64

struct json_doc {
    char* buf; /* owned copy of the text; strings and numbers point into it */
    size_t len;
    json_value root;
};

typedef struct {
    char* p;
    char* end;
    char* err;
    size_t err_len;
    bool failed;
} parser;

static void fail(parser* ps, const char* fmt, ...) {
    if (ps->failed) return;
    ps->failed = true;
    if (ps->err && ps->err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->err, ps->err_len, fmt, ap);
        va_end(ap);
    }
}

static void skip_ws(parser* ps) {
    while (ps->p < ps->end &&
           (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static void value_release(json_value* v) {
    if (v->type == JSON_ARRAY || v->type == JSON_OBJECT) {
        for (size_t i = 0; i < v->len; i++) value_release(&v->items[i]);
        free(v->items);
        free(v->keys);
    }
    v->items = NULL;
    v->keys = NULL;
    v->len = 0;
}

static bool parse_value(parser* ps, json_value* out, int depth);

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool read_hex4(parser* ps, unsigned* cp) {
    if (ps->end - ps->p < 4) return false;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_digit(ps->p[i]);
        if (d < 0) return false;
        v = v * 16 + (unsigned)d;
    }
    ps->p += 4;
    *cp = v;
    return true;
}

/* Decodes the string starting after the opening quote in place: the decoded
 * form is never longer than the escaped one. */
static bool parse_string(parser* ps, const char** text, size_t* len) {
    char* start = ps->p;
    char* w = start;
    while (ps->p < ps->end) {
        char c = *ps->p++;
        if (c == '"') {
            *w = '\0';
            *text = start;
            *len = (size_t)(w - start);
            return true;
        }
        if ((unsigned char)c < 0x20) {
            fail(ps, "control character in string");
            return false;
        }
        if (c != '\\') {
            *w++ = c;
            continue;
        }
        if (ps->p >= ps->end) break;
        c = *ps->p++;
        switch (c) {
        case '"': *w++ = '"'; break;
        case '\\': *w++ = '\\'; break;
        case '/': *w++ = '/'; break;
        case 'b': *w++ = '\b'; break;
        case 'f': *w++ = '\f'; break;
        case 'n': *w++ = '\n'; break;
        case 'r': *w++ = '\r'; break;
        case 't': *w++ = '\t'; break;
        case 'u': {
            unsigned cp;
            if (!read_hex4(ps, &cp)) {
                fail(ps, "bad \\u escape");
                return false;
            }
            if (cp >= 0xD800 && cp <= 0xDBFF && ps->end - ps->p >= 6 && ps->p[0] == '\\' &&
                ps->p[1] == 'u') {
                unsigned lo;
                ps->p += 2;
                if (!read_hex4(ps, &lo) || lo < 0xDC00 || lo > 0xDFFF) {
                    fail(ps, "bad surrogate pair");
                    return false;
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            /* 6 or 12 escaped bytes always cover the 1..4 encoded ones. */
            if (cp < 0x80) {
                *w++ = (char)cp;
            } else if (cp < 0x800) {
                *w++ = (char)(0xC0 | (cp >> 6));
                *w++ = (char)(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                *w++ = (char)(0xE0 | (cp >> 12));
                *w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
                *w++ = (char)(0x80 | (cp & 0x3F));
            } else {
                *w++ = (char)(0xF0 | (cp >> 18));
                *w++ = (char)(0x80 | ((cp >> 12) & 0x3F));
                *w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
                *w++ = (char)(0x80 | (cp & 0x3F));
            }
            break;
        }
        default:
            fail(ps, "bad escape \\%c", c);
            return false;
        }
    }
    fail(ps, "unterminated string");
    return false;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool parse_number(parser* ps, json_value* out) {
    char* s = ps->p;
    char* p = s;
    if (p < ps->end && *p == '-') p++;
    if (p >= ps->end || !is_digit(*p)) goto bad;
    if (*p == '0') {
        p++;
    } else {
        while (p < ps->end && is_digit(*p)) p++;
    }
    if (p < ps->end && *p == '.') {
        p++;
        if (p >= ps->end || !is_digit(*p)) goto bad;
        while (p < ps->end && is_digit(*p)) p++;
    }
    if (p < ps->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < ps->end && (*p == '+' || *p == '-')) p++;
        if (p >= ps->end || !is_digit(*p)) goto bad;
        while (p < ps->end && is_digit(*p)) p++;
    }
    out->type = JSON_NUMBER;
    out->text = s;
    out->len = (size_t)(p - s);
    ps->p = p;
    return true;
bad:
    fail(ps, "malformed number");
    return false;
}

static bool literal(parser* ps, const char* word) {
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) {
        fail(ps, "unexpected token");
        return false;
    }
    ps->p += n;
    return true;
}

/* Arrays and objects share this: elements accumulate in a growing array. */
static bool parse_container(parser* ps, json_value* out, int depth, bool object) {
    char close = object ? '}' : ']';
    size_t cap = 0, n = 0;
    json_value* items = NULL;
    const char** keys = NULL;
    out->type = object ? JSON_OBJECT : JSON_ARRAY;
    out->items = NULL;
    out->keys = NULL;
    out->len = 0;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return true;
    }
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 8;
            json_value* ni = realloc(items, ncap * sizeof *ni);
            if (!ni) goto oom;
            items = ni;
            if (object) {
                const char** nk = realloc(keys, ncap * sizeof *nk);
                if (!nk) goto oom;
                keys = nk;
            }
            cap = ncap;
        }
        skip_ws(ps);
        if (object) {
            size_t klen;
            if (ps->p >= ps->end || *ps->p != '"') {
                fail(ps, "expected member name");
                goto error;
            }
            ps->p++;
            if (!parse_string(ps, &keys[n], &klen)) goto error;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') {
                fail(ps, "expected ':'");
                goto error;
            }
            ps->p++;
        }
        if (!parse_value(ps, &items[n], depth + 1)) goto error;
        n++;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            break;
        }
        fail(ps, "expected ',' or '%c'", close);
        goto error;
    }
    out->items = items;
    out->keys = keys;
    out->len = n;
    return true;
oom:
    fail(ps, "out of memory");
error:
    for (size_t i = 0; i < n; i++) value_release(&items[i]);
    free(items);
    free(keys);
    return false;
}

static bool parse_value(parser* ps, json_value* out, int depth) {
    memset(out, 0, sizeof *out);
    out->type = JSON_NULL;
    if (depth > JSON_MAX_DEPTH) {
        fail(ps, "nesting too deep");
        return false;
    }
    skip_ws(ps);
    if (ps->p >= ps->end) {
        fail(ps, "unexpected end of input");
        return false;
    }
    switch (*ps->p) {
    case '{':
        ps->p++;
        return parse_container(ps, out, depth, true);
    case '[':
        ps->p++;
        return parse_container(ps, out, depth, false);
    case '"':
        ps->p++;
        out->type = JSON_STRING;
        return parse_string(ps, &out->text, &out->len);
    case 't':
        out->type = JSON_TRUE;
        return literal(ps, "true");
    case 'f':
        out->type = JSON_FALSE;
        return literal(ps, "false");
    case 'n':
        return literal(ps, "null");
    default:
        return parse_number(ps, out);
    }
}

/* Takes ownership of buf (len bytes plus room for a terminator). */
static json_doc* parse_owned(char* buf, size_t len, char* err, size_t err_len) {
    json_doc* doc = calloc(1, sizeof *doc);
    if (!doc) {
        free(buf);
        if (err && err_len) snprintf(err, err_len, "out of memory");
        return NULL;
    }
    buf[len] = '\0';
    doc->buf = buf;
    doc->len = len;
    parser ps = {buf, buf + len, err, err_len, false};
    if (parse_value(&ps, &doc->root, 0)) {
        skip_ws(&ps);
        if (ps.p != ps.end) fail(&ps, "trailing characters");
    }
    if (ps.failed) {
        if (err && err_len) {
            size_t used = strlen(err);
            if (used < err_len)
                snprintf(err + used, err_len - used, " at byte %zu", (size_t)(ps.p - buf));
        }
        json_free(doc);
        return NULL;
    }
    return doc;
}

json_doc* json_load_file(const char* path, char* err, size_t err_len) {
    /* gzread also reads files that are not compressed. */
    gzFile f = gzopen(path, "rb");
    if (!f) {
        if (err && err_len) snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 20, len = 0;
    char* buf = malloc(cap);
    for (;;) {
        if (!buf) {
            gzclose(f);
            if (err && err_len) snprintf(err, err_len, "%s: out of memory", path);
            return NULL;
        }
        if (cap - len < 65537) {
            if (cap > SIZE_MAX / 2) {
                free(buf);
                buf = NULL;
                continue;
            }
            char* nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                continue;
            }
            buf = nb;
            cap *= 2;
        }
        int got = gzread(f, buf + len, 65536);
        if (got < 0) {
            int zerr;
            const char* msg = gzerror(f, &zerr);
            if (err && err_len) snprintf(err, err_len, "%s: read error: %s", path, msg);
            free(buf);
            gzclose(f);
            return NULL;
        }
        if (got == 0) break;
        len += (size_t)got;
    }
    gzclose(f);
    json_doc* doc = parse_owned(buf, len, err, err_len);
    if (!doc && err && err_len) {
        char tmp[256];
        snprintf(tmp, sizeof tmp, "%s", err);
        snprintf(err, err_len, "%s: %s", path, tmp);
    }
    return doc;
}

void json_free(json_doc* doc) {
    if (!doc) return;
    value_release(&doc->root);
    free(doc->buf);
    free(doc);
}

const json_value* json_root(const json_doc* doc) { return doc ? &doc->root : NULL; }

const json_value* json_get(const json_value* v, const char* key) {
    if (!v || v->type != JSON_OBJECT) return NULL;
    for (size_t i = 0; i < v->len; i++)
        if (strcmp(v->keys[i], key) == 0) return &v->items[i];
    return NULL;
}

bool json_is(const json_value* v, json_type type) { return v && v->type == type; }

const char* json_string(const json_value* v) {
    return v && v->type == JSON_STRING ? v->text : NULL;
}

/* Copies a number's text into buf so the C library can convert it. */
static bool number_text(const json_value* v, char* buf, size_t n) {
    if (!v || v->type != JSON_NUMBER || v->len >= n) return false;
    memcpy(buf, v->text, v->len);
    buf[v->len] = '\0';
    return true;
}

bool json_to_int64(const json_value* v, int64_t* out) {
    char buf[64];
    if (v && (v->type == JSON_TRUE || v->type == JSON_FALSE)) {
        *out = v->type == JSON_TRUE;
        return true;
    }
    if (!number_text(v, buf, sizeof buf)) return false;
    char* end;
    errno = 0;
    long long x = strtoll(buf, &end, 10);
    if (*end == '\0') {
        if (errno == ERANGE) return false;
        *out = x;
        return true;
    }
    /* Integral values written with a fraction or exponent, e.g. 3.0. */
    double d = strtod(buf, &end);
    if (*end != '\0' || d != floor(d) || d < -9.2e18 || d > 9.2e18) return false;
    *out = (int64_t)d;
    return true;
}

bool json_to_double(const json_value* v, double* out) {
    char buf[64];
    if (!number_text(v, buf, sizeof buf)) return false;
    char* end;
    *out = strtod(buf, &end);
    return *end == '\0';
}

bool json_to_float(const json_value* v, float* out) {
    char buf[64];
    if (v && v->type == JSON_STRING) {
        if (strcmp(v->text, "inf") == 0) {
            *out = INFINITY;
        } else if (strcmp(v->text, "-inf") == 0) {
            *out = -INFINITY;
        } else if (strcmp(v->text, "nan") == 0) {
            *out = NAN;
        } else {
            return false;
        }
        return true;
    }
    if (!number_text(v, buf, sizeof buf)) return false;
    char* end;
    *out = strtof(buf, &end);
    return *end == '\0';
}
