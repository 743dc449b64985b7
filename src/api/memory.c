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
        return ANEURALNETWORKS_BAD_DATA;
    if (m->kind == NN_MEMORY_FD) {
        if (!(m->prot & PROT_READ))
            return ANEURALNETWORKS_BAD_DATA;
        if (write && !(m->prot & PROT_WRITE))
            return ANEURALNETWORKS_BAD_DATA;
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
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    *memory = NULL;
    if (fd < 0 || size == 0)
        return ANEURALNETWORKS_BAD_DATA;
    if (protect & ~(PROT_READ | PROT_WRITE))
        return ANEURALNETWORKS_BAD_DATA;
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
        return ANEURALNETWORKS_OUT_OF_MEMORY;
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
        return ANEURALNETWORKS_UNMAPPABLE;
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
    free(m->roles);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

NN_API int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc **desc)
{
    if (desc == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    *desc = calloc(1, sizeof **desc);
    return *desc ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

NN_API void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc *desc)
{
    if (desc == NULL)
        return;
    free(desc->roles);
    free(desc);
}

/* Merges a shape into the descriptor's; BAD_DATA if they are incompatible. */
static int merge_dims(ANeuralNetworksMemoryDesc *d, uint32_t rank, const uint32_t *dims)
{
    if (rank == 0)
        return ANEURALNETWORKS_NO_ERROR; /* unknown rank (or scalar): constrains nothing */
    if (rank > NN_MAX_RANK)
        return ANEURALNETWORKS_BAD_DATA;
    if (!d->rank_known) {
        d->rank_known = true;
        d->rank = rank;
        memcpy(d->dims, dims, rank * sizeof *dims);
        return ANEURALNETWORKS_NO_ERROR;
    }
    if (d->rank != rank)
        return ANEURALNETWORKS_BAD_DATA;
    for (uint32_t i = 0; i < rank; i++) {
        if (d->dims[i] != 0 && dims[i] != 0 && d->dims[i] != dims[i])
            return ANEURALNETWORKS_BAD_DATA;
    }
    for (uint32_t i = 0; i < rank; i++)
        if (d->dims[i] == 0)
            d->dims[i] = dims[i];
    return ANEURALNETWORKS_NO_ERROR;
}

static int add_role(ANeuralNetworksMemoryDesc *d, const ANeuralNetworksCompilation *c,
                    uint32_t index, float frequency, bool is_input)
{
    if (d == NULL || c == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (d->finished || !c->finished)
        return d->finished ? ANEURALNETWORKS_BAD_STATE : ANEURALNETWORKS_BAD_DATA;
    if (c->plan == NULL) {
        nn_vlog("MemoryDesc_add%sRole: the compilation's finish failed",
                is_input ? "Input" : "Output");
        return ANEURALNETWORKS_BAD_DATA;
    }
    const ANeuralNetworksModel *model = c->model;
    uint32_t count = is_input ? model->n_inputs : model->n_outputs;
    if (index >= count || !(frequency > 0.0f && frequency <= 1.0f))
        return ANEURALNETWORKS_BAD_DATA;
    for (uint32_t i = 0; i < d->n_roles; i++)
        if (d->roles[i].compilation == c && d->roles[i].is_input == is_input &&
            d->roles[i].index == index)
            return ANEURALNETWORKS_BAD_DATA;
    const nn_operand *o =
            &model->operands[is_input ? model->inputs[index] : model->outputs[index]];
    if (d->has_operand && (o->type != d->type || o->scale != d->scale ||
                           o->zero_point != d->zero_point))
        return ANEURALNETWORKS_BAD_DATA;
    if (!nn_type_is_tensor(o->type) || o->type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL)
        return ANEURALNETWORKS_BAD_DATA;
    ANeuralNetworksMemoryDesc saved = *d;
    int rc = merge_dims(d, o->rank, o->dims);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        *d = saved;
        return rc;
    }
    nn_memory_role *roles = realloc(d->roles, (d->n_roles + 1) * sizeof *roles);
    if (roles == NULL) {
        *d = saved;
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    d->roles = roles;
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
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (desc->finished)
        return ANEURALNETWORKS_BAD_STATE;
    ANeuralNetworksMemoryDesc saved = *desc;
    int rc = merge_dims(desc, rank, dimensions);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        *desc = saved;
        return rc;
    }
    desc->has_dims = true;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc *desc)
{
    if (desc == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (desc->finished)
        return ANEURALNETWORKS_BAD_STATE;
    if (desc->n_roles == 0)
        return ANEURALNETWORKS_BAD_DATA;
    desc->finished = true;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc *desc,
                                                ANeuralNetworksMemory **memory)
{
    if (desc == NULL || memory == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    *memory = NULL;
    if (!desc->finished)
        return ANEURALNETWORKS_BAD_STATE;
    /* Buffers are allocated up front, so the whole shape must be known. */
    if (!desc->rank_known)
        return ANEURALNETWORKS_OP_FAILED;
    for (uint32_t i = 0; i < desc->rank; i++)
        if (desc->dims[i] == 0)
            return ANEURALNETWORKS_OP_FAILED;
    size_t bytes = nn_operand_bytes(desc->type, desc->rank, desc->dims);
    if (bytes == 0)
        return ANEURALNETWORKS_BAD_DATA;
    ANeuralNetworksMemory *m = calloc(1, sizeof *m);
    size_t alloc_bytes = (bytes + 63) & ~(size_t)63;
    uint8_t *data = alloc_bytes >= bytes ? aligned_alloc(64, alloc_bytes) : NULL;
    nn_memory_role *roles = malloc(desc->n_roles * sizeof *roles);
    if (m == NULL || data == NULL || roles == NULL) {
        free(m);
        free(data);
        free(roles);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
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
    memcpy(m->dims, desc->dims, sizeof m->dims);
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
        return ANEURALNETWORKS_UNEXPECTED_NULL;
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
    return rc;
}
