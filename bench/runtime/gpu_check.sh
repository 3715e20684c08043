#!/usr/bin/env bash
# The runtime's checks on a GPU machine (issue 23), in one run of at most ~9 minutes (each step has its own limit):
#   1. build the native sampler against the machine's own torch (no network there: no pip, no venv);
#   2. the tensor path's operations and host synchronisations per batch, on CUDA (the op-count test, plus
#      torch.cuda.set_sync_debug_mode counting what the dispatcher cannot see);
#   3. one products-sized GraphSAGE epoch (sampling_bench.py --products --cuda-only --training-batches 0):
#      seconds per epoch and the mean training loss, to compare with the 31.96 s measured before;
#   4. torch.profiler over 20 products-sized steps: top CUDA operators, GPU busy %, gzipped Chrome trace;
#   5. the runtime's tests, CUDA included.
# Every step's output goes to $OUT/<step>.log and one line per step (exit status, seconds) to $OUT/summary.txt;
# a failing step does not stop the others.
#
#   OUT=/tmp/out bash bench/runtime/gpu_check.sh            # on the GPU machine, from the repository root
#   OUT=/tmp/out bash bench/runtime/gpu_check.sh --cpu-smoke # here: every step on CPU at a toy size, to test
#                                                            # the script itself (uses runtime/.venv)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out="${OUT:?set OUT to the folder for the results}"
mkdir -p "$out"
mode="${1:-gpu}"

if [ "$mode" = "--cpu-smoke" ]; then
  python="runtime/.venv/bin/python"
  bench_size=(--scale 12 --degree 8 --feature-dim 16)
  device_flag=()
  profiled_batches=3  # the toy graph has 4 batches per epoch
  tests=(runtime/tests/test_sampler_operations.py runtime/tests/test_samplers.py)
else
  python="python3"
  bench_size=(--products)
  device_flag=(--cuda-only)
  profiled_batches=20
  # The CUDA cases only: the whole suite spawns trainers for minutes, and the CPU cases run in CI.
  tests=(runtime/tests -k "cuda or gpu or prefetch")
fi
export PYTHONPATH="runtime:bench/runtime${PYTHONPATH:+:$PYTHONPATH}"
: > "$out/summary.txt"

step() {  # step NAME TIMEOUT_SECONDS COMMAND...
  local name="$1" limit="$2"
  shift 2
  local started=$SECONDS
  echo "== $name: $*" | tee "$out/$name.log"
  timeout "$limit" "$@" >> "$out/$name.log" 2>&1
  local status=$?
  tail -n 25 "$out/$name.log"
  echo "$name: exit $status, $((SECONDS - started)) s" | tee -a "$out/summary.txt"
}

if [ "$mode" = "--cpu-smoke" ]; then
  step build 30 "$python" -c "import trainyard_runtime.sampler._native"
else
  step build 150 bash -c "cd runtime && MAX_JOBS=16 python3 setup.py build_ext --inplace"
fi
step operations 60 "$python" -m pytest -q -s runtime/tests/test_sampler_operations.py
step epoch 150 "$python" bench/runtime/sampling_bench.py "${bench_size[@]}" "${device_flag[@]}" \
  --training-batches 0 --sampling-batches 20
step profile 120 "$python" bench/runtime/sampling_bench.py "${bench_size[@]}" "${device_flag[@]}" \
  --training-batches "$profiled_batches" --sampling-batches 5 --profile /tmp/gpu-check-trace
# A trace of 20 steps is ~33 MB, over what comes back from the GPU machine; compressed it is a few MB.
gzip -c /tmp/gpu-check-trace-*.json > "$out/trace.json.gz" 2>/dev/null || echo "no trace written" >> "$out/summary.txt"
step tests 90 "$python" -m pytest -q -x "${tests[@]}"
cat "$out/summary.txt"
