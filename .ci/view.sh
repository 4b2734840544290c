#!/usr/bin/env bash
# Installs what is missing, builds, and opens the viewer on the bundled sample. Without a
# display it renders the sample to a PNG under Xvfb and says where.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
cmake --preset dev
cmake --build --preset dev --target rigscope rigscope-cli
S=resources/samples
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec ./build/app/rigscope "$S/sample_ref.smd" "$S/sample_anim.smd" "$S/sample_flex.vta"
fi
OUT="$PWD/build/sample.png"
LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1600x1000x24" \
    ./build/app/rigscope "$S/sample_ref.smd" "$S/sample_anim.smd" "$S/sample_flex.vta" \
    --screenshot "$OUT" --camera iso
echo "no display: rendered the sample to $OUT"
