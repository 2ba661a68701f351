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

And a command whose driver lives in app keeps its CLI file to binding and printing: the files
of src/cli/ named in CLI_THIN, and of src/python/ named in PYTHON_THIN, include akm headers of
app, base, report and experiments only (the program and the module see every header, so the
build cannot refuse it; the types a binding needs, such as akm::Backend for --backend or the
Spectrum and phase::Map a run returns, come through the app header that declares them).

usage: python3 tests/layer_graph.py   (exit 1 naming every disagreement)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
KEYWORDS = {"DEPENDS", "SOURCES"}
SOURCE_SUFFIXES = {".hpp", ".cpp", ".h", ".cu", ".cuh"}
NO_MPI = ("check", "report")  # layers above sim whose files must not include akm/sim/dist.hpp
CLI_THIN = ("bench*.cpp", "phase*.cpp")  # src/cli/ files whose command's driver is in app (bench, phase)
PYTHON_THIN = ("phase.cpp",)  # src/python/ files whose function's driver is in app (akm.phase)
CLI_THIN_LAYERS = {"app", "base", "report", "experiments"}  # what those files may include


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


def main():
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
    thin = [f for p in CLI_THIN for f in sorted((ROOT / "src/cli").glob(p))]
    thin += [f for p in PYTHON_THIN for f in sorted((ROOT / "src/python").glob(p))]
    for f in thin:
        for h in includes(f):
            if h.count("/") >= 2 and h.split("/")[1] not in CLI_THIN_LAYERS:
                errors.append(f"{f.relative_to(ROOT)}: includes {h} (its driver is in app: it binds "
                              f"the arguments to an app call and prints; it includes only "
                              f"{sorted(CLI_THIN_LAYERS)})")
    for e in errors:
        print(e)
    if errors:
        sys.exit(1)
    print(f"layer graph: {len(cmake)} layers, "
          f"{sum(len(d) for d in cmake.values())} edges, the same in CMake, docs and sources")


if __name__ == "__main__":
    main()
