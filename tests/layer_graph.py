#!/usr/bin/env python3
"""The layer graph is stated twice and lived once; the three must agree, edge for edge:

  1. CMakeLists.txt: akm_add_layer(<layer> DEPENDS <layers...>), which the build enforces
     (cmake/layers.cmake: a layer's sources see only the layers it reaches);
  2. docs/architecture.md: the picture between the `layer graph` markers, one line per layer,
     `<layer> → <layers...>` (or `<layer> (none)`);
  3. the sources: the layers each layer's own files #include (include/akm/<layer>/,
     src/<layer>/, and experiments/ for the experiments layer), so that no DEPENDS is
     stale (the build already refuses a missing one).

And MPI stays in sim: check (statistics) and report (writers) see sim, but none of their
files includes its MPI interface akm/sim/dist.hpp; their callers decide which rank writes.

And every command's driver lives in app: the files of src/cli/ (the program) and src/python/
(the module) bind arguments to app calls and print, so they include akm headers of app, base,
report and experiments only (the program and the module see every header, so the build cannot
refuse it; the types a binding needs, such as akm::Backend for --backend or the Spectrum and
phase::Map a run returns, come through the app header that declares them). The exceptions are
named in BINDING_EXCEPTIONS, each header with its reason: a binding whose own types are the
rules' classes (pybind11 binds the class itself, there is no driver to call). An exception
that no file uses any more is stale and fails too. The check proves it refuses an include of
akm/sim/dist.hpp in a src/cli/ file before it reads the tree.

usage: python3 tests/layer_graph.py   (exit 1 naming every disagreement)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
KEYWORDS = {"DEPENDS", "SOURCES"}
SOURCE_SUFFIXES = {".hpp", ".cpp", ".h", ".cu", ".cuh"}
NO_MPI = ("check", "report")  # layers above sim whose files must not include akm/sim/dist.hpp
THIN_DIRS = ("src/cli", "src/python")  # the program and the module: bind, call app, print
THIN_LAYERS = {"app", "base", "report", "experiments"}  # what their files may include
# {file: {header: reason}}: what a binding's own types require, named one by one.
BINDING_EXCEPTIONS = {
    "src/python/muon.cpp": {
        "akm/rules/muon.hpp": "binds the class AkMuon and its MuonParams (akm.AkMuon owns one)",
        "akm/rules/newton_schulz.hpp": "binds newton_schulz and newton_schulz_bound, the rules' "
                                       "own functions (akm.newton_schulz, akm.newton_schulz_bound)",
    },
    "src/python/optimizers.cpp": {
        "akm/rules/optimizers.hpp": "binds the optimizer classes AdamW and AkAdamW with their "
                                    "AdamWParams (akm.AdamW, akm.AkAdamW own one each)",
        "akm/rules/rules.hpp": "binds the optimizer classes SgdEma and AkSgd (akm.SgdEma, "
                               "akm.AkSgd own one each)",
    },
}


def cmake_graph():
    """{layer: set of DEPENDS} from the akm_add_layer calls of CMakeLists.txt, in order."""
    text = (ROOT / "CMakeLists.txt").read_text()
    text = re.sub(r"#[^\n]*", "", text)  # comments
    graph = {}
    for call in re.finditer(r"\bakm_add_layer\s*\(([^)]*)\)", text):
        words = call.group(1).split()
        name, deps, section = words[0], set(), None
        for w in words[1:]:
            if w in KEYWORDS:
                section = w
            elif section == "DEPENDS":
                deps.add(w)
        graph[name] = deps
    return graph


def doc_graph():
    """{layer: set of layers} from the picture in docs/architecture.md."""
    text = (ROOT / "docs/architecture.md").read_text()
    m = re.search(r"<!-- layer graph -->\s*```text\n(.*?)```", text, re.S)
    if not m:
        sys.exit("docs/architecture.md: no ```text block after <!-- layer graph -->")
    graph = {}
    for line in m.group(1).splitlines():
        if not line.strip():
            continue
        g = re.fullmatch(r"\s*([a-z_]+)\s+(?:→\s*(.*?)|\(none\))\s*", line)
        if not g:
            sys.exit(f"docs/architecture.md: layer graph line not `<layer> → <layers>`: {line!r}")
        graph[g.group(1)] = set((g.group(2) or "").split())
    return graph


def layer_files(layer):
    """The source files of `layer`."""
    roots = [ROOT / "include/akm" / layer, ROOT / "src" / layer]
    if layer == "experiments":
        roots.append(ROOT / "experiments")
    return [f for r in roots if r.is_dir() for f in sorted(r.rglob("*")) if f.suffix in SOURCE_SUFFIXES]


def includes(f):
    """The akm headers that file `f` #includes ("akm/<layer>/...")."""
    return re.findall(r'^\s*#\s*include\s*[<"](akm/[^">]+)[">]', f.read_text(), re.M)


