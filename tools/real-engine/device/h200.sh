#!/usr/bin/env bash
# Runs a Node + Dawn benchmark on a GPU machine with no Node, no Vulkan loader
# and no network. Expects, in the folder given as $1 (default .device/webllm):
#   node.xz        a Node 20 binary, xz-compressed (or ../node.xz beside the folder)
#   dawn.node.xz   npm webgpu's dist/linux-x64/dawn.node, xz-compressed
#   debs/*.deb     Debian 12's libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2
#   libs/          the model library (Qwen2-0.5B-Instruct-q4f32_1-ctx4k_cs1k-webgpu.wasm)
#   tokenizer.json Qwen's tokenizer as the generator writes it (or tokenizer.json.xz)
#   bench/         the bundles, plain or .xz: bench.mjs, engineThread.mjs, prefixBench.mjs (build:bench)
# BENCH_DIR names another folder of bundles (default $1/bench: e.g. a "before"
# build, build:bench --code=<other checkout>). BENCH_ENTRY picks the bundle to
# run (default bench.mjs). Writes its log to $OUT/${BENCH_LOG:-bench.log} when
# OUT is set. BENCH_* and PREFIX_* variables pass through (e.g.
# BENCH_PARTS=decode,cancel BENCH_REPS=5, PREFIX_REPS=5). Safe to run twice in
# one command (the second run skips the unpacking).
set -euo pipefail
D=${1:-.device/webllm}
T=/tmp/inkling
mkdir -p "$T/models/qwen2-synthetic/resolve/main" "$T/bench"
# The image may lack xz; Python's lzma reads it.
unxz_to() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
if [ ! -x "$T/node" ]; then
  for f in "$D"/debs/*.deb; do dpkg -x "$f" /; done
  ldconfig
  node_xz="$D/node.xz"; [ -f "$node_xz" ] || node_xz="$D/../node.xz"
  unxz_to "$node_xz" "$T/node" && chmod +x "$T/node"
  unxz_to "$D/dawn.node.xz" "$T/dawn.node"
  if [ -f "$D/tokenizer.json.xz" ]; then unxz_to "$D/tokenizer.json.xz" "$T/models/qwen2-synthetic/resolve/main/tokenizer.json"
  else cp "$D/tokenizer.json" "$T/models/qwen2-synthetic/resolve/main/"; fi
fi
rm -f "$T"/bench/*
for f in "${BENCH_DIR:-$D/bench}"/*; do
  case "$f" in *.xz) unxz_to "$f" "$T/bench/$(basename "$f" .xz)" ;; *) cp "$f" "$T/bench/" ;; esac
done
# The image's own Vulkan driver manifest finds no driver; this one does.
egl=$( (ls /usr/lib/libEGL_nvidia.so.0 /usr/lib/x86_64-linux-gnu/libEGL_nvidia.so.0 /usr/local/nvidia/lib64/libEGL_nvidia.so.0 2>/dev/null || true) | head -1)
egl=${egl:-/usr/lib/libEGL_nvidia.so.0}
echo "{\"file_format_version\":\"1.0.1\",\"ICD\":{\"library_path\":\"$egl\",\"api_version\":\"1.3.0\"}}" > "$T/nvidia_icd.json"
export VK_ICD_FILENAMES=$T/nvidia_icd.json VK_DRIVER_FILES=$T/nvidia_icd.json
nvidia-smi --query-gpu=name,driver_version,memory.used,clocks.sm --format=csv,noheader || true
echo "cpu cores: $(nproc); node $("$T/node" --version); egl: $egl"
BENCH_DAWN=$T/dawn.node BENCH_LIBS=$D/libs BENCH_MODELS=$T/models \
  "$T/node" "$T/bench/${BENCH_ENTRY:-bench.mjs}" 2>&1 | tee "${OUT:-/tmp}/${BENCH_LOG:-bench.log}"
