/*
 * A small JSON reader for the conformance vectors.
 *
 * Numbers are kept as their source text so that each consumer converts them
 * for its own type (strtof for float32, integer parsing for quantized data)
 * without a detour through double. Strings and numbers point into the
 * document's own buffer; everything is released by json_free.
 */
#ifndef NN_TESTS_JSON_H
#define NN_TESTS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    JSON_NULL,
    JSON_FALSE,
    JSON_TRUE,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT,
} json_type;

typedef struct json_value json_value;

struct json_value {
    json_type type;
    /* NUMBER, STRING: length of text (strings are also NUL-terminated).
     * ARRAY, OBJECT: number of elements / members. */
    size_t len;
    const char* text;    /* NUMBER, STRING */
    json_value* items;   /* ARRAY elements or OBJECT member values */
    const char** keys;   /* OBJECT member names, parallel to items */
};

typedef struct json_doc json_doc;

/* Reads a file, gzip-compressed or plain, and parses it. Returns NULL on
 * error with a message in err. */
json_doc* json_load_file(const char* path, char* err, size_t err_len);
void json_free(json_doc* doc);
const json_value* json_root(const json_doc* doc);

/* Object member by name, or NULL (also when v is not an object). */
const json_value* json_get(const json_value* v, const char* key);
/* Conversions; return false when the value has the wrong kind or does not fit. */
bool json_to_int64(const json_value* v, int64_t* out);
bool json_to_double(const json_value* v, double* out);
/* Float32 from a number, or from the strings "inf", "-inf", "nan". */
bool json_to_float(const json_value* v, float* out);
bool json_is(const json_value* v, json_type type);
/* String value, or NULL when v is not a string. */
const char* json_string(const json_value* v);

#endif /* NN_TESTS_JSON_H */
