#!/usr/bin/env bash
# Hosts for the fleet test, made on this machine: each a network namespace of its own with an
# sshd on the namespace's own loopback (127.0.0.1:22 there), a hostname of its own (a UTS
# namespace) and processes of its own (a PID namespace: killing the host kills all of them, as
# a lost board would). Reached with `ip netns exec NS nc 127.0.0.1 22` as ssh's ProxyCommand:
# nothing leaves the machine and no routed address is used. Needs root (CAP_SYS_ADMIN).
#
#   namespace_hosts.sh keys DIR                       an ssh key pair for the controller
#   namespace_hosts.sh up DIR NAME [--cores LIST] [--hide FILE]...
#       starts host NAME (its sshd limited to cores LIST with taskset; FILEs hidden from it by a
#       bind mount of /dev/null, as on a machine without that library); prints its inventory line
#   namespace_hosts.sh kill DIR NAME                  every process of the host, SIGKILL
#   namespace_hosts.sh teardown DIR                   every host killed, every namespace deleted
set -euo pipefail

die() { echo "namespace_hosts.sh: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: namespace_hosts.sh keys|up|kill|teardown DIR [NAME ...]"
command=$1 dir=$2
shift 2

host_dir() { echo "$dir/hosts/$1"; }

kill_host() {
  local hd pid
  hd=$(host_dir "$1")
  [ -f "$hd/pid" ] || return 0
  pid=$(cat "$hd/pid")
  # The unshare process: --kill-child takes the namespace's first process, and with it every
  # process of the PID namespace, down with it.
  kill -KILL "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$hd/pid"
}

case "$command" in
  keys)
    mkdir -p "$dir"
    [ -f "$dir/id_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C edgebench-fleet-test -f "$dir/id_ed25519"
    cp "$dir/id_ed25519.pub" "$dir/authorized_keys"
    ;;
  up)
    name=${1:?host name}
    shift
    cores="" hide=()
    while [ $# -gt 0 ]; do
      case "$1" in
        --cores) cores=$2; shift 2 ;;
        --hide) hide+=("$2"); shift 2 ;;
        *) die "unknown option $1" ;;
      esac
    done
    hd=$(host_dir "$name")
    mkdir -p "$hd/home"
    # The namespace's name: unique to this test directory, so two runs never meet.
    ns=$(cat "$hd/netns" 2>/dev/null || echo "ebfleet-$(echo "$dir" | sha256sum | cut -c1-8)-$name")
    echo "$ns" > "$hd/netns"
    [ -e "/run/netns/$ns" ] && ip netns exec "$ns" true 2>/dev/null || {
      ip netns del "$ns" 2>/dev/null || rm -f "/run/netns/$ns"
      ip netns add "$ns"
    }
    ip -n "$ns" link set lo up
    [ -f "$hd/ssh_host_ed25519_key" ] || ssh-keygen -q -t ed25519 -N '' -f "$hd/ssh_host_ed25519_key"
    mkdir -p /run/sshd
    cat > "$hd/sshd_config" <<CONFIG
ListenAddress 127.0.0.1
Port 22
HostKey $hd/ssh_host_ed25519_key
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile none
Subsystem sftp internal-sftp
CONFIG
    kill_host "$name"
    inner="hostname '$name'"
    for f in ${hide[@]+"${hide[@]}"}; do inner+="; mount --bind /dev/null '$f'"; done
    inner+="; exec ${cores:+taskset -c $cores} /usr/sbin/sshd -D -e -f '$hd/sshd_config'"
    # setsid: the host outlives this script; its log is the host's sshd.log.
    setsid ip netns exec "$ns" unshare --uts --mount --propagation private --pid --fork --kill-child \
      --mount-proc sh -c "$inner" > "$hd/sshd.log" 2>&1 < /dev/null &
    echo $! > "$hd/pid"
    # Ready when its sshd answers on the namespace's loopback.
    for _ in $(seq 100); do
      if ip netns exec "$ns" nc -z -w 1 127.0.0.1 22 2>/dev/null; then break; fi
      sleep 0.1
    done
    ip netns exec "$ns" nc -z -w 1 127.0.0.1 22 || die "host $name: sshd did not start: $(tail -5 "$hd/sshd.log")"
    ;;
  kill)
    kill_host "${1:?host name}"
    ;;
  teardown)
    for hd in "$dir"/hosts/*/; do
      [ -d "$hd" ] || continue
      name=$(basename "$hd")
      kill_host "$name"
      if [ -f "$hd/netns" ]; then ip netns del "$(cat "$hd/netns")" 2>/dev/null || true; fi
    done
    ;;
  *) die "unknown command $command" ;;
esac
