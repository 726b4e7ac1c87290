"""Prints the targets tool/CMakeLists.txt installs and, for each script,
whether its scripts/build.sh line builds all of them."""
import re
import sys

cmake, scripts = sys.argv[1], sys.argv[2:]
installed = set()
for m in re.finditer(r"install\(TARGETS ([^)]*?) (?:RUNTIME|LIBRARY)", open(cmake).read()):
    installed.update(m.group(1).split())
print("installed:", " ".join(sorted(installed)))
for path in scripts:
    built = set()
    for m in re.finditer(r"scripts/build\.sh\"?\s+([^\n]*)", open(path).read()):
        built.update(m.group(1).split())
    missing = sorted(installed - built)
    name = path.rsplit("/", 1)[-1]
    print(f"{name} builds them all" if not missing else f"{name} misses {' '.join(missing)}")
