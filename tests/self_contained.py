#!/usr/bin/env python3
"""A clone is self-contained and speaks only of itself: no tracked file (CHANGELOG.md aside,
which may name what a version removed) cites a document kept outside the repository, and no
source, test, build or documentation file narrates the development process (numbered
sessions or issues: git history keeps those).

usage: python3 tests/self_contained.py
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Spelled in pieces so that this file does not name them itself.
OUTSIDE = re.compile("|".join(re.escape(s) for s in ("THEOREMS" + ".md", "DESIGN" + ".md", "../" + "shared")))
PROCESS = re.compile(r"\b[Ss]ession[ -]\d+|\b[Ii]ssue[ -]#?\d+|\bdevelopment round\b|\b[Rr]ound \d+ of development")
PROCESS_DIRS = ("src/", "include/", "experiments/", "tests/", "cmake/", "docs/", ".ci/", "README.md",
                "CMakeLists.txt")


def tracked():
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
        return [ROOT / p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):  # an export without .git
        return [p for p in ROOT.rglob("*") if p.is_file() and not any(
            part.startswith(".git") or part.startswith("build") for part in p.relative_to(ROOT).parts)]


def main():
    bad = []
    for f in tracked():
        rel = f.relative_to(ROOT).as_posix()
        if rel == "CHANGELOG.md" or not f.is_file():
            continue
        try:
            text = f.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                bad.append(f"{rel}:{n}: cites a file outside the repository: {line.strip()[:120]}")
            if rel.startswith(PROCESS_DIRS) and PROCESS.search(line):
                bad.append(f"{rel}:{n}: development history: {line.strip()[:120]}")
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print("no file cites a document outside the repository or narrates development history")


if __name__ == "__main__":
    main()
