#!/usr/bin/env bash
# A throw-away single-node Slurm cluster in a folder, for trying the examples/distributed/slurm jobs
# and for `make test-distributed`. Needs root; no systemd (the daemons are started directly).
#
#   scripts/slurm-cluster.sh install            apt-get install slurm-wlm munge parallel (only if missing)
#   eval "$(scripts/slurm-cluster.sh start DIR)"  installs, writes DIR/slurm.conf, starts munged, slurmctld
#                                               and slurmd with their state, logs and pid files in DIR,
#                                               waits until the node is idle; prints `export SLURM_CONF=…`
#                                               (also in DIR/env.sh) for sbatch, squeue, scontrol, sinfo
#   scripts/slurm-cluster.sh status DIR         the daemons and the node and queue
#   scripts/slurm-cluster.sh wait DIR JOBID [SECONDS]
#                                               polls until the job (every task of an array) has left the
#                                               queue; exits 0 only if every task ended COMPLETED
#   scripts/slurm-cluster.sh stop DIR           cancels the jobs, stops the daemons it started (by their
#                                               pid files) and any job step still running; nothing is left
#
# Ports: SLURM_CLUSTER_CTLD_PORT (default 6817), SLURM_CLUSTER_SLURMD_PORT (default 6818).
set -euo pipefail

PACKAGES=(slurm-wlm munge parallel)

log() { echo "slurm-cluster: $*" >&2; }
die() { log "$*"; exit 1; }

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

