#!/bin/sh
# Makes sure the programs the tests start themselves are installed:
# nats-server (with JetStream, for the clustered-hub tests), chromium (the
# browser test of @ocp/a2a-ocp-messaging) and, when running as root, iptables
# (the hub's NATS partition test blackholes a loopback connection with it; it
# skips without root). Nothing to do when all are on PATH. Otherwise installs what is missing from Debian's apt when it can (as
# root, or with passwordless sudo); when it cannot, says in one line what to
# run and exits 1. `npm run fresh:test` (and so `.ci/run`) calls this first.
set -eu

programs="nats-server chromium"
[ "$(id -u)" = 0 ] && programs="$programs iptables"
missing=""
for program in $programs; do
  command -v "$program" >/dev/null 2>&1 || missing="$missing $program"
done
missing="${missing# }"
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo="sudo"
else
  sudo="-"
fi

if [ "$sudo" = "-" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "The tests need $missing, not found on PATH: install (Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y $missing), then run again." >&2
  exit 1
fi

echo "Installing $missing for the tests (apt-get)..." >&2
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
for program in $missing; do
  if ! command -v "$program" >/dev/null 2>&1; then
    echo "apt-get installed $program but it is still not on PATH." >&2
    exit 1
  fi
done
