#!/usr/bin/env python3
"""The README and docs/ say only what is true of this repository:

  * every relative link and image resolves to a file in the repository (and a #fragment to a
    heading of the linked Markdown file);
  * every repository path named in backticks exists (paths with placeholders such as <ID>,
    * or {a,b} and paths under build/ are generated, and skipped);
  * every `akm <command>` named runs: `akm <command> --help` exits 0;
  * every docs/*.md page is linked from the README;
  * CHANGELOG.md's newest version is the program's (`akm --version`, from CMakeLists.txt);
  * every fenced block is opened and closed: a page ends outside a block, and a fence with a
    language (```text) only opens one, so a block whose opening fence was lost fails;
  * where include/akm/sim/backend.hpp states the CUDA backend's precision, it names every op
    whose device trial runs in double (the first comment of src/sim/ops/<op>/cuda.cu says
    "(double)");
  * every experiment file is under 300 lines, as docs/architecture.md says (experiments/**:
    the claims' .cpp and .hpp files and the shared headers).
  * the README's quickstart runs: each `$ build/akm …` line of its console blocks is run in a
    scratch folder and its output must match the lines shown under it (a line `…` stands for
    any number of lines, and `…` inside a line for any text).

usage: python3 tests/docs_check.py AKM            (AKM: the built program, e.g. build/akm)
"""
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOP = ("src/", "include/", "tests/", "experiments/", "cmake/", "docs/", ".ci/", "results/",
       "notebooks_export/")
ROOT_FILES = {"README.md", "CHANGELOG.md", "CMakeLists.txt"}
failures = []


def fail(msg):
    failures.append(msg)


def pages():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'."""
    h = re.sub(r"[`*]", "", heading.strip().lower())
    h = re.sub(r"[^\w\- ]", "", h, flags=re.UNICODE)
    return h.replace(" ", "-")


def anchors(md):
    text = re.sub(r"```.*?```", "", md.read_text(), flags=re.S)
    return {slug(m) for m in re.findall(r"^#+\s+(.*)$", text, re.M)}


def code_spans(text):
    """Inline code and fenced blocks (their lines)."""
    fenced = re.findall(r"```[^\n]*\n(.*?)```", text, re.S)
    inline = re.findall(r"(?<!`)`([^`\n]+)`(?!`)", re.sub(r"```.*?```", "", text, flags=re.S))
    return inline, fenced


def check_links(md, text):
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in re.findall(r"!?\[[^\]]*\]\(([^)\s]+)\)", prose):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, frag = target.partition("#")
        dest = (md.parent / path).resolve() if path else md
        if not dest.exists():
            fail(f"{md.relative_to(ROOT)}: link to {target}: no such file")
        elif frag and dest.suffix == ".md" and frag not in anchors(dest):
            fail(f"{md.relative_to(ROOT)}: link to {target}: no heading #{frag}")


def check_paths(md, text):
    inline, fenced = code_spans(text)
    words = []
    for span in inline:
        words += span.split()
    for block in fenced:
        for line in block.splitlines():
            if line.startswith("$ ") or not line.startswith((" ", "\t")):
                words += line.split()
    for w in words:
        w = w.strip("`'\",;:()[]")
        if not (w.startswith(TOP) or w in ROOT_FILES):
            continue
        if re.search(r"[<>*{}…|$]", w) or w.startswith("build/"):
            continue
        if not (ROOT / w).exists():
            fail(f"{md.relative_to(ROOT)}: names {w}, which does not exist")


def commands(text):
    inline, fenced = code_spans(text)
    found = set()
    for chunk in inline + fenced:
        found |= set(re.findall(r"(?:^|[\s$(])(?:build/|\./build/)?akm ([a-z][a-z-]+)", chunk, re.M))
    return found


def check_commands(akm, names):
    for name in sorted(names):
        r = subprocess.run([akm, name, "--help"], capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"`akm {name}` is documented, but `akm {name} --help` exits {r.returncode}")


def line_matches(shown, actual):
    return re.fullmatch(".*".join(map(re.escape, shown.split("…"))), actual) is not None


