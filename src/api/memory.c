/* ANeuralNetworksMemory and ANeuralNetworksMemoryDesc. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime.h"

int nn_memory_region(const ANeuralNetworksMemory *m, size_t offset, size_t length, bool write,
                     uint8_t **out)
{
    size_t end;
    if (!nn_add_size(offset, length, &end) || end > m->size)
        return nn_invalid("offset %zu + length %zu is outside the memory of %zu bytes", offset,
                          length, m->size);
    if (m->kind == NN_MEMORY_FD) {
        if (!(m->prot & PROT_READ))
            return nn_invalid("the memory is not readable");
        if (write && !(m->prot & PROT_WRITE))
            return nn_invalid("the memory is not writable");
    }
    *out = m->data + offset;
    return ANEURALNETWORKS_NO_ERROR;
}

/*
 * Whether [offset, offset + size) of fd can be mapped without faulting on
 * access: within the size of a regular file or memfd, within the size a
 * dma-buf style fd reports, or at offset 0 of /dev/zero (a shared mapping of
 * it is an object of exactly the mapping's length). Other character devices
 * and fds of unknown extent are refused. A file shrunk after the check still
 * faults: see the README (sealed memfds cannot shrink).
 */
static int check_fd_extent(int fd, size_t offset, size_t end)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        nn_vlog("createFromFd: fstat failed on fd %d", fd);
        return ANEURALNETWORKS_BAD_DATA;
    }
    if (S_ISCHR(st.st_mode)) {
        if (major(st.st_rdev) == 1 && minor(st.st_rdev) == 5 && offset == 0)
            return ANEURALNETWORKS_NO_ERROR;
        nn_vlog("createFromFd: character device %u:%u at offset %zu cannot be mapped safely",
                major(st.st_rdev), minor(st.st_rdev), offset);
        return ANEURALNETWORKS_BAD_DATA;
    }
    if (st.st_size <= 0 || end > (uint64_t)st.st_size) {
        nn_vlog("createFromFd: bytes [%zu, %zu) are outside the fd's %lld bytes", offset, end,
                (long long)st.st_size);
        return ANEURALNETWORKS_BAD_DATA;
    }
    if (S_ISREG(st.st_mode)) {
        int seals = fcntl(fd, F_GET_SEALS);
        if (seals >= 0 && !(seals & F_SEAL_SHRINK))
            nn_vlog("createFromFd: memfd %d is not sealed against shrinking (F_SEAL_SHRINK)",
                    fd);
    }
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd, size_t offset,
                                              ANeuralNetworksMemory **memory)
{
    if (memory == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Memory_createFromFd: memory is NULL");
    *memory = NULL;
    if (fd < 0 || size == 0)
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Memory_createFromFd: fd %d, size %zu", fd, size);
    if (protect & ~(PROT_READ | PROT_WRITE))
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Memory_createFromFd: protect %#x",
                       (unsigned)protect);
    long page = sysconf(_SC_PAGESIZE);
    size_t end;
    if (!nn_add_size(offset, size, &end) || end > (uint64_t)INT64_MAX) {
        nn_vlog("createFromFd: offset %zu + size %zu is beyond any file", offset, size);
        return ANEURALNETWORKS_BAD_DATA;
    }
    if (page <= 0 || offset % (size_t)page != 0) {
        nn_vlog("createFromFd: offset %zu is not a multiple of the page size %ld", offset, page);
        return ANEURALNETWORKS_BAD_DATA;
    }
    int rc = check_fd_extent(fd, offset, end);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    ANeuralNetworksMemory *m = calloc(1, sizeof *m);
    if (m == NULL)
        return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "Memory_createFromFd: out of memory");
    m->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (m->fd < 0) {
        bool exhausted = errno == EMFILE || errno == ENFILE;
        nn_vlog("createFromFd: cannot duplicate fd %d%s", fd,
                exhausted ? ": the process has no descriptor left" : "");
        free(m);
        return exhausted ? ANEURALNETWORKS_OUT_OF_MEMORY : ANEURALNETWORKS_BAD_DATA;
    }
    void *base = mmap(NULL, size, protect, MAP_SHARED, m->fd, (off_t)offset);
    if (base == MAP_FAILED) {
        nn_vlog("createFromFd: mmap of fd %d failed", fd);
        close(m->fd);
        free(m);
        return nn_fail(ANEURALNETWORKS_UNMAPPABLE, "Memory_createFromFd: the fd cannot be mapped");
    }
    m->kind = NN_MEMORY_FD;
    m->map_base = base;
    m->map_length = size;
    m->prot = protect;
    m->data = base;
    m->size = size;
    pthread_mutex_init(&m->lock, NULL);
    *memory = m;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API void ANeuralNetworksMemory_free(ANeuralNetworksMemory *m)
{
    if (m == NULL)
        return;
    if (m->kind == NN_MEMORY_FD) {
        munmap(m->map_base, m->map_length);
        close(m->fd);
    } else {
        free(m->data);
    }
    free(m->dims);
    free(m->roles);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

NN_API int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc **desc)
{
    if (desc == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "MemoryDesc_create: desc is NULL");
    *desc = calloc(1, sizeof **desc);
    return *desc ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

NN_API void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc *desc)
{
    if (desc == NULL)
        return;
    free(desc->roles);
    free(desc->dims);
    free(desc->channel_quant.scales);
    free(desc);
}

