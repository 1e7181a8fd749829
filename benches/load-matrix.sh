#!/usr/bin/env bash
# The measurement behind docs/matches.md, "Two answerers and the runner's witness": every
# setting the deadline must hold in, run as one batch on a 2-core machine (about 80 minutes).
#
#   phase 1: two 500-game matches at movetime 100 (1 thread) and a 200-game tc=2+0.05 match,
#            all at once, beside 2 busy processes: six games on the processors together;
#   phase 2: a 200-game match at movetime 100 (1 thread) and a 200-game one with Threads=2,
#            side by side, beside 4 busy processes;
#   phase 3: the latency probe (benches/latency.rs), 500 probes at 1 thread and 300 at 2,
#            beside the same 4 busy processes.
#
# The busy processes run in sessions of their own (as another program in another terminal
# would); the stall probe (benches/stalls.rs) runs beside everything. Every match is a plain
# `steere match` with the runner's defaults (--timemargin 50) and the engine's
# (MoveOverhead 25). Results, one file per match, in $OUT (default target/load-matrix):
#   NAME.out  the report (its `Losses of` and `Timing of` lines are the figures)
#   NAME.err  one line per loss on time, with its UTC time
#   NAME.pgn  the records;  probe1.out, probe2.out;  stalls.log;  phases.log (UTC times)
#
#   benches/load-matrix.sh
#   GAMES=100 TC_GAMES=50 SMALL=50 OUT=/tmp/lm benches/load-matrix.sh     # a shorter batch
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-500}       # games of each of the two phase-1 movetime matches
TC_GAMES=${TC_GAMES:-200} # games of the clock match
SMALL=${SMALL:-200}       # games of each phase-2 match
OUT=${OUT:-target/load-matrix}

cargo build --release --quiet
stalls=$(cargo bench --bench stalls --no-run 2>&1 | grep -o 'target/[a-z]*/deps/stalls-[0-9a-f]*' | head -n 1)
latency=$(cargo bench --bench latency --no-run 2>&1 | grep -o 'target/[a-z]*/deps/latency-[0-9a-f]*' | head -n 1)
mkdir -p "$OUT"
# Frozen copies: a build during the batch does not change what is measured.
cp target/release/steere "$OUT/steere"
cp "$stalls" "$OUT/stalls"
cp "$latency" "$OUT/latency"
cd "$OUT"

busy=()
start_busy() {
    for ((i = 0; i < $1; i++)); do
        setsid sh -c 'while :; do :; done' &
        busy+=($!)
    done
}
stop_busy() {
    for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done
    busy=()
}
trap 'stop_busy; kill "$stall_probe" 2>/dev/null || true' EXIT INT TERM

# NAME CONTROL THREADS GAMES SEED
match() {
    ./steere match --engine1 ./steere name=one --engine2 ./steere name=two \
        --each "$2" "option.Threads=$3" --games "$4" --concurrency 2 --seed "$5" --progress 0 \
        --pgn "$1.pgn" > "$1.out" 2> "$1.err"
}

./stalls --over 20 > stalls.log 2>&1 &
stall_probe=$!
: > phases.log
date -u +"phase 1 %T" >> phases.log
start_busy 2
match A1 movetime=100 1 "$GAMES" 701 &
a1=$!
match A2 movetime=100 1 "$GAMES" 702 &
a2=$!
match C tc=2+0.05 1 "$TC_GAMES" 703 &
c=$!
wait "$a1" "$a2" "$c"
stop_busy

date -u +"phase 2 %T" >> phases.log
start_busy 4
match B movetime=100 1 "$SMALL" 704 &
b=$!
match T2 movetime=100 2 "$SMALL" 705 &
t2=$!
wait "$b" "$t2"

date -u +"phase 3 %T" >> phases.log
./latency --engine ./steere --count 500 --threads 1 --movetime 100 > probe1.out 2>&1
./latency --engine ./steere --count 300 --threads 2 --movetime 100 > probe2.out 2>&1
stop_busy
date -u +"done %T" >> phases.log

for name in A1 A2 C B T2; do
    echo "== $name: $(grep -c . "$name.err" || true) losses on time"
    grep -E '^(Match|Losses of|Timing of)' "$name.out"
done
cat probe1.out probe2.out
echo "== stalls of the machine over 20 ms (benches/stalls.rs): $(wc -l < stalls.log)"
