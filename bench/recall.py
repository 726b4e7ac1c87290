#!/usr/bin/env python3
"""Measure warp-tidy's recall on real warp-intrinsic bugs that public projects fixed.

    python3 bench/recall.py TREES_DIR WARP_TIDY [--out recall-results.json]
        [--manifest bench/recall/manifest.json] [--deps DIR] [--only REGEX]
        [--jobs 2] [--timeout 900] [--reuse-raw FILE]

bench/recall/manifest.json lists each bug: its repository, the fix commit and its parent
(the buggy version), the sites (project file, buggy lines, the check expected to report
them), the unit to analyse (a project file or one of our drivers in bench/recall/drivers,
which only include the project's headers and instantiate the buggy code the way the
project does) and its compiler flags. Flags and unit paths use placeholders: {tree} is the
extracted tree of one side, {drivers} bench/recall/drivers, {deps} the dependency
directory (--deps, default TREES_DIR/_deps), {bench} this directory.

No project code is in this repository and this script downloads nothing. Rebuild the trees
from clones of the repositories named in the manifest (any clone holding the commits):

    for each bug B, side S in (before = parent_commit, after = fix_commit):
        mkdir -p TREES/B/S
        git --git-dir=<clone of B.repo>/.git archive <commit> <B.archive paths...> \\
            | tar -x -C TREES/B/S
    an archive entry that is an object ({repo, commit, paths, into}) is a submodule or a
    second repository: archive its paths at that commit (a per-side commit is given as
    {"before": ..., "after": ...}) into TREES/B/S/<into>.

and the dependencies (manifest "deps") under DEPS/<name>:

    git --git-dir=<clone of repo> archive <commit> <paths...> | tar -x -C DEPS/<name>
    entries marked same_as are the real-code corpus' own dependencies
    (bench/realcode/manifest.json, docs/evaluation.md); a symlink to them is enough.

Each unit is analysed alone, before and after (one warp-tidy process per run, --format=json
--no-cache -j 1). A site is *found* when a diagnostic of its check (or of the bug's
also_accept checks) lies on one of its lines or also_lines in the buggy tree, or has a note
there (a call site reaching the buggy helper, a collective fed by the buggy mask); it is
*silent after* when the fixed tree has no such diagnostic located on the site's after_lines
(notes do not count there: a different finding elsewhere whose note points into the fixed
helper is listed among the other diagnostics, to be judged on its own). A bug
is found when one of its primary sites is. The output JSON holds every warp diagnostic of
both sides, with the site it matched if any, the exit status and the first compile error
of each run. The script measures; it asserts nothing.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MANIFEST = os.path.join(HERE, "recall", "manifest.json")
DRIVERS = os.path.join(HERE, "recall", "drivers")
SIDES = ("before", "after")


def expand(text, tree, deps):
    return (text.replace("{tree}", tree).replace("{drivers}", DRIVERS)
                .replace("{deps}", deps).replace("{bench}", HERE))


def run_one(binary, unit, flags, timeout):
    # warp-tidy's own limit (300 s by default) is the run's: recall should not depend on
    # how loaded the machine is.
    cmd = [binary, "--format=json", "--no-cache", "-j", "1", "--timeout=%d" % timeout, unit,
           "--"] + flags
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60)
    except subprocess.TimeoutExpired:
        return {"rc": None, "error": "timeout after %ss" % timeout, "seconds": timeout,
                "report": None, "stderr": ""}
    seconds = round(time.monotonic() - start, 1)
    report, error = None, None
    if proc.stdout.strip():
        try:
            report = json.loads(proc.stdout)
        except json.JSONDecodeError as e:
            error = "unreadable JSON: %s" % e
    return {"rc": proc.returncode, "error": error, "seconds": seconds, "report": report,
            "stderr": proc.stderr[-2000:]}


def rel(path, tree):
    path = os.path.realpath(path) if path else ""
    tree = os.path.realpath(tree)
    if path.startswith(tree + os.sep):
        return path[len(tree) + 1:]
    if path.startswith(os.path.realpath(DRIVERS) + os.sep):
        return "{drivers}/" + path[len(os.path.realpath(DRIVERS)) + 1:]
    return path


def at_site(diag, site_file, lines, tree, notes=True):
    """True when the diagnostic (or, with `notes`, one of its notes) lies on `lines` of `site_file`."""
    places = [(diag.get("file"), diag.get("line"))]
    if notes:
        places += [(n.get("file"), n.get("line")) for n in diag.get("notes", [])]
    for f, line in places:
        if f and line in lines and rel(f, tree) == site_file:
            return True
    return False


def warp_diags(result):
    if not result["report"]:
        return []
    return [d for d in result["report"]["diagnostics"] if d["check"].startswith("warp-")]


def first_error(result, tree):
    if result["report"] is None:
        return result["error"] or "no report (rc=%s): %s" % (result["rc"], result["stderr"][-300:])
    for d in result["report"]["diagnostics"]:
        if d["check"].startswith("clang-diagnostic") and d["level"] in ("error", "fatal") and "file" in d:
            return "%s:%s: %s" % (rel(d["file"], tree), d["line"], d["message"])
    if result["rc"] == 2:
        return "tool error: %s" % result["stderr"].strip()[-300:]
    return None


def judge(bug, results, trees):
    """Per site: found before, silent after; per diagnostic: the site it matched."""
    accept = {bug["expected_check"]} | set(bug.get("also_accept", []))
    tree = {s: os.path.join(trees, bug["id"], s) for s in SIDES}
    sites = []
    for site in bug["sites"]:
        checks = accept | {site["check"]}
        before_lines = set(site["lines"]) | set(site.get("also_lines", []))
        found_by = sorted({d["check"] for d in warp_diags(results["before"])
                           if d["check"] in checks and at_site(d, site["file"], before_lines, tree["before"])})
        still = sorted({d["check"] for d in warp_diags(results["after"])
                        if d["check"] in (set(found_by) or checks)
                        and at_site(d, site["file"], set(site["after_lines"]), tree["after"], notes=False)})
        sites.append({"file": site["file"], "lines": site["lines"], "check": site["check"],
                      "secondary": bool(site.get("secondary")), "found": bool(found_by),
                      "found_by": found_by, "silent_after": not still, "after_hits": still})
    diags = {}
    for side in SIDES:
        out = []
        for d in warp_diags(results[side]):
            hit = None
            for i, site in enumerate(bug["sites"]):
                lines = (set(site["lines"]) | set(site.get("also_lines", []))) if side == "before" \
                    else set(site["after_lines"])
                if at_site(d, site["file"], lines, tree[side]):
                    hit = i
                    break
            out.append({"file": rel(d.get("file"), tree[side]), "line": d.get("line"),
                        "column": d.get("column"), "check": d["check"], "message": d["message"],
                        "notes": [{"file": rel(n.get("file"), tree[side]), "line": n.get("line"),
                                   "message": n.get("message")} for n in d.get("notes", [])],
                        "site": hit})
        diags[side] = out
    primary = [s for s in sites if not s["secondary"]]
    found = any(s["found"] for s in primary)
    silent = all(s["silent_after"] for s in primary if s["found"]) if found else None
    return {"found": found, "silent_after": silent,
            "sites_found": sum(s["found"] for s in primary), "sites": len(primary),
            "site_results": sites, "diagnostics": diags}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trees")
    ap.add_argument("warp_tidy")
    ap.add_argument("--manifest", default=DEFAULT_MANIFEST)
    ap.add_argument("--deps", help="dependency directory (default TREES/_deps)")
    ap.add_argument("--out", default="recall-results.json")
    ap.add_argument("--only", metavar="REGEX", help="run only the bugs whose id matches")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--reuse-raw", metavar="FILE",
                    help="judge the runs of an earlier <out>.raw instead of running warp-tidy")
    args = ap.parse_args()

    trees = os.path.abspath(args.trees)
    deps = os.path.abspath(args.deps or os.path.join(trees, "_deps"))
    binary = os.path.abspath(args.warp_tidy)
    with open(args.manifest) as f:
        manifest = json.load(f)
    bugs = [b for b in manifest["bugs"] if not args.only or re.search(args.only, b["id"])]

    if args.reuse_raw:
        with open(args.reuse_raw) as f:
            raw = json.load(f)
    else:
        raw = {}
        jobs = []
        for b in bugs:
            for side in SIDES:
                tree = os.path.join(trees, b["id"], side)
                if not os.path.isdir(tree):
                    raw.setdefault(b["id"], {})[side] = {"rc": None, "error": "missing tree %s" % tree,
                                                         "seconds": 0, "report": None, "stderr": ""}
                    continue
                unit = expand(b["unit"], tree, deps)
                flags = ["-std=" + b.get("std", "c++17")] + [expand(x, tree, deps) for x in b["flags"]]
                jobs.append((b["id"], side, unit, flags))
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futs = {pool.submit(run_one, binary, unit, flags, args.timeout): (bid, side)
                    for bid, side, unit, flags in jobs}
            for fut in concurrent.futures.as_completed(futs):
                bid, side = futs[fut]
                r = fut.result()
                raw.setdefault(bid, {})[side] = r
                print("%-42s %-6s rc=%s %6.1fs" % (bid, side, r["rc"], r["seconds"]), file=sys.stderr)
        with open(args.out + ".raw", "w") as f:
            json.dump(raw, f)

    rows = []
    for b in bugs:
        res = raw.get(b["id"], {})
        if set(res) != set(SIDES):
            continue
        verdict = judge(b, res, trees)
        verdict.update({
            "id": b["id"], "repo": b["repo"], "expected_check": b["expected_check"],
            "rc": {s: res[s]["rc"] for s in SIDES},
            "first_error": {s: first_error(res[s], os.path.join(trees, b["id"], s)) for s in SIDES},
            "seconds": {s: res[s]["seconds"] for s in SIDES},
        })
        rows.append(verdict)

    print("\n%-42s %-30s %-6s %-6s %-7s %s" % ("bug", "expected check", "found", "sites", "silent",
                                               "rc before/after"))
    for r in rows:
        silent = "-" if r["silent_after"] is None else ("yes" if r["silent_after"] else "NO")
        print("%-42s %-30s %-6s %-6s %-7s %s/%s" % (
            r["id"], r["expected_check"], "yes" if r["found"] else "MISS",
            "%d/%d" % (r["sites_found"], r["sites"]), silent, r["rc"]["before"], r["rc"]["after"]))
        for side in SIDES:
            if r["first_error"][side]:
                print("    %s: does not compile: %s" % (side, r["first_error"][side][:160]))

    per_check = collections.OrderedDict()
    for r in rows:
        c = per_check.setdefault(r["expected_check"], {"bugs": 0, "found": 0, "silent_after": 0})
        c["bugs"] += 1
        c["found"] += r["found"]
        c["silent_after"] += bool(r["silent_after"])
    found = sum(r["found"] for r in rows)
    silent = sum(bool(r["silent_after"]) for r in rows)
    sites = sum(r["sites"] for r in rows)
    sites_found = sum(r["sites_found"] for r in rows)
    unclean = [r["id"] for r in rows if 2 in r["rc"].values() or None in r["rc"].values()]
    print("\nfound %d of %d bugs (%d of %d sites); silent after the fix: %d of the %d found"
          % (found, len(rows), sites_found, sites, silent, found))
    print("units that did not compile cleanly (exit 2) on a side: %d%s"
          % (len(unclean), (": " + ", ".join(unclean)) if unclean else ""))
    print("per expected check:")
    for check, c in per_check.items():
        print("  %-32s found %d of %d, silent after %d" % (check, c["found"], c["bugs"], c["silent_after"]))
    other = collections.Counter()
    for r in rows:
        for side in SIDES:
            for d in r["diagnostics"][side]:
                if d["site"] is None:
                    other[(side, d["check"])] += 1
    if other:
        print("diagnostics outside the sites (judge them by hand):")
        for (side, check), n in sorted(other.items()):
            print("  %-6s %-32s %d" % (side, check, n))

    out = {"trees": trees, "warp_tidy": binary, "manifest": os.path.abspath(args.manifest),
           "summary": {"bugs": len(rows), "found": found, "silent_after": silent,
                       "sites": sites, "sites_found": sites_found, "by_check": per_check,
                       "exit_2": unclean},
           "bugs": rows}
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
    print("\nwrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
