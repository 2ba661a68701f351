#!/usr/bin/env bash
# False-alarm audit (not in CI): runs the --quick suite under N seeds and records every
# check's verdict, then tests/audit/false_alarm_report.py compares the observed failure
# rate of each experiment with its declared family-wise rate (--false-alarm).
#
#   tests/audit/false_alarm.sh [-n N] [-s FIRST_SEED] [-a RATES] [-b AKM] [-o DIR]
#     -n N      seeds to run (default 200)           -s FIRST  first seed (default 1)
#     -a RATES  comma list of declared rates, each run per seed (default 1e-6,0.1)
#     -b AKM    the akm binary (default build/akm, copied so rebuilds do not interfere)
#     -o DIR    output folder (default /tmp/akm-false-alarm); results.tsv is appended,
#               so an interrupted audit resumes where it stopped.
# A quick suite is ~35 s of CPU; 200 seeds × 2 rates ≈ 4 h on one core. Runs niced.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=200; first=1; rates="1e-6,0.1"; bin=build/akm; out=/tmp/akm-false-alarm
while getopts "n:s:a:b:o:" opt; do
  case $opt in n) n=$OPTARG;; s) first=$OPTARG;; a) rates=$OPTARG;; b) bin=$OPTARG;;
               o) out=$OPTARG;; *) exit 2;; esac
done
mkdir -p "$out"
if [ ! -x "$out/akm" ]; then cp "$bin" "$out/akm"; fi
tsv="$out/results.tsv"
[ -f "$tsv" ] || printf 'seed\tfalse_alarm\tid\tcheck\tkind\tpass\tz_score\n' > "$tsv"
IFS=, read -r -a rate_list <<< "$rates"
for ((s = first; s < first + n; ++s)); do
  for a in "${rate_list[@]}"; do
    if awk -F'\t' -v s="$s" -v a="$a" '$1==s && $2==a {found=1} END {exit !found}' "$tsv"; then continue; fi
    dir="$out/run-$s-$a"; rm -rf "$dir"
    rc=0; nice -n 19 "$out/akm" reproduce --quick --quiet --threads 1 --seed "$s" \
      --false-alarm "$a" --out "$dir" > "$out/last.log" 2>&1 || rc=$?
    if [ "$rc" -gt 1 ]; then echo "seed $s rate $a: exit $rc" >&2; cat "$out/last.log" >&2; exit 3; fi
    /usr/bin/python3 - "$dir" "$s" "$a" >> "$tsv" <<'PY'
import json, pathlib, sys
d, seed, rate = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
for f in sorted(d.glob("*/summary.json")):
    s = json.loads(f.read_text())
    for c in s["checks"]:
        print("\t".join([seed, rate, s["id"], c["name"].replace("\t", " "), c["kind"],
                         "1" if c["pass"] else "0", repr(c.get("z_score", ""))]))
PY
    rm -rf "$dir"
    echo "$(date -u +%H:%M:%S) seed $s rate $a done (exit $rc)"
  done
done
