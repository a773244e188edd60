#!/usr/bin/env bash
# Installs what a fresh machine lacks to build, test and demo edgelock: a pinned pnpm (through npm;
# corepack fails signature checks on some machines), redis-server (Debian's package), and the
# workspace's dependencies from the lockfile. Safe to run again; fails loudly when it cannot.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=12.21.0

need_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "setup: '$*' needs root (or sudo), which this shell does not have" >&2; exit 1
  fi
}

if ! command -v node >/dev/null; then
  echo "setup: Node.js >= 20 is required and was not found on PATH" >&2; exit 1
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js >= 20 is required, found $(node --version)" >&2; exit 1
fi

if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm@$PNPM_VERSION with npm"
  npm install -g "pnpm@$PNPM_VERSION" >/dev/null
  hash -r
  [ "$(pnpm --version)" = "$PNPM_VERSION" ] || { echo "setup: pnpm@$PNPM_VERSION did not install" >&2; exit 1; }
fi

if ! command -v redis-server >/dev/null; then
  echo "setup: installing redis-server with apt-get"
  need_root apt-get update -qq
  need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  command -v redis-server >/dev/null || { echo "setup: redis-server did not install" >&2; exit 1; }
fi

# The inspector's browser test drives Debian's Chromium (playwright-core never downloads a browser).
if [ ! -x /usr/bin/chromium ]; then
  echo "setup: installing chromium with apt-get (for the inspector's browser test)"
  need_root apt-get update -qq
  need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x /usr/bin/chromium ] || { echo "setup: chromium did not install (/usr/bin/chromium is missing)" >&2; exit 1; }
fi

# The campaign's server-clock fault preloads a small shim into redis-server (built on first use
# with cc). Debian's libfaketime cannot do it: it clashes with the jemalloc that Debian's
# redis-server is linked against, and the server never starts (libfaketime issues #130, #327).
if ! command -v cc >/dev/null; then
  echo "setup: installing gcc with apt-get (for the campaign's server-clock shim)"
  need_root apt-get update -qq
  need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev >/dev/null
  command -v cc >/dev/null || { echo "setup: gcc did not install" >&2; exit 1; }
fi

pnpm install --frozen-lockfile
