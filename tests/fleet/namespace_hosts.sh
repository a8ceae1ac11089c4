#!/usr/bin/env bash
# Hosts for the fleet test, made on this machine: each a network namespace of its own with an
# sshd on the namespace's own loopback (127.0.0.1:22 there), a hostname of its own (a UTS
# namespace) and processes of its own (a PID namespace: killing the host kills all of them, as
# a lost board would). Reached with `ip netns exec NS nc 127.0.0.1 22` as ssh's ProxyCommand:
# nothing leaves the machine and no routed address is used. Needs root (CAP_SYS_ADMIN).
#
#   namespace_hosts.sh keys DIR                       an ssh key pair for the controller
#   namespace_hosts.sh up DIR NAME [--cores LIST] [--hide FILE]... [--root ROOT [--qemu-cpu CPU]]
#       starts host NAME (its sshd limited to cores LIST with taskset; FILEs hidden from it by a
#       bind mount of /dev/null, as on a machine without that library). With --root, a host of
#       ROOT's architecture: every login is chrooted (sshd's ChrootDirectory) into ROOT's /usr,
#       /etc, /var and /opt, with the host's own /dev, /proc, /sys, /tmp and /root, and DIR/hosts/NAME/home
#       at its own path; ROOT's programs (its shell, python3, edgebench) run there through
#       binfmt_misc (an arm64 root: qemu-aarch64, emulating CPU, default cortex-a76), so the host
#       answers `uname -m` with its own architecture. The daemon itself is this machine's sshd:
#       an arm64 sshd under qemu-user closes every connection.
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
    cores="" hide=() root="" qemu_cpu=cortex-a76
    while [ $# -gt 0 ]; do
      case "$1" in
        --cores) cores=$2; shift 2 ;;
        --hide) hide+=("$2"); shift 2 ;;
        --root) root=$(cd "$2" && pwd) || die "no root directory $2"; shift 2 ;;
        --qemu-cpu) qemu_cpu=$2; shift 2 ;;
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
    if [ -n "$root" ]; then
      [ -x "$root/usr/bin/sh" ] || die "--root $root: no usr/bin/sh there (a root as scripts/devroot --arch makes it)"
      printf 'ChrootDirectory %s\nSetEnv QEMU_CPU=%s\n' "$hd/root" "$qemu_cpu" >> "$hd/sshd_config"
    fi
    kill_host "$name"
    inner="hostname '$name'"
    for f in ${hide[@]+"${hide[@]}"}; do inner+="; mount --bind /dev/null '$f'"; done
    if [ -n "$root" ]; then
      # The chroot, made in the host's own mount namespace (nothing of ROOT is changed): a tmpfs
      # holding ROOT's directories bound in, usrmerge's links, and the host's own devices,
      # processes, /tmp, /root and working directory.
      r="$hd/root"
      mkdir -p "$r"
      inner+="; mount -t tmpfs -o mode=755 tmpfs '$r'"
      for d in usr etc var opt; do
        [ -d "$root/$d" ] && inner+="; mkdir '$r/$d' && mount --rbind '$root/$d' '$r/$d'"
      done
      inner+="; ln -s usr/bin '$r/bin'; ln -s usr/lib '$r/lib'; ln -s usr/sbin '$r/sbin'"
      inner+="; mkdir -m 755 '$r/dev' '$r/proc' '$r/sys' '$r/root' '$r/run' && mkdir -m 1777 '$r/tmp'"
      inner+="; mount --rbind /dev '$r/dev'; mount -t proc proc '$r/proc'; mount --rbind /sys '$r/sys'"
      inner+="; mount -t tmpfs -o mode=1777 tmpfs '$r/tmp'"
      inner+="; mkdir -p '$r$hd/home' && mount --bind '$hd/home' '$r$hd/home'"
    fi
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
