#!/usr/bin/env bash
# Builds a Debian package of netstatus with dpkg-deb: the static binary, the manual page, the completions and the
# systemd units (Scripts/install.sh with PREFIX /usr; none enabled: `systemctl enable netstatus-wait-online.service`
# orders network-online.target after it), the options of netstatus-wait-online.service,
# /etc/default/netstatus-wait-online, a conffile. From Packaging/debian: the maintainer scripts (they reload systemd),
# the changelog (its first entry is the package's version, whose upstream part must be the binary's) and the
# lintian overrides, each with its reason. .ci/run checks the result with lintian.
#
#   Scripts/build-deb.sh [OUTPUT-FOLDER]     default: dist/
#
# NETSTATUS_BINARY=PATH packages that binary instead of building one. Install the result with
# `apt-get install ./dist/netstatus_VERSION_ARCH.deb`.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v dpkg-deb >/dev/null 2>&1 || { echo "build-deb.sh: dpkg-deb is missing (apt-get install dpkg)" >&2; exit 2; }
output=${1:-dist}

binary=${NETSTATUS_BINARY:-}
if [ -z "$binary" ]; then
  Scripts/build-static.sh >&2
  binary=.build-static/release/netstatus
fi
upstream=$("$binary" --version | awk '{print $2}')
# The first line of the changelog: "netstatus (VERSION) DISTRIBUTION; urgency=…".
version=$(sed -n '1s/^netstatus (\([^)]*\)).*/\1/p' Packaging/debian/changelog)
if [ "${version%-*}" != "$upstream" ]; then
  echo "build-deb.sh: Packaging/debian/changelog's first entry is '$version', but the binary is $upstream:" \
    "add an entry for $upstream-1" >&2
  exit 1
fi
architecture=$(dpkg --print-architecture)
# DT_RELR (Scripts/build-static.sh) needs glibc 2.36; without it, 2.35.
glibc=2.36
readelf -d "$binary" 2>/dev/null | grep -q '(RELR)' || glibc=2.35

stage=$(mktemp -d)
chmod 0755 "$stage"
trap 'rm -rf "$stage"' EXIT
PREFIX=/usr DESTDIR="$stage" NETSTATUS_BINARY="$binary" Scripts/install.sh >/dev/null
gzip -9n "$stage/usr/share/man/man1/netstatus.1"
install -D -m 0644 Packaging/systemd/netstatus-wait-online.default "$stage/etc/default/netstatus-wait-online"
install -D -m 0644 LICENSE "$stage/usr/share/doc/netstatus/copyright"
install -m 0644 Packaging/debian/changelog "$stage/usr/share/doc/netstatus/changelog.Debian"
gzip -9n "$stage/usr/share/doc/netstatus/changelog.Debian"
install -D -m 0644 Packaging/debian/lintian-overrides "$stage/usr/share/lintian/overrides/netstatus"
install -d "$stage/DEBIAN"
install -m 0755 Packaging/debian/postinst Packaging/debian/postrm "$stage/DEBIAN/"
# Every file under /etc is a conffile: dpkg keeps the administrator's changes across upgrades.
(cd "$stage" && find etc -type f -printf '/%p\n' | LC_ALL=C sort) >"$stage/DEBIAN/conffiles"
# The other files' checksums, for `dpkg --verify` (dpkg keeps the conffiles' own).
(cd "$stage" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat >"$stage/DEBIAN/control" <<CONTROL
Package: netstatus
Version: $version
Architecture: $architecture
Maintainer: NetStatus developers <netstatus@users.noreply.github.com>
Installed-Size: $size
Depends: libc6 (>= $glibc), libstdc++6, libgcc-s1
Section: net
Priority: optional
Homepage: https://github.com/netstatus/NetStatus
Description: show, watch or wait for the network path, from the kernel itself
 netstatus tells whether the machine is online, over which interface and of
 which type, and whether the path is expensive, the moment it changes. It reads
 rtnetlink and asks the kernel's own route lookup; it needs no daemon and uses
 no CPU while nothing changes. It waits until online in scripts and containers
 (netstatus wait), watches every network namespace of a container host, prints
 JSON, and ships netstatus-wait-online.service, an alternative to
 systemd-networkd-wait-online.service.
CONTROL
mkdir -p "$output"
package="$output/netstatus_${version}_${architecture}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" >/dev/null
echo "$package"
