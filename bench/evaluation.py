#!/usr/bin/env python3
"""Generate docs/evaluation.md from the result files in bench/results/.

    python3 bench/evaluation.py [--results bench/results] [-o docs/evaluation.md | -o -]
    python3 bench/evaluation.py --check        # exit 1 when docs/evaluation.md is out of date

The page is a pure function of the result files (no clock, no machine state), so running it
twice gives the same bytes. The result files are small JSON summaries of the benchmark
scripts' output; bench/results/README.md describes them. To record a new run, import its
output instead of editing figures by hand:

    python3 bench/evaluation.py import-realcode realcode-results.json \\
        --into bench/results/realcode-seen.json \\
        --verdicts bench/realcode/verdicts-baseline.json --commit ABC1234 --date 2026-12-05 \\
        [--manifest bench/realcode/manifest.json] [--history FILE --section NAME]
    python3 bench/evaluation.py import-recall recall-results.json \\
        --into bench/results/recall.json --commit ABC1234 --date 2026-12-05
    python3 bench/evaluation.py import-cost bench.json --into bench/results/cost.json \\
        --id small-units --commit ABC1234 --date 2026-12-05

realcode-results.json is bench/realcode.py's --out, recall-results.json bench/recall.py's
--out, bench.json bench/run_bench.py's --json. An import keeps the file's descriptive fields
(title, description, setup, the causes of debatable reports, the reasons for misses) and
replaces the measured ones. A realcode diagnostic that the verdicts file does not hold is
recorded as "unjudged"; the page shows such diagnostics in their own column until they are
judged (add them to the verdicts file and import again).

A corpus is one file bench/results/realcode-<id>.json. A project may carry "split": "tuning"
or "sealed" (from the result file or from the manifest's project entry); when any project of
a corpus does, the page also gives precision for each half separately.
"""

import argparse
import collections
import glob
import json
import os
import re
import statistics
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_RESULTS = os.path.join(HERE, "results")
DEFAULT_OUT = os.path.join(ROOT, "docs", "evaluation.md")

VERDICTS = ("true positive", "false positive", "debatable", "unjudged")
SPLITS = ("tuning", "sealed")


# ---------------------------------------------------------------------------
# Reading and writing result files

