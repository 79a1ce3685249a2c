#!/usr/bin/env bash
# Installs everything calibkit needs on a fresh Debian machine: the npm packages from the lockfile
# and, for the browser test of the report, Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing Debian's chromium for the report's browser test"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "setup: chromium is missing and this is not a root Debian shell; install it (apt-get install chromium) for the browser test" >&2
  fi
fi
npm ci --no-audit --no-fund
