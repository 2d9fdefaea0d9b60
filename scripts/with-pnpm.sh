#!/bin/sh
# Runs pnpm 12.4.2 (the version this repository is tested with), fetching it
# through npx when it is not installed, with better-sqlite3's native build
# pointed at the headers of the running Node (pnpm ignores nodedir in .npmrc).
set -e
PNPM_VERSION=12.4.2
node_prefix=$(node -p "require('node:path').dirname(require('node:path').dirname(process.execPath))")
if [ -z "${npm_config_nodedir:-}" ] && [ -d "$node_prefix/include/node" ]; then
  npm_config_nodedir="$node_prefix"
  export npm_config_nodedir
fi
TURBO_TELEMETRY_DISABLED=1
export TURBO_TELEMETRY_DISABLED
if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$PNPM_VERSION" ]; then
  exec pnpm "$@"
fi
exec npx --yes "pnpm@$PNPM_VERSION" "$@"
