#!/usr/bin/python3
"""ctest explore_security: `akm explore` probed as an attacker would (docs/explore.md,
"Threat model"). The server runs on loopback with --data-dir pointing at a fresh folder that
holds one good table; beside that folder lies a secret file, and a symbolic link inside the
folder points at it.

1. Path traversal in the one parameter that names a file (`spectrum=data:…`), on every route
   that reads it: relative, absolute, `..`, URL-encoded and double-encoded, NUL bytes, a link
   out of --data-dir, /etc/passwd. Each is refused (400) and no body quotes a byte of the
   probed files.
2. The allowed set still works: a built-in data set (when python3-sklearn is installed) and
   the good table inside --data-dir, by relative and by absolute path.
3. A file inside --data-dir that is not a numeric table: refused without quoting its bytes.
4. Foreign Host headers (DNS rebinding) and a missing Host: 403. Cross-site Sec-Fetch-Site:
   403. No Access-Control-* header on any answer.
5. State-changing routes: GET /api/measure and GET /api/cancel: 405; POST from a foreign
   Origin: 403; POST from the page's own origin: 200. A request body: 400.
6. Oversized requests: a long target (414), a long value and too many parameters (400).
7. A bounded fuzz of the query string (a fixed seed, FUZZ requests, loopback only): every
   answer is a 2xx/4xx JSON or the page, never a 5xx, and never quotes the secret.
8. The server is still up afterwards and answers a valid request; SIGINT stops it.

usage: explore_security.py AKM
"""
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

akm = sys.argv[1]
FUZZ = 400
SPEC = "spiked:n=8,spikes=10/3,floor=0.5"
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


tmp = Path(tempfile.mkdtemp(prefix="akm-explore-sec-"))
data = tmp / "data"
data.mkdir()
SECRET_MARK = "s3cr3t-cell-7f2a"
secret = tmp / "secret.csv"
secret.write_text(f"{SECRET_MARK},1\n2,3\n")
(data / "good.csv").write_text("1,2,3\n2,1,0\n0,1,1\n3,3,1\n1,0,2\n")
(data / "words.csv").write_text(f"{SECRET_MARK}-inside,1\n2,3\n")
os.symlink(secret, data / "link.csv")
os.symlink(tmp, data / "up")
passwd_first = Path("/etc/passwd").read_text().split(":")[0] + ":"  # e.g. "root:"

server = subprocess.Popen([akm, "explore", "--port", "0", "--data-dir", str(data)], stdout=subprocess.PIPE, text=True)
line = server.stdout.readline()
port = int(line.split("127.0.0.1:")[1].split("/")[0])
print(line.strip(), flush=True)
HOST = f"127.0.0.1:{port}"


