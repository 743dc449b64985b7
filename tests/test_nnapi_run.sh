#!/bin/sh
# End-to-end test of nnapi-run on the real TensorFlow Lite models of
# tests/models: every model with its reference inputs must reproduce the
# reference outputs of TensorFlow Lite (floats within 1e-4 relative + 1e-4
# absolute, quantized exactly: 0 steps, classifier top-5 identical), plus the
# embedded default, image input, output files, JSON and error handling.
#   usage: test_nnapi_run.sh NNAPI_RUN MODELS_DIR
set -u
run=$1
dir=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnapi-run-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0

pass() { echo "PASS $1"; }
fail() {
    echo "FAIL $1"
    [ -f "$tmp/log" ] && sed 's/^/    /' "$tmp/log"
    failures=$((failures + 1))
}

# Reference inputs -> reference outputs, for every model and reference set.
for ref in "$dir"/ref/* "$dir"/ref_img/*; do
    [ -d "$ref" ] || continue
    model=$(basename "$ref")
    set_name=$(basename "$(dirname "$ref")")
    # --compare allows 2 quantized steps; the library computes TFLite's
    # integer arithmetic bit for bit, so every quantized output must be exact.
    if "$run" "$dir/$model.tflite" --compare "$ref" >"$tmp/log" 2>&1 &&
        ! grep 'compare:' "$tmp/log" | grep ' steps)' | grep -vq '(0 steps)'; then
        pass "$model ($set_name): $(grep 'compare:' "$tmp/log" | sed 's/^ *compare: //')"
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

# Errors: a damaged model, a wrong-sized input, an unknown device.
head -c 1000 "$dir/person_detect.tflite" >"$tmp/truncated.tflite"
"$run" "$tmp/truncated.tflite" >"$tmp/log" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q 'malformed\|outside' "$tmp/log"; then pass "truncated model rejected"; else fail "truncated model rejected (exit $rc)"; fi
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

rm -f "$tmp/log"
if [ $failures -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
