#!/usr/bin/env bash
# Installs the Debian packages that Weir's tests need and that npm cannot provide.
# It is idempotent: packages already present are left alone, and `apt-get update` only runs
# when something is missing, so repeated runs cost a few dpkg queries and nothing else.
# It must run as root because it calls apt-get directly (CI containers and this dev box are root).
set -euo pipefail

# Every Debian package a test depends on. Add new ones here, with the reason, one per line:
#   chromium     Playwright drives Debian's build; Playwright's own browser download cannot work here.
#   prometheus   Provides promtool, which the broker's metrics test runs on the /metrics output.
#   kcat         Debian's librdkafka 2.0 client; the broker's compatibility tests drive it.
#   nats-server  NATS JetStream with file storage, a publish/consume baseline of bench:broker.
#   redis-server Redis Streams with appendonly (fsync everysec), a baseline of bench:broker.
#   etcd-server  etcd 3.4, where cluster mode keeps its metadata; cluster tests start it.
#   nftables     Cluster fault tests cut links between brokers with nft drop rules.
#   python3-kafka                         kafka-python 2.0.2; the legacy-format tests drive it.
#   golang-go                             Builds the Go clients below (GOPATH mode, no downloads).
#   golang-github-shopify-sarama-dev      Sarama 1.22 at its default Kafka 0.8.2 protocol (magic 0,
#                                         Metadata v0, OffsetCommit v1): legacy-formats-sarama.test.ts.
#   golang-github-segmentio-kafka-go-dev  kafka-go 0.2, fixed Produce/Fetch v2 with magic 1 messages:
#                                         legacy-formats-kafka-go.test.ts.
#   burrow      Burrow 1.2.1, LinkedIn's lag monitor (embedded Sarama); burrow-lag.test.ts reads
#               __consumer_offsets through it and checks the lag its HTTP API reports.
#   zookeeper   ZooKeeper 3.8, which Burrow requires for its own coordination (it refuses to start
#               without one); burrow-lag.test.ts starts it. It depends on default-jre, so it pulls
#               in OpenJDK 17 even with --no-install-recommends; no headless-only variant exists.
REQUIRED_DEBIAN_PACKAGES=(
  chromium
  prometheus
  kcat
  nats-server
  redis-server
  etcd-server
  nftables
  python3-kafka
  golang-go
  golang-github-shopify-sarama-dev
  golang-github-segmentio-kafka-go-dev
  burrow
  zookeeper
)

fail() {
  echo "ensure-system-deps: $*" >&2
  exit 1
}

is_installed() {
  dpkg-query --show --showformat='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed
}

missing_packages=()
for package in "${REQUIRED_DEBIAN_PACKAGES[@]}"; do
  if ! is_installed "$package"; then
    missing_packages+=("$package")
  fi
done

if [ "${#missing_packages[@]}" -eq 0 ]; then
  echo "ensure-system-deps: all present (${REQUIRED_DEBIAN_PACKAGES[*]})"
  exit 0
fi

[ "$(id -u)" -eq 0 ] || fail "missing ${missing_packages[*]}; run this script as root to install them"
command -v apt-get >/dev/null || fail "missing ${missing_packages[*]} and apt-get is not available"

echo "ensure-system-deps: installing ${missing_packages[*]}"
export DEBIAN_FRONTEND=noninteractive
apt_log="$(mktemp)"
trap 'rm -f "$apt_log"' EXIT

# The log is shown only on failure, so a successful run stays quiet.
if ! apt-get update -qq >"$apt_log" 2>&1; then
  cat "$apt_log" >&2
  fail "apt-get update failed; check the network access to the Debian mirror"
fi
if ! apt-get install -y -qq --no-install-recommends "${missing_packages[@]}" >"$apt_log" 2>&1; then
  cat "$apt_log" >&2
  fail "apt-get install failed for: ${missing_packages[*]}"
fi

for package in "${missing_packages[@]}"; do
  is_installed "$package" || fail "$package is still not installed after apt-get install"
done
echo "ensure-system-deps: installed ${missing_packages[*]}"
