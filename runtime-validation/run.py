#!/usr/bin/env python3
"""warp-tidy runtime validation: build every case's bug.cu / fixed.cu (and optional extra
variants such as warp-tidy's fix-it output) with nvcc for several architectures and, when a GPU
is present, run them and check their verdicts.

Each case lives in cases/<name>/ with bug.cu, fixed.cu, case.json and README.md. Every program
prints one line "RESULT: PASS|FAIL|ERROR ..." and exits 0 (matches the host reference),
1 (mismatch) or 2 (CUDA error). Expectations: bug.cu may fail or look right (both are recorded),
fixed.cu and every extra variant MUST pass.

Standard library only. See README.md beside this file.
"""

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASES_DIR = os.path.join(HERE, "cases")
DEFAULT_ARCHS = [75, 80, 90]
SANITIZER_TOOLS = ["memcheck", "racecheck", "synccheck", "initcheck"]
NO_GPU = "skipped: no GPU"
FIXIT = "fixit"
LABELS = {"bug": "bug", "fixed": "fixed", FIXIT: "fix-it applied"}
RESULT_RE = re.compile(r"^RESULT: .*$", re.M)
ERROR_SUMMARY_RE = re.compile(r"ERROR SUMMARY: (\d+) error", re.M)
RACECHECK_SUMMARY_RE = re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", re.M)
CODE_ARCH_RE = re.compile(r"device code compiled for sm_(\d+)")
CONFIG_LINE_RE = re.compile(r"^  (\S.*?)\s+(\d+) of (\d+) wrong$", re.M)

PROBE_SOURCE = r"""
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) { std::printf("error %s\n", cudaGetErrorString(e)); return 1; }
  if (n == 0) { std::printf("error no CUDA device\n"); return 1; }
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) { std::printf("error properties\n"); return 1; }
  int drv = 0;
  cudaDriverGetVersion(&drv);
  std::printf("count %d\ncc %d%d\ndriver %d\nname %s\n", n, p.major, p.minor, drv, p.name);
  return 0;
}
"""


# ---------------------------------------------------------------------------------------------
# small helpers

def sh(cmd, timeout=60, env=None):
    """Runs cmd (a list); returns (rc, combined output, timed_out). rc is None when cmd is missing."""
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
    except OSError as exc:
        return None, str(exc), False
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode("utf-8", "replace"), False
    except subprocess.TimeoutExpired:
        # The process (and anything it started) is ours: stop its whole process group.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            proc.kill()
        out, _ = proc.communicate()
        return proc.returncode, out.decode("utf-8", "replace"), True


def die(msg):
    """Usage error: message on stderr, exit status 2."""
    print("run.py: " + msg, file=sys.stderr)
    sys.exit(2)


def tail(text, lines=25):
    return "\n".join(text.rstrip().splitlines()[-lines:])


def arch_name(arch):
    return "sm_%d" % arch


def parse_archs(text):
    archs = []
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        part = part[3:] if part.startswith("sm_") else part
        if not part.isdigit():
            raise argparse.ArgumentTypeError("bad arch %r (want e.g. 75,80,90)" % part)
        archs.append(int(part))
    if not archs:
        raise argparse.ArgumentTypeError("no archs given")
    return sorted(set(archs))


def md_cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


# ---------------------------------------------------------------------------------------------
# environment

def find_nvcc(requested):
    if requested:
        return requested
    found = shutil.which("nvcc")
    if found:
        return found
    for cand in (os.path.join(os.environ.get("CUDA_HOME", ""), "bin", "nvcc"), "/usr/local/cuda/bin/nvcc"):
        if cand and os.path.isfile(cand):
            return cand
    return "nvcc"


def nvcc_version(nvcc):
    rc, out, _ = sh([nvcc, "--version"], timeout=60)
    if rc != 0:
        return None
    for line in out.splitlines():
        if "release" in line:
            return line.strip()
    return tail(out, 1)


def find_sanitizer(nvcc):
    found = shutil.which("compute-sanitizer")
    if not found:
        cand = os.path.join(os.path.dirname(os.path.abspath(shutil.which(nvcc) or nvcc)), "compute-sanitizer")
        if os.path.isfile(cand):
            found = cand
    info = {"available": False, "path": found, "version": None, "initcheck_shared": False}
    if not found:
        return info
    rc, out, _ = sh([found, "--version"], timeout=60)
    if rc == 0:
        info["available"] = True
        info["version"] = " ".join(l.strip() for l in out.splitlines() if "ersion" in l) or tail(out, 1)
        rc, helptext, _ = sh([found, "--help"], timeout=60)
        info["initcheck_shared"] = "--initcheck-address-space" in helptext
    return info


