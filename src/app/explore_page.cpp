// explore_page — the single page of `akm explore`: controls, a canvas heatmap, the per-point
// theory table. Every number it shows comes from the server (explore_api.cpp); the script
// only draws, keeps the state in the URL and exports what it was sent.
#include "akm/app/explore_api.hpp"

namespace akm::explore {

const char* page_html() {
  return R"HTML(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>akm explore</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1em 2em; color: #222; }
#controls { display: grid; grid-template-columns: repeat(4, auto); gap: 0.3em 1em; align-items: center; max-width: 70em; }
#controls label { font-size: 0.9em; }
input[type=text] { width: 16em; } input.num { width: 5em; }
#main { display: flex; gap: 2em; margin-top: 1em; align-items: flex-start; }
canvas { image-rendering: pixelated; border: 1px solid #999; cursor: crosshair; }
#bar { width: 500px; height: 12px; }
table { border-collapse: collapse; font-size: 0.85em; } td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
#error { color: #b00; font-weight: bold; white-space: pre-wrap; }
code { background: #f4f4f4; padding: 2px 4px; display: block; white-space: pre-wrap; word-break: break-all; }
.note { color: #666; font-size: 0.85em; }
</style></head><body>
<h1>akm explore <span class="note">— closed-form (η, β, α) maps from akm's C++ (the same code as <code style="display:inline">akm phase</code>)</span></h1>
<div id="controls">
 <label>metric <select id="metric">
  <option>rho_ratio</option><option>stable</option><option>ms_stable</option><option>underdamped</option><option>speedup</option><option>counterexample</option></select></label>
 <label>spectrum <input type="text" id="spectrum" value="spiked:n=32,spikes=100/30/10/3,floor=0.5"></label>
 <label>key <select id="key"><option>normalized</option><option>raw</option></select></label>
 <label>direction <input class="num" type="text" id="direction" value="all"></label>
 <label>x axis <select id="xp"><option>eta</option><option>beta</option><option>alpha</option></select>
  <input class="num" id="xlo" value="0.05"> … <input class="num" id="xhi" value="1.5"> N <input class="num" id="xn" value="200"> log <input type="checkbox" id="xlog"></label>
 <label>y axis <select id="yp"><option>beta</option><option>eta</option><option>alpha</option></select>
  <input class="num" id="ylo" value="0"> … <input class="num" id="yhi" value="0.99"> N <input class="num" id="yn" value="200"> log <input type="checkbox" id="ylog"></label>
 <label>η <input type="range" id="eta" min="0.01" max="2" step="0.01" value="0.5"> <span id="eta-v"></span></label>
 <label>β <input type="range" id="beta" min="0" max="0.999" step="0.001" value="0.9"> <span id="beta-v"></span></label>
 <label>α <input class="num" type="text" id="alpha" value="tuned"> <span class="note">number or tuned</span></label>
 <label>seed <input class="num" type="text" id="seed" value="20261122"></label>
 <span><button id="csv">export CSV</button> <button id="png">export PNG</button></span>
 <span class="note" id="timing"></span>
</div>
<div id="error"></div>
<div id="main">
 <div><canvas id="map" width="500" height="500"></canvas><br><canvas id="bar" width="500" height="12"></canvas>
  <div class="note"><span id="range"></span> &middot; <span id="hover">hover the map</span></div>
  <p>Equivalent command:</p><code id="command"></code>
 </div>
 <div><h3>At the clicked point</h3><div id="point" class="note">click the map</div>
  <p><button id="measure" disabled>measure here (Monte Carlo)</button> <button id="cancel" disabled>cancel</button>
   trials <input class="num" id="trials" value="256"> steps <input class="num" id="steps" value="1000"></p>
  <div id="measured"></div><div id="theory"></div>
  <p>probe: <span id="probe"></span></p>
 </div>
</div>
<script>
"use strict";
const $ = id => document.getElementById(id);
const fields = ["metric","spectrum","key","direction","xp","xlo","xhi","xn","xlog","yp","ylo","yhi","yn","ylog","eta","beta","alpha","seed","trials","steps"];
let last = null, clicked = null, pending = null, inflight = false;
function val(id) { const e = $(id); return e.type === "checkbox" ? (e.checked ? "1" : "") : e.value; }
function setv(id, v) { const e = $(id); if (e.type === "checkbox") e.checked = v === "1"; else e.value = v; }
function axis(p) { return `${val(p+"p")}:${val(p+"lo")}:${val(p+"hi")}:${val(p+"n")}` + (val(p+"log") ? ":log" : ""); }
function query() {
  const q = new URLSearchParams({x: axis("x"), y: axis("y"), metric: val("metric"), spectrum: val("spectrum"),
    key: val("key"), direction: val("direction"), alpha: val("alpha"), seed: val("seed")});
  if (val("xp") !== "eta" && val("yp") !== "eta") q.set("eta", val("eta"));
  if (val("xp") !== "beta" && val("yp") !== "beta") q.set("beta", val("beta"));
  return q;
}
function saveState() { const s = new URLSearchParams(); for (const f of fields) s.set(f, val(f)); history.replaceState(null, "", "#" + s.toString()); }
function loadState() { const s = new URLSearchParams(location.hash.slice(1)); for (const f of fields) if (s.has(f)) setv(f, s.get(f)); return s; }
function color(t) {  // viridis, 5 stops
  const c = [[68,1,84],[59,82,139],[33,145,140],[94,201,98],[253,231,37]];
  t = Math.min(1, Math.max(0, t)) * 4; const i = Math.min(3, Math.floor(t)), f = t - i;
  return c[i].map((v, k) => Math.round(v + f * (c[i+1][k] - v)));
}
function draw(m) {
  const v = m.columns[m.names[0]], fin = v.filter(x => x !== null);
  const lo = Math.min(...fin), hi = Math.max(...fin);
  const cv = $("map"), ctx = cv.getContext("2d"), img = ctx.createImageData(m.nx, m.ny);
  for (let j = 0; j < m.ny; ++j) for (let i = 0; i < m.nx; ++i) {
    const x = v[j * m.nx + i], o = 4 * ((m.ny - 1 - j) * m.nx + i);
    const c = x === null ? [200,200,200] : color(hi > lo ? (x - lo) / (hi - lo) : 0.5);
    img.data[o] = c[0]; img.data[o+1] = c[1]; img.data[o+2] = c[2]; img.data[o+3] = 255;
  }
  const off = document.createElement("canvas"); off.width = m.nx; off.height = m.ny;
  off.getContext("2d").putImageData(img, 0, 0);
  ctx.imageSmoothingEnabled = false; ctx.clearRect(0, 0, cv.width, cv.height);
  ctx.drawImage(off, 0, 0, cv.width, cv.height);
  const bar = $("bar").getContext("2d");
  for (let k = 0; k < 500; ++k) { const c = color(k / 499); bar.fillStyle = `rgb(${c})`; bar.fillRect(k, 0, 1, 12); }
  $("range").textContent = `x: ${m.x_param} ${m.x[0]} … ${m.x[m.nx - 1]}, y: ${m.y_param} ${m.y[0]} … ${m.y[m.ny - 1]} (up); ` +
    `colour: ${m.names[0]} ${lo.toPrecision(4)} … ${hi.toPrecision(4)} (grey: undefined)`;
  $("command").textContent = m.command;
  $("timing").textContent = `${m.nx}×${m.ny} map in ${(1000 * m.seconds).toFixed(1)} ms (server)`;
}
function refresh() {
  saveState();
  if (inflight) { pending = true; return; }
  inflight = true; pending = false;
  const t0 = performance.now();
  fetch("/api/phase?" + query()).then(r => r.json().then(j => [r.ok, j])).then(([ok, j]) => {
    if (!ok) { $("error").textContent = j.error; return; }
    $("error").textContent = ""; last = j; draw(j);
    $("timing").textContent += `; ${(performance.now() - t0).toFixed(0)} ms round trip`;
    probe();
  }).catch(e => { $("error").textContent = String(e); })
    .finally(() => { inflight = false; if (pending) refresh(); });
}
function cell(ev) {
  const r = $("map").getBoundingClientRect();
  const i = Math.floor((ev.clientX - r.left) / r.width * last.nx), j = last.ny - 1 - Math.floor((ev.clientY - r.top) / r.height * last.ny);
  return (i >= 0 && i < last.nx && j >= 0 && j < last.ny) ? [i, j] : null;
}
function coords(i, j) {
  const p = {eta: Number(val("eta")), beta: Number(val("beta")), alpha: val("alpha")};
  p[last.x_param] = last.x[i]; p[last.y_param] = last.y[j]; return p;
}
$("map").addEventListener("mousemove", ev => { if (!last) return; const c = cell(ev); if (!c) return;
  const p = coords(...c), v = last.columns[last.names[0]][c[1] * last.nx + c[0]];
  $("hover").textContent = `${last.x_param} = ${last.x[c[0]].toPrecision(4)}, ${last.y_param} = ${last.y[c[1]].toPrecision(4)}: ${last.names[0]} = ${v === null ? "undefined" : v.toPrecision(6)}`; });
$("map").addEventListener("click", ev => { if (!last) return; const c = cell(ev); if (c) showPoint(...c); });
function showPoint(i, j) {
  clicked = coords(i, j);
  const alpha = isNaN(Number(clicked.alpha)) ? "0.1" : String(clicked.alpha);
  $("point").textContent = `η = ${clicked.eta.toPrecision(4)}, β = ${clicked.beta.toPrecision(4)}, α = ${alpha}` + (isNaN(Number(clicked.alpha)) ? " (α tuned on the map; the table uses 0.1)" : "");
  $("measure").disabled = false;
  const q = new URLSearchParams({beta: clicked.beta, eta: clicked.eta, alpha, spectrum: val("spectrum"), key: val("key"), seed: val("seed")});
  fetch("/api/theory?" + q).then(r => r.json().then(j => [r.ok, j])).then(([ok, j]) => {
    if (!ok) { $("theory").textContent = j.error; return; }
    const cols = ["lambda","lambda_hat","beta_tilde","rho_ak","rho_ema","det_ak","det_ema","underdamped_ak"];
    let h = `<p>μ = ${j.mu.toPrecision(5)} &middot; eigenvalues of the 2×2 map: ρ = spectral radius, det = product</p><table><tr><th>i</th>` + cols.map(c => `<th>${c}</th>`).join("") + "</tr>";
    j.directions.forEach((d, k) => { h += `<tr><td>${k+1}</td>` + cols.map(c => `<td>${typeof d[c] === "number" ? d[c].toPrecision(5) : d[c]}</td>`).join("") + "</tr>"; });
    $("theory").innerHTML = h + "</table>";
  });
}
$("measure").onclick = () => {
  const q = new URLSearchParams({eta: clicked.eta, beta: clicked.beta, spectrum: val("spectrum"), key: val("key"),
    direction: val("direction"), trials: val("trials"), steps: val("steps"), seed: val("seed")});
  $("measured").textContent = "measuring…"; $("cancel").disabled = false;
  fetch("/api/measure?" + q, {method: "POST"}).then(r => r.json()).then(j => {
    $("measured").textContent = j.error ? j.error :
      `direction ${j.direction}, lag ${j.lag}: measured rate ${j.measured_rate.toPrecision(5)} ± ${j.rate_se.toPrecision(2)} vs predicted ${j.predicted_rate.toPrecision(5)} (z = ${j.rate_z.toFixed(2)}); diverged ${j.diverged_fraction}`;
  }).finally(() => { $("cancel").disabled = true; });
};
$("cancel").onclick = () => fetch("/api/cancel", {method: "POST"});
$("csv").onclick = () => { if (!last) return;
  let s = `${last.x_param},${last.y_param},` + last.names.join(",") + "\n";
  for (let j = 0; j < last.ny; ++j) for (let i = 0; i < last.nx; ++i)
    s += `${last.x[i]},${last.y[j]},` + last.names.map(n => last.columns[n][j * last.nx + i] ?? "nan").join(",") + "\n";
  const a = document.createElement("a"); a.href = URL.createObjectURL(new Blob([s], {type: "text/csv"})); a.download = "phase.csv"; a.click(); };
$("png").onclick = () => { const a = document.createElement("a"); a.href = $("map").toDataURL("image/png"); a.download = "phase.png"; a.click(); };
function labels() { $("eta-v").textContent = val("eta"); $("beta-v").textContent = val("beta");
  $("eta").disabled = val("xp") === "eta" || val("yp") === "eta"; $("beta").disabled = val("xp") === "beta" || val("yp") === "beta"; }
for (const f of fields) $(f).addEventListener("input", () => { labels(); if (f !== "trials" && f !== "steps") refresh(); });
// probe=i,j writes the map value at grid index (i, j) into #probe (browser tests read it back);
// move=ID:VALUE moves that control once after the first map through the same input event as a user.
let state = loadState(), moved = false;
function probe() {
  if (state.has("move") && !moved) { moved = true; const [id, v] = state.get("move").split(":"); setv(id, v); $(id).dispatchEvent(new Event("input")); return; }
  if (!state.has("probe") || !last) return;
  const [i, j] = state.get("probe").split(",").map(Number), v = last.columns[last.names[0]][j * last.nx + i];
  $("probe").textContent = `${last.names[0]}(${last.x[i]}, ${last.y[j]}) = ${v === null ? "null" : v.toPrecision(17)} [beta=${val("beta")}]`;
}
labels(); refresh();
</script></body></html>
)HTML";
}

}  // namespace akm::explore