install_packages() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do installed "$p" || missing+=("$p"); done
  if [ ${#missing[@]} -eq 0 ]; then log "packages present: ${PACKAGES[*]}"; return 0; fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "not root and no sudo; install: apt-get install ${missing[*]}"
    sudo=(sudo)
  fi
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  # The packages try to start their services; without systemd that fails harmlessly (we start our own).
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

need_dir() {
  [ -n "${1:-}" ] || die "usage: $0 start|stop|status|wait DIR"
  mkdir -p "$1"
  DIR=$(cd "$1" && pwd)
  CONF="$DIR/slurm.conf"
}

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Processes slurmstepd started for this cluster's jobs: a slurmstepd keeps the cluster's slurmd log
# (in DIR) open, which tells ours from any other cluster's.
our_stepds() {
  local pid fd
  for pid in $(pgrep -x slurmstepd || true); do
    for fd in "/proc/$pid/fd/"*; do
      case "$(readlink "$fd" 2>/dev/null)" in "$DIR"/*) echo "$pid"; break ;; esac
    done
  done
}

# kill_tree PID: PID and every process under it, children first.
kill_tree() {
  local child
  for child in $(pgrep -P "$1" || true); do kill_tree "$child"; done
  kill -KILL "$1" 2>/dev/null || true
}

write_conf() {
  local host cpus
  host=$(hostname -s)
  cpus=$(nproc)
  mkdir -p "$DIR/state" "$DIR/spool" "$DIR/log" "$DIR/run" "$DIR/munge"
  chmod 700 "$DIR/munge"
  cat >"$CONF" <<EOF
# Written by scripts/slurm-cluster.sh: a single-node cluster living in $DIR.
ClusterName=moviemaker
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${SLURM_CLUSTER_CTLD_PORT:-6817}
SlurmdPort=${SLURM_CLUSTER_SLURMD_PORT:-6818}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# Without accounting, a finished job's state is kept here (and by scontrol for MinJobAge seconds).
JobCompType=jobcomp/filetxt
JobCompLoc=$DIR/log/jobcomp.log
MinJobAge=3600
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=256 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  echo "export SLURM_CONF=$CONF" >"$DIR/env.sh"
}

start_munge() {
  local key="$DIR/munge/munge.key"
  if pid_alive "$DIR/run/munged.pid"; then return 0; fi
  [ -f "$key" ] || mungekey --create --keyfile="$key" >&2
  chmod 400 "$key"
  munged --force --key-file="$key" --socket="$DIR/munge/munge.socket" \
    --pid-file="$DIR/run/munged.pid" --log-file="$DIR/log/munged.log" --seed-file="$DIR/munge/munged.seed"
  local _
  for _ in $(seq 50); do
    [ -S "$DIR/munge/munge.socket" ] && pid_alive "$DIR/run/munged.pid" && break
    sleep 0.1
  done
  pid_alive "$DIR/run/munged.pid" || die "munged did not start: $(tail -5 "$DIR/log/munged.log" 2>/dev/null)"
  munge -n --socket="$DIR/munge/munge.socket" | unmunge --socket="$DIR/munge/munge.socket" >/dev/null \
    || die "munge round trip failed"
}

wait_for_node() {
  local _ state=""
  for _ in $(seq 120); do
    state=$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)
    case "$state" in
      idle|mixed|allocated) log "node $(hostname -s) is $state"; return 0 ;;
    esac
    sleep 0.5
  done
  log "node state after 60 s: '${state:-none}'"
  tail -20 "$DIR/log/slurmctld.log" "$DIR/log/slurmd.log" >&2 || true
  return 1
}

start() {
  install_packages
  if pid_alive "$DIR/run/slurmctld.pid" || pid_alive "$DIR/run/slurmd.pid"; then
    die "a cluster is already running in $DIR (stop it first)"
  fi
  write_conf
  export SLURM_CONF="$CONF"
  start_munge
  # Without -D both daemons fork into the background and write their pid files.
  slurmctld -c -i -f "$CONF" || die "slurmctld failed: $(tail -5 "$DIR/log/slurmctld.log" 2>/dev/null)"
  slurmd -f "$CONF" -N "$(hostname -s)" || die "slurmd failed: $(tail -5 "$DIR/log/slurmd.log" 2>/dev/null)"
  wait_for_node || { stop; die "the node did not come up"; }
  log "started in $DIR (logs in $DIR/log)"
  echo "export SLURM_CONF=$CONF"
}

stop_pidfile() {
  local file="$DIR/run/$1.pid" pid _
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then log "$1 ($pid) still running, killing"; kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$file"
}

stop() {
  export SLURM_CONF="$CONF"
  if pid_alive "$DIR/run/slurmctld.pid"; then
    scancel --quiet --full --user="$(id -un)" 2>/dev/null || true
    local _
    for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
  fi
  stop_pidfile slurmd
  stop_pidfile slurmctld
  local pid
  for pid in $(our_stepds); do log "killing slurmstepd $pid and its job's processes"; kill_tree "$pid"; done
  stop_pidfile munged
  log "stopped ($DIR)"
}

status() {
  export SLURM_CONF="$CONF"
  local d rc=0
  for d in munged slurmctld slurmd; do
    if pid_alive "$DIR/run/$d.pid"; then echo "$d: running (pid $(cat "$DIR/run/$d.pid"))"; else echo "$d: not running"; rc=1; fi
  done
  if [ $rc -eq 0 ]; then sinfo -N -l; squeue; fi
  return $rc
}

# Waits for JOBID (a job or a whole array) to leave the queue, then checks every task's state with
# scontrol (no accounting database needed).
wait_job() {
  export SLURM_CONF="$CONF"
  local job="$1" limit="${2:-3600}" start=$SECONDS
  while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
    if (( SECONDS - start > limit )); then log "job $job still queued after $limit s"; return 1; fi
    sleep 1
  done
  local states
  states=$(scontrol -o show job "$job" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sort | uniq -c || true)
  [ -n "$states" ] || { log "job $job: no record"; return 1; }
  log "job $job:" "$(tr -s ' \n' ' ' <<<"$states")"  # one line: "4 JobState=COMPLETED" …
  ! scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]*' | grep -qv 'JobState=COMPLETED'
}

cmd="${1:-}"
case "$cmd" in
  install) install_packages ;;
  start) need_dir "${2:-}"; start ;;
  stop) need_dir "${2:-}"; stop ;;
  status) need_dir "${2:-}"; status ;;
  wait) need_dir "${2:-}"; [ -n "${3:-}" ] || die "usage: $0 wait DIR JOBID [SECONDS]"; wait_job "$3" "${4:-3600}" ;;
  *) die "usage: $0 install | start DIR | stop DIR | status DIR | wait DIR JOBID [SECONDS]" ;;
esac
