#!/bin/bash
# Brings up a local Slurm cluster on 127.0.0.1 for tests that run commands through `srun`:
# munged, one slurmctld and MYHILL_SLURM_NODES slurmd daemons (virtual nodes n1..nN on this
# machine), all started by hand (no systemd). Idempotent: installs Debian's packages only if
# missing, rewrites the configuration only if it changed, starts only the daemons that are not
# running (stale pid files from dead daemons are removed first), then waits until every node is
# up and `srun --quiet -n1 -- /bin/true` succeeds. Exits non-zero with a message if it cannot.
#
# Why several virtual nodes instead of one 16-CPU node: for a moment after every job ends its
# node is COMPLETING, and slurmctld allocates nothing on a COMPLETING node; with a single node
# every srun that arrives in that moment waits for the next scheduler pass (up to ~3 s), and a
# step whose tasks cannot be reaped (a daemonized grandchild holding the step's stdout) keeps
# the node COMPLETING for ~65 s, blocking every new srun. With 4 nodes the other 3 take over.
#
# Environment (all optional):
#   MYHILL_SLURM_NODES          virtual nodes (default 4)
#   MYHILL_SLURM_CPUS_PER_NODE  CPUs declared per node (default 4; 4 x 4 = 16 CPUs)
#   MYHILL_SLURM_OVERSUBSCRIBE  jobs that may share one CPU (default 4, so 64 jobs at once)
#   MYHILL_SLURM_TIMEOUT        seconds to wait for the cluster to answer (default 60)
# Layout: config /etc/slurm/slurm.conf (Slurm's default path: no SLURM_CONF needed);
# state, pid files and logs under /var/lib/myhill-slurm (logs in log/).
# Stop it with `slurm-down.sh` (scratch), or kill the pids in /var/lib/myhill-slurm/*.pid.
set -euo pipefail

NODES=${MYHILL_SLURM_NODES:-4}
CPUS=${MYHILL_SLURM_CPUS_PER_NODE:-4}
OVERSUB=${MYHILL_SLURM_OVERSUBSCRIBE:-4}
TIMEOUT=${MYHILL_SLURM_TIMEOUT:-60}
STATE=/var/lib/myhill-slurm
CONF=/etc/slurm/slurm.conf
FIRST_PORT=17001 # slurmd ports: FIRST_PORT .. FIRST_PORT+NODES-1; slurmctld keeps 6817

log() { echo "slurm-up: $*" >&2; }
die() {
    echo "slurm-up: ERROR: $*" >&2
    for f in "$STATE"/log/slurmctld.log "$STATE"/log/slurmd-n1.log /var/log/munge/munged.log; do
        [ -f "$f" ] && { echo "--- last lines of $f:" >&2; tail -n 15 "$f" >&2; }
    done
    command -v sinfo >/dev/null && { echo "--- sinfo -N -l:" >&2; timeout 5 sinfo -N -l >&2 2>&1 || true; }
    exit 1
}

[ "$(id -u)" = 0 ] || die "must run as root (it installs packages and starts daemons)"
[[ $NODES =~ ^[1-9][0-9]*$ && $CPUS =~ ^[1-9][0-9]*$ && $OVERSUB =~ ^[1-9][0-9]*$ ]] \
    || die "MYHILL_SLURM_NODES, _CPUS_PER_NODE and _OVERSUBSCRIBE must be positive integers"
# --- 1. packages -------------------------------------------------------------------------
missing=0
for exe in munged munge unmunge slurmctld slurmd srun sinfo squeue scontrol; do
    command -v "$exe" >/dev/null 2>&1 || missing=1
