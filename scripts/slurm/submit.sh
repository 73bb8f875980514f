#!/bin/bash
# Submits a SoftGrasp batch to Slurm: an array job of N shards and a merge job that runs after all of them
# succeeded (scripts/slurm/README.md). Prints "ARRAY_JOB_ID MERGE_JOB_ID" on stdout.
#   scripts/slurm/submit.sh JOBS OUTDIR N DATASET [sbatch options for both jobs, e.g. --partition=P]
# The shards' sbatch options can be given in SG_SHARD_SBATCH (e.g. "--cpus-per-task=8 --time=12:00:00"),
# the merge job's in SG_MERGE_SBATCH; SG_ARRAY_LIMIT=L lets at most L shards run at once (--array=...%L).
# SOFTGRASP_CLI names the binary (default: softgrasp-cli on PATH).
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 JOBS OUTDIR N DATASET [sbatch options...]" >&2
  exit 2
fi
jobs=$1 out=$2 shards=$3 dataset=$4
shift 4
case $shards in ''|*[!0-9]*|0) echo "$0: N must be a positive integer, got '$shards'" >&2; exit 2 ;; esac
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
range="0-$((shards - 1))${SG_ARRAY_LIMIT:+%$SG_ARRAY_LIMIT}"
# shellcheck disable=SC2086  # the SG_*_SBATCH variables are option lists
array=$(sbatch --parsable --array="$range" ${SG_SHARD_SBATCH:-} "$@" \
        "$here/batch-array.sbatch" "$jobs" "$out")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes ${SG_MERGE_SBATCH:-} "$@" \
        "$here/merge.sbatch" "$out" "$dataset")
merge=${merge%%;*}
echo "$array $merge"
