#!/usr/bin/env python3
"""Behaviour oracle for refactors: a manifest of hashes of a results/ folder.

    python3 tests/manifest.py results > before.txt      # at the commit before the change
    python3 tests/manifest.py results > after.txt       # same command, same machine, after
    diff before.txt after.txt                            # empty = behaviour preserved

One line per file: sha256 and path. Hashed:
  * every CSV, byte for byte;
  * every summary.json with the fields that legitimately change between builds removed:
    `version` and `hash` (the code version is written into every result) and, in T14 only,
    `params.timing` and the finding quoting it (a wall-clock measurement: the measured
    Gram/through-N crossover).
Skipped (named in the output so nothing is silently dropped): T14/data_timing.csv and the
orders-timing figure drawn from it (wall-clock timings). Figures (PNG/SVG) depend on the gnuplot build and are not part of the oracle; the
.gp scripts and figure.json specs are hashed, since they are written by akm.

Builds use -march=native, so two machines may differ in the last bits of a double: compare
manifests made on one machine (rebuild the baseline from the pre-change commit there).
"""
import hashlib
import json
import pathlib
import sys

# T14 measures the Gram/through-N crossover in wall-clock time: its timing table and the
# figure drawn from it (whose script and spec carry the measured crossover) vary run to run.
TIMING_FILES = {"T14/data_timing.csv", "T14/orders-timing.gp", "T14/orders-timing.figure.json"}
TIMING_FINDING = "measured Gram/through-N crossover"


def normalized_summary(path: pathlib.Path) -> bytes:
    d = json.loads(path.read_text())
    d.pop("version", None)
    d.pop("hash", None)
    if d.get("id") == "T14":
        d.get("params", {}).pop("timing", None)
        # The finding that quotes the measured crossover is the same wall-clock number.
        d["findings"] = [f for f in d.get("findings", []) if not f.startswith(TIMING_FINDING)]
    return json.dumps(d, sort_keys=True, separators=(",", ":")).encode()


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    if not root.is_dir():
        print(f"manifest: results folder '{root}' does not exist", file=sys.stderr)
        return 2
    for p in sorted(root.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(root).as_posix()
        if rel.count("/") != 1:
            continue  # only <ID>/<file>: the index, notebooks and staging folders are not results
        if rel in TIMING_FILES:
            print(f"{'skipped (wall-clock timing)':64s}  {rel}")
            continue
        if p.name == "summary.json":
            data = normalized_summary(p)
        elif p.suffix in (".csv", ".gp") or p.name.endswith(".figure.json"):
            data = p.read_bytes()
        else:
            continue
        print(f"{hashlib.sha256(data).hexdigest()}  {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
