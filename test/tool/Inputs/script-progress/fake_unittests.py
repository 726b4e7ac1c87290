#!/usr/bin/env python3
# Stands in for build/bin/warp-tidy-unittests: writes the gtest JSON report
# scripts/run_tests.py reads (two tests, both passed).
import json
import sys

for arg in sys.argv[1:]:
    if arg.startswith("--gtest_output=json:"):
        json.dump({"tests": 2, "failures": 0, "errors": 0, "testsuites": []},
                  open(arg.split(":", 1)[1], "w"))
