#!/bin/sh
# Installs the system packages strait needs when they are missing: with
# apt-get when run as root, otherwise it says what to install and fails.
set -e
missing=""
need() { dpkg -s "$1" >/dev/null 2>&1 || missing="$missing $1"; }
need libjavascriptcoregtk-4.1-dev
need openjdk-17-jdk-headless
need make
need gcc
need pkg-config
need rhino
need junit5
need libjackson2-databind-java
need libasm-java
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
  echo "deps: missing packages:$missing" >&2
  echo "deps: run as root:  apt-get install$missing" >&2
  exit 1
fi
