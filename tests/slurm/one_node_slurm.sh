#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A one-node Slurm on this machine for the tests (tst_ranks_slurm, issue 55): munged with a
# key made here, slurmctld and slurmd with a config written into DIR, nothing outside DIR
# touched (no systemd: the daemons are started directly; root, as in CI).
#   one_node_slurm.sh start DIR   prints the SLURM_CONF to use; waits until the node is idle
#   one_node_slurm.sh stop DIR    ends the daemons started for DIR (also after a failed start)
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?the scratch folder}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

stop() {
  for name in slurmd slurmctld munged; do
    if [ -f "$dir/$name.pid" ]; then
      pid=$(cat "$dir/$name.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$dir/$name.pid"
    fi
  done
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
for tool in munged mungekey slurmctld slurmd sbatch scontrol; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (apt-get install slurm-wlm munge)" >&2; exit 3; }
done
trap 'stop' ERR

# munge: a fresh key and socket of our own.
mkdir -p "$dir/munge"
chown munge:munge "$dir/munge" 2>/dev/null || true
chmod 0700 "$dir/munge"
rm -f "$dir/munge/munge.key"
mungekey --create --keyfile="$dir/munge/munge.key" 2>/dev/null || dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chown munge:munge "$dir/munge/munge.key" 2>/dev/null || true
chmod 0400 "$dir/munge/munge.key"
socket="$dir/munge/munge.socket"
runuser -u munge -- munged --force --key-file="$dir/munge/munge.key" --socket="$socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed"
for _ in $(seq 50); do [ -f "$dir/munge/munged.pid" ] && break; sleep 0.1; done
cp "$dir/munge/munged.pid" "$dir/munged.pid"

# Free ports: two above 20000 that nothing listens on.
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ctld_port=$(port)
slurmd_port=$(port)
host=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool"
cat > "$dir/slurm.conf" <<CONF
ClusterName=memviztest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0
DependencyParameters=kill_invalid_depend
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
MaxArraySize=4096
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=16 State=UNKNOWN
PartitionName=memviz Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -i
slurmd
for _ in $(seq 100); do
  if scontrol show node "$host" -o 2>/dev/null | grep -q "State=IDLE"; then
    echo "$SLURM_CONF"
    exit 0
  fi
  sleep 0.2
done
echo "the node did not become idle within 20 s:" >&2
tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
stop
exit 1
