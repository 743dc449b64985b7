/*
 * Compilation caching on disk (ANeuralNetworksCompilation_setCaching).
 *
 * An entry is one file, cacheDir/nnapi-linux-<64 hex digits of the token>.cache:
 * a header (magic, format version, library version and build id, ISA, byte
 * order, token, a 128-bit hash of the model and of the compilation settings,
 * file size, a hash of the rest of the file, a hash of the header itself),
 * a table of blobs (subplan, operation, sequence number, offset, size) and
 * the blobs, 64-byte aligned: the packed weights the operations' plan hooks
 * made. On a hit the entry is mapped read-only and the plan is built with
 * blobs that point into the mapping, so nothing is packed again; on a miss
 * the plan is built with recorded blobs which are then written to a
 * temporary file in cacheDir, synced and renamed over the entry. Any entry
 * that does not check out is ignored and rewritten; no cache failure fails
 * a compilation.
 *
 * Every compilation that uses an entry checks it against the model: the
 * model's hash covers every constant byte, and a finished model keeps its
 * hash unless one of its constants is in a memory object (whose content may
 * change between compilations); the entry's payload hash covers every blob,
 * and is checked once per process and file (the writer's own file counts as
 * checked).
 *
 * No size bound and no eviction: as on Android, the application owns
 * cacheDir (and may empty it at any time: a missing entry is a miss), and
 * the entry of a token is replaced, never added to, so the directory holds
 * one entry per token the application uses. The one kind of file nothing
 * would replace, the temporary file of a writer that died before its rename,
 * is removed by the next miss in that directory once it is ten minutes old.
 */
#ifndef NN_COMPILE_CACHE_H
#define NN_COMPILE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/isa.h"
#include "runtime.h"

/* The blobs of one compilation: a mapped entry or the recorded blobs.
 * Reference-counted; the compilation holds it as long as its plan. */
typedef struct nn_cache nn_cache;

/* Builds the plan of c->model using the cache c->cache_dir / c->cache_token.
 * Returns what nn_plan_build returns; *cache is set (possibly NULL) for the
 * compilation to release after freeing the plan. */
int nn_cache_build_plan(const ANeuralNetworksCompilation *c, nn_plan **plan, nn_cache **cache);
void nn_cache_release(nn_cache *cache);

/* Called by the planner before each plan hook: the blobs it asks for are
 * keyed by (subplan, operation, order of the request). */
void nn_blob_step(uint32_t subplan, uint32_t op_index);

/* ---- for tests and the fuzz target ---- */

#define NN_CACHE_FORMAT 2u
#define NN_CACHE_HASH_BYTES 16

typedef struct nn_hasher {
    uint64_t acc[8];
    uint8_t buf[64];
    size_t fill;
    uint64_t hashed; /* bytes before the buffer's */
    uint32_t blocks;
} nn_hasher;

void nn_hash_init(nn_hasher *h, uint64_t seed);
void nn_hash_update(nn_hasher *h, const void *data, size_t bytes);
void nn_hash_final(nn_hasher *h, uint8_t out[NN_CACHE_HASH_BYTES]);
/* nn_hash_update on the given ISA's path (each gives the same hash). */
void nn_hash_update_on(nn_hasher *h, const void *data, size_t bytes, nn_isa isa);

/* The entry's header and blob table (native byte order). */
typedef struct cache_header {
    char magic[8];
    uint32_t format;
    uint32_t header_bytes;
    char library[96];          /* version and build id, NUL padded */
    uint32_t isa;
    uint32_t byte_order;
    uint32_t pointer_bytes;
    uint32_t n_blobs;
    uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN];
    uint8_t model_hash[NN_CACHE_HASH_BYTES];
    uint64_t file_bytes;
    uint8_t payload_hash[NN_CACHE_HASH_BYTES]; /* of every byte after the header */
    uint8_t header_hash[NN_CACHE_HASH_BYTES];  /* of the header up to here */
} cache_header;

typedef struct cache_blob {
    uint32_t subplan;
    uint32_t op_index;
    uint32_t seq;
    uint32_t reserved;
    uint64_t offset;
    uint64_t bytes;
} cache_blob;

/* Blobs, and the table after the header, start at multiples of this. */
#define NN_CACHE_ALIGN 64u
#define NN_CACHE_HEADER_SPAN \
    ((sizeof(cache_header) + NN_CACHE_ALIGN - 1) & ~(size_t)(NN_CACHE_ALIGN - 1))

/* Recomputes the header's own hash (tests forge headers with it). */
void nn_cache_seal_header(cache_header *hd);
/* Whether the file now at path is kept mapped as a checked entry (its next
 * hit in this process hashes the model only). */
bool nn_cache_entry_kept(const char *path);
/* Whether the compilation's blobs come from a mapped entry (a hit). */
bool nn_cache_is_hit(const nn_cache *cache);

/* The hash an entry for this compilation must carry (model, referenced
 * models, constants, relaxed flag, preference). OUT_OF_MEMORY or NO_ERROR. */
int nn_cache_model_hash(const ANeuralNetworksCompilation *c, uint8_t out[NN_CACHE_HASH_BYTES]);

/* The entry's file name in dir for token (malloc'd), NULL when out of memory. */
char *nn_cache_entry_path(const char *dir, const uint8_t *token);

/* Rewrites the header fields of an entry image that name its writer and
 * model (library, ISA, byte order, model hash) as this library would write
 * them for token and model_hash, and its hashes, so that the fuzz target reaches what
 * follows the identity checks. Does nothing to an image shorter than a
 * header. */
void nn_cache_forge_identity(uint8_t *image, size_t bytes, const uint8_t *token,
                             const uint8_t *model_hash, bool fix_payload_hash);

#endif
