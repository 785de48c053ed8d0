#!/usr/bin/env bash
# The README's Quick start. On a fresh Debian 12 machine with git, cmake and g++:
#   cmake/quickstart.sh demo [SCENE]   build, run a demo scene headless, write pictures to out/
#   cmake/quickstart.sh test           build the test build, the ASan+UBSan build, the ThreadSanitizer
#                                      build (threaded tests only) and the libFuzzer
#                                      build (clang), run every test (the fuzz targets 40 s each)
# Missing Debian packages are installed when run as root; otherwise the exact apt-get line is printed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake make pkgconf python3 libglm-dev libspdlog-dev doctest-dev nlohmann-json3-dev
          libcairo2-dev libgif-dev libsdl2-dev libimgui-dev xvfb xauth clang-14 libclang-rt-14-dev)

ensure_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    echo "quickstart: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >&2
  else
    echo "quickstart: missing Debian packages; run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
}

jobs=$(nproc 2>/dev/null || echo 2)

case "${1:-}" in
  demo)
    ensure_packages
    scene="${2:-pyramid}"
    cmake --preset release >/dev/null
    cmake --build --preset release -j "$jobs" --target rigid2d-demo
    ./build/release/demos/rigid2d-demo --scene "$scene" --out out
    ;;
  test)
    ensure_packages
    for preset in ci asan tsan fuzz; do
      cmake --preset "$preset" >/dev/null
      cmake --build --preset "$preset" -j "$jobs"
      ctest --preset "$preset" -j "$jobs"
    done
    ;;
  *)
    echo "usage: cmake/quickstart.sh demo [SCENE] | test" >&2
    exit 2
    ;;
esac
