#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages MovieMaker needs, only those missing.
# Idempotent: when everything is present it prints one line and changes nothing.
# Works as root (CI) and as a normal user with sudo; never prompts (no TTY in CI).
set -euo pipefail

PACKAGES=(
  pkg-config
  libcairo2-dev libpango1.0-dev libfreetype-dev
  libx264-dev
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev
  libfontconfig-dev
  # Photo decoding: JPEG, PNG, WebP, HEIC/HEIF (libheif with its libde265 decoder and x265 encoder),
  # ICC colour management.
  libjpeg62-turbo-dev libpng-dev libwebp-dev libheif-dev liblcms2-dev
  # Fonts the text tests and title cards rely on: DejaVu (Latin, Greek, Cyrillic, Arabic, Hebrew),
  # Noto CJK (Japanese, Chinese, Korean) and Noto Color Emoji.
  fonts-dejavu-core fonts-noto-cjk fonts-noto-color-emoji
  ffmpeg            # ffprobe: the tests' second opinion on every movie
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo -n)
  if ! sudo -n true 2>/dev/null; then SUDO=(sudo); fi
else
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: not root and no sudo; install them with: apt-get install ${missing[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
