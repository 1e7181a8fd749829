#!/bin/bash
# One shard of a steere match per task of a Slurm job array (docs/matches.md, "A Slurm job
# array"). Submit from the folder that receives the results, with absolute paths:
#
#   STEERE=$PWD/target/release/steere ENGINE1="$PWD/new name=new" ENGINE2="$PWD/old name=old" \
#       sbatch docs/examples/match-slurm.sh
#
# Knobs (environment at submission; sbatch passes it on):
#   STEERE    the steere binary that runs the match (required; an absolute path)
#   ENGINE1   the first engine: its command, then its settings (default: "$STEERE name=new")
#   ENGINE2   the second engine likewise (default: "$STEERE name=old")
#   MATCH     the match's settings (default below); every shard must get the same
#   SHARDS    the number of shards (default 16): the size of --array, written here rather than
#             read from Slurm, so that resubmitting one task (sbatch --array=3 ...) still plays
#             shard 3 of 16
#
# What happens when a task is stopped, and what to do:
#   - time limit: Slurm sends USR1 60 s before it; the task stops steere, which records its
#     games and exits 75 ("interrupted, resumable"), and requeues itself;
#   - preemption, `scontrol requeue`: steere stops the same way; Slurm requeues the task;
#   - to stop a shard cleanly yourself: `scancel --batch --signal=TERM JOBID_TASK`; resubmit it
#     later with `sbatch --array=TASK docs/examples/match-slurm.sh` (same knobs);
#   - `scancel` (plain), a node failure, `kill -9`: at worst the game in progress is lost and
#     replayed; resubmit the task as above.
# A requeued or resubmitted task continues from its record file (--resume): no game is lost,
# none played twice. Each task writes its report shard-K.json whole (--output) and appends to
# its log; the task that completes the last shard merges the match into merged.txt.
#SBATCH --job-name=steere-match
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
#SBATCH --output=shard-%a.log
#SBATCH --open-mode=append
#SBATCH --signal=B:USR1@60
#SBATCH --requeue
set -uo pipefail

SHARDS=${SHARDS:-16}
B=${STEERE:?set STEERE to the absolute path of the steere binary}
ENGINE1=${ENGINE1:-"$B name=new"}
ENGINE2=${ENGINE2:-"$B name=old"}
MATCH=${MATCH:-"--each tc=10+0.1 option.Hash=16 --games 16000 --seed 1 --sprt elo0=0 elo1=5"}
K=${SLURM_ARRAY_TASK_ID:?run this as a job array: sbatch docs/examples/match-slurm.sh}
if ((K < 1 || K > SHARDS)); then
    echo "task $K is not a shard of 1-$SHARDS: set SHARDS to the size of --array" >&2
    exit 2
fi
echo "== shard $K/$SHARDS, job ${SLURM_JOB_ID:-?}, restart ${SLURM_RESTART_COUNT:-0}, $(date -u +%FT%TZ)"

# The engine and match settings are split into words on purpose.
# shellcheck disable=SC2086
"$B" match --engine1 $ENGINE1 --engine2 $ENGINE2 $MATCH \
    --concurrency "${SLURM_CPUS_PER_TASK:-1}" \
    --shard "$K/$SHARDS" --resume "shard-$K.pgn" --json --output "shard-$K.json" &
pid=$!
requeue=0
trap 'requeue=1; kill -TERM "$pid" 2>/dev/null' USR1
trap 'kill -TERM "$pid" 2>/dev/null' TERM INT
# A trapped signal ends `wait` early: wait again until steere has ended.
while kill -0 "$pid" 2>/dev/null; do
    wait "$pid"
done
wait "$pid"
status=$?
echo "== shard $K/$SHARDS: steere exited with status $status"

if ((status == 0)); then
    # Complete. Whichever task completes the last shard merges the match.
    shards=()
    for ((i = 1; i <= SHARDS; i++)); do shards+=("shard-$i.json"); done
    if "$B" match merge --require-all --output merged.txt "${shards[@]}" 2> /dev/null; then
        echo "== all $SHARDS shards complete: merged.txt"
    fi
elif ((status == 75 && requeue)); then
    # Stopped before the time limit: continue in a new run of this task.
    scontrol requeue "$SLURM_JOB_ID"
fi
exit "$status"
