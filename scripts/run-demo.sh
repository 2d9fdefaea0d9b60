#!/bin/sh
# Runs one of the repository's demos on a machine with only Node and npm:
#   sh scripts/run-demo.sh SCRIPT [--filter=PACKAGE...]... [--] [ARGS...]
# installs the workspace when it is not installed yet, builds the packages
# the filters name (turbo, cached), then runs `node SCRIPT ARGS...`. pnpm
# need not be on PATH: install and build go through scripts/with-pnpm.sh,
# which fetches pnpm 12.4.2 through npx when it is missing (turbo runs each
# package's build with pnpm, so it needs pnpm found on PATH too). The build
# prints one line per finished package (scripts/build-progress.mjs).
# `npm run demo:team -- --help` and `pnpm demo:team --help` reach the script
# alike: a leading `--` is not an argument.
set -e
cd "$(dirname "$0")/.."
script=$1
shift
filters=""
while [ $# -gt 0 ]; do
  case $1 in
    --filter=*) filters="$filters $1" ;;
    *) break ;;
  esac
  shift
done
[ "${1:-}" = "--" ] && shift
if [ ! -x node_modules/.bin/turbo ]; then
  sh scripts/with-pnpm.sh install --frozen-lockfile
fi
# shellcheck disable=SC2086 # each filter is one word
sh scripts/with-pnpm.sh exec node scripts/build-progress.mjs $filters
exec node "$script" "$@"