/* Merges a shape into the descriptor's; BAD_DATA if they are incompatible,
 * OUT_OF_MEMORY if the first shape cannot be copied. */
static int merge_dims(ANeuralNetworksMemoryDesc *d, uint32_t rank, const uint32_t *dims)
{
    if (rank == 0)
        return ANEURALNETWORKS_NO_ERROR; /* unknown rank (or scalar): constrains nothing */
    if (!d->rank_known) {
        int rc = nn_dims_dup(dims, rank, &d->dims);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
        d->rank_known = true;
        d->rank = rank;
        return ANEURALNETWORKS_NO_ERROR;
    }
    if (d->rank != rank)
        return nn_invalid("rank %u, the roles have rank %u", rank, d->rank);
    for (uint32_t i = 0; i < rank; i++) {
        if (d->dims[i] != 0 && dims[i] != 0 && d->dims[i] != dims[i])
            return nn_invalid("dimension %u is %u, the roles have %u", i, dims[i], d->dims[i]);
    }
    for (uint32_t i = 0; i < rank; i++)
        if (d->dims[i] == 0)
            d->dims[i] = dims[i];
    return ANEURALNETWORKS_NO_ERROR;
}

static bool same_channel_quant(const nn_channel_quant *a, const nn_channel_quant *b)
{
    return a->channel_dim == b->channel_dim && a->scale_count == b->scale_count &&
           (a->scale_count == 0 || memcmp(a->scales, b->scales, a->scale_count * sizeof(float)) == 0);
}

