#!/usr/bin/env python3
"""docs/adding-a-claim.md stays true: its code is the repository's code, and its commands run
as it says.

Two markers, each an HTML comment on the line before a fenced block (invisible when rendered):

  <!-- excerpt: PATH -->             the block is text of PATH (repository-relative), verbatim.
                                     A line that is only an elision (`…`, `// …`, `# …`) splits
                                     the block into pieces; each piece must appear in PATH, in
                                     the order shown.
  <!-- excerpt: PATH lines A-B -->   the block is exactly lines A..B of PATH (a quote of a
                                     generated file, e.g. results/; --write refreshes it).
  <!-- run: exit N -->               a ```console block: each `$ build/akm …` line is run with
                                     the akm given, in a scratch folder that holds the
                                     repository's tests/ and experiments/ and a copy of the
                                     committed results' summaries; it must exit N and print
                                     what the block shows under it (a line `…` stands for any
                                     number of lines, `…` inside a line for any text).
  <!-- not run: REASON -->           a ```console block that is shown, not run.

Every ```console block carries `run` or `not run`, so no command escapes the check. The check
then proves that it can fail: the same page with one excerpt changed by a character, and with
a run block's exit status changed, must each be refused.

usage: python3 tests/adding_a_claim_check.py AKM            check (AKM: e.g. build/akm)
       python3 tests/adding_a_claim_check.py AKM --write    refresh the `lines A-B` quotes
"""
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "adding-a-claim.md"
sys.path.insert(0, str(ROOT / "tests"))
from docs_check import output_matches  # noqa: E402  (the README quickstart's matching rule)

MARK = re.compile(r"^<!-- (excerpt|run|not run): ?(.*?) -->\n```([^\n]*)\n(.*?)^```", re.M | re.S)
ELISION = re.compile(r"^\s*(//|#)?\s*…\s*$")


def blocks(text):
    """(kind, argument, fence language, body, line number of the marker) for every marked block."""
    return [(m.group(1), m.group(2).strip(), m.group(3), m.group(4), text.count("\n", 0, m.start()) + 1)
            for m in MARK.finditer(text)]


def pieces(body):
    """The block split at elision lines, each piece stripped of blank edge lines."""
    out, cur = [], []
    for line in body.split("\n"):
        if ELISION.match(line):
            out.append(cur)
            cur = []
        else:
            cur.append(line)
    out.append(cur)
    return ["\n".join(p).strip("\n") for p in out if "\n".join(p).strip()]


def check_excerpt(arg, body, line):
    m = re.fullmatch(r"(\S+)(?: lines (\d+)-(\d+))?", arg)
    if not m:
        return [f"line {line}: excerpt marker '{arg}' is not 'PATH' or 'PATH lines A-B'"]
    path = ROOT / m.group(1)
    if not path.is_file():
        return [f"line {line}: excerpt of {m.group(1)}, which does not exist"]
    text = path.read_text()
    if m.group(2):
        a, b = int(m.group(2)), int(m.group(3))
        want = "\n".join(text.split("\n")[a - 1:b])
        if body.rstrip("\n") != want:
            return [f"line {line}: the block is not lines {a}-{b} of {m.group(1)} "
                    f"(refresh: python3 tests/adding_a_claim_check.py AKM --write)"]
        return []
    at = 0
    for piece in pieces(body):
        i = text.find(piece, at)
        if i < 0:
            first = piece.split("\n")[0]
            where = "after the previous piece" if text.find(piece) >= 0 else "anywhere"
            return [f"line {line}: excerpt not found in {m.group(1)} {where}, from: {first!r}"]
        at = i + len(piece)
    return []


def scratch():
    """A folder where the page's relative paths mean what they mean at the repository root,
    and where a command cannot write into the repository's results/."""
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="adding-a-claim-"))
    for d in ("tests", "experiments"):
        (tmp / d).symlink_to(ROOT / d)
    res = ROOT / "results"
    for f in list(res.glob("*/summary.json")) + [res / "ledger.json", res / "summary.json"]:
        if f.is_file():
            dest = tmp / f.relative_to(ROOT)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, dest)
    return tmp