def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _dump(value, indent):
    """JSON with one line per flat object inside a list, so that long lists of diagnostics
    or bugs stay readable and diff line by line."""
    pad = " " * indent
    if isinstance(value, dict) and value:
        items = ["%s \"%s\": %s" % (pad, k, _dump(v, indent + 1)) for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value:
        flat = all(isinstance(v, dict) and not any(isinstance(x, (dict, list)) for x in v.values())
                   for v in value)
        if flat:
            rows = ["%s %s" % (pad, json.dumps(v, ensure_ascii=False)) for v in value]
        else:
            rows = ["%s %s" % (pad, _dump(v, indent + 1)) for v in value]
        return "[\n" + ",\n".join(rows) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        f.write(_dump(value, 0) + "\n")


def results_files(results_dir):
    realcode = sorted((load(p) for p in glob.glob(os.path.join(results_dir, "realcode-*.json"))),
                      key=lambda r: (r.get("order", 99), r["id"]))
    recall_path = os.path.join(results_dir, "recall.json")
    cost_path = os.path.join(results_dir, "cost.json")
    recall = load(recall_path) if os.path.exists(recall_path) else None
    cost = load(cost_path) if os.path.exists(cost_path) else None
    return realcode, recall, cost


def all_checks():
    """The checks the tool has: one page each under docs/checks/."""
    names = glob.glob(os.path.join(ROOT, "docs", "checks", "*.md"))
    return sorted("warp-" + os.path.splitext(os.path.basename(n))[0] for n in names)


# ---------------------------------------------------------------------------
# Formatting helpers

def slug(title):
    """The anchor GitHub gives a heading."""
    title = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return title.replace(" ", "-")


# Reference-style links to the history, collected while a page is rendered and defined at
# its end, so that tables stay readable in the page's source.
_REFS = collections.OrderedDict()


def history_link(source, depth="docs"):
    """A link to the history section a figure was recorded in. The section must exist:
    every figure on the page stays traceable to the log it came from."""
    path = source.get("history")
    section = source.get("section")
    if not path:
        return None
    full = os.path.join(ROOT, path)
    with open(full, encoding="utf-8") as f:
        headings = [l[3:].strip() for l in f if l.startswith("## ")]
    match = [h for h in headings if not section or h.startswith(section)]
    if not match:
        raise SystemExit("%s: no section starting with %r" % (path, section))
    rel = os.path.relpath(full, os.path.join(ROOT, depth))
    label = (section or os.path.basename(path)).lower()
    target = "%s#%s" % (rel, slug(match[0]))
    if _REFS.setdefault(label, target) != target:
        raise SystemExit("two history sections named %r" % label)
    return "[%s]" % label


def wrap(text, first="", rest=""):
    return textwrap.wrap(text, width=100, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


def provenance(source):
    """'build `abc1234`, 2026-12-04, [nineteenth run](...)'."""
    parts = ["build `%s`" % source["commit"], source["date"]]
    link = history_link(source)
    if link:
        parts.append(link)
    return ", ".join(parts)


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def pct(num, den):
    return "-" if den == 0 else "%d%%" % round(100.0 * num / den)


def fmt(value, spec="%.3f", suffix=""):
    return "-" if value is None else (spec % value) + suffix


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out


def counts(diags):
    c = collections.Counter(d["verdict"] for d in diags)
    unknown = set(c) - set(VERDICTS)
    if unknown:
        raise SystemExit("unknown verdict(s): %s" % ", ".join(sorted(unknown)))
    return c


# ---------------------------------------------------------------------------
# Page sections

def render_summary(realcode, recall):
    out = ["## Summary", ""]
    rows = []
    for r in realcode:
        parts = [(r["id"], r["projects"], r["diagnostics"])]
        # A corpus that is all one split has no halves to show apart.
        for half in halves(r) if len(halves(r)) > 1 else []:
            names = {n for n, p in r["projects"].items() if p.get("split") == half}
            parts.append(("%s, %s half" % (r["id"], half), {n: r["projects"][n] for n in names},
                          [d for d in r["diagnostics"] if d["project"] in names]))
        for label, projects, diags in parts:
            c = counts(diags)
            files = sum(p["files"] for p in projects.values())
            failed = sum(len(p["parse_failures"]) for p in projects.values())
            shown = "%d (%d unjudged)" % (len(diags), c["unjudged"]) if c["unjudged"] else len(diags)
            rows.append(["[%s](#%s)" % (label, slug(r["title"])), len(projects),
                         "%d (%d)" % (files, files - failed), shown,
                         c["true positive"], c["false positive"], c["debatable"],
                         pct(c["true positive"], c["true positive"] + c["false positive"])])
    out += table(["corpus", "projects", "files (parsed)", "warp diagnostics", "TP", "FP",
                  "debatable", "precision TP/(TP+FP)"], rows)
    if recall:
        s = recall_summary(recall)
        out += ["", "Recall on %d fixed bugs from %d projects: **%d of %d bugs, %d of %d sites** found, "
                "silent after the fix on %d of the %d found." % (
                    s["bugs"], s["projects"], s["found"], s["bugs"], s["sites_found"], s["sites"],
                    s["silent"], s["found"])]
    return out


def render_method():
    return [
        "## How precision is measured", "",
        "`bench/realcode.py CORPUS WARP_TIDY [--manifest M]` analyses every file a corpus manifest lists,",
        "each alone, with the flags the manifest gives its project (`--format=json --no-cache`, all",
        "checks). A diagnostic of a header reached from several files counts once (project, file, line,",
        "column, check). Only `warp-*` diagnostics count; compile errors make a parse failure.",
        "",
        "Every diagnostic is judged by hand against the rule of its check (`docs/checks/`), and the",
        "verdict is kept in the corpus' verdicts file, keyed by project, file, line and check:",
        "",
        "- **true positive**: the code breaks the check's rule for an input, block shape or launch",
        "  that the project's own code allows;",
        "- **false positive**: no execution the rule considers breaks it (for example, the condition",
        "  the report calls divergent is the same in every lane of a warp);",
        "- **debatable**: right by the letter of the rule, but harmless for every launch the project",
        "  makes, or dependent on shapes the code neither allows nor rules out. Debatable reports are",
        "  counted apart and left out of precision;",
        "- **unjudged**: not in the verdicts file yet (a new diagnostic); it must be judged before the",
        "  figures mean anything.",
        "",
        "Precision is TP/(TP+FP); TP/all counts the debatable reports against the check. `--verdicts`",
        "makes `bench/realcode.py` print which judged diagnostics vanished and which are new, so a",
        "change is judged on what it changed. The corpora are public code kept outside the repository;",
        "the manifests give each project's repository, commit, files and flags, and how the corpus",
        "was assembled.",
    ]


def halves(r):
    return [h for h in SPLITS if any(p.get("split") == h for p in r["projects"].values())]


def render_corpus(r):
    by_proj = collections.defaultdict(list)
    for d in r["diagnostics"]:
        by_proj[d["project"]].append(d)
    split = bool(halves(r))
    out = ["### " + r["title"], ""] + wrap(r["description"]) + [""]
    for item in r.get("setup", []):
        out += wrap(item, "- ", "  ")
    out += wrap("Manifest `%s`, verdicts `%s`, result file `bench/results/realcode-%s.json`; the "
                "corpus directory (`%s` here) is outside git." % (
                    r["manifest"], r["verdicts"], r["id"], r.get("corpus_dir", "CORPUS")), "- ", "  ")
    out += wrap("Measured with the %s." % provenance(r["source"]), "- ", "  ") + [""]
    header = ["project", "repository @ commit", "files", "parse failures", "diagnostics",
              "TP", "FP", "debatable", "what is analysed"]
    if split:
        header.insert(1, "half")
    rows = []
    for name, p in r["projects"].items():
        c = counts(by_proj[name])
        row = [name, "`%s` @ `%s`" % (p["repo"], p["commit"]), p["files"], len(p["parse_failures"]),
               len(by_proj[name]), c["true positive"], c["false positive"], c["debatable"],
               p.get("analysed", "")]
        if split:
            row.insert(1, p.get("split", "-"))
        rows.append(row)
    out += table(header, rows)
    failures = [(name, f) for name, p in r["projects"].items() for f in p["parse_failures"]]
    if failures:
        out += ["", "Parse failures (clang against nvcc or a missing dependency; none caused by warp-tidy):", ""]
        for name, f in failures:
            out += wrap("`%s`: %s." % (f["file"], f.get("cause") or f.get("first_error", "?")), "- ", "  ")
    extra = [d for d in r["diagnostics"] if d["project"] not in r["projects"]]
    if extra:
        raise SystemExit("%s: diagnostics of unknown projects" % r["id"])
    out.append("")
    return out


def check_rows(diags, checks):
    rows = []
    seen = collections.defaultdict(list)
    for d in diags:
        seen[d["check"]].append(d)
    for check in sorted(seen):
        c = counts(seen[check])
        rows.append(["`%s`" % check, len(seen[check]), c["true positive"], c["false positive"],
                     c["debatable"], pct(c["true positive"], c["true positive"] + c["false positive"]),
                     pct(c["true positive"], len(seen[check]))])
    silent = [ch for ch in checks if ch not in seen]
    if silent:
        rows.append(["the other %d checks" % len(silent), 0, 0, 0, 0, "-", "-"])
    c = counts(diags)
    rows.append(["**all**", len(diags), c["true positive"], c["false positive"], c["debatable"],
                 pct(c["true positive"], c["true positive"] + c["false positive"]),
                 pct(c["true positive"], len(diags))])
    return rows


def render_precision(realcode, checks):
    out = ["## Precision per check", ""]
    header = ["check", "diagnostics", "TP", "FP", "debatable", "precision", "TP/all"]
    for r in realcode:
        out += ["### %s corpus" % r["id"].capitalize(), ""]
        if any(d["verdict"] == "unjudged" for d in r["diagnostics"]):
            out += ["**Unjudged: %s**, counted in no column but the first." %
                    plural(counts(r["diagnostics"])["unjudged"], "diagnostic"), ""]
        out += table(header, check_rows(r["diagnostics"], checks))
        for half in halves(r):
            names = {n for n, p in r["projects"].items() if p.get("split") == half}
            diags = [d for d in r["diagnostics"] if d["project"] in names]
            out += [""] + wrap("%s half (%s: %s):" % (half.capitalize(), plural(len(names), "project"),
                                                      ", ".join(sorted(names)))) + [""]
            out += table(header, check_rows(diags, checks))
        out.append("")
    return out


def render_open(realcode):
    fps = sum(counts(r["diagnostics"])["false positive"] for r in realcode)
    out = ["## Debatable reports and false-positive causes still open", ""]
    out += wrap("A false positive found on a corpus is fixed at its cause in the analysis, with a lit "
                "case; the causes fixed so far are described in the history. %s The remaining "
                "reports that are not true positives, by cause:" % (
                    "No judged false positive remains on any corpus." if fps == 0 else
                    "%s remain." % plural(fps, "judged false positive"))) + [""]
    for r in realcode:
        groups = collections.OrderedDict()
        for d in r["diagnostics"]:
            if d["verdict"] in ("false positive", "debatable", "unjudged"):
                groups.setdefault((d["verdict"], d.get("category", ""), d["check"]), []).append(d)
        if not groups:
            out += ["- %s corpus: none." % r["id"]]
            continue
        for (verdict, category, check), ds in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            projects = sorted({d["project"] for d in ds})
            files = sorted({os.path.basename(d["file"]) for d in ds})
            text = r.get("causes", {}).get(category) or category or "no cause recorded"
            out += wrap("**%s corpus, %d %s, `%s`** (%s: %s). %s" % (
                r["id"], len(ds), verdict, check, ", ".join(projects),
                ", ".join("`%s`" % f for f in files), text), "- ", "  ")
    out.append("")
    return out


def recall_summary(recall):
    bugs = recall["bugs"]
    return {"bugs": len(bugs), "projects": len({b["repo"] for b in bugs}),
            "found": sum(b["found"] for b in bugs),
            "sites": sum(b["sites"] for b in bugs), "sites_found": sum(b["sites_found"] for b in bugs),
            "silent": sum(bool(b["silent_after"]) for b in bugs)}


def render_recall(recall):
    s = recall_summary(recall)
    out = ["## Recall", ""]
    out += wrap("`bench/recall.py TREES WARP_TIDY` measures what the checks find in real bugs that "
                "public projects fixed. `%s` lists %d fixes from %d projects: repository, fix commit "
                "and its parent, the buggy lines (sites), the check that must report them, the unit "
                "to analyse and its flags. Templated code is analysed through a small driver in "
                "`bench/recall/drivers/` that instantiates the buggy template as the project's tests "
                "do. A site is *found* when a diagnostic of its check lies on one of its lines in the "
                "buggy tree, or has a note there; a bug is found when one of its sites is; it is "
                "*silent after* when the fixed tree has no such diagnostic on the fixed lines. Every "
                "other diagnostic of both trees is listed and judged by hand." % (
                    recall["manifest"], s["bugs"], s["projects"])) + [""]
    out += wrap("Measured with the %s: **%d of %d bugs, %d of %d sites, silent after the fix on %d of %d.**" % (
        provenance(recall["source"]), s["found"], s["bugs"], s["sites_found"], s["sites"],
        s["silent"], s["found"])) + [""]
    per = collections.OrderedDict()
    for b in sorted(recall["bugs"], key=lambda b: b["expected_check"]):
        e = per.setdefault(b["expected_check"], [0, 0, 0, 0])
        e[0] += 1
        e[1] += b["found"]
        e[2] += b["sites"]
        e[3] += b["sites_found"]
    out += table(["expected check", "bugs", "found", "sites", "sites found"],
                 [["`%s`" % k, v[0], v[1], v[2], v[3]] for k, v in per.items()])
    out += ["", "<details><summary>Per bug</summary>", ""]
    rows = []
    for b in recall["bugs"]:
        silent = "-" if b["silent_after"] is None else ("yes" if b["silent_after"] else "**no**")
        rows.append(["`%s`" % b["id"], "`%s` @ `%s`" % (b["repo"], b["fix_commit"]),
                     "`%s`" % b["expected_check"],
                     "%d/%d" % (b["sites_found"], b["sites"]) if b["found"] else "**missed** 0/%d" % b["sites"],
                     silent])
    out += table(["bug", "fix", "check", "sites found", "silent after"], rows)
    out += ["", "</details>", ""]
    misses = [(b, recall.get("misses", {}).get(b["id"])) for b in recall["bugs"]
              if b["sites_found"] < b["sites"]]
    if misses:
        out += ["Sites not found:", ""]
        for b, why in misses:
            out += wrap("`%s` (%d of %d missed): %s." % (b["id"], b["sites"] - b["sites_found"], b["sites"],
                                                          why or "no reason recorded"), "- ", "  ")
        out.append("")
    exit2 = [b for b in recall["bugs"] if b.get("exit_2")]
    if exit2:
        out += wrap("Units that exit 2 on a side (host code clang rejects; the device code is still "
                    "analysed): " + "; ".join("`%s` (%s)" % (b["id"], b["exit_2"]) for b in exit2) + ".")
        out.append("")
    other = recall.get("other_diagnostics")
    if other:
        out += wrap("Diagnostics outside the sites: %d on the buggy trees, %d on the fixed ones. %s" % (
            other["before"], other["after"], other.get("judgement", ""))) + [""]
    return out


def render_cost(cost):
    out = ["## Cost against the parse", "",
           "`bench/run_bench.py` runs `%s` and warp-tidy (all checks) with the identical" % cost["parse_command"],
           "command, alternating, and reports median wall time and peak memory (max RSS) as ratios to the",
           "parse. *Cold* is `--no-cache --no-pch`; *PCH* is with the shared precompiled prologue and",
           "leading-include blocks already built, as on a project's later runs. The whole-project run",
           "compares one warp-tidy command over all units with the plain parse of the same units one",
           "after the other (`-j1`); *first run* starts from an empty cache and builds the PCHs. The",
           "machines are 2-core VMs, so single figures carry about 10% of noise.", ""]
    rows = []
    for m in cost["run_bench"]:
        u = m["per_unit"]
        rows.append([m["corpus"], m["units"],
                     "%s (%s)" % (fmt(u["cold_median"]), fmt(u["cold_total"])),
                     "%s (%s)" % (fmt(u["pch_median"]), fmt(u["pch_total"])),
                     "%s / %s" % (fmt(u["mem_cold"], "%.2f"), fmt(u["mem_pch"], "%.2f")),
                     provenance(m["source"])])
    out += ["Per unit, warp-tidy over the parse:", ""]
    out += table(["corpus", "units", "cold: median (total)", "PCH: median (total)",
                  "peak memory cold / PCH", "measured"], rows)
    rows = []
    for m in cost["run_bench"]:
        p = m.get("project")
        if not p:
            continue
        sp = p.get("speedup_j2") or {}
        rows.append([m["corpus"], fmt(p["parse_j1_s"], "%.2f", " s"),
                     fmt(p["cold_j1"], "%.3f", "x"), fmt(p["pch_j1"], "%.3f", "x"),
                     fmt(p["first_j1"], "%.3f", "x"), fmt(p["pch_j2"], "%.3f", "x"),
                     "%s / %s / %s" % (fmt(sp.get("pch"), "%.2f", "x"), fmt(sp.get("cold"), "%.2f", "x"),
                                       fmt(sp.get("parse"), "%.2f", "x"))])
    if rows:
        out += ["", "Whole-project run, against the serial parse:", ""]
        out += table(["corpus", "parse `-j1`", "cold `-j1`", "PCH `-j1`", "first run `-j1`",
                      "PCH `-j2`", "`-j2` speed-up: PCH / cold / parse"], rows)
    if cost.get("instructions"):
        out += ["", "The analysis' own share, in instructions (callgrind, whole worker process, cold,",
                "`--no-pch -j1`, one arch pass; the parse is the same command with `--checks=-*",
                "--allow-no-checks`). Instruction counts do not depend on the machine's load:", ""]
        rows = [[i["unit"], "%.3f G" % i["parse_g"], "%.3f G" % i["tidy_g"],
                 "%.1f%%" % (100.0 * (i["tidy_g"] / i["parse_g"] - 1)), provenance(i["source"])]
                for i in cost["instructions"]]
        out += table(["unit", "parse", "warp-tidy", "over the parse", "measured"], rows)
    if cost.get("wall"):
        out += ["", "Single units, wall time:", ""]
        rows = []
        for w in cost["wall"]:
            mem = "-" if w.get("parse_mb") is None else "%d / %d MB" % (w["parse_mb"], w["tidy_mb"])
            rows.append([w["unit"], "%.2f s" % w["parse_s"], "%.2f s" % w["tidy_s"],
                         "%.2fx" % (w["tidy_s"] / w["parse_s"]), mem, provenance(w["source"])])
        out += table(["unit", "parse", "warp-tidy", "ratio", "peak memory", "measured"], rows)
    if cost.get("solver"):
        out += ["", "The uniformity prover's solver work over a whole corpus (`WARP_TIDY_SOLVER_STATS=1`):", ""]
        rows = [[s["corpus"], s["queries"],
                 "-" if s.get("proved_uniform") is None else "%d / %d" % (s["proved_uniform"], s["varying"]),
                 "%.1f s" % s["z3_s"], provenance(s["source"])] for s in cost["solver"]]
        out += table(["corpus", "solver queries", "proved uniform / varying", "time in Z3", "measured"], rows)
    out.append("")
    return out


def render_regenerate(realcode):
    out = ["## Regenerating this page", "",
           "This page is generated; edit the result files, not the page.", "",
           "```",
           "python3 bench/realcode.py CORPUS build/bin/warp-tidy [--manifest M] --out realcode-results.json",
           "python3 bench/evaluation.py import-realcode realcode-results.json --into bench/results/realcode-ID.json \\",
           "    --verdicts VERDICTS --commit COMMIT --date DATE",
           "python3 bench/recall.py TREES build/bin/warp-tidy --out recall-results.json",
           "python3 bench/evaluation.py import-recall recall-results.json --into bench/results/recall.json \\",
           "    --commit COMMIT --date DATE",
           "python3 bench/run_bench.py [...] --json bench.json",
           "python3 bench/evaluation.py import-cost bench.json --into bench/results/cost.json --id ID \\",
           "    --commit COMMIT --date DATE",
           "python3 bench/evaluation.py            # writes docs/evaluation.md",
           "```", "",
           "A new corpus is a new `bench/results/realcode-ID.json` (schema in `bench/results/README.md`);",
           "a project's `split` field (`tuning` or `sealed`) makes the page give precision per half.", ""]
    return out


def render(results_dir):
    _REFS.clear()
    realcode, recall, cost = results_files(results_dir)
    checks = all_checks()
    out = ["# Evaluation: precision, recall and cost", "",
           "<!-- Generated by bench/evaluation.py from bench/results/*.json; do not edit by hand. -->", "",
           "Current results of warp-tidy on real CUDA code: precision on %d corpora judged diagnostic by" % len(realcode),
           "diagnostic, recall on bugs that projects fixed, and the cost of the analysis against",
           "clang's own parse. Each figure names the build and date it was measured with and the",
           "section of the run-by-run log ([history/](history/README.md)) that records it.", ""]
    out += render_summary(realcode, recall) + [""]
    out += render_method() + [""]
    out += ["## Corpora", ""]
    for r in realcode:
        out += render_corpus(r)
    out += render_precision(realcode, checks)
    out += render_open(realcode)
    if recall:
        out += render_recall(recall)
    if cost:
        out += render_cost(cost)
    out += render_regenerate(realcode)
    out += ["## History", "",
            "The run-by-run log of how these figures were reached (19 runs, 2026-11-29 to 2026-12-04:",
            "every false positive found and its fix, the recall misses, the cost work and what did not",
            "pay) is in [docs/history/](history/README.md)."]
    if _REFS:
        out += [""] + ["[%s]: %s" % kv for kv in _REFS.items()]
    text = "\n".join(out) + "\n"
    return re.sub(r"\n{3,}", "\n\n", text)


# ---------------------------------------------------------------------------
# Imports: benchmark output -> result file

def source_args(args, old):
    src = {"commit": args.commit, "date": args.date}
    if args.history:
        src["history"] = args.history
        if args.section:
            src["section"] = args.section
    if args.note:
        src["note"] = args.note
    return src


def import_realcode(args):
    run = load(args.run)
    old = load(args.into) if os.path.exists(args.into) else {
        "schema": "warp-tidy/realcode-results/1", "id": args.id or "new", "order": 99,
        "title": args.id or "new corpus", "manifest": args.manifest or "", "verdicts": args.verdicts,
        "description": "", "setup": [], "projects": {}, "causes": {}}
    manifest = load(args.manifest) if args.manifest else {"projects": {}}
    judged = {(v["project"], v["file"], v["line"], v["check"]): v for v in load(args.verdicts)["verdicts"]}
    projects = collections.OrderedDict()
    for name, s in run["summary"]["projects"].items():
        prev = old["projects"].get(name, {})
        causes = {f["file"]: f.get("cause") for f in prev.get("parse_failures", [])}
        entry = {"repo": s["repo"], "commit": s["commit"][:8], "files": s["files"],
                 "parse_failures": [dict({"file": f["file"], "first_error": f["first_error"][:200]},
                                         **({"cause": causes[f["file"]]} if causes.get(f["file"]) else {}))
                                    for f in s["parse_failure_list"]]}
        split = prev.get("split") or manifest["projects"].get(name, {}).get("split")
        if split:
            if split not in SPLITS:
                raise SystemExit("%s: split must be one of %s" % (name, ", ".join(SPLITS)))
            entry["split"] = split
        if prev.get("analysed"):
            entry["analysed"] = prev["analysed"]
        projects[name] = entry
    diags = []
    for d in run["diagnostics"]:
        v = judged.get((d["project"], d["file"], d["line"], d["check"]))
        diags.append({"project": d["project"], "file": d["file"], "line": d["line"], "check": d["check"],
                      "verdict": v["verdict"] if v else "unjudged",
                      "category": (v.get("category") or "") if v else ""})
    old.update({"verdicts": os.path.relpath(os.path.abspath(args.verdicts), ROOT),
                "source": source_args(args, old.get("source")), "projects": projects, "diagnostics": diags})
    if args.manifest:
        old["manifest"] = os.path.relpath(os.path.abspath(args.manifest), ROOT)
    write_json(args.into, old)
    c = counts(diags)
    print("%s: %d diagnostics (%s)" % (args.into, len(diags), ", ".join("%s %d" % kv for kv in sorted(c.items()))))


def import_recall(args):
    run = load(args.run)
    old = load(args.into) if os.path.exists(args.into) else {
        "schema": "warp-tidy/recall-results/1", "manifest": "bench/recall/manifest.json", "misses": {}}
    manifest = {b["id"]: b for b in load(os.path.join(ROOT, old["manifest"]))["bugs"]}
    prev = {b["id"]: b for b in old.get("bugs", [])}
    bugs, other = [], collections.Counter()
    for r in run["bugs"]:
        exit2 = None
        if 2 in r["rc"].values() or None in r["rc"].values():
            exit2 = prev.get(r["id"], {}).get("exit_2") or "; ".join(
                "%s: %s" % (s, (r["first_error"][s] or "exit %s" % r["rc"][s])[:120])
                for s in ("before", "after") if r["rc"][s] != 0 and r["rc"][s] != 1)
        bugs.append({"id": r["id"], "repo": r["repo"],
                     "fix_commit": manifest.get(r["id"], {}).get("fix_commit", "")[:10],
                     "expected_check": r["expected_check"], "sites": r["sites"],
                     "sites_found": r["sites_found"], "found": r["found"],
                     "silent_after": r["silent_after"], "exit_2": exit2})
        for side in ("before", "after"):
            other[side] += sum(1 for d in r["diagnostics"][side] if d["site"] is None)
    judgement = old.get("other_diagnostics", {}).get("judgement", "")
    old_other = old.get("other_diagnostics", {})
    if (old_other.get("before"), old_other.get("after")) != (other["before"], other["after"]):
        judgement = "Not yet judged for this build (the counts changed). " + judgement
    old.update({"source": source_args(args, old.get("source")), "bugs": bugs,
                "other_diagnostics": {"before": other["before"], "after": other["after"],
                                      "judgement": judgement}})
    write_json(args.into, old)
    s = recall_summary(old)
    print("%s: %d of %d bugs, %d of %d sites" % (args.into, s["found"], s["bugs"], s["sites_found"], s["sites"]))


def import_cost(args):
    run = load(args.run)
    cost = load(args.into)
    rows = run["files"]
    ratio = lambda a, b: [r[a] / r[b] for r in rows]
    total = lambda a, b: sum(r[a] for r in rows) / sum(r[b] for r in rows)
    per_unit = {"cold_median": round(statistics.median(ratio("tidy_s", "parse_s")), 3),
                "cold_total": round(total("tidy_s", "parse_s"), 3),
                "pch_median": round(statistics.median(ratio("pch_s", "parse_s")), 3),
                "pch_total": round(total("pch_s", "parse_s"), 3),
                "mem_cold": round(statistics.median(ratio("tidy_mib", "parse_mib")), 2),
                "mem_pch": round(statistics.median(ratio("pch_mib", "parse_mib")), 2)}
    project = None
    p = run.get("project") or {}
    if p:
        base = p["parse -j1"]
        rel = lambda k: round(p[k] / base, 3) if k in p else None
        sp = lambda a, b: round(p[a] / p[b], 2) if a in p and b in p else None
        project = {"units": p.get("units"), "parse_j1_s": round(base, 2), "parse_j2_s": round(p["parse -j2"], 2),
                   "cold_j1": rel("warp-tidy cold -j1"), "pch_j1": rel("warp-tidy pch -j1"),
                   "first_j1": rel("warp-tidy pch-first -j1"), "cold_j2": rel("warp-tidy cold -j2"),
                   "pch_j2": rel("warp-tidy pch -j2"), "first_j2": rel("warp-tidy pch-first -j2"),
                   "speedup_j2": {"cold": sp("warp-tidy cold -j1", "warp-tidy cold -j2"),
                                  "pch": sp("warp-tidy pch -j1", "warp-tidy pch -j2"),
                                  "parse": sp("parse -j1", "parse -j2")}}
    old = next((m for m in cost["run_bench"] if m["id"] == args.id), None)
    entry = {"id": args.id, "corpus": args.corpus or (old or {}).get("corpus", args.id),
             "units": len(rows), "command": args.command or (old or {}).get("command", "python3 bench/run_bench.py"),
             "machine": run.get("machine", ""), "source": source_args(args, (old or {}).get("source")),
             "per_unit": per_unit, "project": project}
    if old:
        cost["run_bench"][cost["run_bench"].index(old)] = entry
    else:
        cost["run_bench"].append(entry)
    write_json(args.into, cost)
    print("%s: %s updated" % (args.into, args.id))


def add_source_options(p):
    p.add_argument("--commit", required=True, help="the warp-tidy build measured")
    p.add_argument("--date", required=True, help="YYYY-MM-DD of the run")
    p.add_argument("--history", help="docs/history/ file that records the run")
    p.add_argument("--section", help="heading (its start) of that file's section for the run")
    p.add_argument("--note")


def main(argv):
    commands = {"import-realcode": import_realcode, "import-recall": import_recall, "import-cost": import_cost}
    if argv and argv[0] in commands:
        ap = argparse.ArgumentParser(prog="evaluation.py " + argv[0])
        ap.add_argument("run", help="the benchmark script's JSON output")
        ap.add_argument("--into", required=True, help="the result file to write (updated in place)")
        add_source_options(ap)
        if argv[0] == "import-realcode":
            ap.add_argument("--verdicts", required=True)
            ap.add_argument("--manifest", help="corpus manifest; its projects' 'split' fields are kept")
            ap.add_argument("--id", help="corpus id for a new result file")
        if argv[0] == "import-cost":
            ap.add_argument("--id", required=True, help="which run_bench entry of cost.json")
            ap.add_argument("--corpus", help="what was measured, for the page")
            ap.add_argument("--command", help="the run_bench.py command line, for the record")
        args = ap.parse_args(argv[1:])
        commands[argv[0]](args)
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", default=DEFAULT_RESULTS, help="directory of the result files")
    ap.add_argument("-o", "--out", default=DEFAULT_OUT, help="page to write, '-' for stdout")
    ap.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    args = ap.parse_args(argv)
    text = render(args.results)
    if args.check:
        with open(args.out, encoding="utf-8") as f:
            if f.read() != text:
                print("%s is out of date: run python3 bench/evaluation.py" % args.out, file=sys.stderr)
                return 1
        return 0
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
