#!/usr/bin/env python3
"""Prints an editor recipe from docs/editors.md, so the tests run it as written.

Usage: recipe.py DOC NAME [--clangd PATH]

A recipe is the fenced code block that follows a `<!-- recipe: NAME -->` line.
--clangd replaces the placeholder path /path/to/warp-clangd with PATH. Exit 1
(with a message) when the recipe is missing, so a renamed recipe fails the
test instead of testing nothing.
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("doc")
    ap.add_argument("name")
    ap.add_argument("--clangd")
    args = ap.parse_args()

    lines = open(args.doc).read().splitlines()
    marker = "<!-- recipe: %s -->" % args.name
    try:
        start = lines.index(marker)
    except ValueError:
        print("recipe.py: no '%s' in %s" % (marker, args.doc), file=sys.stderr)
        return 1
    body = []
    fence = None
    for line in lines[start + 1:]:
        if fence is None:
            if line.startswith("```"):
                fence = "```"
            continue
        if line.startswith(fence):
            break
        body.append(line)
    if not body:
        print("recipe.py: '%s' has no code block" % args.name, file=sys.stderr)
        return 1
    text = "\n".join(body) + "\n"
    if args.clangd:
        text = text.replace("/path/to/warp-clangd", args.clangd)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
