#!/usr/bin/env python3
"""Validates a SARIF log against the required properties of SARIF 2.1.0 and
what GitHub code scanning needs, then prints one line per rule and result
for FileCheck.

Usage: sarif_check.py <file.sarif | ->

Two layers, both offline:
  * the OASIS SARIF 2.1.0 JSON schema, vendored as test/sarif-schema-2.1.0.json
    (from the OASIS TC's sarif-spec repository, sarif-2.1/schema/), when the
    jsonschema package (Debian: python3-jsonschema) is installed; without it
    the log prints "SCHEMA SKIPPED" (a test can require "SCHEMA VALID");
  * the checks below, which follow the same specification's `required` lists
    and value constraints for every object kind warp-tidy writes, plus what
    GitHub code scanning needs to show an alert well (tool.driver.name, rules
    with ids, results with ruleId, message.text, a location with a relative
    artifactLocation.uri and a region startLine; partialFingerprints as
    string values; every related location linked from the message text, as
    "[text](id)", or GitHub does not show it).
Exit status 0 when valid, 1 (with every problem listed) otherwise.
"""
import json
import os
import re
import sys

problems = []


def need(cond, where, what):
    if not cond:
        problems.append(f"{where}: {what}")
    return cond


def is_int(v, minimum):
    return isinstance(v, int) and not isinstance(v, bool) and v >= minimum


def check_message(m, where):
    # message: requires text or id (spec 3.11).
    if need(isinstance(m, dict), where, "message must be an object"):
        need(isinstance(m.get("text"), str) or isinstance(m.get("id"), str),
             where, "message needs 'text' or 'id'")


def check_mfms(m, where):
    # multiformatMessageString: requires text (3.12).
    need(isinstance(m, dict) and isinstance(m.get("text"), str), where,
         "multiformatMessageString needs 'text'")


def check_region(r, where):
    # region: at least one of startLine, charOffset, byteOffset (3.30.2);
    # lines and columns are 1-based.
    if not need(isinstance(r, dict), where, "region must be an object"):
        return
    need(any(k in r for k in ("startLine", "charOffset", "byteOffset")), where,
         "region needs startLine, charOffset or byteOffset")
    for k in ("startLine", "startColumn", "endLine", "endColumn"):
        if k in r:
            need(is_int(r[k], 1), where, f"{k} must be an integer >= 1")
    if "endLine" in r and "startLine" in r:
        need(r["endLine"] >= r["startLine"], where, "endLine before startLine")


def check_artifact_location(a, where, relative_needed=False):
    if not need(isinstance(a, dict), where, "artifactLocation must be an object"):
        return
    uri = a.get("uri")
    need(isinstance(uri, str) and uri, where, "artifactLocation needs a uri")
    if isinstance(uri, str) and relative_needed and "uriBaseId" in a:
        need(not uri.startswith("/") and "://" not in uri, where,
             "a uri with a uriBaseId must be relative")
    if "uriBaseId" in a:
        need(isinstance(a["uriBaseId"], str), where, "uriBaseId must be a string")


def check_location(loc, where):
    if not need(isinstance(loc, dict), where, "location must be an object"):
        return
    pl = loc.get("physicalLocation")
    if pl is not None:
        # physicalLocation: requires address or artifactLocation (3.29).
        need("artifactLocation" in pl or "address" in pl, where,
             "physicalLocation needs artifactLocation or address")
        if "artifactLocation" in pl:
            check_artifact_location(pl["artifactLocation"], where, True)
        if "region" in pl:
            check_region(pl["region"], where)
    if "id" in loc:
        need(is_int(loc["id"], -1), where, "location id must be an integer >= -1")
    if "message" in loc:
        check_message(loc["message"], where)


def check_fix(f, where):
    # fix: requires artifactChanges (min 1) (3.55); artifactChange requires
    # artifactLocation and replacements (min 1) (3.56); replacement requires
    # deletedRegion (3.57).
    changes = f.get("artifactChanges")
    if not need(isinstance(changes, list) and changes, where, "fix needs artifactChanges"):
        return
    if "description" in f:
        check_message(f["description"], where)
    for i, c in enumerate(changes):
        w = f"{where}.artifactChanges[{i}]"
        need("artifactLocation" in c, w, "artifactChange needs artifactLocation")
        check_artifact_location(c.get("artifactLocation"), w)
        reps = c.get("replacements")
        if need(isinstance(reps, list) and reps, w, "artifactChange needs replacements"):
            for j, r in enumerate(reps):
                need("deletedRegion" in r, f"{w}.replacements[{j}]",
                     "replacement needs deletedRegion")
                check_region(r.get("deletedRegion"), f"{w}.replacements[{j}]")


def check_schema(log):
    schema_path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                               "sarif-schema-2.1.0.json")
    try:
        import jsonschema
    except ImportError:
        print("SCHEMA SKIPPED (no jsonschema package)")
        return
    with open(schema_path) as f:
        schema = json.load(f)
    validator = jsonschema.Draft4Validator(schema)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    for e in errors:
        where = "/".join(str(p) for p in e.path) or "sarifLog"
        problems.append(f"schema: {where}: {e.message}")
    if not errors:
        print("SCHEMA VALID")


