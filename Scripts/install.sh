#!/usr/bin/env bash
# Installs netstatus like a system tool: the static binary (Scripts/build-static.sh), its manual page and its
# bash, zsh and fish completions.
#
#   Scripts/install.sh [PREFIX]        PREFIX defaults to /usr/local
#   PREFIX=DIR Scripts/install.sh      the same, from the environment (with sudo: sudo PREFIX=DIR Scripts/install.sh;
#                                      `PREFIX=DIR sudo …` does not reach the script, as sudo resets the environment)
#
# Given both ways, the argument and the variable must agree: the script refuses to guess which one was meant.
# DESTDIR=DIR stages the files under DIR (for packaging: Scripts/build-deb.sh). NETSTATUS_BINARY=PATH installs that
# binary instead of building one. What goes where:
#   PREFIX/bin/netstatus
#   PREFIX/share/man/man1/netstatus.1
#   PREFIX/share/bash-completion/completions/netstatus
#   PREFIX/share/zsh/site-functions/_netstatus (vendor-completions under /usr, as Debian's zsh looks there)
#   PREFIX/share/fish/vendor_completions.d/netstatus.fish
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 1 ]; then
  echo "install.sh: one argument at most (PREFIX), not $#" >&2
  exit 2
fi
prefix=${1:-${PREFIX:-/usr/local}}
if [ -n "${PREFIX:-}" ] && [ "$prefix" != "$PREFIX" ]; then
  echo "install.sh: the argument '$prefix' and the environment's PREFIX '$PREFIX' differ; give one of them" >&2
  exit 2
fi
case "$prefix" in
  /*) ;;
  *) echo "install.sh: PREFIX must be an absolute path, not '$prefix'" >&2; exit 2 ;;
esac
destdir=${DESTDIR:-}

binary=${NETSTATUS_BINARY:-}
if [ -z "$binary" ]; then
  Scripts/build-static.sh >&2
  binary=.build-static/release/netstatus
fi
[ -x "$binary" ] || { echo "install.sh: no executable at $binary" >&2; exit 1; }

zsh_folder=site-functions
[ "$prefix" = /usr ] && zsh_folder=vendor-completions

root="$destdir$prefix"
install -D -m 0755 "$binary" "$root/bin/netstatus"
install -D -m 0644 man/netstatus.1 "$root/share/man/man1/netstatus.1"
# The completions come from the binary itself, so they match it.
"$binary" completions bash | install -D -m 0644 /dev/stdin "$root/share/bash-completion/completions/netstatus"
"$binary" completions zsh | install -D -m 0644 /dev/stdin "$root/share/zsh/$zsh_folder/_netstatus"
"$binary" completions fish | install -D -m 0644 /dev/stdin "$root/share/fish/vendor_completions.d/netstatus.fish"
echo "installed netstatus under $root"
