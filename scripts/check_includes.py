#!/usr/bin/env python3
"""Checks the include structure of checks/analysis (docs/design/architecture.md).

A module is a header and its source file (Foo.h + Foo.cpp); the private
files of the uniformity analysis (its Impl, spread over one file per step)
are one module with its public interface (PRIVATE_PARTS). The script reads
every `#include "..."` of the analysis folders and fails when
  * two modules include each other, directly or through others (a cycle), or
  * a module includes a folder that is not below its own in LAYERS (CMake
    enforces this too, through the include roots; this says which line).
It prints the longest include chain, as a measure of depth.

    python3 scripts/check_includes.py [--root checks/analysis]
"""
import argparse
import os
import re
import sys

# Each folder and the folders it may include (its own included). Keep in
# step with checks/CMakeLists.txt.
LAYERS = {
    "ast": [],
    "intrinsics": ["ast"],
    "matchers": ["intrinsics", "ast"],
    "arch": ["intrinsics", "ast"],
    "symbolic": ["ast"],
    "launch": ["ast"],
    "lanes": ["intrinsics", "ast"],
    "uniformity": ["intrinsics", "symbolic", "launch", "lanes", "ast"],
    "patterns": ["uniformity", "intrinsics", "symbolic", "launch", "lanes", "ast"],
}
# Files that implement another module's interface and are included by no
# other module: counted as part of that module.
PRIVATE_PARTS = {
    "uniformity/" + part: "uniformity/Uniformity"
    for part in ("FunctionAnalysis", "SymbolicView", "Butterflies", "CollectiveSites",
                 "ControlDivergence", "IndexForms", "LaneReachability", "LocalVariables",
                 "ValueAnalysis", "WarpAnalysisCache")
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


errors_private = []


def modules(root):
    """{module: set of modules it includes}, module = 'folder/Name'."""
    graph = {}
    where = {}
    for folder in sorted(os.listdir(root)):
        path = os.path.join(root, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            stem, ext = os.path.splitext(name)
            if ext not in (".h", ".cpp"):
                continue
            module = folder + "/" + stem
            module = PRIVATE_PARTS.get(module, module)
            deps = graph.setdefault(module, set())
            with open(os.path.join(path, name)) as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                target = os.path.splitext(m.group(1))[0]
                if "/" not in target or target.split("/")[0] not in LAYERS:
                    continue
                if target in PRIVATE_PARTS:
                    if module.split("/")[0] != target.split("/")[0]:
                        errors_private.append("%s/%s: includes %s, private to %s" % (
                            folder, name, m.group(1), PRIVATE_PARTS[target]))
                    target = PRIVATE_PARTS[target]
                if target != module:
                    deps.add(target)
                    line = text.count("\n", 0, m.start()) + 1
                    where.setdefault((module, target), "%s/%s:%d" % (folder, name, line))
    return graph, where


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for dep in sorted(graph.get(node, ())):
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in on_stack:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def longest_chain(graph):
    memo = {}

    def depth(node):  # a cycle is reported apart; here it only stops the walk
        if node not in memo:
            memo[node] = [node]
            best = []
            for dep in graph.get(node, ()):
                chain = depth(dep)
                if len(chain) > len(best):
                    best = chain
            memo[node] = [node] + best
        return memo[node]

    return max((depth(n) for n in graph), key=len, default=[])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..",
                                                   "checks", "analysis"))
    args = ap.parse_args()
    graph, where = modules(args.root)
    errors = list(errors_private)
    for module, deps in sorted(graph.items()):
        folder = module.split("/")[0]
        allowed = set(LAYERS.get(folder, [])) | {folder}
        for dep in sorted(deps):
            if dep.split("/")[0] not in allowed:
                errors.append("%s: %s includes %s, which is not below it" %
                              (where[(module, dep)], module, dep))
    for component in cycles(graph):
        errors.append("include cycle among " + ", ".join(component))
    chain = longest_chain(graph)
    print("check_includes: %d modules, longest include chain %d: %s" %
          (len(graph), len(chain), " -> ".join(chain)), flush=True)
    for e in errors:
        print("check_includes: error: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
