#!/usr/bin/python3
"""ctest explore_server: `akm explore` on loopback, as a client and a browser see it.

1. The server binds 127.0.0.1 on a free port and serves its page.
2. Bad requests over HTTP (each answered 400/404 with a JSON error naming the flag, the
   CLI's message), duplicate parameters, other methods, paths outside the page. (The
   attacker's view — hosts, origins, traversal, fuzz — is tests/explore_security.py.)
3. Concurrent map requests (24 at once through the 4-worker pool) all answered, identically.
4. One measurement at a time (POST /api/measure): a second one while the first runs gets
   429; POST /api/cancel stops the first (409 "cancelled").
5. In Debian's headless Chromium (when installed): the page loads with its state in the URL,
   moves the β slider through the same input event as a user, and the map value it shows
   at a grid point equals `akm phase`'s CSV at the same parameters, to the last digit; a
   screenshot is written beside the build.
6. SIGINT stops the server cleanly (exit 0, "stopped").

usage: explore_server.py AKM SCREENSHOT.png
"""
import concurrent.futures
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

akm, shot = sys.argv[1], Path(sys.argv[2]).resolve()
SPEC = "spiked:n=32,spikes=100/30/10/3,floor=0.5"
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


server = subprocess.Popen([akm, "explore", "--port", "0"], stdout=subprocess.PIPE, text=True)
line = server.stdout.readline()
port = int(line.split("127.0.0.1:")[1].split("/")[0])
base = f"http://127.0.0.1:{port}"
print(line.strip(), flush=True)


def get(path, params=None, method="GET"):
    url = base + path + ("?" + urllib.parse.urlencode(params) if params else "")
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


MAP = {"x": "eta:0.05:1.5:60", "y": "beta:0:0.99:50", "metric": "rho_ratio", "spectrum": SPEC}
status, page = get("/")
check(status == 200 and "/api/phase" in page, "page served at /")

bad = [
    ("/api/phase", dict(MAP, x="eta:1:0.5:10"), 400, "--x"),
    ("/api/phase", dict(MAP, y="beta:0:2:10"), 400, "--y"),
    ("/api/phase", dict(MAP, metric="nope"), 400, "--metric"),
    ("/api/phase", dict(MAP, spectrum="spiked:n=-1"), 400, "spectrum"),
    ("/api/phase", dict(MAP, key="diagonal"), 400, "key"),
    ("/api/phase", dict(MAP, x="eta:0.1:1:1000", y="beta:0:0.9:1000"), 400, "--x"),
    ("/api/phase", dict(MAP, direction="0"), 400, "--direction"),
    ("/api/phase", dict(MAP, alpha="fast"), 400, "--alpha"),
    ("/api/phase", dict(MAP, seed="1e3"), 400, "--seed"),
    ("/api/phase", dict(MAP, bogus="1"), 400, "bogus"),
    ("/api/phase", {k: v for k, v in MAP.items() if k != "x"}, 400, "--x"),
    ("/api/theory", {"beta": "1.2", "eta": "0.5", "spectrum": SPEC}, 400, "beta"),
    ("/api/theory", {"beta": "0.9", "eta": "-1", "spectrum": SPEC}, 400, "eta"),
    ("/api/theory", {"beta": "0.9", "eta": "inf", "spectrum": SPEC}, 400, "eta"),
    ("/api/theory", {"beta": "0.9", "eta": "0.5"}, 400, "--spectrum"),
    ("/api/theory", {"beta": "0.9", "eta": "0.5", "spectrum": "iso:n=0"}, 400, "spectrum"),
    ("/api/measure", {"beta": "0.9", "eta": "0.5", "spectrum": SPEC, "trials": "0"}, 400, "--trials", "POST"),
    ("/api/measure", {"beta": "0.9", "eta": "0.5", "spectrum": SPEC, "steps": "999999999"}, 400, "--steps", "POST"),
    ("/api/measure", {"beta": "0.9", "eta": "0.5", "spectrum": SPEC, "trials": "4096", "steps": "20000"}, 400, "--trials",
     "POST"),
    ("/api/measure", {"beta": "nan", "eta": "0.5", "spectrum": SPEC}, 400, "beta", "POST"),
    ("/etc/passwd", None, 404, None),
    ("/api/../../etc/passwd", None, 404, None),
    ("/results/T1/summary.json", None, 404, None),
    ("/api/nothing", None, 404, None),
]
for path, params, want, param, *method in bad:
    status, body = get(path, params, method=method[0] if method else "GET")
    try:
        j = json.loads(body)
    except ValueError:
        j = {}
    ok = status == want and "error" in j and (param is None or j.get("parameter", "").startswith(param))
    check(ok, f"{path} {params and {k: v for k, v in params.items() if MAP.get(k) != v}} → {status} {j.get('error', body)[:90]}")
