#!/bin/bash
# The GPU-machine run behind the figures in the report: builds llama.cpp's
# server with CUDA (falls back to a carried CPU build), makes a random tiny
# Llama GGUF, and drives the server with the built @inkling/openai through
# realServer.mjs (or the runner named by RUNNER, with RUNNER_ARGS, e.g. the
# ghost-prefix benchmark's ghostPrefix.mjs). Everything it needs sits beside it: node.xz, gguf-py.tar.xz
# (llama.cpp's), llama-server-cuda.xz and llama-server-cpu.xz (llama.cpp's server
# built beforehand), makeTinyGguf.py, realServer.mjs; llama-src.tar.xz only for
# BUILD_ON_DEVICE=1, which takes ~10 minutes on 16 cores.
set -u
D="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/inkling-out}"; mkdir -p "$OUT"
W=/tmp/inkling; mkdir -p "$W"; cd "$W" || exit 1
T0=$(date +%s)
say() { echo "[+$(( $(date +%s) - T0 ))s] $*"; }
unxz_to() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; chmod +x "$2"; }
export PATH="/usr/local/cuda/bin:$PATH"

unxz_to "$D/node.xz" node
say "node $(./node --version) on $(uname -m), $(nproc) cores"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -2
python3 -c "import sys, transformers; print('python', sys.version.split()[0], 'transformers', transformers.__version__)" 2>&1 | tail -1
# `transformers serve` needs fastapi, uvicorn, openai and pydantic 2 (compiled pydantic-core).
if python3 -c "import fastapi, uvicorn, pydantic, openai" > "$OUT/serve-check.txt" 2>&1; then HF=1; else HF=0; fi
say "transformers serve importable: $HF $(tail -1 "$OUT/serve-check.txt")"

if [ -f "$D/makeModel.mjs" ]; then
  # The wllama test model (English-word vocabulary), made by bench/ghost-prefix/makeModel.ts.
  ./node "$D/makeModel.mjs" tiny.gguf
else
  tar xJf "$D/gguf-py.tar.xz"
  PYTHONPATH=gguf-py python3 "$D/makeTinyGguf.py" tiny.gguf ${GGUF_ARGS:---embd 512 --layers 8 --ff 1536 --vocab 4096}
fi
say "model made"

KIND=cpu; SERVER=./llama-server-cpu; NGL=""
# A CUDA build made beforehand (llama-server-cuda.xz) needs only libcudart and
# libcublas 13, which PyTorch's CUDA 13 wheels bring.
if [ -f "$D/llama-server-cuda.xz" ] && [ "${SKIP_CUDA:-0}" != 1 ]; then
  unxz_to "$D/llama-server-cuda.xz" llama-server-cuda
  LIBS=$(find /usr/local/cuda*/lib64 /opt /usr/lib -name 'libcublas.so.13*' -o -name 'libcublasLt.so.13*' -o -name 'libcudart.so.13*' 2>/dev/null | xargs -r -n1 dirname | sort -u | paste -sd:)
  export LD_LIBRARY_PATH="$LIBS:${LD_LIBRARY_PATH:-}"
  say "CUDA libraries from: $LIBS"
  if ldd llama-server-cuda | grep -q 'not found'; then ldd llama-server-cuda | grep 'not found'; else KIND=cuda; SERVER=./llama-server-cuda; NGL="-ngl 99"; fi
fi
if [ $KIND = cpu ] && command -v nvcc > /dev/null && [ "${SKIP_CUDA:-0}" != 1 ] && [ "${BUILD_ON_DEVICE:-0}" = 1 ]; then
  tar xJf "$D/llama-src.tar.xz"
  say "$(nvcc --version | tail -1)"
  timeout "${BUILD_LIMIT:-330}" bash -c "cmake -S llama.cpp -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DGGML_CUDA_FA=OFF -DGGML_CUDA_NCCL=OFF \
      -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF \
      -DLLAMA_USE_PREBUILT_UI=OFF && cmake --build build --target llama-server -j $(nproc)" > "$OUT/build.log" 2>&1
  RC=$?
  say "CUDA build of llama-server: rc=$RC"
  if [ $RC -eq 0 ]; then KIND=cuda; SERVER=build/bin/llama-server; NGL="-ngl 99"; else tail -20 "$OUT/build.log"; fi
fi
[ $KIND = cpu ] && unxz_to "$D/llama-server-cpu.xz" llama-server-cpu

nvidia-smi --query-gpu=memory.used --format=csv,noheader 2>/dev/null | sed 's/^/GPU memory before the server: /'
$SERVER -m tiny.gguf -a tiny --host 127.0.0.1 --port 8080 ${SERVER_ARGS:---parallel 16 -c 16384} $NGL --slots > server.log 2>&1 &
SERVER_PID=$!
health() { ./node -e "fetch('http://127.0.0.1:8080/health').then(async (r) => { console.log(r.status, await r.text()); process.exit(r.ok ? 0 : 1); }, () => process.exit(1))"; }
for _ in $(seq 1 120); do health > /dev/null 2>&1 && break; sleep 0.5; done
say "llama-server ($KIND) up: $(health 2>&1)"
grep -iE "CUDA0|offloaded|model buffer|n_slots|build_info|system_info" server.log | head -8
nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader 2>/dev/null | sed 's/^/GPU with the server up: /'
(while sleep 1; do nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits 2>/dev/null; done > "$W/gpu-util.log") &
UTIL_PID=$!

if [ -n "${RUNNER:-}" ]; then
  # shellcheck disable=SC2086 # RUNNER_ARGS is a list of arguments
  ./node "$D/$RUNNER" --baseURL http://127.0.0.1:8080/v1 --model tiny ${RUNNER_ARGS:-} 2>&1 | tee "$OUT/runner-$KIND.log"
else
  ./node "$D/realServer.mjs" --baseURL http://127.0.0.1:8080/v1 --model tiny --items "${ITEMS:-200}" \
    --concurrency "${LEVELS:-1,4,16}" --slots http://127.0.0.1:8080/slots 2>&1 | tee "$OUT/runner-$KIND.log"
fi
say "runner done"
kill "$UTIL_PID" 2>/dev/null
echo "GPU utilisation during the runs (%, 1 s samples): max $(sort -n "$W/gpu-util.log" | tail -1), samples $(wc -l < "$W/gpu-util.log")"
echo "server log lines mentioning cancel: $(grep -ci cancel server.log)"
grep -i cancel server.log | head -3
cp server.log "$OUT/server-$KIND.log"
kill "$SERVER_PID"