def visible_device():
    """First entry of CUDA_VISIBLE_DEVICES, '' when it hides every GPU, None when unset."""
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    if env is None:
        return None
    first = env.split(",")[0].strip()
    return "" if first in ("", "-1") else first


def detect_gpu(nvcc, work_dir):
    """nvidia-smi first; a tiny cudaGetDeviceCount probe when nvidia-smi is missing or fails."""
    info = {"present": False, "name": None, "driver": None, "arch": None, "detection": None, "why_not": None}
    dev = visible_device()
    if dev == "":
        info["why_not"] = "CUDA_VISIBLE_DEVICES hides every GPU"
        return info
    notes = []
    smi = shutil.which("nvidia-smi")
    if smi:
        rc, out, _ = sh([smi, "-L"], timeout=60)
        if rc == 0 and re.search(r"^GPU \d+:", out, re.M):
            cmd = [smi, "--query-gpu=name,driver_version,compute_cap", "--format=csv,noheader"]
            if dev is not None:
                cmd += ["-i", dev]
            rc, out, _ = sh(cmd, timeout=60)
            line = out.strip().splitlines()[0] if rc == 0 and out.strip() else ""
            fields = [f.strip() for f in line.split(",")]
            if len(fields) >= 3 and re.match(r"^\d+\.\d+$", fields[-1]):
                major, minor = fields[-1].split(".")
                info.update(present=True, name=",".join(fields[:-2]), driver=fields[-2],
                            arch=int(major) * 10 + int(minor), detection="nvidia-smi")
                return info
            notes.append("nvidia-smi --query-gpu gave %r" % line)
        else:
            notes.append("nvidia-smi -L: %s" % (tail(out, 1) or "rc %s" % rc))
    else:
        notes.append("nvidia-smi not found")
    # Probe with the CUDA runtime (e.g. in a container without nvidia-smi).
    src = os.path.join(work_dir, "gpu_probe.cu")
    exe = os.path.join(work_dir, "gpu_probe")
    with open(src, "w") as f:
        f.write(PROBE_SOURCE)
    rc, out, _ = sh([nvcc, "-o", exe, src], timeout=300)
    if rc != 0:
        notes.append("probe did not compile: %s" % tail(out, 2))
    else:
        rc, out, timed_out = sh([exe], timeout=60)
        fields = dict(l.split(" ", 1) for l in out.strip().splitlines() if " " in l)
        if rc == 0 and "cc" in fields:
            drv = int(fields.get("driver", "0"))
            info.update(present=True, name=fields.get("name"), arch=int(fields["cc"]),
                        driver="CUDA %d.%d (driver API version)" % (drv // 1000, (drv % 1000) // 10),
                        detection="cudaGetDeviceCount probe")
            return info
        notes.append("probe: %s" % ("timed out" if timed_out else fields.get("error", tail(out, 1))))
    info["why_not"] = "; ".join(notes)
    return info


# ---------------------------------------------------------------------------------------------
# cases and variants

def discover_cases(cases_dir, wanted):
    found = {}
    for name in sorted(os.listdir(cases_dir)):
        path = os.path.join(cases_dir, name)
        meta_path = os.path.join(path, "case.json")
        if not os.path.isfile(meta_path):
            continue
        with open(meta_path) as f:
            meta = json.load(f)
        found[name] = {
            "name": name,
            "dir": path,
            "check": meta.get("check", "?"),
            "min_arch": int(meta.get("min_arch", 0)),
            "description": meta.get("description", ""),
            "jit_run_archs": [int(a) for a in meta.get("jit_run_archs", [])],
            # When the bug's symptom is a broken build: the text nvcc must print for bug.cu.
            "bug_build_error": meta.get("bug_build_error"),
        }
    if wanted:
        unknown = [w for w in wanted if w not in found]
        if unknown:
            die("unknown case(s): %s (known: %s)" % (", ".join(unknown), ", ".join(found)))
        return [found[w] for w in wanted]
    return list(found.values())


def parse_extra(spec):
    m = re.match(r"^(?:([A-Za-z0-9_.-]+):)?([A-Za-z0-9_.-]+)=(.+)$", spec)
    if not m:
        raise argparse.ArgumentTypeError("--extra wants [CASE:]NAME=PATH, got %r" % spec)
    case, name, path = m.groups()
    if name in ("bug", "fixed", FIXIT):
        raise argparse.ArgumentTypeError("--extra name %r is reserved" % name)
    return {"case": case, "name": name, "path": path}


def variants_for(case, args, n_cases):
    """[(key, label, source, must_pass)] for one case."""
    out = [("bug", "bug", os.path.join(case["dir"], "bug.cu"), False),
           ("fixed", "fixed", os.path.join(case["dir"], "fixed.cu"), True)]
    if args.fixit_dir:
        src = os.path.join(args.fixit_dir, case["name"], "fixit.cu")
        if os.path.isfile(src):
            out.append((FIXIT, LABELS[FIXIT], os.path.abspath(src), True))
    for extra in args.extra:
        if extra["case"] and extra["case"] != case["name"]:
            continue
        path = extra["path"]
        if "{case}" in path:
            path = path.replace("{case}", case["name"])
            if not os.path.isfile(path):
                continue
        elif not extra["case"] and n_cases != 1:
            die("--extra %s=%s names no case: use CASE:NAME=PATH, a {case} placeholder in PATH, "
                "or select one case with --cases" % (extra["name"], extra["path"]))
        out.append(("extra:" + extra["name"], "extra " + extra["name"], os.path.abspath(path), True))
    return out


# ---------------------------------------------------------------------------------------------
# compile

def compile_one(nvcc, flags, arch, src, exe, timeout):
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    cmd = [nvcc, "-std=c++17", "-arch=%s" % arch_name(arch)] + flags + ["-o", exe, src]
    start = time.time()
    if not os.path.isfile(src):
        return {"ok": False, "status": "FAIL", "log": "missing source %s" % src, "seconds": 0.0,
                "command": " ".join(cmd)}
    # Reuse a binary from an earlier run with the same --build-dir when it is newer than its
    # source and was built by the same command.
    log = exe + ".log"
    if os.path.isfile(exe) and os.path.isfile(log) and os.path.getmtime(exe) >= os.path.getmtime(src):
        with open(log) as f:
            if f.readline().rstrip("\n") == "$ " + " ".join(cmd):
                return {"ok": True, "status": "OK", "cached": True, "seconds": 0.0, "command": " ".join(cmd),
                        "warnings": False, "log": "", "timed_out": False, "binary": exe}
    if os.path.exists(exe):
        os.remove(exe)
    rc, out, timed_out = sh(cmd, timeout=timeout)
    with open(exe + ".log", "w") as f:
        f.write("$ %s\n%s" % (" ".join(cmd), out))
    ok = rc == 0 and not timed_out and os.path.isfile(exe)
    return {"ok": ok, "status": "OK" if ok else "FAIL", "seconds": round(time.time() - start, 2),
            "command": " ".join(cmd), "warnings": bool(re.search(r"warning", out, re.I)),
            "log": tail(out, 40) if not ok else "", "output": out if not ok else "",
            "timed_out": timed_out, "binary": exe if ok else None}


def expect_build_error(result, expected):
    """Judges a bug.cu whose symptom is a build failure: it must fail, with the expected text.

    Rewrites result's status for the report and returns a problem description, or None."""
    output = result.pop("output", "")
    if result["ok"]:
        result["status"] = "built (expected a build error)"
        return "bug.cu builds, but the case expects nvcc to reject it with: %s" % expected
    if result.get("timed_out") or expected not in output:
        return "bug.cu fails to build, but not with the expected error (%s)" % expected
    result["status"] = "build error (expected)"
    result["expected_failure"] = True
    line = next((l.strip() for l in output.splitlines() if expected in l), expected)
    result["log"] = line
    return None


# ---------------------------------------------------------------------------------------------
# run

def classify(rc, out, timed_out):
    line = (RESULT_RE.findall(out) or [""])[-1]
    if timed_out:
        return "hang/timeout", line
    if rc == 0 and line.startswith("RESULT: PASS"):
        return "pass", line
    if rc == 1 and line.startswith("RESULT: FAIL"):
        return "wrong result", line
    if rc == 2:
        return "CUDA error", line or tail(out, 1)
    return "crash (rc=%s)" % rc, line or tail(out, 1)


def run_variant(exe, seeds, timeout):
    results = []
    for seed in seeds:
        start = time.time()
        rc, out, timed_out = sh([exe, str(seed)], timeout=timeout)
        status, line = classify(rc, out, timed_out)
        code = CODE_ARCH_RE.search(out)
        configs = [{"config": m.group(1), "wrong": int(m.group(2)), "checked": int(m.group(3))}
                   for m in CONFIG_LINE_RE.finditer(out)]
        results.append({"seed": seed, "rc": rc, "status": status, "result_line": line,
                        "code_arch": arch_name(int(code.group(1))) if code else None,
                        "configs": configs, "seconds": round(time.time() - start, 2),
                        "output_tail": tail(out, 15)})
    return results


def summarize(results, must_pass):
    """One verdict for a variant over its seeds, e.g. "wrong result 3/3" or "PASS 3/3"."""
    n = len(results)
    counts = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    order = ["hang/timeout", "CUDA error"] + sorted(k for k in counts if k.startswith("crash")) + ["wrong result", "pass"]
    worst = next(k for k in order if k in counts)

    def name(status):
        return status if status != "pass" else ("PASS" if must_pass else "looked right")

    verdict = "%s %d/%d" % (name(worst), counts[worst], n)
    others = ["%s %d/%d" % (name(k), counts[k], n) for k in order if k in counts and k != worst]
    if others:
        verdict += " (" + ", ".join(others) + ")"
    ok = worst == "pass" or not must_pass
    if must_pass and not ok:
        verdict = "FAIL: " + verdict
    bad = next((r for r in results if r["status"] != "pass"), None)
    # Which launch configurations went wrong (first failing seed), e.g. to show that a bug only
    # appears with fewer than 32 warps.
    configs = ""
    if bad and bad["configs"]:
        wrong = [c for c in bad["configs"] if c["wrong"]]
        right = [c["config"].split(" grid=")[0] for c in bad["configs"] if not c["wrong"]]
        configs = "%d of %d configurations wrong" % (len(wrong), len(bad["configs"]))
        if right:
            configs += "; right: " + ", ".join(right)
    code_archs = sorted({r["code_arch"] for r in results if r["code_arch"]})
    return {"ok": ok, "verdict": verdict, "class": name(worst), "first_failure": bad["result_line"] if bad else "",
            "configs": configs, "code_arch": ",".join(code_archs)}


def run_sanitizer(sanitizer, tool, exe, seed, timeout, poison):
    cmd = [sanitizer["path"], "--tool", tool, "--error-exitcode", "99"]
    if tool == "initcheck" and sanitizer.get("initcheck_shared"):
        cmd += ["--initcheck-address-space", "all"]
    cmd += [exe, str(seed)]
    env = dict(os.environ)
    if not poison:
        env["RV_POISON"] = "0"  # the poison kernel only adds work under a sanitizer
    start = time.time()
    rc, out, timed_out = sh(cmd, timeout=timeout, env=env)
    summary = ERROR_SUMMARY_RE.findall(out)
    race = RACECHECK_SUMMARY_RE.findall(out)
    errors = int(summary[-1]) if summary else None
    warnings = 0
    if race:  # racecheck prints its own summary: hazards split into errors and warnings
        errors, warnings = int(race[-1][1]), int(race[-1][2])
    line = (RESULT_RE.findall(out) or [""])[-1]
    if timed_out:
        verdict = "hang/timeout"
    elif errors is None:
        verdict = "did not run (rc=%s): %s" % (rc, tail(out, 1)[:160])
    elif errors == 0:
        verdict = "clean" if not warnings else "%d hazard warning%s" % (warnings, "" if warnings == 1 else "s")
    else:
        verdict = "%d error%s" % (errors, "" if errors == 1 else "s")
    first = ""
    for l in out.splitlines():
        if l.startswith("=========") and re.search(r"(Invalid|Race|Barrier|Uninitialized|Error|Hazard|divergent|Warning)", l) \
                and "ERROR SUMMARY" not in l:
            first = l.strip("= ").strip()
            break
    return {"tool": tool, "verdict": verdict, "errors": errors, "warnings": warnings, "rc": rc, "program_result": line,
            "first_report": first, "seconds": round(time.time() - start, 2), "command": " ".join(cmd),
            "output_tail": tail(out, 20)}


# ---------------------------------------------------------------------------------------------
# report

def write_markdown(path, data):
    env, opts = data["environment"], data["options"]
    gpu = env["gpu"]
    L = ["# warp-tidy runtime validation report", ""]
    L.append("- Date: %s" % data["date"])
    L.append("- Host: %s" % env["host"])
    if gpu["present"]:
        L.append("- GPU: %s (%s), driver %s (found by %s)" % (gpu["name"], arch_name(gpu["arch"]), gpu["driver"], gpu["detection"]))
    elif opts["compile_only"]:
        L.append("- GPU: not looked for (--compile-only)")
    else:
        L.append("- GPU: none (%s) -- run phase %s" % (gpu.get("why_not") or "not found", NO_GPU))
    L.append("- CUDA: %s (`%s`)" % (env["nvcc_version"], env["nvcc"]))
    san = env["sanitizer"]
    if san["available"]:
        L.append("- compute-sanitizer: %s; `--initcheck-address-space`: %s" % (san["version"], "yes" if san["initcheck_shared"] else "no"))
    else:
        L.append("- compute-sanitizer: not available%s" % (" (%s)" % san["path"] if san["path"] else ""))
    L.append("- Archs built: %s%s" % (", ".join(arch_name(a) for a in opts["build_archs"]),
                                       "" if opts["compile_only"] else "; run on: %s" % (arch_name(gpu["arch"]) if gpu["present"] else "nothing")))
    if gpu["present"]:
        L.append("- Seeds: %s; timeout %s s per run; sanitizers: %s" % (
            ", ".join(str(s) for s in opts["seeds"]), opts["timeout"], ", ".join(opts["sanitizers"]) or "none"))
    L.append("- Overall: **%s**" % ("OK" if data["ok"] else "FAILED"))
    for p in data["problems"]:
        L.append("  - %s" % p)
    L.append("")

    # summary table
    has_fixit = any(any(v["key"] == FIXIT for v in c["variants"]) for c in data["cases"])
    extra_keys = []
    for c in data["cases"]:
        for v in c["variants"]:
            if v["key"].startswith("extra:") and v["key"] not in extra_keys:
                extra_keys.append(v["key"])
    cols = ["case", "check", "compile"] + ["bug", "fixed"] + ([LABELS[FIXIT]] if has_fixit else []) + \
           ["extra " + k[6:] for k in extra_keys]
    L.append("## Summary")
    L.append("")
    L.append("| " + " | ".join(cols) + " |")
    L.append("|" + "---|" * len(cols))
    for c in data["cases"]:
        comp = "OK" if c["compile_ok"] else "FAIL"
        row = [c["name"], "`%s`" % c["check"], comp]
        for key in ["bug", "fixed"] + ([FIXIT] if has_fixit else []) + extra_keys:
            row.append(md_cell(native_verdict(c, key)))
        L.append("| " + " | ".join(md_cell(x) for x in row) + " |")
    L.append("")

    for c in data["cases"]:
        L.append("## %s (`%s`)" % (c["name"], c["check"]))
        L.append("")
        L.append(c["description"])
        L.append("")
        keys = [v["key"] for v in c["variants"]]
        labels = [v["label"] for v in c["variants"]]
        L.append("Compile (min arch %s):" % arch_name(c["min_arch"]))
        L.append("")
        L.append("| arch | " + " | ".join(labels) + " |")
        L.append("|---|" + "---|" * len(labels))
        for a in sorted(c["compile"], key=lambda s: int(s[3:])):
            entry = c["compile"][a]
            if "skipped" in entry:
                L.append("| %s | " % a + " | ".join(["skipped (%s)" % entry["skipped"]] * len(labels)) + " |")
            else:
                L.append("| %s | " % a + " | ".join(entry[k]["status"] if k in entry else "-" for k in keys) + " |")
        L.append("")
        if c["run"].get("skipped"):
            L.append("Run: %s" % c["run"]["skipped"])
            L.append("")
        else:
            L.append("Run:")
            L.append("")
            L.append("| variant | binary | verdict (seeds) | configurations | first failing RESULT line |")
            L.append("|---|---|---|---|---|")
            for r in c["run"]["runs"]:
                code = r["arch"] + (" (PTX JIT-compiled on %s)" % arch_name(gpu["arch"]) if r["jit"] else "")
                L.append("| %s | %s | %s | %s | %s |" % (r["label"], code, md_cell(r["verdict"]),
                                                       md_cell(r.get("configs") or ""), md_cell(r["first_failure"] or "")))
            L.append("")
            if c["run"].get("sanitizers"):
                tools = opts["sanitizers"]
                L.append("Sanitizers (seed %s, %s binary%s):" % (opts["seeds"][0], arch_name(gpu["arch"]),
                                                               "" if opts.get("sanitizer_poison") else ", RV_POISON=0"))
                L.append("")
                L.append("| variant | " + " | ".join(tools) + " |")
                L.append("|---|" + "---|" * len(tools))
                for v in c["variants"]:
                    cells = []
                    for t in tools:
                        s = c["run"]["sanitizers"].get(v["key"], {}).get(t)
                        if not s:
                            cells.append("-")
                        else:
                            prog = s["program_result"].split(" ")[1] if s["program_result"] else "no RESULT"
                            cells.append(s["verdict"] + (" (%s)" % s["first_report"][:120] if s["first_report"] and s["errors"] else "")
                                         + "; program %s" % prog)
                    L.append("| %s | %s |" % (v["label"], " | ".join(md_cell(x) for x in cells)))
                L.append("")
        if c["problems"]:
            L.append("Problems:")
            L.append("")
            for p in c["problems"]:
                L.append("- %s" % p)
            L.append("")
    with open(path, "w") as f:
        f.write("\n".join(L))


def native_verdict(case, key):
    if key == "bug" and case["bug_build_error"] and case["compile_ok"]:
        return "build error, as expected (%s)" % case["bug_build_error"]
    if not case["compile_ok"] and key in ("bug", "fixed"):
        failed = [a for a, e in case["compile"].items() if "skipped" not in e and key in e and not e[key]["ok"]]
        if failed:
            return "compile FAIL (%s)" % ", ".join(failed)
    if case["run"].get("skipped"):
        return case["run"]["skipped"]
    verdicts = ["%s%s: %s" % (r["arch"], " JIT" if r["jit"] else "", r["verdict"])
                for r in case["run"]["runs"] if r["key"] == key]
    return "; ".join(verdicts) if verdicts else "-"


# ---------------------------------------------------------------------------------------------
# main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", help="comma-separated case names (default: every case)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--archs", type=parse_archs, default=DEFAULT_ARCHS,
                    help="archs to compile for, e.g. 75,80,90 (default); archs below a case's min_arch are skipped; "
                         "the GPU's own arch is always added for the run phase")
    ap.add_argument("--build-dir", help="where binaries and compile logs go (default: a temporary directory, removed afterwards)")
    ap.add_argument("--compile-only", action="store_true", help="compile and report; do not look for a GPU or run")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per program run; longer is reported as hang/timeout (default 60)")
    ap.add_argument("--seeds", type=int, default=3, help="number of random seeds per variant (default 3)")
    ap.add_argument("--seed", type=int, action="append", default=[], help="use this seed (repeatable; replaces the random ones)")
    ap.add_argument("--sanitizers", default="",
                    help="comma-separated compute-sanitizer tools to run each variant under, or 'all' "
                         "(%s); default none" % ",".join(SANITIZER_TOOLS))
    ap.add_argument("--sanitizer-timeout", type=float, default=300, help="seconds per sanitizer run (default 300)")
    ap.add_argument("--sanitizer-poison", action="store_true",
                    help="keep the shared-memory poisoning under compute-sanitizer (default: RV_POISON=0 there)")
    ap.add_argument("--jit-all", action="store_true",
                    help="also run every built arch below the GPU's own (the driver JIT-compiles its PTX)")
    ap.add_argument("--fixit-dir", help="DIR/<case>/fixit.cu, where present, is built and run like fixed.cu ('fix-it applied')")
    ap.add_argument("--extra", type=parse_extra, action="append", default=[],
                    help="[CASE:]NAME=PATH: another variant to build and run like fixed.cu; PATH may contain {case}")
    ap.add_argument("--report", help="write a Markdown report to this file")
    ap.add_argument("--json", help="write the results as JSON to this file")
    ap.add_argument("--nvcc", help="nvcc to use (default: from PATH, CUDA_HOME or /usr/local/cuda)")
    ap.add_argument("--nvcc-flag", action="append", default=None,
                    help="extra nvcc flag (repeatable; default -lineinfo, which helps compute-sanitizer)")
    ap.add_argument("--compile-timeout", type=float, default=600, help="seconds per nvcc call (default 600)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2, help="parallel nvcc processes")
    ap.add_argument("--cases-dir", default=DEFAULT_CASES_DIR, help=argparse.SUPPRESS)
    args = ap.parse_args()

    wanted = [c.strip() for c in args.cases.split(",") if c.strip()] if args.cases else None
    cases = discover_cases(args.cases_dir, wanted)
    if args.list:
        for c in cases:
            print("%-34s %-30s min %s" % (c["name"], c["check"], arch_name(c["min_arch"])))
        return 0
    if not cases:
        die("no cases found under %s" % args.cases_dir)
    tools = []
    if args.sanitizers:
        tools = SANITIZER_TOOLS[:] if args.sanitizers.strip() == "all" else \
            [t.strip() for t in args.sanitizers.split(",") if t.strip()]
        bad = [t for t in tools if t not in SANITIZER_TOOLS]
        if bad:
            ap.error("unknown sanitizer tool(s): %s" % ", ".join(bad))
    nvcc_flags = args.nvcc_flag if args.nvcc_flag is not None else ["-lineinfo"]
    if args.fixit_dir and not os.path.isdir(args.fixit_dir):
        die("--fixit-dir %s is not a directory" % args.fixit_dir)

    temp_build = args.build_dir is None
    build_dir = tempfile.mkdtemp(prefix="warp-tidy-rv-") if temp_build else os.path.abspath(args.build_dir)
    os.makedirs(build_dir, exist_ok=True)
    try:
        return run_all(args, cases, tools, nvcc_flags, build_dir)
    finally:
        if temp_build:
            shutil.rmtree(build_dir, ignore_errors=True)


def run_all(args, cases, tools, nvcc_flags, build_dir):
    nvcc = find_nvcc(args.nvcc)
    env = {"host": "%s (%s)" % (platform.node(), platform.platform()), "nvcc": nvcc,
           "nvcc_version": nvcc_version(nvcc) or "nvcc not working", "sanitizer": find_sanitizer(nvcc),
           "gpu": {"present": False, "why_not": "not looked for (--compile-only)"}}
    print("nvcc: %s (%s)" % (env["nvcc_version"], nvcc))
    if not args.compile_only:
        env["gpu"] = detect_gpu(nvcc, build_dir)
        g = env["gpu"]
        print("GPU: %s" % ("%s, %s, driver %s" % (g["name"], arch_name(g["arch"]), g["driver"]) if g["present"]
                           else "none (%s)" % g["why_not"]))
        if tools and not env["sanitizer"]["available"]:
            print("compute-sanitizer: not available; sanitizer runs skipped")
    gpu = env["gpu"]
    build_archs = list(args.archs)
    if gpu["present"] and gpu["arch"] not in build_archs:
        build_archs = sorted(build_archs + [gpu["arch"]])
    seeds = args.seed or [random.SystemRandom().randrange(1, 2 ** 32) for _ in range(max(1, args.seeds))]

    # ---- compile everything (in parallel) ----
    jobs = []
    for case in cases:
        case["variants"] = [{"key": k, "label": l, "source": s, "must_pass": m}
                            for k, l, s, m in variants_for(case, args, len(cases))]
        case["compile"] = {}
        for arch in build_archs:
            if arch < case["min_arch"]:
                case["compile"][arch_name(arch)] = {"skipped": "below min_arch %d" % case["min_arch"]}
                continue
            case["compile"][arch_name(arch)] = {}
            for v in case["variants"]:
                exe = os.path.join(build_dir, case["name"], arch_name(arch), v["key"].replace(":", "-"))
                jobs.append((case, arch, v, exe))
    print("compiling %d programs for %s with %d job(s)..." % (len(jobs), ", ".join(arch_name(a) for a in build_archs), args.jobs))
    sys.stdout.flush()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(compile_one, nvcc, nvcc_flags, arch, v["source"], exe, args.compile_timeout): (case, arch, v)
                   for case, arch, v, exe in jobs}
        for fut in concurrent.futures.as_completed(futures):
            case, arch, v = futures[fut]
            case["compile"][arch_name(arch)][v["key"]] = fut.result()

    problems = []
    for case in cases:
        case["problems"] = []
        case["compile_ok"] = True
        print("== %s (%s)" % (case["name"], case["check"]))
        for a in build_archs:
            entry = case["compile"][arch_name(a)]
            if "skipped" in entry:
                print("  compile %s: skipped (%s)" % (arch_name(a), entry["skipped"]))
                continue
            parts = []
            for v in case["variants"]:
                r = entry[v["key"]]
                if v["key"] == "bug" and case["bug_build_error"]:
                    msg = expect_build_error(r, case["bug_build_error"])
                    parts.append("%s %s" % (v["label"], r["status"]))
                    if msg:
                        case["compile_ok"] = False
                        case["problems"].append("%s: %s (%s)" % (case["name"], msg, arch_name(a)))
                        problems.append(case["problems"][-1])
                    continue
                r.pop("output", None)
                parts.append("%s %s" % (v["label"], r["status"]))
                if not r["ok"]:
                    case["compile_ok"] = False
                    msg = "%s: %s does not compile for %s" % (case["name"], v["label"], arch_name(a))
                    case["problems"].append(msg)
                    problems.append(msg)
                    print("    %s\n%s" % (r["command"], "\n".join("      " + l for l in r["log"].splitlines())))
            print("  compile %s: %s" % (arch_name(a), ", ".join(parts)))

    # ---- run ----
    for case in cases:
        if args.compile_only:
            case["run"] = {"skipped": "not run (--compile-only)"}
            continue
        if not gpu["present"]:
            case["run"] = {"skipped": NO_GPU}
            print("%s: run: %s" % (case["name"], NO_GPU))
            continue
        run_archs = [(gpu["arch"], False)]
        lower = set(case["jit_run_archs"])
        if args.jit_all:
            lower |= set(build_archs)
        for a in sorted(lower, reverse=True):
            if a < gpu["arch"] and a >= case["min_arch"] and a in build_archs:
                run_archs.append((a, True))
        case["run"] = {"runs": [], "sanitizers": {}}
        print("== %s: running (seeds %s)" % (case["name"], ", ".join(map(str, seeds))))
        for arch, jit in run_archs:
            for v in case["variants"]:
                comp = case["compile"][arch_name(arch)].get(v["key"])
                entry = {"key": v["key"], "label": v["label"], "arch": arch_name(arch), "jit": jit}
                if comp and comp.get("expected_failure"):
                    entry.update(ok=True, verdict="not run (build error, as expected)", first_failure="", seeds=[])
                elif not comp or not comp["ok"]:
                    entry.update(ok=not v["must_pass"], verdict="not run (did not compile)", first_failure="", seeds=[])
                else:
                    results = run_variant(comp["binary"], seeds, args.timeout)
                    entry.update(summarize(results, v["must_pass"]), seeds=results)
                case["run"]["runs"].append(entry)
                print("  %-16s %-6s%s %s%s" % (v["label"], arch_name(arch), " (JIT)" if jit else "      ", entry["verdict"],
                                              " -- " + entry["configs"] if entry.get("configs") else ""))
                if entry["first_failure"]:
                    print("  %-16s %s" % ("", entry["first_failure"]))
                if not entry["ok"]:
                    msg = "%s: %s on %s%s: %s" % (case["name"], v["label"], arch_name(arch), " (JIT)" if jit else "", entry["verdict"])
                    case["problems"].append(msg)
                    problems.append(msg)
        if tools and env["sanitizer"]["available"]:
            for v in case["variants"]:
                comp = case["compile"][arch_name(gpu["arch"])].get(v["key"])
                if not comp or not comp["ok"]:
                    continue
                case["run"]["sanitizers"][v["key"]] = {}
                for tool in tools:
                    s = run_sanitizer(env["sanitizer"], tool, comp["binary"], seeds[0], args.sanitizer_timeout,
                                      args.sanitizer_poison)
                    case["run"]["sanitizers"][v["key"]][tool] = s
                    print("  %-16s %-10s %s%s" % (v["label"], tool, s["verdict"],
                                                   (" -- " + s["first_report"][:140]) if s["errors"] else ""))
                    if v["must_pass"] and s["errors"]:
                        msg = "%s: %s: compute-sanitizer %s reports %s" % (case["name"], v["label"], tool, s["verdict"])
                        case["problems"].append(msg)
                        problems.append(msg)

    ok = not problems
    data = {
        "date": datetime.datetime.now(datetime.timezone.utc).astimezone().isoformat(timespec="seconds"),
        "ok": ok, "problems": problems, "environment": env,
        "options": {"archs": args.archs, "build_archs": build_archs, "compile_only": args.compile_only,
                    "seeds": seeds, "timeout": args.timeout, "sanitizers": tools,
                    "sanitizer_poison": args.sanitizer_poison,
                    "fixit_dir": args.fixit_dir, "extra": args.extra,
                    "build_dir": None if args.build_dir is None else build_dir},
        "cases": [{k: v for k, v in c.items() if k != "dir"} for c in cases],
    }
    if args.report:
        write_markdown(args.report, data)
        print("report: %s" % args.report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(data, f, indent=2)
        print("json: %s" % args.json)
    print("overall: %s" % ("OK" if ok else "FAILED (%d problem%s)" % (len(problems), "" if len(problems) == 1 else "s")))
    for p in problems:
        print("  - %s" % p)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
