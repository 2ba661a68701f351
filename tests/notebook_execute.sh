#!/usr/bin/env bash
# ctest notebook_execute: runs one exported notebook end to end with nbconvert (Jupyter's
# own runner) and checks that it finished without an error and drew its figures. With
# AKM_PYTHON set (the build's python/ folder) the live section must run: it re-runs the claim
# through the akm module and redraws the closed forms (one more figure).
# usage: notebook_execute.sh NOTEBOOK.ipynb WORK_DIR.  Exit 77 (skipped) without Jupyter.
set -euo pipefail
nb=$1 work=$2
if ! command -v jupyter-nbconvert >/dev/null ||
   ! /usr/bin/python3 -c 'import ipykernel, pandas, matplotlib' 2>/dev/null; then
  echo "SKIP: needs jupyter-nbconvert, python3-ipykernel, python3-pandas, python3-matplotlib (Debian)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
unset MPLBACKEND  # the kernel's inline backend captures the figures
export PYDEVD_DISABLE_FILE_VALIDATION=1 JUPYTER_PLATFORM_DIRS=1 HOME="$work" IPYTHONDIR="$work/ipython"
cd "$(dirname "$nb")"
timeout 300 jupyter-nbconvert --to notebook --execute --ExecutePreprocessor.timeout=240 \
  --output-dir "$work" --output executed "$(basename "$nb")"
/usr/bin/python3 - "$work/executed.ipynb" "$nb" "${AKM_PYTHON:-}" <<'PY'
import sys, nbformat
run, orig = (nbformat.read(p, as_version=4) for p in sys.argv[1:3])
live = bool(sys.argv[3])
nbformat.validate(run)
errors = [o for c in run.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
figures = sum("image/png" in o.get("data", {}) for c in run.cells if c.cell_type == "code" for o in c.outputs)
expected = sum("image/png" in o.get("data", {}) for c in orig.cells if c.cell_type == "code" for o in c.outputs)
text = "".join(o.get("text", "") for c in run.cells if c.cell_type == "code" for o in c.outputs)
print(text.strip())
expected += 1 if live else 0  # the live β cell draws one figure
live_lines = text.count("live: ")
if errors or figures != expected or "checks pass" not in text or (live and live_lines != 2):
    sys.exit(f"executed notebook: {len(errors)} errors, {figures}/{expected} figures redrawn, "
             f"{live_lines} live lines (live section {'required' if live else 'not required'})")
print(f"executed {sys.argv[2]}: {figures} figures redrawn with matplotlib, no errors")
PY
