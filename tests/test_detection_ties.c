/*
 * DETECTION_POSTPROCESSING with candidates of equal score. The specification
 * does not order ties; we keep the first in anchor order, as TensorFlow
 * Lite's TFLite_Detection_PostProcess does (a stable sort by score, then
 * greedy suppression), so that SSD models translated from TFLite give TFLite's
 * detections. Android's reference picks the first maximum of an array that
 * its suppression loop has reordered, which here would keep anchor 2.
 *
 * Anchors (boxes, as the deltas are zero), one real class after background:
 *   0: score 0.1, below the threshold
 *   1: score 0.8, overlaps anchor 2 (IoU ~0.9)
 *   2: score 0.8
 *   3: score 0.9, apart from the others
 * Expected: anchor 3, then anchor 1; anchor 2 suppressed by anchor 1, also
 * when the score threshold is 0.8 itself.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "android/NeuralNetworks.h"
#include "test_util.h"

enum { ANCHORS = 4, CLASSES = 2, MAX_DET = 3 };

static uint32_t operand_count;

static uint32_t add_tensor(ANeuralNetworksModel *m, int32_t type, uint32_t rank,
                           const uint32_t *dims)
{
    ANeuralNetworksOperandType t = {.type = type, .dimensionCount = rank, .dimensions = dims};
    CHECK_OK(ANeuralNetworksModel_addOperand(m, &t));
    return operand_count++;
}

static uint32_t add_scalar(ANeuralNetworksModel *m, int32_t type, const void *value, size_t len)
{
    uint32_t i = add_tensor(m, type, 0, NULL);
    CHECK_OK(ANeuralNetworksModel_setOperandValue(m, (int32_t)i, value, len));
    return i;
}

static void run_case(bool regular_nms, float score_threshold)
{
    static const float scores[ANCHORS * CLASSES] = {0, 0.1f, 0, 0.8f, 0, 0.8f, 0, 0.9f};
    static const float deltas[ANCHORS * 4] = {0};
    static const float anchors[ANCHORS * 4] = {
        0.9f, 0.9f, 0.1f, 0.1f, 0.5f, 0.5f, 0.2f, 0.2f,
        0.5f, 0.51f, 0.2f, 0.2f, 0.1f, 0.1f, 0.1f, 0.1f,
    };
    const uint32_t d_scores[] = {1, ANCHORS, CLASSES}, d_deltas[] = {1, ANCHORS, 4};
    const uint32_t d_anchors[] = {ANCHORS, 4}, d_out[] = {1, MAX_DET};
    const uint32_t d_boxes[] = {1, MAX_DET, 4}, d_num[] = {1};
    const float one = 1.0f, score_thr = score_threshold, iou_thr = 0.5f;
    const int32_t max_det = MAX_DET, per_det = 1, per_class = MAX_DET;
    const bool regular = regular_nms, bg_in_label = false;

    ANeuralNetworksModel *m = NULL;
    CHECK_OK(ANeuralNetworksModel_create(&m));
    operand_count = 0;
    uint32_t in[14], out[4];
    in[0] = add_tensor(m, ANEURALNETWORKS_TENSOR_FLOAT32, 3, d_scores);
    in[1] = add_tensor(m, ANEURALNETWORKS_TENSOR_FLOAT32, 3, d_deltas);
    in[2] = add_tensor(m, ANEURALNETWORKS_TENSOR_FLOAT32, 2, d_anchors);
    CHECK_OK(ANeuralNetworksModel_setOperandValue(m, (int32_t)in[2], anchors, sizeof anchors));
    for (int i = 3; i <= 6; i++)
        in[i] = add_scalar(m, ANEURALNETWORKS_FLOAT32, &one, sizeof one);
    in[7] = add_scalar(m, ANEURALNETWORKS_BOOL, &regular, sizeof regular);
    in[8] = add_scalar(m, ANEURALNETWORKS_INT32, &max_det, sizeof max_det);
    in[9] = add_scalar(m, ANEURALNETWORKS_INT32, &per_det, sizeof per_det);
    in[10] = add_scalar(m, ANEURALNETWORKS_INT32, &per_class, sizeof per_class);
    in[11] = add_scalar(m, ANEURALNETWORKS_FLOAT32, &score_thr, sizeof score_thr);
    in[12] = add_scalar(m, ANEURALNETWORKS_FLOAT32, &iou_thr, sizeof iou_thr);
    in[13] = add_scalar(m, ANEURALNETWORKS_BOOL, &bg_in_label, sizeof bg_in_label);
    out[0] = add_tensor(m, ANEURALNETWORKS_TENSOR_FLOAT32, 2, d_out);
    out[1] = add_tensor(m, ANEURALNETWORKS_TENSOR_FLOAT32, 3, d_boxes);
    out[2] = add_tensor(m, ANEURALNETWORKS_TENSOR_INT32, 2, d_out);
    out[3] = add_tensor(m, ANEURALNETWORKS_TENSOR_INT32, 1, d_num);
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_DETECTION_POSTPROCESSING, 14,
                                               in, 4, out));
    const uint32_t model_in[] = {in[0], in[1]};
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, model_in, 4, out));
    CHECK_OK(ANeuralNetworksModel_finish(m));

    ANeuralNetworksCompilation *c = NULL;
    CHECK_OK(ANeuralNetworksCompilation_create(m, &c));
    CHECK_OK(ANeuralNetworksCompilation_finish(c));
    ANeuralNetworksExecution *e = NULL;
    CHECK_OK(ANeuralNetworksExecution_create(c, &e));
    float o_scores[MAX_DET], o_boxes[MAX_DET * 4];
    int32_t o_classes[MAX_DET], o_num[1];
    memset(o_scores, 0xff, sizeof o_scores);
    CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, scores, sizeof scores));
    CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, deltas, sizeof deltas));
    CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, o_scores, sizeof o_scores));
    CHECK_OK(ANeuralNetworksExecution_setOutput(e, 1, NULL, o_boxes, sizeof o_boxes));
    CHECK_OK(ANeuralNetworksExecution_setOutput(e, 2, NULL, o_classes, sizeof o_classes));
    CHECK_OK(ANeuralNetworksExecution_setOutput(e, 3, NULL, o_num, sizeof o_num));
    CHECK_OK(ANeuralNetworksExecution_compute(e));

    CHECK_EQ_INT(o_num[0], 2);
    CHECK(o_scores[0] == 0.9f && o_scores[1] == 0.8f);
    CHECK_EQ_INT(o_classes[0], 0);
    CHECK_EQ_INT(o_classes[1], 0);
    /* The second detection is anchor 1 (x centre 0.5), not anchor 2 (0.51). */
    const float anchor3[4] = {0.05f, 0.05f, 0.15f, 0.15f}, anchor1[4] = {0.4f, 0.4f, 0.6f, 0.6f};
    for (int k = 0; k < 4; k++) {
        CHECK(fabsf(o_boxes[k] - anchor3[k]) < 1e-6f);
        CHECK(fabsf(o_boxes[4 + k] - anchor1[k]) < 1e-6f);
    }
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

int main(void)
{
    run_case(false, 0.5f);
    run_case(true, 0.5f);
    /* Only scores lower than the threshold are filtered (NeuralNetworks.h,
     * input 11; TFLite agrees): a score equal to it stays a candidate. */
    run_case(false, 0.8f);
    run_case(true, 0.8f);
    return nt_summary();
}
