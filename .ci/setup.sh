#!/usr/bin/env bash
# Installs what is missing on a Debian 12 machine (root or sudo). Safe to run again.
set -euo pipefail
PKGS=(cmake ninja-build g++ pkg-config qt6-base-dev qt6-3d-dev libqt6opengl6-dev libeigen3-dev libmsgpack-cxx-dev
      libboost-dev liblz4-dev xvfb xauth libgl1-mesa-dri desktop-file-utils appstream libxml2-utils
      dpkg-dev file libglib2.0-bin lintian libsquish-dev clang-tidy clang-format git
      libfast-float-dev libstb-dev qt6-image-formats-plugins python3 libqhull-dev libbullet-dev)
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "installing: ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
