#!/bin/sh
# The real models of tests/models split between the test SL driver (even
# operation codes) and the CPU: every output must equal, byte for byte, the
# output of the same model run on the CPU alone (the driver computes with
# the CPU's code), and the partition must be printed under NNAPI_LINUX_VLOG.
#   usage: test_partition_models.sh NNAPI_RUN MODELS_DIR TEST_DRIVER
set -u
run=$1
dir=$2
driver=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnapi-partition-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
passes=0
failures=0
split=0
for ref in "$dir"/ref/* "$dir"/ref_img/*; do
    [ -d "$ref" ] || continue
    model=$(basename "$ref")
    name="$model ($(basename "$(dirname "$ref")"))"
    rm -rf "$tmp/cpu" "$tmp/split" && mkdir "$tmp/cpu" "$tmp/split"
    inputs=""
    [ "$(basename "$(dirname "$ref")")" = ref_img ] && inputs="--input $dir/images/cat.bmp"
    # shellcheck disable=SC2086
    env -u NNAPI_LINUX_DRIVERS NNAPI_LINUX_DRIVERS_DIR=/nonexistent \
        "$run" "$dir/$model.tflite" $inputs --compare "$ref" --output-dir "$tmp/cpu" \
        >"$tmp/cpu.log" 2>&1
    rc_cpu=$?
    # shellcheck disable=SC2086
    NNAPI_LINUX_DRIVERS=$driver NNAPI_LINUX_DRIVERS_DIR=/nonexistent NNAPI_TEST_DRIVER_OPS=even \
        NNAPI_LINUX_VLOG=1 "$run" "$dir/$model.tflite" $inputs --compare "$ref" \
        --output-dir "$tmp/split" >"$tmp/split.log" 2>&1
    rc_split=$?
    if [ $rc_cpu -eq 3 ] && [ $rc_split -eq 3 ]; then
        echo "PASS $name: untranslatable on both"
        passes=$((passes + 1))
        continue
    fi
    same=true
    n=0
    for out in "$tmp/cpu"/output_*.bin; do
        [ -f "$out" ] || continue
        n=$((n + 1))
        cmp -s "$out" "$tmp/split/$(basename "$out")" || same=false
    done
    steps=$(sed -n 's/.*partition: [0-9]* operations in \([0-9]*\) steps.*/\1/p' "$tmp/split.log" | head -1)
    npu=$(grep -c 'partition:   operation .* on nnapi_linux-test-npu' "$tmp/split.log")
    cpu=$(grep -c 'partition:   operation .* on nnapi_linux-cpu' "$tmp/split.log")
    if [ $rc_cpu -ne $rc_split ] || [ $n -eq 0 ] || ! $same; then
        echo "FAIL $name: exit $rc_cpu alone, $rc_split split; $n outputs, identical: $same"
        sed 's/^/    /' "$tmp/split.log" | grep -v 'partition:\|supported' | tail -20
        failures=$((failures + 1))
        continue
    fi
    [ "$npu" -gt 0 ] && [ "$cpu" -gt 0 ] && split=$((split + 1))
    if [ "$npu" -eq 0 ]; then
        echo "PASS $name: $n outputs identical; no operation for the driver, all on the CPU"
    else
        echo "PASS $name: $n outputs identical; $steps steps, $npu operations on the driver, $cpu on the CPU"
    fi
    passes=$((passes + 1))
done
if [ $split -eq 0 ]; then
    echo "FAIL no model was split between the driver and the CPU"
    failures=$((failures + 1))
fi
echo "$split models split between the test driver and the CPU"
echo "$passes passed, $failures failed"
[ $failures -eq 0 ]
