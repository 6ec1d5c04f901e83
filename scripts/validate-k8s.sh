#!/usr/bin/env bash
# Validates the Kubernetes manifests in examples/distributed/kubernetes offline, against the JSON
# schemas the PyPI package kubernetes-validate bundles (strict: unknown fields are errors), for the
# oldest and the newest Kubernetes it knows. An optional oracle: when the package cannot be installed
# (no network, no python3-venv) it says so and exits 0 without validating.
#
#   scripts/validate-k8s.sh [MANIFEST.yaml …]
#
# The package goes into a virtual environment in $KUBERNETES_VALIDATE_VENV
# (default ~/.cache/moviemaker/kubernetes-validate), made once; one on PATH is used instead.
set -euo pipefail
cd "$(dirname "$0")/.."

manifests=("$@")
[ ${#manifests[@]} -gt 0 ] || manifests=(examples/distributed/kubernetes/*.yaml)

validator=$(command -v kubernetes-validate || true)
if [ -z "$validator" ]; then
  venv="${KUBERNETES_VALIDATE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/moviemaker/kubernetes-validate}"
  if [ ! -x "$venv/bin/kubernetes-validate" ]; then
    echo "validate-k8s: installing kubernetes-validate (PyPI) into $venv"
    if ! { python3 -m venv "$venv" >/dev/null 2>&1 &&
           "$venv/bin/pip" install -q --disable-pip-version-check kubernetes-validate >/dev/null 2>&1; }; then
      echo "validate-k8s: SKIPPED: could not install kubernetes-validate from PyPI (offline? python3-venv missing?)"
      rm -rf "$venv"
      exit 0
    fi
  fi
  validator="$venv/bin/kubernetes-validate"
fi

# The oldest and newest schema versions the package bundles (folders v1.25.0-local, …), asked of the
# Python next to the validator; "default" (the package's newest) when that fails.
bundled_versions() {
  "$(dirname "$validator")/python3" -c '
import os, re, kubernetes_validate
root = os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema")
found = sorted({tuple(map(int, m.groups())) for m in (re.match(r"v(\d+)\.(\d+)\.(\d+)-local$", d) for d in os.listdir(root)) if m})
print(" ".join(".".join(map(str, v)) for v in sorted({found[0], found[-1]})))
' 2>/dev/null || true
}
versions=$(bundled_versions)
[ -n "$versions" ] || versions="default"

status=0
for v in $versions; do
  args=(--strict --quiet)
  [ "$v" = default ] || args+=(-k "$v")
  if "$validator" "${args[@]}" "${manifests[@]}"; then
    echo "validate-k8s: ${#manifests[@]} manifests valid against Kubernetes $v"
  else
    echo "validate-k8s: FAILED against Kubernetes $v"
    status=1
  fi
done
exit $status