def check_run(akm, arg, lang, body, line, cwd):
    m = re.fullmatch(r"exit (\d+)", arg)
    if not m or lang != "console":
        return [f"line {line}: a run marker is 'run: exit N' before a ```console block"]
    steps, cur = [], None
    for ln in body.rstrip("\n").split("\n"):
        if ln.startswith("$ "):
            cur = [ln[2:], []]
            steps.append(cur)
        elif cur is not None:
            cur[1].append(ln)
    if not steps:
        return [f"line {line}: a run block with no `$ ` command"]
    errors = []
    for cmd, shown in steps:
        argv = shlex.split(cmd)
        if argv[0] != "build/akm":
            errors.append(f"line {line}: `{cmd}` does not start with build/akm")
            continue
        r = subprocess.run([akm] + argv[1:], cwd=cwd, capture_output=True, text=True, timeout=600)
        if r.returncode != int(m.group(1)):
            errors.append(f"line {line}: `{cmd}` exits {r.returncode}, the page says {m.group(1)}: "
                          f"{r.stderr.strip()[:300]}")
            continue
        actual = r.stdout.rstrip("\n").split("\n")
        if not output_matches(shown, actual):
            errors.append(f"line {line}: `{cmd}` printed\n  " + "\n  ".join(actual[:40]) +
                          "\nbut the page shows\n  " + "\n  ".join(shown))
    return errors


def check_page(akm, text):
    errors = []
    found = blocks(text)
    marked = {ln for *_, ln in found}
    # Every console block is marked; a marker never floats free of its block.
    for m in re.finditer(r"^```console\n", text, re.M):
        ln = text.count("\n", 0, m.start()) + 1
        if ln - 1 not in marked:
            errors.append(f"line {ln}: a ```console block without a run / not run marker")
    for m in re.finditer(r"^<!-- (excerpt|run|not run):", text, re.M):
        if text.count("\n", 0, m.start()) + 1 not in marked:
            errors.append(f"line {text.count(chr(10), 0, m.start()) + 1}: a marker not followed by a fenced block")
    kinds = [k for k, *_ in found]
    if "excerpt" not in kinds or "run" not in kinds:
        errors.append("the page has no excerpt or no run block: nothing would keep it true")
    cwd = scratch()
    try:
        for kind, arg, lang, body, line in found:
            if kind == "excerpt":
                errors += check_excerpt(arg, body, line)
            elif kind == "run":
                errors += check_run(akm, arg, lang, body, line, cwd)
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    return errors


def can_fail(akm, text):
    """The page with one change of each kind must be refused. The mutated pages drop the blocks
    that run a claim (strip_expensive): the refusal needs no simulation."""
    found = blocks(text)
    body = next(b[3] for b in found if b[0] == "excerpt" and " lines " not in b[1])
    i = next(k for k, c in enumerate(body) if c.isalnum())
    changed_excerpt = text.replace(body, body[:i] + ("y" if body[i] == "x" else "x") + body[i + 1:], 1)
    arg, run_body = next((b[1], b[3]) for b in found if b[0] == "run" and "build/akm run " not in b[3])
    marker = f"<!-- run: {arg} -->\n```console\n{run_body}"
    changed_exit = text.replace(marker, marker.replace(f"run: {arg}", "run: exit 7", 1), 1)
    missed = [what for what, page in (("a changed excerpt", changed_excerpt), ("a changed exit status", changed_exit))
              if page == text or not check_page(akm, strip_expensive(page))]
    return [f"the check did not refuse {w}" for w in missed]


def strip_expensive(text):
    """The page less its run blocks that run a claim (the mutation check needs no simulation)."""
    return re.sub(r"^<!-- run: [^>]*-->\n```console\n\$ build/akm run .*?^```\n", "", text, flags=re.M | re.S)


def write(text):
    def refresh(m):
        arg = m.group(2).strip()
        r = re.fullmatch(r"(\S+) lines (\d+)-(\d+)", arg)
        if m.group(1) != "excerpt" or not r:
            return m.group(0)
        a, b = int(r.group(2)), int(r.group(3))
        lines = (ROOT / r.group(1)).read_text().split("\n")[a - 1:b]
        return f"<!-- excerpt: {arg} -->\n```{m.group(3)}\n" + "\n".join(lines) + "\n```"
    return MARK.sub(refresh, text)


def main():
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--write"):
        sys.exit(__doc__)
    akm = str(pathlib.Path(sys.argv[1]).resolve())
    text = PAGE.read_text()
    if len(sys.argv) == 3:
        PAGE.write_text(write(text))
        print(f"refreshed the quoted lines of {PAGE.relative_to(ROOT)}")
        return
    errors = check_page(akm, text)
    errors += can_fail(akm, text)
    if errors:
        print(f"{PAGE.relative_to(ROOT)}:\n" + "\n".join(errors))
        sys.exit(1)
    found = blocks(text)
    print(f"{PAGE.relative_to(ROOT)}: {sum(k == 'excerpt' for k, *_ in found)} excerpts match their files, "
          f"{sum(k == 'run' for k, *_ in found)} run blocks exit and print as shown; a changed excerpt "
          f"and a changed exit status are refused")


if __name__ == "__main__":
    main()
