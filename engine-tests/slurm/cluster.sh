#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for engine-tests/slurm.rs: installs Debian's
# slurm-wlm and munge when missing, writes a slurm.conf of its own (two partitions, the high one
# preempting the low one by requeueing it), and starts munged, slurmctld and slurmd.
# Needs root. Refuses to touch a /etc/slurm/slurm.conf that it did not write.
#   engine-tests/slurm/cluster.sh start    # idempotent: a running cluster of ours is kept
#   engine-tests/slurm/cluster.sh stop
set -euo pipefail
MARK="# written by steere's engine-tests/slurm/cluster.sh"
CONF=/etc/slurm/slurm.conf

install() {
    if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge > /dev/null
    fi
}

write_conf() {
    if [[ -e $CONF ]] && ! grep -qF "$MARK" "$CONF"; then
        echo "cluster.sh: $CONF exists and is not ours; not touching it" >&2
        exit 1
    fi
    local host cpus
    if [[ ! -e $CONF ]]; then
        # A fresh cluster: a controller state of another cluster name would stop slurmctld.
        rm -f /var/spool/slurmctld/clustername
    fi
    host=$(hostname -s)
    cpus=$(nproc)
    mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd
    cat > "$CONF" <<CONF
$MARK
ClusterName=steere-test
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurmctld.log
SlurmdLogFile=/var/log/slurmd.log
PreemptType=preempt/partition_prio
PreemptMode=REQUEUE
JobRequeue=1
KillWait=10
MinJobAge=3600
ReturnToService=2
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=low Nodes=$host Default=YES MaxTime=INFINITE State=UP PriorityTier=1
PartitionName=high Nodes=$host MaxTime=INFINITE State=UP PriorityTier=10
CONF
}

start() {
    install
    write_conf
    mkdir -p /run/munge
    chown munge:munge /run/munge 2> /dev/null || true
    if [[ ! -s /etc/munge/munge.key ]]; then
        mungekey --create 2> /dev/null || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
        chown munge:munge /etc/munge/munge.key
        chmod 400 /etc/munge/munge.key
    fi
    pgrep -x munged > /dev/null || { su -s /bin/sh munge -c /usr/sbin/munged || /usr/sbin/munged --force; } < /dev/null > /dev/null 2>&1
    pgrep -x slurmctld > /dev/null || slurmctld < /dev/null > /dev/null 2>&1
    pgrep -x slurmd > /dev/null || slurmd < /dev/null > /dev/null 2>&1
    for _ in $(seq 1 60); do
        if sinfo -h -o %T 2> /dev/null | grep -qE '^(idle|mixed|allocated)'; then
            return 0
        fi
        scontrol update nodename="$(hostname -s)" state=resume 2> /dev/null || true
        sleep 1
    done
    echo "cluster.sh: the node never became idle" >&2
    sinfo >&2 || true
    exit 1
}

stop() {
    pkill -x slurmd || true
    pkill -x slurmctld || true
}

case ${1:-start} in
start) start ;;
stop) stop ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
