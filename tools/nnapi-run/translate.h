/*
 * Translation of a TensorFlow Lite graph into an NNAPI model, through the
 * public NNAPI API only.
 */
#ifndef NNAPI_RUN_TRANSLATE_H
#define NNAPI_RUN_TRANSLATE_H

#include <stddef.h>
#include <stdint.h>

#include <android/NeuralNetworks.h>

#include "tflite.h"

typedef struct {
    ANeuralNetworksModel *model;
    /* TFLite tensor index of each NNAPI model input and output, in order. */
    uint32_t n_inputs, n_outputs;
    int32_t *input_tensor, *output_tensor;
    /* Each output's description: the TFLite tensor's, with the static shape
     * the translation found where the file leaves it unshaped. The shape
     * points into the model or into blocks. */
    tfl_tensor *output_desc;
    /* For each NNAPI operation: the TFLite operator it came from and its code,
     * to name the culprit when the runtime rejects an operation. */
    uint32_t n_ops;
    int32_t *op_source, *op_code;
    /* Constant data the model refers to (converted or synthesized values). */
    void **blocks;
    size_t n_blocks, cap_blocks;
} nr_translation;

/* Builds and finishes the NNAPI model, using only operations of the given
 * NNAPI feature level (0: the runtime's). Returns 0, or -1 with a message. */
int nr_translate(const tfl_model *tm, int relaxed, int64_t feature_level, nr_translation *out,
                 char *err, size_t err_size);
void nr_translation_free(nr_translation *tr);

const char *nr_nnapi_op_name(int code);

#endif
