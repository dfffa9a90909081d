#!/usr/bin/env bash
# Installs what building, playing and testing need on a Debian/Ubuntu
# machine: system packages (as root; otherwise prints the command), the
# wasm32 Rust target, wasm-bindgen-cli at the version in Cargo.lock, and the
# browser-test tools. Usage: .ci/deps.sh [play|test|web]
set -euo pipefail
what="${1:-play}"
cd "$(dirname "$0")/.."

# Bevy's list for Linux: a C compiler and linker (Rust links through `cc`,
# and `ring`, the desktop's TLS, compiles C), pkg-config and the headers of
# ALSA, udev, xkbcommon and Wayland; a Vulkan driver to draw (Mesa's, which
# has a software one for a machine without a GPU).
packages=(gcc libc6-dev pkg-config libasound2-dev libudev-dev libxkbcommon-dev libwayland-dev mesa-vulkan-drivers)
case "$what" in
  test) packages+=(xvfb xauth xdotool chromium python3 zopfli zbar-tools) ;;
  web) packages+=(python3 zopfli) ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "missing system packages; run:"
    echo "  sudo apt-get install -y ${missing[*]}"
    exit 1
  fi
fi

command -v cargo >/dev/null || {
  echo "Rust is needed (1.95 or newer): install it with rustup (https://rustup.rs), then run this again"
  exit 1
}
if [ "$what" = play ]; then exit 0; fi

# make test lints and formats (clippy, rustfmt) and builds for the browser.
rustup component list --installed | grep -q '^clippy' || rustup component add clippy
rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt

rustup target list --installed | grep -q wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
# The web build compiles the standard library again for the page
# (`-Zbuild-std`, see the Makefile's web-build), from the toolchain's source.
rustup component list --installed | grep -q '^rust-src' || rustup component add rust-src

if [ "$what" = test ] || [ "$what" = web ]; then
  want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3 }' Cargo.lock)
  have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have" != "$want" ]; then
    echo "installing wasm-bindgen-cli $want"
    cargo install -q wasm-bindgen-cli --version "$want"
  fi
fi

if [ "$what" = test ] || [ "$what" = web ]; then
  command -v node >/dev/null || { echo "node (20 or newer) is needed for the web build"; exit 1; }
  want=$(node -p 'require("./tools/web/package.json").dependencies.binaryen')
  have=$(node -p 'try { require("./tools/web/node_modules/binaryen/package.json").version } catch { "" }')
  if [ "$have" != "$want" ]; then
    echo "installing binaryen $want (wasm-opt)"
    (cd tools/web && npm ci --silent --no-audit --no-fund)
  fi
fi

if [ "$what" = test ]; then
  if [ ! -d web/test/node_modules/playwright-core ]; then
    (cd web/test && npm ci --silent --no-audit --no-fund)
  fi
fi
