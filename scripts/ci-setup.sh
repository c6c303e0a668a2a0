#!/usr/bin/env bash
# Installs everything the project needs on a fresh Debian 12 machine of this kind
# (Node 20 + npm 11 + g++/make/python3 preinstalled; only the npm registry and Debian apt reachable).
# See docs/architecture.md ("Test harness") for why each step exists.
set -euo pipefail
cd "$(dirname "$0")/.."

# 1. System packages: Chromium for the browser e2e tests, Kerberos headers for code-server's
#    `kerberos` native module (its prebuilt download fails offline), Debian's ripgrep to stand in
#    for @vscode/ripgrep's GitHub download.
need=()
command -v chromium >/dev/null || need+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
command -v rg >/dev/null || need+=(ripgrep)
if ((${#need[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "${need[@]}"
fi

# 2. Seed @vscode/ripgrep's download cache so its postinstall does not call api.github.com.
#    Values are those of code-server 4.100.3 (@vscode/ripgrep 1.15.11, VERSION v13.0.0-10).
RG_PKG_VERSION=1.15.11
RG_ASSET=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz
cache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-${RG_PKG_VERSION}"
if [ ! -s "$cache/$RG_ASSET" ]; then
  mkdir -p "$cache"
  stage="$(mktemp -d)"
  cp "$(command -v rg)" "$stage/rg"
  tar czf "$cache/$RG_ASSET" -C "$stage" rg
  rm -rf "$stage"
fi

# 3. npm ci (.npmrc: unsafe-perm=true for code-server's root check, yes=true for node-pty's npx,
#    nodedir=/usr so node-gyp uses the local headers).
if [ "${SKIP_NPM_CI:-}" != 1 ]; then
  npm ci --no-audit --no-fund
fi