def main():
    text = sys.stdin.read() if sys.argv[1] == "-" else open(sys.argv[1]).read()
    log = json.loads(text)
    check_schema(log)
    need(log.get("version") == "2.1.0", "sarifLog", "version must be 2.1.0")
    runs = log.get("runs")
    if not need(isinstance(runs, list), "sarifLog", "runs must be an array"):
        return report()
    for ri, run in enumerate(runs):
        w = f"runs[{ri}]"
        tool = run.get("tool")
        if not need(isinstance(tool, dict) and isinstance(tool.get("driver"), dict), w,
                    "run needs tool.driver"):
            continue
        driver = tool["driver"]
        need(isinstance(driver.get("name"), str), w, "toolComponent needs a name")
        rules = driver.get("rules", [])
        ids = []
        for i, rule in enumerate(rules):
            rw = f"{w}.rules[{i}]"
            need(isinstance(rule.get("id"), str), rw, "reportingDescriptor needs an id")
            for k in ("shortDescription", "fullDescription", "help"):
                if k in rule:
                    check_mfms(rule[k], f"{rw}.{k}")
            ids.append(rule.get("id"))
            props = rule.get("properties", {})
            print(f"RULE {rule.get('id')} help={rule.get('helpUri', '-')} "
                  f"short={rule.get('shortDescription', {}).get('text', '-')} "
                  f"level={rule.get('defaultConfiguration', {}).get('level', '-')} "
                  f"tags={','.join(props.get('tags', [])) or '-'} "
                  f"helptext={len(rule.get('help', {}).get('text', ''))} "
                  f"helpmarkdown={len(rule.get('help', {}).get('markdown', ''))}")
        need(len(ids) == len(set(ids)), w, "rule ids must be unique")
        bases = run.get("originalUriBaseIds", {})
        for name, base in bases.items():
            need(isinstance(base.get("uri"), str) and base["uri"].endswith("/"), w,
                 f"originalUriBaseIds.{name}.uri must end with '/'")
        for i, res in enumerate(run.get("results", [])):
            rw = f"{w}.results[{i}]"
            need("message" in res, rw, "result needs a message")
            check_message(res.get("message"), rw)
            rule_id = res.get("ruleId")
            need(isinstance(rule_id, str), rw, "GitHub needs a ruleId")
            if "ruleIndex" in res:
                need(is_int(res["ruleIndex"], 0) and res["ruleIndex"] < len(rules)
                     and rules[res["ruleIndex"]].get("id") == rule_id, rw,
                     "ruleIndex must point at the rule with ruleId")
            need(res.get("level", "warning") in ("none", "note", "warning", "error"), rw,
                 "level must be none, note, warning or error")
            locs = res.get("locations", [])
            need(len(locs) >= 1, rw, "GitHub needs at least one location")
            for j, loc in enumerate(locs):
                check_location(loc, f"{rw}.locations[{j}]")
            text = res.get("message", {}).get("text", "")
            linked = {int(m) for m in re.findall(r"(?<!\\)\]\((\d+)\)", text)}
            for j, loc in enumerate(res.get("relatedLocations", [])):
                check_location(loc, f"{rw}.relatedLocations[{j}]")
                need(loc.get("id") in linked, f"{rw}.relatedLocations[{j}]",
                     "a related location must be linked from the message text "
                     "('[text](id)'), or code scanning does not show it")
            fp = res.get("partialFingerprints", {})
            need(isinstance(fp, dict) and all(isinstance(v, str) for v in fp.values()),
                 rw, "partialFingerprints values must be strings")
            for j, fix in enumerate(res.get("fixes", [])):
                check_fix(fix, f"{rw}.fixes[{j}]")
            loc = locs[0]["physicalLocation"] if locs else {}
            art = loc.get("artifactLocation", {})
            reg = loc.get("region", {})
            print(f"RESULT {rule_id} {res.get('level', 'warning')} "
                  f"{art.get('uriBaseId', '-')}:{art.get('uri')}:{reg.get('startLine')}:"
                  f"{reg.get('startColumn')} fingerprints={len(fp)} "
                  f"related={len(res.get('relatedLocations', []))} "
                  f"fixes={len(res.get('fixes', []))}")
        for i, inv in enumerate(run.get("invocations", [])):
            iw = f"{w}.invocations[{i}]"
            need(isinstance(inv.get("executionSuccessful"), bool), iw,
                 "invocation needs executionSuccessful")
            for j, n in enumerate(inv.get("toolExecutionNotifications", [])):
                check_message(n.get("message"), f"{iw}.notifications[{j}]")
                for k, loc in enumerate(n.get("locations", [])):
                    check_location(loc, f"{iw}.notifications[{j}].locations[{k}]")
                print(f"NOTIFICATION {n.get('level', 'warning')} {n['message'].get('text')}")
            print(f"INVOCATION executionSuccessful={inv.get('executionSuccessful')}")
    return report()


def report():
    for p in problems:
        print(f"SARIF INVALID: {p}")
    if not problems:
        print("SARIF VALID")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
