#!/usr/bin/python3
"""ctest report_browser: opens the report (results/index.html and every claim page
results/<ID>/index.html) from disk in Debian's headless Chromium and checks in the browser
that it rendered: every <img> loaded and decoded (naturalWidth > 0); the index has one row
per experiment folder; on every claim page with the paper's statements, KaTeX (the report's
own katex/ copy) turned the math into rendered elements and no $…$ source is left; every
local link points at an existing file inside the folder. Screenshots of the index and of one
claim page. Installs chromium when it is missing (root and apt-get available); exits 77
(skipped) with a clear message only if that is impossible.

usage: report_browser.py RESULTS_DIR SCREENSHOT.png   (the claim page's: SCREENSHOT-claim.png)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

results, shot = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


browser = find_chromium()
if browser is None and os.geteuid() == 0 and shutil.which("apt-get"):
    print("installing chromium (Debian) for the browser test …", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    try:
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"],
                       env=env, timeout=600, check=False)
        if not find_chromium():
            subprocess.run(["apt-get", "update", "-qq"], env=env, timeout=300, check=False)
            subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"],
                           env=env, timeout=600, check=False)
    except subprocess.TimeoutExpired:
        pass
    browser = find_chromium()
if browser is None:
    print("SKIP: Debian's chromium is not installed and could not be installed "
          "(apt-get install chromium)")
    sys.exit(77)

index = results / "index.html"
ids = sorted(p.parent.name for p in results.glob("*/summary.json") if not p.parent.name.startswith("."))
if not index.is_file() or not ids:
    sys.exit(f"no report or no experiments in {results}")
katex = (results / "katex" / "katex.min.js").is_file()

# The probe is a page itself plus a script that, once every image has loaded or failed and
# KaTeX has run (DOMContentLoaded), records what the browser saw in the DOM; --dump-dom prints it.
SCRIPT = """<script>
window.addEventListener('load', () => {
  const imgs = [...document.images];
  const broken = imgs.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src'));
  const rows = document.querySelectorAll('table.index tr').length - 1;
  const stmts = [...document.querySelectorAll('.stmt')];
  const raw = stmts.filter(s => {
    const c = s.cloneNode(true);
    c.querySelectorAll('.katex').forEach(k => k.remove());
    return c.textContent.includes('$');
  }).length;
  const rendered = document.querySelectorAll('.stmt .katex').length;
  const out = document.createElement('pre');
  out.id = 'akm-probe';
  out.textContent = JSON.stringify({images: imgs.length, broken, rows, stmts: stmts.length, raw, rendered});
  document.body.appendChild(out);
});
</script>
</body>"""

flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--virtual-time-budget=20000", "--allow-file-access-from-files"]
errors = []


def probe(page, common):
    """What the browser saw on `page` (a path inside results)."""
    p = page.parent / ".browser-probe.html"
    p.write_text(page.read_text(encoding="utf-8").replace("</body>", SCRIPT), encoding="utf-8")
    try:
        dom = subprocess.run([*common, "--dump-dom", p.as_uri()], capture_output=True, text=True, timeout=300)
    finally:
        p.unlink()  # never leave the probe in the results folder
    marker = dom.stdout.split('<pre id="akm-probe">')
    if len(marker) < 2:
        print(dom.stderr[-3000:])
        errors.append(f"{page.relative_to(results)} did not finish loading in chromium (no probe output)")
        return None
    return json.loads(marker[1].split("</pre>")[0].replace("&quot;", '"').replace("&amp;", "&"))


claim_shot = shot.with_name(shot.stem + "-claim.png")
with tempfile.TemporaryDirectory() as profile:  # a fresh profile: no state from earlier runs
    common = [browser, *flags, f"--user-data-dir={profile}"]
    seen = probe(index, common)
    if seen:
        print(f"index: {seen['images']} images, {seen['rows']} rows, {len(ids)} experiments")
        if seen["rows"] != len(ids):
            errors.append(f"the index has {seen['rows']} rows for {len(ids)} experiments")
    shown = None
    for i in ids:
        page = results / i / "index.html"
        if not page.is_file():
            errors.append(f"no claim page {i}/index.html")
            continue
        seen = probe(page, common)
        if not seen:
            continue
        print(f"{i}: {seen['images']} figures ({len(seen['broken'])} broken), {seen['stmts']} statements, "
              f"{seen['rendered']} rendered formulas, {seen['raw']} with raw $")
        if seen["broken"]:
            errors.append(f"{i}: broken images {seen['broken'][:5]}")
        if seen["stmts"] and katex and (seen["rendered"] == 0 or seen["raw"] > 0):
            errors.append(f"{i}: KaTeX did not render the statements ({seen['rendered']} rendered, "
                          f"{seen['raw']} left as $…$)")
        if seen["stmts"] and not katex and "shown as TeX source" not in page.read_text(encoding="utf-8"):
            errors.append(f"{i}: no KaTeX copy and no note that math is shown as TeX")
        if seen["stmts"] and seen["images"] and shown is None:
            shown = page
    shot.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([*common, f"--screenshot={shot}", "--window-size=1300,1100", index.as_uri()],
                   capture_output=True, text=True, timeout=300)
    if shown:
        subprocess.run([*common, f"--screenshot={claim_shot}", "--window-size=1300,1600", shown.as_uri()],
                       capture_output=True, text=True, timeout=300)


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.targets = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("href", "src"):
            v = a.get(key)
            if v and not v.startswith("#"):
                self.targets.append(v)


n_links = 0
for page in [index] + [results / i / "index.html" for i in ids]:
    if not page.is_file():
        continue
    links = Links()
    links.feed(page.read_text(encoding="utf-8"))
    for t in links.targets:
        n_links += 1
        u = urlparse(t)
        target = (page.parent / unquote(u.path)).resolve()
        if u.scheme or u.netloc:
            errors.append(f"{page.relative_to(results)} reaches outside its folder: {t}")
        elif not target.exists():
            errors.append(f"{page.relative_to(results)}: dead link {t}")
        elif results not in target.parents and not str(target).startswith(str(results.parent / "notebooks")):
            # Notebooks live beside the results folder (notebooks_export/); nothing else may be outside.
            if target.suffix != ".ipynb":
                errors.append(f"{page.relative_to(results)} links outside the results folder: {t}")
print(f"{n_links} local links checked on {len(ids) + 1} pages")

for s_ in (shot, claim_shot if shown else None):
    if s_ is None:
        continue
    if not s_.is_file() or s_.stat().st_size < 10_000 or not s_.read_bytes().startswith(b"\x89PNG"):
        errors.append(f"no screenshot written to {s_}")
    else:
        print(f"screenshot: {s_}")
if not katex:
    print("note: no katex/ in the report (libjs-katex not installed): math checked as TeX source")
for e in errors:
    print("ERROR:", e)
sys.exit(1 if errors else 0)
