#!/usr/bin/env bash
# Installs everything calibkit needs on a fresh Debian machine: the npm packages from the lockfile,
# for the browser test of the report Debian's Chromium, for the store's tests Debian's PostgreSQL, and the
# compiler better-sqlite3 is built with (its prebuilt binary is a download the registry does not serve).
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
apt_install() {
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    [ -n "${APT_UPDATED:-}" ] || { apt-get update -qq; APT_UPDATED=1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "setup: $* missing and this is not a root Debian shell; install them with apt-get" >&2
  fi
}
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "setup: installing Debian's postgresql for the store's tests (a server each test run starts itself)"
  apt_install postgresql
fi
if ! command -v make >/dev/null 2>&1 || ! command -v g++ >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
  echo "setup: installing make, g++ and python3 to compile better-sqlite3"
  apt_install make g++ python3
fi
# node-gyp compiles better-sqlite3 against the running node's headers: use the installed ones rather than a
# download (the machine reaches only the npm registry and Debian).
if [ -z "${npm_config_nodedir:-}" ]; then
  prefix="$(dirname "$(dirname "$(command -v node)")")"
  if [ -f "$prefix/include/node/node.h" ]; then export npm_config_nodedir="$prefix"; fi
fi
# onnxruntime-node's install script would fetch GPU binaries from outside the npm registry; its own variable
# turns that off (in .npmrc as a project config, npm 11 warned about it on every command).
export ONNXRUNTIME_NODE_INSTALL=skip
npm ci --no-audit --no-fund
# The build is a step of its own, not npm's `prepare`: npm runs `prepare` whenever it installs the checkout as a
# file dependency, and that is what `npx calibkit` does on its first call in a clone (about 40 s of CPU of tsc).
npm run build || echo "calibkit: the build reported type errors; bin/calibkit.js falls back to the TypeScript source"
