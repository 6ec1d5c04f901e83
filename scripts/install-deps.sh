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
  libavfilter-dev   # FilterGraph: atempo (time-stretched sound), bwdif (deinterlacing)
  libfontconfig-dev
  libespeak-ng-dev  # Narration: text to speech in-process, with the synthesiser's word times
  libpocketsphinx-dev pocketsphinx-en-us  # Transcription: a script's words placed on speech, English recognised
  librlottie-dev    # Lottie animations drawn in-process
  libaubio-dev      # Beats: a music file's beats and tempo (cuts on the beat)
  libopencv-dev opencv-data  # Reframing: faces found with OpenCV's Haar cascade (opencv-data ships the model)
  # Photo decoding: JPEG, PNG, WebP, HEIC/HEIF (libheif with its libde265 decoder and x265 encoder),
  # ICC colour management.
  libjpeg-dev libpng-dev libwebp-dev libheif-dev liblcms2-dev
  # Fonts the text tests and title cards rely on: DejaVu (Latin, Greek, Cyrillic, Arabic, Hebrew),
  # Noto CJK (Japanese, Chinese, Korean) and Noto Color Emoji.
  fonts-dejavu-core fonts-noto-cjk fonts-noto-color-emoji
  ffmpeg            # ffprobe: the tests' second opinion on every movie
  python3-jsonschema  # test oracle only: an independent validator of description files against schema/
  python3-venv      # test oracle only: a virtual environment for the opentimelineio package (OTIO tests)
)
# Newer distributions (libheif ≥ 1.16: Debian 13, Ubuntu 24.04) ship libheif's codecs as plugins;
# older ones build them in and have no such packages. Installed when the distribution has them.
OPTIONAL=(libheif-plugin-libde265 libheif-plugin-x265 libheif-plugin-dav1d libheif-plugin-aomenc)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
available() { apt-cache show "$1" >/dev/null 2>&1; }

missing=()
for p in "${PACKAGES[@]}"; do
  if ! installed "$p"; then missing+=("$p"); fi
done

for p in "${OPTIONAL[@]}"; do
  if ! installed "$p" && available "$p"; then missing+=("$p"); fi
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
# apt and dpkg write hundreds of progress lines: they go to a log, shown only when a step fails.
log=$(mktemp "${TMPDIR:-/tmp}/moviemaker-install-deps.XXXXXX")
quietly() {
  if ! "$@" >>"$log" 2>&1; then
    echo "install-deps: failed: $*" >&2
    tail -n 40 "$log" >&2
    echo "install-deps: the whole log is $log" >&2
    exit 1
  fi
}
quietly "${SUDO[@]}" apt-get update -qq
quietly "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
# Package lists may only now be present (a fresh machine): pick up the plugins then.
late=()
for p in "${OPTIONAL[@]}"; do
  if ! installed "$p" && available "$p"; then late+=("$p"); fi
done
if [ ${#late[@]} -gt 0 ]; then
  quietly "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${late[@]}"
fi
rm -f "$log"
echo "install-deps: done (${#missing[@]} packages)"