done
if [ "$missing" = 1 ]; then
    log "installing munge, slurmctld, slurmd, slurm-client with apt-get"
    # Keep package scripts from trying to start the daemons (there is no init system to do it).
    own_policy=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
        own_policy=1
    fi
    aptlog=$(mktemp)
    if ! { apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Use-Pty=0 \
            --no-install-recommends munge slurmctld slurmd slurm-client; } >"$aptlog" 2>&1; then
        [ "$own_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
        tail -n 30 "$aptlog" >&2
        die "apt-get failed (log above)"
    fi
    [ "$own_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
    rm -f "$aptlog"
    for exe in munged slurmctld slurmd srun sinfo; do
        command -v "$exe" >/dev/null 2>&1 || die "$exe still missing after apt-get install"
    done
fi

# The wait for the daemons starts after any install, however long apt-get took.
start_time=$(date +%s)
deadline=$((start_time + TIMEOUT))

# --- helpers -------------------------------------------------------------------------------
# pid_of PIDFILE COMM [ARG]: prints the pid in PIDFILE if that process is alive, is named COMM
# and (if ARG is given) has ARG among its arguments; fails otherwise.
pid_of() {
    local f=$1 comm=$2 arg=${3:-} pid
    [ -s "$f" ] || return 1
    pid=$(head -c 20 "$f" | tr -dc 0-9)
    [ -n "$pid" ] && alive "$pid" && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$comm" ] || return 1
    if [ -n "$arg" ]; then
        tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "$arg" || return 1
    fi
    echo "$pid"
}
# alive PID: the process exists and is not a zombie (a dead daemon stays a zombie until its
# parent, often PID 1, reaps it, and kill -0 still succeeds on a zombie).
alive() {
    local st
    st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
    [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}
# stop_pid PID: SIGTERM, up to 10 s, then SIGKILL.
stop_pid() {
    local pid=$1 i
    kill -TERM "$pid" 2>/dev/null || return 0
    for i in $(seq 100); do
        alive "$pid" || return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
}
munge_ok() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

# --- 2. munge --------------------------------------------------------------------------------
if [ ! -s /etc/munge/munge.key ]; then
    log "creating /etc/munge/munge.key"
    mkdir -p /etc/munge
    if command -v mungekey >/dev/null; then
        mungekey --create --keyfile=/etc/munge/munge.key
    else
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
fi
chown munge:munge /etc/munge /etc/munge/munge.key
chmod 700 /etc/munge
chmod 400 /etc/munge/munge.key
if ! munge_ok; then
    # /run is empty after a reboot; a dead munged leaves its socket, lock and pid file behind
    # (munged starts fine over them).
    install -d -o munge -g munge -m 755 /run/munge
    install -d -o munge -g munge -m 700 /var/log/munge /var/lib/munge
    old=$(pid_of /run/munge/munged.pid munged) && stop_pid "$old"
    log "starting munged"
    if command -v runuser >/dev/null; then
        runuser -u munge -- /usr/sbin/munged || die "munged failed to start"
    else
        su -s /bin/sh munge -c /usr/sbin/munged || die "munged failed to start"
    fi
    until munge_ok; do
        [ "$(date +%s)" -lt "$deadline" ] || die "munged does not answer (munge -n | unmunge)"
        sleep 0.2
    done
fi

# --- 3. configuration --------------------------------------------------------------------------
host=$(hostname -s) # slurmctld only runs on the host named in SlurmctldHost
[ -n "$host" ] || die "hostname -s is empty"
last_port=$((FIRST_PORT + NODES - 1))
if [ "$NODES" = 1 ]; then nodelist=n1 ports=$FIRST_PORT; else
    nodelist="n[1-$NODES]" ports="[$FIRST_PORT-$last_port]"
fi
mkdir -p /etc/slurm "$STATE"/ctld "$STATE"/log
for i in $(seq "$NODES"); do mkdir -p "$STATE/d/n$i"; done
new_conf=$(
    cat <<EOF
# Written by myhill's .ci/slurm-up.sh; rewritten on every run, edits are lost.
ClusterName=myhill
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=6817
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
MpiDefault=none
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d/%n
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd-%n.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
# No cgroups: processes are tracked through the parent-pid tree, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
# A job that went pending (all nodes busy or COMPLETING) is retried at once, not after 3 s.
SchedulerParameters=batch_sched_delay=0
# Nodes are declared with more CPUs than the machine has; slurmd must accept that.
SlurmdParameters=config_overrides
ReturnToService=2
# No accounting database.
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
# An srun killed with SIGKILL cannot cancel its step: without InactiveLimit the job (and its
# task) would run forever. With it, slurmctld cancels the job about 12-45 s later (it checks
# every 30 s for sruns silent for more than InactiveLimit + MessageTimeout).
InactiveLimit=2
# SIGTERM -> SIGKILL interval for cancelled or timed-out jobs.
KillWait=5
# Finished jobs are forgotten after 5 s (squeue never shows them anyway).
MinJobAge=5
MaxJobCount=50000
Waittime=0
NodeName=$nodelist NodeAddr=127.0.0.1 NodeHostname=$host Port=$ports CPUs=$CPUS State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:$OVERSUB
EOF
)
conf_changed=0
if [ ! -f "$CONF" ] || [ "$(cat "$CONF")" != "$new_conf" ]; then
    printf '%s\n' "$new_conf" >"$CONF.tmp.$$" && mv "$CONF.tmp.$$" "$CONF"
    conf_changed=1
    log "wrote $CONF"
fi

# --- 4. daemons ------------------------------------------------------------------------------
ctld_pid=$(pid_of "$STATE/slurmctld.pid" slurmctld) || ctld_pid=
if [ "$conf_changed" = 1 ]; then
    # A running cluster with another configuration (or another node count) is restarted whole.
    for f in "$STATE"/slurmd-*.pid; do
        [ -e "$f" ] || continue
        p=$(pid_of "$f" slurmd) && { log "stopping slurmd $p (configuration changed)"; stop_pid "$p"; }
    done
    if [ -n "$ctld_pid" ]; then
        log "stopping slurmctld $ctld_pid (configuration changed)"
        stop_pid "$ctld_pid"
        ctld_pid=
    fi
fi
if [ -z "$ctld_pid" ]; then
    # A stale pid file is harmless to Slurm (it only signals a pid whose pid file is still
    # locked by a live daemon; checked), but is removed so that nothing else trusts it.
    rm -f "$STATE/slurmctld.pid"
    log "starting slurmctld"
    # -c: start from a clean slate (no jobs or node states from an earlier run).
    slurmctld -c || die "slurmctld failed to start"
fi
for i in $(seq "$NODES"); do
    if ! pid_of "$STATE/slurmd-n$i.pid" slurmd "n$i" >/dev/null; then
        rm -f "$STATE/slurmd-n$i.pid" # as above
        log "starting slurmd n$i"
        slurmd -N "n$i" || die "slurmd n$i failed to start"
    fi
done

# --- 5. wait until usable --------------------------------------------------------------------
sleep 0.2
until timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP'; do
    pid_of "$STATE/slurmctld.pid" slurmctld >/dev/null || sleep 0.5
    pid_of "$STATE/slurmctld.pid" slurmctld >/dev/null || die "slurmctld died (see its log below)"
    [ "$(date +%s)" -lt "$deadline" ] || die "slurmctld does not answer (scontrol ping)"
    sleep 0.2
done
resumed=0
while :; do
    # %T: long state names (idle, mixed, allocated, down, drained, ...); a trailing * or ~ or #
    # marks a node not responding, powered down or powering up.
    states=$(timeout 5 sinfo -h -N -o '%N %T' 2>/dev/null | sort -u || true)
    bad=$(printf '%s\n' "$states" | awk 'NF==2 && $2 !~ /^(idle|mixed|allocated|completing)$/ {print $1":"$2}')
    up=$(printf '%s\n' "$states" | awk 'NF==2 && $2 ~ /^(idle|mixed|allocated|completing)$/' | wc -l)
    if [ "$up" -ge "$NODES" ] && [ -z "$bad" ]; then break; fi
    now=$(date +%s)
    [ "$now" -lt "$deadline" ] || die "nodes not up after ${TIMEOUT}s: ${bad:-none listed}"
    # A node left DOWN or DRAINED by an earlier incident does not come back by itself.
    if [ "$resumed" = 0 ] && [ $((now - start_time)) -ge 15 ] && [ -n "$bad" ]; then
        for nb in $bad; do
            case $nb in *down* | *drain*) scontrol update NodeName="${nb%%:*}" State=RESUME 2>/dev/null || true ;; esac
        done
        resumed=1
    fi
    sleep 0.3
done
until (cd / && timeout 20 srun --quiet -n1 -- /bin/true) </dev/null >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || die "srun --quiet -n1 -- /bin/true keeps failing"
    sleep 0.5
done
log "cluster up in $(($(date +%s) - start_time))s: $NODES node(s) x $CPUS CPUs, oversubscribe x$OVERSUB; logs in $STATE/log"
