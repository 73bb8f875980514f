#!/bin/bash
# ctest `tst_batch_slurm` (label slurm): a private single-node Slurm cluster in a temporary directory —
# a throwaway munge key and munged, slurmctld and slurmd from a generated slurm.conf (proctrack/linuxproc,
# task/none, no accounting) on free local ports — runs scripts/slurm/submit.sh over a job list of 8 rows
# in 4 shards, waits for the array and the merge job, and compares the merged dataset with one process
# running all rows. The daemons are stopped by their PIDs on every exit. Where Slurm cannot start, the
# test fails and says why (it never passes without having run the jobs).
# With PG_SERVER (tests/postgres/pg_server_probe; ctest tst_batch_slurm_postgres) a private PostgreSQL server
# runs beside the cluster, the array tasks also write their rows straight into it (SOFTGRASP_DB), and its rows
# must equal those of the single process written into SQLite.
#   slurm_cluster_test.sh SOFTGRASP_CLI SOURCE_DIR [PG_SERVER]
set -uo pipefail
cli=$1 src=$2 pg_server=${3:-}
timeout_s=${SG_SLURM_TEST_TIMEOUT:-90}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
for tool in munged slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$tool" >/dev/null || fail "$tool not found: install the Debian packages slurm-wlm and munge (scripts/deps/cluster.txt)"
done
[ -x "$cli" ] || fail "softgrasp-cli not built: $cli"

