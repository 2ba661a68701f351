#!/usr/bin/env python3
"""Prints the README's claim-status table from a results folder's summary.json files.

usage: python3 tests/status_table.py RESULTS_DIR
"""
import json
import pathlib
import re
import sys


def natural(id_):
    m = re.match(r"([A-Z]+)(\d+)", id_)
    return (m.group(1) != "T", m.group(1), int(m.group(2)))


def short(reason, limit=160):
    """A REPORTED claim's reason lists every finding: the table keeps the first part."""
    return reason if len(reason) <= limit else reason[:limit].rsplit(";", 1)[0] + "; … (summary.json)"


def main(root):
    rows = []
    for f in pathlib.Path(root).glob("*/summary.json"):
        s = json.loads(f.read_text())
        st = s.get("status") or {}
        n = len(s.get("checks", []))
        failed = sum(1 for c in s.get("checks", []) if not c.get("pass"))
        rows.append((natural(s["id"]), "| {} | {} | {} | **{}** | {}/{} | {}/{} | {} |".format(
            s["id"], s["slug"], ", ".join(s.get("paper_labels", [])), st.get("status", "?"),
            n - failed, n, st.get("discriminating_checks", "?"), st.get("evidence_checks", "?"),
            short(st.get("reason", "")).replace("|", "/"))))
    print("| ID | name | paper labels | status | checks passed | discriminate / evidence | reason |")
    print("|---|---|---|---|---|---|---|")
    for _, row in sorted(rows):
        print(row)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
