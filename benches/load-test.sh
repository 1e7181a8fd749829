#!/usr/bin/env bash
# Time losses under load: while busy processes load the machine, first probes the engine's
# latency over its protocol (benches/latency.rs: N `go movetime 100`, the time from writing `go`
# to reading `bestmove`: p50, p99, max and the count over 150 ms), then plays self-play matches
# and reports how late each move was (answer time minus allowed time: p50, p99, max) and the
# games lost on time, for each thread count and time control.
#
# Not part of CI (it takes long and wants the machine to itself); see docs/matches.md, "Time
# losses under load", for what it measured and how the defaults were chosen from it.
#
#   benches/load-test.sh                      # probe 500 + 100 games per setting, 4 busy processes
#   GAMES=0 PROBE=1000 benches/load-test.sh   # the latency probe alone
#   BUSY=2 GAMES=1000 THREADS="1" CONTROLS="movetime=100" PROBE=0 benches/load-test.sh
#   ENGINE=/tmp/steere-old RUNNER=./target/release/steere benches/load-test.sh   # another build
#
# Settings (environment):
#   GAMES=100             games per (threads, control) setting (even; 0: no match)
#   PROBE=500             latency probes per thread count (0: no probe)
#   THREADS="1 2"         the engine's Threads option values to test
#   CONTROLS="movetime=100 tc=2+0.05"   time controls (the match runner's engine settings)
#   BUSY=4                busy processes loading the machine (0: none)
#   BUSY_SESSION=same     `same`: the busy processes share this script's session (and so, under
#                         Linux's autogroup, the runner's scheduling group); `own`: they run in a
#                         session of their own, as another program in another terminal would
#   CONCURRENCY=2         games at once
#   ENGINE, RUNNER        the engine under test and the match runner (default: this build)
#   MARGIN                the runner's --timemargin in ms (default: the runner's default)
#   EXTRA="..."           more settings for both engines, e.g. "option.MoveOverhead=0"
#   STALLS=1              run the stall probe beside (benches/stalls.rs: moments the machine
#                         itself did not run, which no priority avoids); 0: no probe
#   RECORDS=DIR           keep each match's game records in DIR
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-100}
PROBE=${PROBE:-500}
THREADS=${THREADS:-"1 2"}
CONTROLS=${CONTROLS:-"movetime=100 tc=2+0.05"}
BUSY=${BUSY:-4}
BUSY_SESSION=${BUSY_SESSION:-same}
CONCURRENCY=${CONCURRENCY:-2}
EXTRA=${EXTRA:-}

if [[ -z "${RUNNER:-}" || -z "${ENGINE:-}" ]]; then
    cargo build --release --quiet
fi
if ((PROBE > 0)); then
    # Built before the load starts; the run below then only checks that it is fresh.
    cargo bench --bench latency --no-run --quiet
fi
stalls_bin=""
if [[ ${STALLS:-1} == 1 ]]; then
    stalls_bin=$(cargo bench --bench stalls --no-run 2>&1 | grep -o 'target/[a-z]*/deps/stalls-[0-9a-f]*' | head -n 1)
fi
RUNNER=${RUNNER:-./target/release/steere}
ENGINE=${ENGINE:-./target/release/steere}
margin_args=()
if [[ -n "${MARGIN:-}" ]]; then
    margin_args=(--timemargin "$MARGIN")
fi

busy_pids=()
stop_busy() {
    if ((${#busy_pids[@]})); then
        kill "${busy_pids[@]}" 2>/dev/null || true
        wait "${busy_pids[@]}" 2>/dev/null || true
    fi
}
trap stop_busy EXIT INT TERM
if [[ -n $stalls_bin ]]; then
    # Beside everything: the moments the machine itself stalled (benches/stalls.rs), to tell
    # from the engine's own delays. Its log is printed at the end.
    stalls_log=$(mktemp)
    "$stalls_bin" --over 20 > "$stalls_log" 2>&1 &
    busy_pids+=($!)
fi
for ((i = 0; i < BUSY; i++)); do
    # A pure processor hog, as a compile or another test run would be.
    if [[ $BUSY_SESSION == own ]]; then
        setsid sh -c 'while :; do :; done' &
    else
        sh -c 'while :; do :; done' &
    fi
    busy_pids+=($!)
done

echo "load test: $GAMES games per setting, $BUSY busy processes ($BUSY_SESSION session), concurrency $CONCURRENCY, $(nproc) cores"
echo "engine $ENGINE, runner $RUNNER ${margin_args[*]} $EXTRA"
if ((PROBE > 0)); then
    for threads in $THREADS; do
        probe_options=()
        for setting in $EXTRA; do
            # option.NAME=VALUE settings of the match become the probe's --option NAME=VALUE.
            if [[ $setting == option.* ]]; then probe_options+=(--option "${setting#option.}"); fi
        done
        cargo bench --quiet --bench latency -- --engine "$ENGINE" --count "$PROBE" \
            --threads "$threads" --movetime 100 "${probe_options[@]}"
    done
fi
if ((GAMES == 0)); then
    exit 0
fi
for threads in $THREADS; do
    for control in $CONTROLS; do
        records_args=()
        if [[ -n "${RECORDS:-}" ]]; then
            mkdir -p "$RECORDS"
            records_args=(--pgn "$RECORDS/threads$threads-${control//[^a-z0-9.+]/_}.txt")
        fi
        echo "== Threads=$threads $control"
        # shellcheck disable=SC2086 # EXTRA is a list of settings
        "$RUNNER" match --engine1 "$ENGINE" name=one --engine2 "$ENGINE" name=two \
            --each "$control" "option.Threads=$threads" $EXTRA \
            --games "$GAMES" --concurrency "$CONCURRENCY" --progress 0 \
            "${margin_args[@]}" "${records_args[@]}" |
            grep -E '^(Match|Losses of|Timing of)'
    done
done
if [[ -n "${stalls_log:-}" ]]; then
    echo "== stalls of the machine over 20 ms (benches/stalls.rs), by second:"
    cut -c1-8 "$stalls_log" | sort | uniq -c | sort -k2 | tail -n 20
fi
