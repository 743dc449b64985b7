#!/bin/sh
# End-to-end test of nnapi-run on the real TensorFlow Lite models of
# tests/models: every model with its reference inputs must reproduce the
# reference outputs of TensorFlow Lite (floats within 1e-4 relative + 1e-4
# absolute, quantized within steps_for(model) steps, classifier top-5
# identical) or be a listed known mismatch or untranslatable model, plus the
# embedded default, image input, output files, JSON, the profile and error
# handling.
#   usage: test_nnapi_run.sh NNAPI_RUN MODELS_DIR
set -u
run=$1
dir=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnapi-run-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
passes=0
known_mismatches=0

pass() {
    echo "PASS $1"
    passes=$((passes + 1))
}
fail() {
    echo "FAIL $1"
    [ -f "$tmp/log" ] && sed 's/^/    /' "$tmp/log"
    failures=$((failures + 1))
}

# Tolerances, in one place. Quantized outputs: steps of the output's scale.
# The library computes TFLite's integer arithmetic bit for bit
# (src/kernels/quant.h), so quantized outputs must be exact: 0 steps (2 would
# hold between independent TFLite kernels, MANIFEST.md); a model may set its own.
quant_steps=0
steps_for() {
    case $1 in
    *) echo "$quant_steps" ;;
    esac
}

# Model/reference sets that do not match yet, each with its reason. A listed
# set that starts to match fails the test, so that the list stays true.
known_mismatch() {
    case $1 in
    esac
}

# Models with operators NNAPI cannot express: nnapi-run must say which and why
# (exit status 3), naming every such operator in one message.
untranslatable() {
    case $1 in
    keyword_scrambled) echo "SVDF x7 (#1 #3 #5 #7 #9 #10 #11)" ;;
    esac
}

