#!/usr/bin/env bash
# The container check's set-up (issue 34), run by .ci/run after the suite: podman with the runc
# runtime, debootstrap, podman-compose (Debian's packages), then scripts/container/check.ts.
# Without root and apt-get, or where podman still cannot run, it says so and skips.
set -uo pipefail
cd "$(dirname "$0")/../.."
need=()
for tool in podman runc debootstrap podman-compose; do command -v "$tool" >/dev/null 2>&1 || need+=("$tool"); done
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "container check: installing ${need[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y podman runc debootstrap podman-compose >/dev/null 2>&1 ||
      (apt-get update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y podman runc debootstrap podman-compose >/dev/null 2>&1) ||
      { echo "container check: SKIPPED: could not install podman, runc, debootstrap, podman-compose"; exit 0; }
  else
    echo "container check: SKIPPED: ${need[*]} missing and no root apt-get to install them"
    exit 0
  fi
fi
# this machine's cgroups are in hybrid mode: crun refuses, runc works; the default ulimits keep
# podman build from failing on a huge inherited nofile
if [ ! -f /etc/containers/containers.conf ] && [ "$(id -u)" = "0" ]; then
  printf '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]\n[engine]\nruntime = "runc"\n' >/etc/containers/containers.conf
fi
exec node scripts/container/check.ts
