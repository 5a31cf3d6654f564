#!/usr/bin/env bash
# Installs netstatus like a system tool: the static binary (Scripts/build-static.sh), its manual page, its
# bash, zsh and fish completions, and its systemd units (not enabled), each running this PREFIX's binary.
#
#   Scripts/build-static.sh            first, as yourself: the build stays yours, with your toolchain
#   sudo Scripts/install.sh [PREFIX]   then as root: installs what was built (root builds nothing); PREFIX
#                                      defaults to /usr/local
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
#   PREFIX/lib/systemd/system/netstatus-wait-online.service, netstatus-textfile.service and
#     netstatus-netns-textfile.service (Packaging/systemd), with ExecStart=PREFIX/bin/netstatus. systemd reads
#     /usr/lib/systemd/system and /usr/local/lib/systemd/system; under another PREFIX, `systemctl link` a unit.
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
  binary=.build-static/release/netstatus
  if [ "$(id -u)" -eq 0 ]; then
    # Root builds nothing: a build by root would leave a root-owned .build-static in the user's checkout, and
    # needs swift on root's PATH, which sudo resets.
    if [ ! -x "$binary" ]; then
      echo "install.sh: no $binary to install: build it as yourself first (Scripts/build-static.sh)," \
        "then run sudo Scripts/install.sh" >&2
      exit 2
    fi
    newer=$(find Sources Package.swift -newer "$binary" -print -quit)
    if [ -n "$newer" ]; then
      echo "install.sh: $binary is older than $newer: build it again as yourself (Scripts/build-static.sh)," \
        "then run sudo Scripts/install.sh" >&2
      exit 2
    fi
  else
    Scripts/build-static.sh >&2
  fi
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
# The units run this PREFIX's binary: Packaging/systemd's name /usr/bin/netstatus, the Debian package's.
for unit in netstatus-wait-online netstatus-textfile netstatus-netns-textfile; do
  sed "s|^ExecStart=/usr/bin/netstatus |ExecStart=$prefix/bin/netstatus |" "Packaging/systemd/$unit.service" \
    | install -D -m 0644 /dev/stdin "$root/lib/systemd/system/$unit.service"
done
echo "installed netstatus under $root"
case "$prefix" in
  /usr | /usr/local) ;;
  *) echo "install.sh: systemd reads no unit from $prefix/lib/systemd/system: to use one," \
    "systemctl link $prefix/lib/systemd/system/NAME.service" >&2 ;;
esac
