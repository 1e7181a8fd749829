#!/bin/bash
# One shard of a steere match per task of a Slurm job array (docs/matches.md, "A Slurm job
# array"). Submit from the directory that receives the results:
#   jobid=$(sbatch --parsable docs/examples/match-slurm.sh)
#   sbatch --dependency=afterok:$jobid --wrap "./target/release/steere match merge shard-*.json > merged.txt"
#SBATCH --job-name=steere-match
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
#SBATCH --output=shard-%a.log
# SIGTERM reaches steere (B: the batch shell, which exec made steere) 60 s before the time limit, and a failed or preempted task is requeued:
# with --resume it continues from its record file instead of starting again.
#SBATCH --signal=B:TERM@60
#SBATCH --requeue
set -euo pipefail

B=${STEERE:-./target/release/steere}
K=$SLURM_ARRAY_TASK_ID
N=$SLURM_ARRAY_TASK_COUNT

# Every shard gets the same command but for --shard (the fingerprint checks it at the merge),
# and its own record file. --concurrency uses the task's cores.
exec "$B" match \
    --engine1 ./new name=new --engine2 ./old name=old \
    --each tc=10+0.1 option.Hash=16 \
    --games 16000 --seed 1 --sprt elo0=0 elo1=5 \
    --concurrency "${SLURM_CPUS_PER_TASK:-1}" \
    --shard "$K/$N" --resume "shard-$K.pgn" --json > "shard-$K.json"
