#!/usr/bin/env python3
#===-- check-doc-links.py - every link in the docs resolves ----------------===#
#
# Reads README.md and docs/**/*.md under ROOT (or the markdown files given)
# and checks every relative link target: inline links and images
# `[text](target)`, and reference definitions `[id]: target`. A target must
# be a file or directory inside ROOT; a `#fragment` on a markdown target must
# be one of its headings' anchors (GitHub's slugs: lowercase, punctuation
# dropped, spaces to hyphens, -1, -2, ... on repeats) or an explicit
# <a id="..."> / <a name="...">. Links with a scheme (https:, mailto:) are
# not followed; code blocks and code spans are skipped.
#
# Prints `file:line:col: error: message` for each dangling link, then one
# summary line, and exits 1 if any link dangles (2 on a usage error).
#
# usage: utils/check-doc-links.py ROOT [FILE.md ...]
#===----------------------------------------------------------------------===#
import functools
import glob
import os
import re
import sys

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def blank_code_spans(line):
    """The line with every code span's text replaced by spaces (columns stay)."""
    return CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def prose_lines(text):
    """(line number, line) for the lines outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def github_slug(heading):
    """The anchor GitHub gives a heading's rendered text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = re.sub(r"<[^>]+>", "", text)                         # inline HTML
    text = text.replace("`", "").replace("*", "")
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@functools.lru_cache(maxsize=None)
def anchors_of(path):
    """Every anchor a markdown file defines."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    anchors, seen = set(), {}
    for _, line in prose_lines(text):
        anchors.update(HTML_ANCHOR.findall(line))
        heading = HEADING.match(line)
        if not heading:
            continue
        slug = github_slug(heading.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def link_targets(text):
    """(line, column, target) for every link in the prose of a markdown file."""
    for number, line in prose_lines(text):
        prose = blank_code_spans(line)
        definition = REFERENCE_DEF.match(prose)
        if definition:
            yield number, definition.start(1) + 1, definition.group(1)
            continue
        for link in INLINE_LINK.finditer(prose):
            yield number, link.start(1) + 1, link.group(1)


def problem(root, source, target):
    """Why a link target from SOURCE dangles, or None."""
    if SCHEME.match(target):
        return None
    path_part, _, fragment = target.partition("#")
    if path_part:
        resolved = os.path.normpath(os.path.join(os.path.dirname(source), path_part))
    else:
        resolved = source
    if os.path.relpath(resolved, root).startswith(os.pardir):
        return f"'{target}' points outside the repository"
    if not os.path.exists(resolved):
        return f"'{target}' does not exist"
    if fragment and resolved.endswith(".md") and os.path.isfile(resolved):
        if fragment not in anchors_of(resolved):
            return f"'{target}': no heading or anchor '#{fragment}' in {os.path.relpath(resolved, root)}"
    return None


def doc_files(root):
    files = [os.path.join(root, "README.md")]
    files += sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    return [f for f in files if os.path.isfile(f)]


def main(argv):
    if len(argv) < 2 or not os.path.isdir(argv[1]):
        print("usage: check-doc-links.py ROOT [FILE.md ...]", file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    files = [os.path.abspath(f) for f in argv[2:]] or doc_files(root)
    links = broken = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, column, target in link_targets(text):
            links += 1
            why = problem(root, path, target)
            if why:
                broken += 1
                print(f"{os.path.relpath(path, root)}:{line}:{column}: error: {why}")
    print(f"doc links: {links} links in {len(files)} files, {broken} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