def included_layers(layer):
    """The other layers that the files of `layer` #include."""
    found = {h.split("/")[1] for f in layer_files(layer) for h in includes(f) if h.count("/") >= 2}
    return found - {layer}


def thin_violations(rel, headers):
    """The lines refusing the akm headers that file `rel` (of THIN_DIRS) may not include."""
    allowed = BINDING_EXCEPTIONS.get(rel, {})
    return [f"{rel}: includes {h} (a command's driver is in app: this file binds the arguments "
            f"to an app call and prints; it includes only {sorted(THIN_LAYERS)}, or a header "
            f"named with its reason in layer_graph.py's BINDING_EXCEPTIONS)"
            for h in headers
            if h.count("/") >= 2 and h.split("/")[1] not in THIN_LAYERS and h not in allowed]


def thin_errors():
    """Every include of THIN_DIRS outside THIN_LAYERS, and every stale exception."""
    errors = []
    for d in THIN_DIRS:
        for f in sorted((ROOT / d).rglob("*")):
            if f.suffix in SOURCE_SUFFIXES:
                errors += thin_violations(str(f.relative_to(ROOT)), includes(f))
    for rel, allowed in BINDING_EXCEPTIONS.items():
        f = ROOT / rel
        used = set(includes(f)) if f.is_file() else set()
        errors += [f"layer_graph.py: BINDING_EXCEPTIONS names {h} for {rel}, which no longer "
                   f"includes it (remove the exception)" for h in sorted(set(allowed) - used)]
    return errors


def main():
    # The rule refuses what it must before it judges the tree.
    if not thin_violations("src/cli/example.cpp", ["akm/sim/dist.hpp"]) or \
            thin_violations("src/cli/example.cpp", ["akm/app/phase.hpp", "akm/base/errors.hpp"]):
        sys.exit("layer_graph.py: the src/cli rule does not refuse akm/sim/dist.hpp (or refuses app/base)")
    cmake, doc = cmake_graph(), doc_graph()
    errors = []
    if not cmake:
        errors.append("CMakeLists.txt: no akm_add_layer call")
    for layer in sorted(set(cmake) | set(doc)):
        if layer not in doc:
            errors.append(f"docs/architecture.md: the layer graph lacks {layer}")
        elif layer not in cmake:
            errors.append(f"docs/architecture.md: the layer graph has {layer}, which CMakeLists.txt does not build")
        elif cmake[layer] != doc[layer]:
            errors.append(f"{layer}: CMakeLists.txt DEPENDS {sorted(cmake[layer])}, "
                          f"docs/architecture.md draws {sorted(doc[layer])}")
    for layer, deps in cmake.items():
        used = included_layers(layer)
        if used != deps:
            errors.append(f"{layer}: DEPENDS {sorted(deps)} but its sources include {sorted(used)} "
                          f"(stale: {sorted(deps - used)}, missing: {sorted(used - deps)})")
    for layer in NO_MPI:
        for f in layer_files(layer):
            if "akm/sim/dist.hpp" in includes(f):
                errors.append(f"{f.relative_to(ROOT)}: includes akm/sim/dist.hpp (MPI stays in sim; "
                              f"the caller decides which rank writes)")
    errors += thin_errors()
    for e in errors:
        print(e)
    if errors:
        sys.exit(1)
    print(f"layer graph: {len(cmake)} layers, "
          f"{sum(len(d) for d in cmake.values())} edges, the same in CMake, docs and sources")


if __name__ == "__main__":
    main()
