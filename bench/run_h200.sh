#!/usr/bin/env bash
# Runs the live lab's suite on a GPU machine for PyTorch and JAX, with the CUDA-event reference, and writes
# the JSON documents that data/recorded/ is made from. Usage: bench/run_h200.sh OUTDIR [budget_s]
set -u
out=${1:?outdir}; budget=${2:-240}
export PYTHONUNBUFFERED=1
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; nvidia-smi | head -4;
  python3 -c 'import sys,torch,jax,numpy;print(sys.version);print("torch",torch.__version__,"cuda",torch.version.cuda);print("jax",jax.__version__,"numpy",numpy.__version__)'; } > "$out/env.txt" 2>&1
cat "$out/env.txt"
for b in torch jax; do
  timeout 280 python3 -m rocm_bridge bench --backend "$b" --reference --repeats 15 --budget "$budget" --out "$out/h200_$b.json" \
    > "$out/$b.txt" 2> "$out/$b.err"
  echo "== $b rc=$?"; cat "$out/$b.txt"; tail -n 20 "$out/$b.err"
done