tmp=$(mktemp -d /tmp/sg-slurm.XXXXXX) || fail "mktemp"
chmod 0700 "$tmp"
pids=()
declare -A daemon_name daemon_log
start_daemon() {  # NAME LOG COMMAND...: runs COMMAND in the background, stdout and stderr to LOG
  local name=$1 log=$2
  shift 2
  "$@" >"$log" 2>&1 &
  pids+=($!)
  daemon_name[$!]=$name
  daemon_log[$!]=$log
}
check_daemons() {
  local pid
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null ||
      fail "${daemon_name[$pid]} (PID $pid) exited at start-up: $(tail -n 1 "${daemon_log[$pid]}" 2>/dev/null)"
  done
}
stop_daemons() {
  local pid
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for _ in $(seq 50); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
}
show_logs() {
  local f
  for f in "$tmp"/*.log "$tmp"/run/*.log; do
    [ -f "$f" ] || continue
    echo "---- $f (last 30 lines)" >&2
    tail -n 30 "$f" >&2
  done
}
stop_pg() {  # closing its stdin stops the server (pg_server_probe serve)
  [ -n "${pg_probe_pid:-}" ] || return 0
  eval "exec ${pg_probe_in}>&-"
  for _ in $(seq 100); do kill -0 "$pg_probe_pid" 2>/dev/null || break; sleep 0.1; done
  kill -TERM "$pg_probe_pid" 2>/dev/null  # still there (a daemon holds its stdin): its guard stops the server
  wait "$pg_probe_pid" 2>/dev/null
  pg_probe_pid=
}
finish() {
  local rc=$?
  stop_pg
  stop_daemons
  [ $rc = 0 ] || show_logs
  if [ $rc = 0 ] || [ -z "${SG_SLURM_KEEP:-}" ]; then rm -rf "$tmp"; else echo "kept $tmp" >&2; fi
  exit $rc
}
trap finish EXIT
trap 'exit 1' INT TERM

db_url=
if [ -n "$pg_server" ]; then
  # The server lives while its stdin is open: it stops when this script exits, however it exits.
  coproc PGSERVER { "$pg_server" serve 2>"$tmp/pg_server.log"; }
  pg_probe_pid=$PGSERVER_PID pg_probe_in=${PGSERVER[1]}
  read -r _ db_url <&"${PGSERVER[0]}" || fail "the PostgreSQL server did not start: $(tail -n 5 "$tmp/pg_server.log")"
  echo "private PostgreSQL server up: $db_url"
fi

# Free local TCP ports: nothing answers a connect.
free_port() {
  local port
  for _ in $(seq 200); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      case " ${used_ports:-} " in *" $port "*) continue ;; esac
      used_ports="${used_ports:-} $port"
      echo "$port"
      return 0
    fi
  done
  return 1
}
ctld_port=$(free_port) && slurmd_port=$(free_port) || fail "no free local TCP port"

user=$(id -un)
host=$(uname -n)
host=${host%%.*}
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/run"
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none || fail "cannot write a munge key"
chmod 0400 "$tmp/munge.key"
start_daemon munged "$tmp/munged.out.log" munged --foreground --force --key-file="$tmp/munge.key" \
  --socket="$tmp/munge.socket" --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed"

# batch_sched_delay=0: slurmctld schedules a submitted or freed job at once instead of up to 3 s later (its
# default), which cost ~2.5-3 s at each of the three waits here (array, second wave, merge): tests/BUILD_TIME.md
# §ctest's wall time. Only when the jobs start changes, not what they do.
cat >"$tmp/slurm.conf" <<CONF
ClusterName=sgtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=600
PlugStackConfig=$tmp/plugstack.conf
NodeName=sgnode NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus State=UNKNOWN
PartitionName=batch Nodes=sgnode Default=YES MaxTime=INFINITE State=UP
CONF
: >"$tmp/plugstack.conf"
export SLURM_CONF=$tmp/slurm.conf

# munged is ready when its socket exists.
for _ in $(seq 50); do [ -S "$tmp/munge.socket" ] && break; check_daemons; sleep 0.1; done
[ -S "$tmp/munge.socket" ] || fail "munged made no socket in 5 s (see munged.log)"

start_daemon slurmctld "$tmp/slurmctld.out.log" slurmctld -D -f "$tmp/slurm.conf"
start_daemon slurmd "$tmp/slurmd.out.log" slurmd -D -f "$tmp/slurm.conf" -N sgnode

# The node is up when sinfo says idle (or mixed/allocated).
state=
for _ in $(seq 150); do
  check_daemons
  state=$(sinfo -h -n sgnode -o %t 2>/dev/null)
  case $state in idle|mix|alloc) break ;; esac
  sleep 0.2
done
case $state in idle|mix|alloc) ;; *) fail "the Slurm node did not come up in 30 s (state '${state:-none}')" ;; esac
echo "private Slurm cluster up: slurmctld port $ctld_port, slurmd port $slurmd_port, $cpus CPUs"

# 8 rows (6 of the cheap parallel jaw, 2 of the three-finger hand with the mug), few steps.
cat >"$tmp/jobs.json" <<JOBS
{
  "format": "softgrasp.batch-jobs", "version": 1,
  "defaults": { "steps": 30200, "contactModel": "point", "measures": ["epsilon-l1"] },
  "jobs": [
    { "world": "$src/worlds/paralleljaw_box.xml", "seedRange": { "first": 1, "count": 6 } },
    { "world": "$src/worlds/default.xml", "seeds": [7, 8], "energy": "contacts" }
  ]
}
JOBS

single_db=()
[ -n "$db_url" ] && single_db=(--db "sqlite://$tmp/single.db")
"$cli" batch "$tmp/jobs.json" --out "$tmp/single" "${single_db[@]}" >"$tmp/single.log" 2>&1 ||
  fail "single-process batch failed"
"$cli" batch-merge "$tmp/single" --out "$tmp/single.csv" >>"$tmp/single.log" 2>&1 || fail "single-process merge failed"

cd "$tmp/run" || fail "cd"
export SOFTGRASP_CLI=$cli
[ -n "$db_url" ] && export SOFTGRASP_DB=$db_url
ids=$("$src/scripts/slurm/submit.sh" "$tmp/jobs.json" "$tmp/shards" 4 "$tmp/slurm.csv" --cpus-per-task=1) \
  || fail "submit.sh failed"
read -r array merge <<<"$ids"
echo "submitted array job $array, merge job $merge"

job_state() { scontrol show job -o "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -n 1 | cut -d= -f2; }
deadline=$((SECONDS + timeout_s))
mstate=
while [ $SECONDS -lt $deadline ]; do
  mstate=$(job_state "$merge")
  case $mstate in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|PREEMPTED|BOOT_FAIL|DEADLINE) break ;; esac
  sleep 0.5
done
# One line per array task: its shard, state and exit code.
scontrol show job -o "$array" 2>/dev/null |
  sed -n 's/.*ArrayTaskId=\([0-9]*\).*JobState=\([A-Z_]*\).*ExitCode=\([0-9:]*\).*/array task \1: \2, exit code \3/p' | sort

[ "$mstate" = COMPLETED ] || fail "the merge job $merge ended as '${mstate:-still pending/running after ${timeout_s} s}'"
[ -f "$tmp/slurm.csv" ] || fail "the merge job wrote no dataset"
cmp "$tmp/single.csv" "$tmp/slurm.csv" || fail "the dataset merged from 4 Slurm shards differs from the single-process one"
rows=$(($(wc -l <"$tmp/slurm.csv") - 1))
[ "$rows" -gt 0 ] || fail "the dataset is empty"
if [ -n "$db_url" ]; then
  # The id column (first) numbers rows in insertion order, which differs between concurrent writers.
  "$cli" db query "$db_url" --csv | cut -d, -f2- >"$tmp/pg.csv" || fail "db query on PostgreSQL failed"
  "$cli" db query "sqlite://$tmp/single.db" --csv | cut -d, -f2- >"$tmp/single-db.csv" || fail "db query on SQLite failed"
  cmp "$tmp/single-db.csv" "$tmp/pg.csv" || fail "the rows the 4 array tasks wrote into PostgreSQL differ from the single process's"
  [ "$(($(wc -l <"$tmp/pg.csv") - 1))" = "$rows" ] || fail "PostgreSQL holds $(($(wc -l <"$tmp/pg.csv") - 1)) grasps, the dataset $rows"
  echo "PASS: the 4 array tasks wrote the single process's $rows grasps into PostgreSQL"
fi
echo "PASS: 4 shards on Slurm merged to the single-process dataset ($rows grasps)"
