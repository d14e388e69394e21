#!/bin/sh
# Builds a local stand-in for python:3.11-slim on a machine that reaches Debian's mirror and PyPI but not
# Docker Hub (see docs/deploy.md, "Checked"). Run as root; needs debootstrap and a running dockerd.
#   scripts/docker-standin-base.sh [TAG] [MIRROR]
# The image is Debian bookworm (Python 3.11) with a venv on PATH at /opt/python, so `python` and `pip` work
# and `pip install` installs into it, as in the official image. The host's extra CA certificates
# (/usr/local/share/ca-certificates) and its pip `cert` setting are copied in, so pip and apt behind a
# TLS-intercepting proxy work as they do on the host. Not for production: use the real python:3.11-slim.
set -eu
TAG=${1:-python:3.11-slim}
MIRROR=${2:-http://deb.debian.org/debian}
ROOT=$(mktemp -d /tmp/clerk-rootfs.XXXXXX)
trap 'rm -rf "$ROOT"' EXIT
debootstrap --variant=minbase --include=python3,python3-venv,python3-pip,ca-certificates bookworm "$ROOT" "$MIRROR"
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    chroot "$ROOT" update-ca-certificates
fi
printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' > "$ROOT/etc/pip.conf"
chroot "$ROOT" python3 -m venv /opt/python
rm -rf "$ROOT"/var/lib/apt/lists/* "$ROOT"/var/cache/apt/archives/*.deb
tar -C "$ROOT" -c . | docker import \
    --change 'ENV PATH=/opt/python/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["python3"]' \
    - "$TAG"
docker run --rm "$TAG" sh -c 'python --version && pip --version'