def request(method, target, headers=None, body=None):
    """One raw request: the target is sent byte for byte (no re-encoding), headers as given."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
    h = {"Host": HOST}
    h.update(headers or {})
    for k, v in h.items():
        if v is not None:
            c.putheader(k, v)
    if body is not None:
        c.putheader("Content-Length", str(len(body)))
    c.endheaders(body.encode() if body is not None else None)
    r = c.getresponse()
    out = r.status, dict(r.getheaders()), r.read().decode("utf-8", "replace")
    c.close()
    return out


def leaks(body):
    return SECRET_MARK in body or passwd_first in body or "/bin/" in body or "nologin" in body


def q(params):
    return urllib.parse.urlencode(params, quote_via=urllib.parse.quote)


theory = {"beta": "0.9", "eta": "0.5"}
phase = {"x": "eta:0.05:1.5:8", "y": "beta:0:0.9:6", "metric": "rho_ratio"}
routes = [("/api/theory", theory, "GET"), ("/api/phase", phase, "GET"),
          ("/api/measure", dict(theory, trials="8", steps="10"), "POST")]

# 1. Traversal: every probe refused on every route that reads a spectrum, nothing quoted.
probes = ["data:../secret.csv", f"data:{secret}", "data:link.csv", "data:up/secret.csv",
          "data:/etc/passwd", "data:../../../../../../etc/passwd", "data:./../secret.csv",
          "data:/etc/shadow", "data:good.csv/../../secret.csv", f"data:{data}/../secret.csv",
          "data:/proc/self/environ", "data:~/.bashrc", "data:nonexistent.csv", "data:.", "data:"]
for route, params, method in routes:
    for p in probes:
        status, _, body = request(method, route + "?" + q(dict(params, spectrum=p)))
        ok = status == 400 and not leaks(body) and json.loads(body).get("parameter") == "spectrum"
        check(ok, f"{method} {route} spectrum={p} → {status}, nothing quoted")
# Encodings the server decodes itself: %2e%2e%2f, double encoding, NUL bytes.
raw = ["data%3A..%2Fsecret.csv", "data:%2e%2e/secret.csv", "data:%252e%252e%252fsecret.csv",
       "data:..%2f..%2f..%2f..%2fetc%2fpasswd", "data:good.csv%00../secret.csv", "data:%00/etc/passwd",
       "data:..%5csecret.csv", "data:%2Fetc%2Fpasswd"]
for r in raw:
    status, _, body = request("GET", "/api/theory?beta=0.9&eta=0.5&spectrum=" + r)
    check(status == 400 and not leaks(body), f"GET /api/theory spectrum={r} (raw) → {status}, nothing quoted")

# 2. The allowed set.
status, _, body = request("GET", "/api/theory?" + q(dict(theory, spectrum="data:good.csv")))
check(status == 200, f"data:good.csv inside --data-dir served ({status})")
status, _, body = request("GET", "/api/theory?" + q(dict(theory, spectrum=f"data:{data}/good.csv,standardize")))
check(status == 200, f"data:<absolute path inside --data-dir>,standardize served ({status})")
if Path("/usr/lib/python3/dist-packages/sklearn/datasets/data/iris.csv").exists():
    status, _, body = request("GET", "/api/theory?" + q(dict(theory, spectrum="data:iris")))
    check(status == 200, f"built-in data:iris served ({status})")
else:
    print("skip built-in data set: python3-sklearn not installed")

# 3. A non-numeric file inside the folder: refused, its bytes not quoted.
status, _, body = request("GET", "/api/theory?" + q(dict(theory, spectrum="data:words.csv")))
check(status == 400 and not leaks(body), f"data:words.csv (not numeric) refused without its content ({status})")

# 4. Hosts and cross-site requests.
for host in ["evil.example:%d" % port, "127.0.0.1.nip.io:%d" % port, "127.0.0.1", f"localhost:{port + 1}",
             "attacker.test", "127.0.0.1:%d@evil.example" % port, ""]:
    status, _, body = request("GET", "/api/theory?" + q(dict(theory, spectrum=SPEC)), {"Host": host or None})
    check(status == 403 and "Host" in body, f"Host {host or '(missing)'!r} → {status}")
for host in [f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"]:
    status, headers, _ = request("GET", "/api/theory?" + q(dict(theory, spectrum=SPEC)), {"Host": host})
    check(status == 200 and not any(k.lower().startswith("access-control") for k in headers),
          f"Host {host} → {status}, no CORS header")
status, _, _ = request("GET", "/api/theory?" + q(dict(theory, spectrum=SPEC)), {"Sec-Fetch-Site": "cross-site"})
check(status == 403, f"Sec-Fetch-Site: cross-site → {status}")
status, _, _ = request("GET", "/", {"Sec-Fetch-Site": "same-origin"})
check(status == 200, f"Sec-Fetch-Site: same-origin → {status}")

# 5. State-changing routes.
mq = "/api/measure?" + q(dict(theory, spectrum=SPEC, trials="16", steps="20"))
status, headers, _ = request("GET", mq)
check(status == 405 and headers.get("Allow") == "POST", f"GET /api/measure → {status}")
status, _, _ = request("GET", "/api/cancel")
check(status == 405, f"GET /api/cancel → {status}")
for origin in ["http://evil.example", f"http://localhost:{port + 1}", "null", f"https://127.0.0.1:{port}"]:
    status, _, _ = request("POST", mq, {"Origin": origin})
    check(status == 403, f"POST /api/measure from Origin {origin} → {status}")
    status, _, _ = request("POST", "/api/cancel", {"Origin": origin})
    check(status == 403, f"POST /api/cancel from Origin {origin} → {status}")
status, _, body = request("POST", mq, {"Origin": f"http://{HOST}", "Sec-Fetch-Site": "same-origin"})
check(status == 200 and "measured_rate" in body, f"POST /api/measure from the page's own origin → {status}")
status, _, _ = request("POST", "/api/phase?" + q(dict(phase, spectrum=SPEC)))
check(status == 405, f"POST /api/phase → {status}")
status, _, _ = request("POST", mq, {"Content-Type": "application/x-www-form-urlencoded"}, body="trials=999999")
check(status == 400, f"POST with a body → {status}")

# 6. Oversized requests.
status, _, body = request("GET", "/api/theory?beta=0.9&eta=0.5&spectrum=" + "A" * 6000)
check(status == 414, f"a 6 kB target → {status}")
status, _, body = request("GET", "/api/theory?beta=0.9&eta=0.5&spectrum=" + "9" * 1000)
check(status == 400 and len(body) < 600, f"a 1000-byte value → {status}, a {len(body)}-byte answer")
status, _, _ = request("GET", "/api/theory?" + "&".join(f"p{i}=1" for i in range(40)))
check(status == 400, f"40 parameters → {status}")

# 7. Bounded fuzz of the query string.
rng = random.Random(20261125)
alphabet = list("abcdefghijklmnopqrstuvwxyz0123456789:=,./-_%&?+ ") + ["%00", "%2e%2e%2f", "%ff", "data:", "../", "%0a"]
names = ["x", "y", "metric", "spectrum", "key", "alpha", "direction", "eta", "beta", "seed", "trials", "steps", "zz"]
values = ["data:../secret.csv", "data:link.csv", SPEC, "eta:0.1:1:5", "beta:0:0.9:5", "nan", "-1", "1e308", ""]
bad_answers = 0
for i in range(FUZZ):
    parts = []
    for _ in range(rng.randint(0, 6)):
        v = rng.choice(values) if rng.random() < 0.4 else "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        parts.append(rng.choice(names) + "=" + v)
    route = rng.choice(["/api/theory", "/api/phase", "/api/measure", "/", "/api/cancel", "/x"])
    method = "POST" if route in ("/api/measure", "/api/cancel") and rng.random() < 0.8 else "GET"
    target = route + ("?" + "&".join(parts) if parts else "")
    target = target.replace(" ", "%20").replace("\n", "%0a")
    try:
        status, headers, body = request(method, target)
    except Exception as e:  # noqa: BLE001 — any transport failure is a finding
        status, headers, body = 0, {}, repr(e)
    ok = 200 <= status < 500 and not leaks(body)
    if ok and "json" in headers.get("Content-Type", ""):
        try:
            json.loads(body)
        except ValueError:
            ok = False
    if not ok:
        bad_answers += 1
        print(f"FAIL fuzz {method} {target!r} → {status} {body[:120]!r}", flush=True)
check(bad_answers == 0, f"{FUZZ} fuzzed requests: every answer 2xx/4xx, well-formed, nothing quoted")

# 8. Still up.
status, _, body = request("GET", "/api/theory?" + q(dict(theory, spectrum=SPEC)))
check(status == 200, f"a valid request after the attack → {status}")
server.send_signal(signal.SIGINT)
try:
    rc = server.wait(timeout=20)
except subprocess.TimeoutExpired:
    server.kill()
    rc = None
check(rc == 0, f"SIGINT stops the server cleanly (exit {rc})")
if failures:
    sys.exit(f"{len(failures)} security checks failed")
print("explore security: all checks passed")
