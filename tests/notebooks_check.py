#!/usr/bin/python3
"""ctest notebooks_validate: every experiment of a results folder has a notebook that
nbformat validates (nbformat 4), whose first cell states the claim and verdict, whose code
cells are valid Python, and which embeds every figure PNG of the experiment as an output.

usage: notebooks_check.py RESULTS_DIR NOTEBOOK_DIR
"""
import ast
import base64
import json
import sys
from pathlib import Path

try:
    import nbformat
except ImportError:
    print("SKIP: python3-nbformat is not installed (apt-get install python3-nbformat)")
    sys.exit(77)

results, notebooks = Path(sys.argv[1]), Path(sys.argv[2])
ids = sorted(p.parent.name for p in results.glob("*/summary.json") if not p.parent.name.startswith("."))
if not ids:
    sys.exit(f"no experiment results in {results}")
errors = []
for exp_id in ids:
    path = notebooks / f"{exp_id}.ipynb"
    if not path.is_file():
        errors.append(f"{exp_id}: no notebook {path}")
        continue
    nb = nbformat.read(path, as_version=4)
    try:
        nbformat.validate(nb)
    except nbformat.ValidationError as e:
        errors.append(f"{exp_id}: invalid nbformat: {e.message}")
        continue
    summary = json.loads((results / exp_id / "summary.json").read_text())
    first = nb.cells[0]
    verdict = "PASS" if summary["pass"] else "FAIL"
    if first.cell_type != "markdown" or exp_id not in first.source or f"Verdict: {verdict}" not in first.source:
        errors.append(f"{exp_id}: first cell lacks the ID or the verdict {verdict}")
    for label in summary.get("paper_labels", []):
        if label not in first.source:
            errors.append(f"{exp_id}: paper label {label} missing from the claim cell")
    images = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        try:
            ast.parse(cell.source)
        except SyntaxError as e:
            errors.append(f"{exp_id}: cell {cell.id} is not valid Python: {e}")
        for out in cell.outputs:
            png = out.get("data", {}).get("image/png")
            if png is None:
                continue
            if not base64.b64decode(png).startswith(b"\x89PNG\r\n\x1a\n"):
                errors.append(f"{exp_id}: cell {cell.id} embeds something that is not a PNG")
            images += 1
    pngs = len(list((results / exp_id).glob("*.png")))
    if images != pngs:
        errors.append(f"{exp_id}: {images} embedded figures, {pngs} PNGs in the results folder")
    # The load cell finds the data relative to the notebook's folder.
    load = nb.cells[1].source
    ref = load.split('os.environ.get("AKM_RESULTS", ')[1].split(")")[0]
    if not (notebooks / json.loads(ref) / exp_id / "summary.json").is_file():
        errors.append(f"{exp_id}: the load cell's results path {ref} does not lead to the data")
print(f"{len(ids)} notebooks checked")
for e in errors:
    print("ERROR:", e)
sys.exit(1 if errors else 0)
