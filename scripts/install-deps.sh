#!/usr/bin/env bash
# Installs LLVM/MLIR 22 from Debian's packages when any of them is missing.
set -euo pipefail
pkgs=(llvm-22-dev libmlir-22-dev mlir-22-tools libpolly-22-dev clang-22 libzstd-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