static int add_role(ANeuralNetworksMemoryDesc *d, const ANeuralNetworksCompilation *c,
                    uint32_t index, float frequency, bool is_input)
{
    const char *fn = is_input ? "MemoryDesc_addInputRole" : "MemoryDesc_addOutputRole";
    if (d == NULL || c == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "%s: %s is NULL", fn,
                       d == NULL ? "desc" : "compilation");
    if (d->finished)
        return nn_fail(ANEURALNETWORKS_BAD_STATE, "%s: the descriptor is finished", fn);
    if (!nn_compilation_ready(c))
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "%s: the compilation is not finished, or failed", fn);
    const ANeuralNetworksModel *model = c->model;
    uint32_t count = is_input ? model->n_inputs : model->n_outputs;
    if (index >= count)
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "%s(%u): the model has %u %s", fn, index, count,
                       is_input ? "inputs" : "outputs");
    if (!(frequency > 0.0f && frequency <= 1.0f))
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "%s(%u): frequency %g", fn, index,
                       (double)frequency);
    for (uint32_t i = 0; i < d->n_roles; i++)
        if (d->roles[i].compilation == c && d->roles[i].is_input == is_input &&
            d->roles[i].index == index)
            return nn_fail(ANEURALNETWORKS_BAD_DATA, "%s(%u): the role is already there", fn,
                           index);
    const nn_operand *o =
            &model->operands[is_input ? model->inputs[index] : model->outputs[index]];
    bool per_channel = o->type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;
    if (d->has_operand && (o->type != d->type || o->scale != d->scale ||
                           o->zero_point != d->zero_point ||
                           (per_channel && !same_channel_quant(&o->channel_quant,
                                                               &d->channel_quant))))
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "%s(%u): the operand's type or quantization differs from the other roles'",
                       fn, index);
    /* Scalars take roles too (Android's MemoryBuilder), with no dimensions. */
    bool scalar = !nn_type_is_tensor(o->type);
    if (o->type == ANEURALNETWORKS_MODEL || (scalar && d->rank_known && d->rank != 0))
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "%s(%u): dimensions for a %s operand", fn, index,
                       nn_type_name(o->type));
    float *scales = NULL;
    if (per_channel && !d->has_operand && o->channel_quant.scale_count) {
        scales = malloc(o->channel_quant.scale_count * sizeof *scales);
        if (scales == NULL)
            return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "%s: out of memory", fn);
        memcpy(scales, o->channel_quant.scales, o->channel_quant.scale_count * sizeof *scales);
    }
    /* Room for the role first: once the dims are merged nothing may fail. */
    nn_memory_role *roles = realloc(d->roles, (d->n_roles + 1) * sizeof *roles);
    if (roles == NULL) {
        free(scales);
        return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    d->roles = roles;
    int rc = merge_dims(d, o->rank, o->dims);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        free(scales);
        return nn_fail(rc, "%s(%u): the operand's dimensions", fn, index);
    }
    if (scalar) {
        d->rank_known = true;
        d->rank = 0;
    }
    if (scales) {
        d->channel_quant = o->channel_quant;
        d->channel_quant.scales = scales;
    }
    d->roles[d->n_roles++] = (nn_memory_role){.compilation = c, .is_input = is_input,
                                              .index = index};
    d->has_operand = true;
    d->type = o->type;
    d->scale = o->scale;
    d->zero_point = o->zero_point;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksMemoryDesc_addInputRole(ANeuralNetworksMemoryDesc *desc,
                                                  const ANeuralNetworksCompilation *compilation,
                                                  uint32_t index, float frequency)
{
    return add_role(desc, compilation, index, frequency, true);
}

NN_API int ANeuralNetworksMemoryDesc_addOutputRole(ANeuralNetworksMemoryDesc *desc,
                                                   const ANeuralNetworksCompilation *compilation,
                                                   uint32_t index, float frequency)
{
    return add_role(desc, compilation, index, frequency, false);
}