def output_matches(shown, actual):
    """Lines shown against lines printed; a line '…' skips any number of printed lines."""
    if not shown:
        return True
    if shown[0].strip() == "…":
        return any(output_matches(shown[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and line_matches(shown[0], actual[0]) and output_matches(shown[1:], actual[1:])


def check_quickstart(akm, readme):
    text = readme.read_text()
    m = re.search(r"^## Quickstart\n(.*?)(?=^## )", text, re.S | re.M)
    if not m:
        fail("README.md: no '## Quickstart' section")
        return
    blocks = re.findall(r"```console\n(.*?)```", m.group(1), re.S)
    if not blocks:
        fail("README.md: the quickstart has no console blocks")
    with tempfile.TemporaryDirectory() as tmp:
        for block in blocks:
            steps, cur = [], None
            for line in block.rstrip("\n").split("\n"):
                if line.startswith("$ "):
                    cur = [line[2:], []]
                    steps.append(cur)
                elif cur is not None:
                    cur[1].append(line)
            for cmd, shown in steps:
                argv = shlex.split(cmd)
                if argv[0] != "build/akm":
                    fail(f"README quickstart: `{cmd}` does not start with build/akm")
                    continue
                r = subprocess.run([akm] + argv[1:], cwd=tmp, capture_output=True, text=True,
                                   timeout=300)
                if r.returncode != 0:
                    fail(f"README quickstart: `{cmd}` exits {r.returncode}: {r.stderr.strip()[:300]}")
                    continue
                actual = r.stdout.rstrip("\n").split("\n")
                if not output_matches(shown, actual):
                    fail(f"README quickstart: `{cmd}` printed\n  " + "\n  ".join(actual[:40]) +
                         "\nbut the README shows\n  " + "\n  ".join(shown))


def check_fences(md, text):
    inside = False
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"\s*```(.*)$", line)
        if not m:
            continue
        if inside and m.group(1).strip():
            fail(f"{md.relative_to(ROOT)}:{n}: a fence with a language inside a block (an opening "
                 f"fence above is missing)")
        inside = not inside
    if inside:
        fail(f"{md.relative_to(ROOT)}: ends inside a fenced block (an opening or closing fence is missing)")


def check_cuda_precision():
    backend = (ROOT / "include/akm/sim/backend.hpp").read_text()
    for cu in sorted((ROOT / "src/sim/ops").glob("*/cuda.cu")):
        head = "".join(re.findall(r"^//(.*)$", cu.read_text()[:600], re.M)[:3])
        op = cu.parent.name
        if re.search(r"\(double\)", head) and not re.search(rf"\b{op}\b[^.;]*double", backend):
            fail(f"include/akm/sim/backend.hpp: states the CUDA backend's precision without naming "
                 f"{op}, whose device trial runs in double ({cu.relative_to(ROOT)})")


def check_experiment_lengths():
    for f in sorted((ROOT / "experiments").rglob("*")):
        if f.suffix in (".cpp", ".hpp"):
            n = len(f.read_text().splitlines())
            if n >= 300:
                fail(f"{f.relative_to(ROOT)}: {n} lines; docs/architecture.md says every experiment file "
                     f"is under 300 (split it into parts, see experiments/t05_tracking/)")


def check_version(akm):
    r = subprocess.run([akm, "--version"], capture_output=True, text=True)
    program = r.stdout.strip().split("+")[0]
    m = re.search(r"^## \[(\d+\.\d+\.\d+)\]", (ROOT / "CHANGELOG.md").read_text(), re.M)
    cmake = re.search(r"project\(akm VERSION (\S+)", (ROOT / "CMakeLists.txt").read_text())
    if not m or not cmake or not (m.group(1) == program == cmake.group(1)):
        fail(f"versions differ: CHANGELOG.md {m and m.group(1)}, CMakeLists.txt "
             f"{cmake and cmake.group(1)}, akm --version {r.stdout.strip()!r}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    akm = str(pathlib.Path(sys.argv[1]).resolve())
    readme = ROOT / "README.md"
    names = set()
    for md in pages():
        text = md.read_text()
        check_links(md, text)
        check_paths(md, text)
        check_fences(md, text)
        names |= commands(text)
    readme_text = readme.read_text()
    for page in sorted((ROOT / "docs").glob("*.md")):
        if f"docs/{page.name}" not in readme_text:
            fail(f"README.md does not link docs/{page.name}")
    if not names:
        fail("no `akm <command>` found in README.md and docs/")
    check_commands(akm, names)
    check_version(akm)
    check_cuda_precision()
    check_experiment_lengths()
    check_quickstart(akm, readme)
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print(f"README.md and {len(pages()) - 1} docs pages: links, paths and commands "
          f"({', '.join(sorted(names))}) check out; the quickstart output matches")


if __name__ == "__main__":
    main()
