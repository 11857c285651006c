#!/usr/bin/env bash
# Builds a local Debian base image with Node.js 24 and npm, for the container check on a machine
# that reaches no container registry (issue 34): debootstrap a minimal bookworm, put in it the
# Node.js the project's install brought (node_modules/.bin/node) and the machine's npm, and the
# machine's CA bundle (the package registries are reached through it). The image is laid out
# like the official node:24-bookworm-slim (node and npm under /usr/local), which the
# Containerfile uses by default.
# Usage: scripts/container/base.sh IMAGE_NAME
set -euo pipefail
cd "$(dirname "$0")/../.."
image="${1:-localhost/board-base:bookworm-node24}"
if podman image exists "$image"; then
  echo "container base: $image exists"
  exit 0
fi
node_bin="$(readlink -f node_modules/.bin/node)"
npm_dir="$(dirname "$(readlink -f "$(command -v npm)")")/.."
[ -x "$node_bin" ] || { echo "container base: no node_modules/.bin/node: run the install first" >&2; exit 1; }
[ -f "$npm_dir/package.json" ] || { echo "container base: npm not found beside $(command -v npm)" >&2; exit 1; }
root="$(mktemp -d /var/tmp/board-base.XXXXXX)"
trap 'rm -rf "$root"' EXIT
mirror="$(grep -hoE 'https?://[^ ]*debian/?$' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null | head -1 || true)"
debootstrap --variant=minbase --include=ca-certificates bookworm "$root" "${mirror:-http://deb.debian.org/debian}" >/dev/null
install -m 0755 "$node_bin" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules"
cp -r "$(readlink -f "$npm_dir")" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
install -m 0644 /etc/ssl/certs/ca-certificates.crt "$root/usr/local/share/machine-ca.crt"
# what the official slim images leave out too
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/locale/* "$root"/usr/share/man/* "$root"/usr/share/doc/*
tar -C "$root" -c . | podman import --quiet \
  --change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/machine-ca.crt' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$image" >/dev/null
echo "container base: built $image ($(podman image inspect "$image" --format '{{.Size}}') bytes)"
