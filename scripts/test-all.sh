#!/usr/bin/env bash
# `npm test`: build, static checks, then unit → in-host integration → browser e2e.
# Every runner prints its own `N passed, N failed` line; this script exits non-zero if any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
failed=()
step() {
  local name="$1"; shift
  echo "::: $name"
  if ! "$@"; then failed+=("$name"); fi
}
step build node esbuild.mjs
step typecheck npm run -s typecheck
step lint npm run -s lint
step format npm run -s format:check
step unit node scripts/run-unit.mjs
step integration node scripts/run-integration.mjs
step package npm run -s package
step e2e node scripts/run-e2e.mjs
if ((${#failed[@]})); then
  echo "npm test: failed steps: ${failed[*]}"
  exit 1
fi
echo "npm test: all steps passed"