status, body = get("/api/phase?" + urllib.parse.urlencode(MAP) + "&metric=stable")
check(status == 400 and "twice" in body, "a parameter given twice is refused")
status, _ = get("/api/phase", MAP, method="POST")
check(status == 405, f"POST /api/phase is refused ({status})")
status, _ = get("/api/measure", {"beta": "0.9", "eta": "0.5", "spectrum": SPEC})
check(status == 405, f"GET /api/measure is refused: it changes state ({status})")
check(len(bad) + 2 >= 20, f"{len(bad) + 2} bad requests tried")

# Concurrency: every answer arrives and is the same map.
with concurrent.futures.ThreadPoolExecutor(24) as pool:
    answers = list(pool.map(lambda _: get("/api/phase", MAP), range(24)))
maps = [json.loads(b) for s, b in answers if s == 200]
for m in maps:
    m.pop("seconds")
check(len(maps) == 24 and all(m == maps[0] for m in maps), "24 concurrent map requests, identical answers")

# One measurement at a time, with cancel.
long = {"beta": "0.9", "eta": "0.5", "spectrum": SPEC, "trials": "4096", "steps": "976"}
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    first = pool.submit(get, "/api/measure", long, "POST")
    time.sleep(0.3)
    second = get("/api/measure", long, method="POST")
    cancel = get("/api/cancel", method="POST")
    first_status, first_body = first.result()
check(second[0] == 429, f"a second measurement while one runs gets 429 ({second[0]})")
check(first_status == 409 and "cancelled" in first_body, f"/api/cancel stops the first ({first_status})")
status, body = get("/api/measure", {"beta": "0.9", "eta": "0.5", "spectrum": SPEC, "trials": "64", "steps": "200"},
                  method="POST")
check(status == 200 and abs(json.loads(body)["rate_z"]) < 6, "a measurement after a cancel runs normally")

# The browser: state in the URL, a slider moved, the value read back and held to akm phase's CSV.
browser = next((shutil.which(b) for b in ("chromium", "chromium-browser") if shutil.which(b)), None)
if browser is None:
    print("skip browser part: no chromium (Debian: chromium)")
else:
    state = ("metric=rho_ratio&spectrum=" + urllib.parse.quote(SPEC) + "&xp=eta&xlo=0.05&xhi=1.5&xn=50"
             "&yp=alpha&ylo=0.01&yhi=1&yn=40&ylog=1&alpha=0.1&probe=10,20&move=beta:0.8")
    with tempfile.TemporaryDirectory() as tmp:
        flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp}/profile",
                 "--virtual-time-budget=15000"]
        dom = subprocess.run(flags + ["--dump-dom", f"{base}/#{state}"], capture_output=True, text=True,
                             timeout=120).stdout
        probe = dom.split('id="probe">')[1].split("<")[0] if 'id="probe">' in dom else ""
        print("browser probe:", probe)
        subprocess.run([akm, "phase", "--x", "eta:0.05:1.5:50", "--y", "alpha:0.01:1:40:log", "--metric",
                        "rho_ratio", "--spectrum", SPEC, "--beta", "0.8", "--out", f"{tmp}/phase", "--quiet"],
                       check=True)
        rows = (Path(tmp) / "phase" / "phase.csv").read_text().splitlines()
        header, row = rows[0].split(","), rows[1 + 20 * 50 + 10].split(",")
        want = float(row[header.index("rho_ratio_worst")])
        got = float(probe.split("= ")[1].split(" ")[0]) if "= " in probe else float("nan")
        check("[beta=0.8]" in probe and got == want,
              f"page value after moving β to 0.8 = akm phase CSV ({got!r} vs {want!r})")
        subprocess.run(flags + ["--window-size=1400,1000", f"--screenshot={shot}", f"{base}/#{state}"],
                       capture_output=True, timeout=120)
        check(shot.exists() and shot.stat().st_size > 10000, f"screenshot {shot}")

server.send_signal(signal.SIGINT)
try:
    rc = server.wait(timeout=20)
    rest = server.stdout.read()
except subprocess.TimeoutExpired:
    server.kill()
    rc, rest = None, ""
check(rc == 0 and "stopped" in rest, f"SIGINT stops the server cleanly (exit {rc})")
if failures:
    sys.exit(f"{len(failures)} explore checks failed")
print("explore: all checks passed")
