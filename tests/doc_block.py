"""Generated blocks in the docs: the text between a BEGIN and an END marker line, printed,
rewritten (--write DOC) or checked (--check DOC). Shared by tests/bench/perf_table.py,
tests/cuda/device_table.py and tests/results_blocks.py."""
import pathlib
import sys


def run(argv, begin, end, block, source, script):
    """argv: [script, SOURCE] or [script, SOURCE, --write|--check, DOC]; block: the text."""
    if len(argv) == 2:
        print(block)
        return 0
    mode, doc = argv[2], pathlib.Path(argv[3])
    text = doc.read_text()
    if begin not in text or end not in text:
        print(f"{doc}: no generated-block markers", file=sys.stderr)
        return 1
    new = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    if mode == "--write":
        doc.write_text(new)
        return 0
    if new != text:
        print(f"{doc}: the generated block is not that of {source} "
              f"(python3 {script} {source} --write {doc})", file=sys.stderr)
        return 1
    return 0