# Reference inputs -> reference outputs, for every model and reference set.
for ref in "$dir"/ref/* "$dir"/ref_img/*; do
    [ -d "$ref" ] || continue
    model=$(basename "$ref")
    set_name=$(basename "$(dirname "$ref")")
    "$run" "$dir/$model.tflite" --compare "$ref" --max-steps "$(steps_for "$model")" >"$tmp/log" 2>&1
    rc=$?
    expect=$(untranslatable "$model")
    known=$(known_mismatch "$model/$set_name")
    if [ -n "$expect" ]; then
        if [ $rc -eq 3 ] && grep -qF "$expect" "$tmp/log" && ! grep -q '^output' "$tmp/log"; then
            pass "$model ($set_name): not translatable, as expected: $(grep -o 'operators cannot be translated:.*' "$tmp/log")"
        else
            fail "$model ($set_name): expected exit 3 naming $expect (exit $rc)"
        fi
    elif [ -n "$known" ]; then
        if [ $rc -eq 1 ] && grep -q 'compare: FAIL' "$tmp/log"; then
            echo "KNOWN MISMATCH $model ($set_name): $known"
            known_mismatches=$((known_mismatches + 1))
        else
            fail "$model ($set_name): listed as a known mismatch ($known) but exit $rc: update the list"
        fi
    elif [ $rc -eq 0 ]; then
        pass "$model ($set_name): $(grep 'compare:' "$tmp/log" | sed 's/^ *compare: //' | tr '\n' ';')"
    else
        fail "$model ($set_name)"
    fi
done

# Images go through nnapi-run's own decoder and bilinear resize, which
# reproduce the reference image inputs up to the rounding of exact .5 pixel
# values (a few of 150528 differ by one level), so the classes must match.
for model in mobilenet_v1_0.25_128_quant mobilenet_v1_0.25_224_1_default_1; do
    "$run" "$dir/$model.tflite" --input "$dir/images/cat.bmp" --compare "$dir/ref_img/$model" >"$tmp/log" 2>&1
    if grep -q 'top-5 identical' "$tmp/log"; then
        pass "$model (cat.bmp decoded by nnapi-run)"
    else
        fail "$model (cat.bmp decoded by nnapi-run)"
    fi
done

# The embedded default: the quantized MobileNet on the cat, top class and
# score as TensorFlow Lite computes them (82/256 for "tiger cat").
if "$run" >"$tmp/log" 2>&1 && grep -q '0.320312 *283 *tiger cat' "$tmp/log"; then
    pass "embedded default"
else
    fail "embedded default"
fi

# Output files, JSON, repetitions and threads.
if "$run" "$dir/micro_speech_quantized.tflite" --input "$dir/ref/micro_speech_quantized/input_0.bin" \
    --output-dir "$tmp" --repeat 3 --threads 1 --json >"$tmp/json" 2>"$tmp/log" &&
    cmp -s "$tmp/output_0.bin" "$dir/ref/micro_speech_quantized/output_0.bin" &&
    grep -q '"values": \[-128,-122,-125,119\]' "$tmp/json" && grep -q '"latency_ms"' "$tmp/json" &&
    grep -q 'latency over 3 runs' "$tmp/log"; then
    pass "output files, JSON, --repeat, --threads"
else
    fail "output files, JSON, --repeat, --threads"
fi

# Results do not depend on the thread count: every output bit for bit the
# same at 1, 2 and 3 threads (float and quantized models, with branches).
for m in mobilenet_v1_0.25_224_1_default_1 mobilenet_v2_1.0_224_quant deeplabv3 \
    coco_ssd_mobilenet_v1_1.0_quant_2018_06_29; do
    same=1
    for t in 1 2 3; do
        mkdir -p "$tmp/threads$t"
        "$run" "$dir/$m.tflite" --input "$dir/ref/$m/input_0.bin" --output-dir "$tmp/threads$t" \
            --threads $t >"$tmp/log" 2>&1 || same=0
    done
    for f in "$tmp/threads1"/output_*.bin; do
        for t in 2 3; do
            cmp -s "$f" "$tmp/threads$t/$(basename "$f")" || same=0
        done
    done
    [ -f "$tmp/threads1/output_0.bin" ] || same=0
    if [ $same -eq 1 ]; then pass "$m: same bits at 1, 2, 3 threads"; else fail "$m: same bits at 1, 2, 3 threads"; fi
    rm -rf "$tmp/threads1" "$tmp/threads2" "$tmp/threads3"
done

# Errors: a damaged model, a wrong-sized input, an unknown device.
head -c 1000 "$dir/person_detect.tflite" >"$tmp/truncated.tflite"
"$run" "$tmp/truncated.tflite" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'is truncated' "$tmp/log"; then pass "truncated model rejected"; else fail "truncated model rejected (exit $rc)"; fi
head -c 100 "$dir/ref/trained_lstm/input_0.bin" >"$tmp/short.bin"
"$run" "$dir/trained_lstm.tflite" --input "$tmp/short.bin" >"$tmp/log" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q 'needs 3136' "$tmp/log"; then pass "wrong input size rejected"; else fail "wrong input size rejected (exit $rc)"; fi
"$run" "$dir/trained_lstm.tflite" --device no-such-device >"$tmp/log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then pass "unknown device rejected"; else fail "unknown device rejected"; fi

# An operator nnapi-run cannot translate: micro_speech with its SOFTMAX
# operator code (byte 18735, value 25) turned into LSH_PROJECTION (15).
cp "$dir/micro_speech_quantized.tflite" "$tmp/patched.tflite"
if [ "$(od -An -tu1 -j18735 -N1 "$tmp/patched.tflite" | tr -d ' ')" = 25 ]; then
    printf '\017' | dd of="$tmp/patched.tflite" bs=1 seek=18735 conv=notrunc 2>/dev/null
    "$run" "$tmp/patched.tflite" >"$tmp/log" 2>&1
    rc=$?
    if [ $rc -eq 3 ] && grep -q 'operator #3 LSH_PROJECTION' "$tmp/log" && ! grep -q '^output' "$tmp/log"; then
        pass "untranslatable operator named, no output"
    else
        fail "untranslatable operator named, no output (exit $rc)"
    fi
else
    fail "micro_speech_quantized.tflite changed: update the patch offset"
fi

# The profile: one table line per NNAPI operation with its TFLite origin, a
# Chrome trace with one event per operation and run (1 + 3 runs here).
if "$run" "$dir/mobilenet_v1_0.25_128_quant.tflite" --repeat 3 --profile="$tmp/trace.json" >"$tmp/out" 2>"$tmp/log" &&
    [ "$(grep -c '^  #[0-9]* [A-Z_0-9]* *#[0-9]* ' "$tmp/out")" -eq 31 ] &&
    grep -q '^  #0 CONV_2D  *#0 CONV_2D  *1x128x128x3 8x3x3x3 8 -> 1x64x64x8 ' "$tmp/out" &&
    grep -q 'sum of the operations. medians: .* measured median latency' "$tmp/out" &&
    [ "$(grep -c '"ph": "X"' "$tmp/trace.json")" -eq 124 ] && grep -q '"traceEvents"' "$tmp/trace.json"; then
    pass "--profile table and Chrome trace"
else
    fail "--profile table and Chrome trace"
fi

# BATCH_MATMUL, PACK, MIRROR_PAD and REVERSE_V2 as the single NNAPI operations
# of feature levels 6 and 7 (fl67/make_fl67_model.py made the model and its
# reference). Translating for feature level 5 must not use them: the model is
# then either composed from FL5 operations (more NNAPI operations, same
# results) or refused with the level it needs.
fl67=$dir/fl67
if "$run" "$fl67/fl67_ops.tflite" --compare "$fl67/ref" >"$tmp/log" 2>&1 &&
    grep -q 'compare: PASS' "$tmp/log" && grep -q '4 TFLite operators -> 4 NNAPI operations' "$tmp/log"; then
    pass "feature level 6/7 operators as single operations"
else
    fail "feature level 6/7 operators as single operations"
fi
"$run" "$fl67/fl67_ops.tflite" --compare "$fl67/ref" --feature-level 31 >"$tmp/log" 2>&1
rc=$?
if { [ $rc -eq 0 ] && grep -q 'compare: PASS' "$tmp/log" &&
     ! grep -q '4 TFLite operators -> 4 NNAPI operations' "$tmp/log"; } ||
   { [ $rc -eq 3 ] && grep -q 'needs NNAPI feature level 100000[67]' "$tmp/log"; }; then
    pass "--feature-level 31 avoids the feature level 6/7 operations"
else
    fail "--feature-level 31 avoids the feature level 6/7 operations (exit $rc)"
fi
"$run" "$fl67/fl67_ops.tflite" --feature-level 32 >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ]; then pass "--feature-level 32 rejected"; else fail "--feature-level 32 rejected (exit $rc)"; fi

# Usage errors exit 2 before running; messages say what is wrong.
"$run" "$dir/person_detect.tflite" --compare "$tmp/no-such-dir" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'not a directory' "$tmp/log" && ! grep -q 'first run' "$tmp/log"; then
    pass "--compare on a missing directory: exit 2 before running"
else
    fail "--compare on a missing directory (exit $rc)"
fi
"$run" "$dir/person_detect.tflite" --compare "$dir/ref/trained_lstm" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && ! grep -q 'first run' "$tmp/log"; then pass "--compare with the wrong model's files: exit 2 before running"; else fail "--compare with the wrong model's files (exit $rc)"; fi
"$run" "$dir/micro_speech_quantized.tflite" --output-dir "$tmp/new/sub" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ -f "$tmp/new/sub/output_0.bin" ]; then pass "--output-dir creates the directory"; else fail "--output-dir creates the directory (exit $rc)"; fi
: >"$tmp/file"
"$run" "$dir/micro_speech_quantized.tflite" --output-dir "$tmp/file/sub" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'not a directory' "$tmp/log" && ! grep -q 'first run' "$tmp/log"; then pass "--output-dir under a file: exit 2 before running"; else fail "--output-dir under a file (exit $rc)"; fi
"$run" --repeat 99999999999 >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'too large' "$tmp/log"; then pass "too-large count says so"; else fail "too-large count says so (exit $rc)"; fi
"$run" "$dir/micro_speech_quantized.tflite" --top 10 >"$tmp/out" 2>"$tmp/log"
if [ "$(grep -c '^ *0\.[0-9]* *[0-9]$' "$tmp/out")" -eq 4 ] && grep -q 'only 4 values' "$tmp/log"; then
    pass "--top K beyond the output's size says why it stops"
else
    fail "--top K beyond the output's size says why it stops"
fi
printf 'not an image' >"$tmp/fake.bmp"
"$run" "$dir/person_detect.tflite" --input "$tmp/fake.bmp" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'is not a BMP' "$tmp/log"; then pass "a .bmp that is not a BMP says so"; else fail "a .bmp that is not a BMP says so (exit $rc)"; fi

rm -f "$tmp/log"
echo "$passes passed, $failures failed ($known_mismatches known mismatches listed above)"
[ $failures -eq 0 ]
