#!/usr/bin/python3
"""ctest report_browser: opens results/index.html in Debian's headless Chromium, takes a
screenshot, and checks in the browser that the page rendered: every <img> loaded and
decoded (naturalWidth > 0), every local link points at an existing file, and the overview
table has one row per experiment folder. Installs chromium when it is missing (root and
apt-get available); exits 77 (skipped) with a clear message only if that is impossible.

usage: report_browser.py RESULTS_DIR SCREENSHOT.png
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

# The probe is the report itself plus a script that, once every image has loaded or failed,
# records what the browser saw in the DOM; --dump-dom prints that DOM.
probe = results / ".browser-probe.html"
script = """<script>
window.addEventListener('load', () => {
  const imgs = [...document.images];
  const broken = imgs.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src'));
  const rows = document.querySelectorAll('table.overview tr[id^="row-"]').length;
  const out = document.createElement('pre');
  out.id = 'akm-probe';
  out.textContent = JSON.stringify({images: imgs.length, broken, rows});
  document.body.appendChild(out);
});
</script>
</body>"""
probe.write_text(index.read_text(encoding="utf-8").replace("</body>", script), encoding="utf-8")

flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--virtual-time-budget=20000"]
errors = []
try:
    with tempfile.TemporaryDirectory() as profile:  # a fresh profile: no state from earlier runs
        common = [browser, *flags, f"--user-data-dir={profile}"]
        dom = subprocess.run([*common, "--dump-dom", probe.as_uri()], capture_output=True, text=True,
                             timeout=300)
        shot.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([*common, f"--screenshot={shot}", "--window-size=1400,1800", index.as_uri()],
                       capture_output=True, text=True, timeout=300)
finally:
    probe.unlink()  # never leave the probe in the results folder

marker = dom.stdout.split('<pre id="akm-probe">')
if len(marker) < 2:
    print(dom.stderr[-3000:])
    sys.exit("the page did not finish loading in chromium (no probe output)")
seen = json.loads(marker[1].split("</pre>")[0].replace("&quot;", '"').replace("&amp;", "&"))
print(f"chromium: {seen['images']} images, {len(seen['broken'])} broken, {seen['rows']} overview rows, "
      f"{len(ids)} experiments")
if seen["broken"]:
    errors.append(f"broken images: {seen['broken'][:10]}")
if seen["rows"] != len(ids):
    errors.append(f"overview has {seen['rows']} rows for {len(ids)} experiments")
if seen["images"] == 0:
    errors.append("the page shows no figure at all")


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


links = Links()
links.feed(index.read_text(encoding="utf-8"))
for t in links.targets:
    u = urlparse(t)
    if u.scheme or u.netloc:
        errors.append(f"the page reaches outside its folder: {t}")
    elif not (results / unquote(u.path)).exists():
        errors.append(f"dead link: {t}")
print(f"{len(links.targets)} local links checked")

if not shot.is_file() or shot.stat().st_size < 10_000 or not shot.read_bytes().startswith(b"\x89PNG"):
    errors.append(f"no screenshot written to {shot}")
else:
    print(f"screenshot: {shot}")
for e in errors:
    print("ERROR:", e)
sys.exit(1 if errors else 0)
