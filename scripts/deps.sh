#!/usr/bin/env bash
# Installs the Debian packages InkSticker needs, only those missing.
# Usage: scripts/deps.sh [extra-package ...]
set -euo pipefail

packages=(
  pkg-config
  libsqlite3-dev libpq-dev
  libtesseract-dev libleptonica-dev tesseract-ocr tesseract-ocr-eng tesseract-ocr-kor
  libfreetype-dev fonts-dejavu-core fonts-nanum
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "swift is at /opt/swift/usr/bin; add it to PATH" >&2
  else
    echo "error: a Swift 6 toolchain is required (swift not found on PATH); see https://www.swift.org/install/linux/" >&2
  fi
  exit 1
fi