NN_API int ANeuralNetworksMemoryDesc_setDimensions(ANeuralNetworksMemoryDesc *desc, uint32_t rank,
                                                   const uint32_t *dimensions)
{
    if (desc == NULL || (rank > 0 && dimensions == NULL))
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "MemoryDesc_setDimensions: %s is NULL",
                       desc == NULL ? "desc" : "dimensions");
    if (desc->finished)
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "MemoryDesc_setDimensions: the descriptor is finished");
    /* A scalar role's memory has rank 0: no other rank fits it. */
    if (desc->has_operand && !nn_type_is_tensor(desc->type) && rank != 0)
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "MemoryDesc_setDimensions: rank %u for a %s operand", rank,
                       nn_type_name(desc->type));
    int rc = merge_dims(desc, rank, dimensions);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "MemoryDesc_setDimensions");
    desc->has_dims = true;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc *desc)
{
    if (desc == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "MemoryDesc_finish: desc is NULL");
    if (desc->finished)
        return nn_fail(ANEURALNETWORKS_BAD_STATE, "MemoryDesc_finish: the descriptor is finished");
    if (desc->n_roles == 0)
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "MemoryDesc_finish: the descriptor has no role");
    desc->finished = true;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc *desc,
                                                ANeuralNetworksMemory **memory)
{
    if (desc == NULL || memory == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Memory_createFromDesc: an argument is NULL");
    *memory = NULL;
    if (!desc->finished)
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "Memory_createFromDesc: the descriptor is not finished");
    /* Buffers are allocated up front, so the whole shape must be known. */
    if (!desc->rank_known)
        return nn_fail(ANEURALNETWORKS_OP_FAILED, "Memory_createFromDesc: the rank is not known");
    for (uint32_t i = 0; i < desc->rank; i++)
        if (desc->dims[i] == 0)
            return nn_fail(ANEURALNETWORKS_OP_FAILED,
                           "Memory_createFromDesc: dimension %u is not known", i);
    size_t bytes = nn_operand_bytes(desc->type, desc->rank, desc->dims);
    if (bytes == 0)
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Memory_createFromDesc: the size overflows");
    ANeuralNetworksMemory *m = calloc(1, sizeof *m);
    size_t alloc_bytes = (bytes + 63) & ~(size_t)63;
    uint8_t *data = alloc_bytes >= bytes ? aligned_alloc(64, alloc_bytes) : NULL;
    nn_memory_role *roles = malloc(desc->n_roles * sizeof *roles);
    uint32_t *dims = NULL;
    if (m == NULL || data == NULL || roles == NULL ||
        nn_dims_dup(desc->dims, desc->rank, &dims) != ANEURALNETWORKS_NO_ERROR) {
        free(m);
        free(data);
        free(roles);
        return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "Memory_createFromDesc: out of memory");
    }
    memset(data, 0, alloc_bytes);
    memcpy(roles, desc->roles, desc->n_roles * sizeof *roles);
    m->kind = NN_MEMORY_DESC;
    m->data = data;
    m->size = bytes;
    m->fd = -1;
    m->type = desc->type;
    m->scale = desc->scale;
    m->zero_point = desc->zero_point;
    m->rank = desc->rank;
    m->dims = dims;
    m->roles = roles;
    m->n_roles = desc->n_roles;
    pthread_mutex_init(&m->lock, NULL);
    *memory = m;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksMemory_copy(const ANeuralNetworksMemory *src,
                                      const ANeuralNetworksMemory *dst)
{
    if (src == NULL || dst == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Memory_copy: an argument is NULL");
    /* Memory objects are shared: their state changes under their own lock. */
    ANeuralNetworksMemory *d = (ANeuralNetworksMemory *)dst;
    ANeuralNetworksMemory *s = (ANeuralNetworksMemory *)src;
    if (s == d)
        return ANEURALNETWORKS_NO_ERROR;
    int rc = ANEURALNETWORKS_NO_ERROR;
    if (s->kind == NN_MEMORY_DESC) {
        pthread_mutex_lock(&s->lock);
        bool init = s->initialized;
        pthread_mutex_unlock(&s->lock);
        if (!init)
            rc = ANEURALNETWORKS_BAD_DATA;
    } else if (!(s->prot & PROT_READ)) {
        rc = ANEURALNETWORKS_BAD_DATA;
    }
    if (d->kind == NN_MEMORY_FD && !(d->prot & PROT_WRITE))
        rc = ANEURALNETWORKS_BAD_DATA;
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        if (s->kind == NN_MEMORY_DESC && d->kind == NN_MEMORY_DESC) {
            bool same_rank = s->rank == d->rank;
            for (uint32_t i = 0; same_rank && i < s->rank; i++)
                if (s->dims[i] != d->dims[i])
                    same_rank = false;
            if (!same_rank || s->type != d->type)
                rc = ANEURALNETWORKS_BAD_DATA;
        } else if (s->size != d->size) {
            rc = ANEURALNETWORKS_BAD_DATA;
        }
    }
    if (rc == ANEURALNETWORKS_NO_ERROR)
        memcpy(d->data, s->data, s->size);
    if (d->kind == NN_MEMORY_DESC) {
        pthread_mutex_lock(&d->lock);
        d->initialized = rc == ANEURALNETWORKS_NO_ERROR;
        pthread_mutex_unlock(&d->lock);
    }
    return nn_fail(rc,
                   "Memory_copy: the memories differ in size, shape or type, or the source is "
                   "not initialized");
}
