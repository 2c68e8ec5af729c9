#!/usr/bin/env python3
#===-- check-help-docs.py - --help and the CommandGuide pages agree --------===#
#
# For every tool BIN/kevin-X that has a page GUIDE/kevin-X.md, compares the
# options `kevin-X --help` prints with the first column of the tables in the
# page's OPTIONS section: each option is named by its long form (`--output`),
# or its short form when it has no long one (`-I`); --help and --version are
# left out. An option in one and not in the other is an error.
#
# For the driver BIN/kevin: every verb `kevin --help` lists must have a page
# kevin-<verb>.md and a row in the VERBS table of kevin.md, and every page or
# row whose tool is installed in BIN must be listed (internal tools such as
# kevin-worker have neither and must not be listed).
#
# Prints `page: error: message` per mismatch, then one summary line, and exits
# 1 on any mismatch (2 on a usage error).
#
# usage: utils/check-help-docs.py BIN GUIDE
#===----------------------------------------------------------------------===#
import concurrent.futures
import os
import re
import subprocess
import sys

OPTION_NAME = re.compile(r"(?<![\w-])(--?[A-Za-z0-9][\w-]*)")
LEFT_OUT = {"--help", "--version"}


def help_text(program):
    env = dict(os.environ, NO_COLOR="1", COLUMNS="200")
    result = subprocess.run([program, "--help"], capture_output=True, text=True,
                            env=env, timeout=120)
    return result.stdout + result.stderr


def help_options(text):
    """{name: set of aliases} for the options in a CLI11 --help's Options."""
    options, in_options = {}, False
    for line in text.splitlines():
        if re.match(r"^\S.*:\s*$", line):
            in_options = line.strip().startswith("Options")
            continue
        # An option's line starts with two spaces and a dash; its wrapped
        # description is indented further.
        if not in_options or not re.match(r"^  -", line):
            continue
        spec = line.strip().split("  ")[0]
        aliases = spec.split()[0].split(",")
        longs = [a for a in aliases if a.startswith("--")]
        name = longs[0] if longs else aliases[0]
        if name not in LEFT_OUT:
            options[name] = set(aliases)
    return options


def section(text, title):
    """The lines of the `## TITLE` section of a page."""
    lines, inside = [], False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line[3:].strip().upper() == title
            continue
        if inside:
            lines.append(line)
    return lines


def table_first_cells(lines):
    """The first cell of every body row of the tables in LINES."""
    cells = []
    for line in lines:
        if not line.startswith("|") or re.match(r"^\|\s*:?-", line):
            continue
        cell = re.split(r"(?<!\\)\|", line)[1].strip()
        if cell.lower() not in ("option", "verb"):
            cells.append(cell)
    return cells


def documented_options(page_text, options):
    """The option names (as help_options names them) in the OPTIONS tables."""
    alias_to_name = {a: name for name, aliases in options.items() for a in aliases}
    names = set()
    for cell in table_first_cells(section(page_text, "OPTIONS")):
        for code in re.findall(r"`([^`]*)`", cell):
            for token in OPTION_NAME.findall(code):
                names.add(alias_to_name.get(token, token))
    return names - LEFT_OUT


def compare_tool(tool, program, page):
    with open(page, encoding="utf-8") as f:
        page_text = f.read()
    options = help_options(help_text(program))
    documented = documented_options(page_text, options)
    errors = []
    for name in sorted(set(options) - documented):
        errors.append(f"{name} is in '{tool} --help' but not in the OPTIONS table")
    for name in sorted(documented - set(options)):
        errors.append(f"{name} is in the OPTIONS table but not in '{tool} --help'")
    return errors


def driver_verbs(text):
    verbs, listing = [], False
    for line in text.splitlines():
        if line.startswith("verbs installed here:"):
            listing = True
        elif listing and line.startswith("  ") and line.split():
            verbs.append(line.split()[0])
        elif listing:
            break
    return [v for v in verbs if v != "(none)"]


def compare_driver(bin_dir, guide):
    listed = set(driver_verbs(help_text(os.path.join(bin_dir, "kevin"))))
    installed = {n[len("kevin-"):] for n in os.listdir(bin_dir) if n.startswith("kevin-")}
    paged = {n[len("kevin-"):-len(".md")] for n in os.listdir(guide)
             if n.startswith("kevin-") and n.endswith(".md")}
    with open(os.path.join(guide, "kevin.md"), encoding="utf-8") as f:
        rows = {c.strip("`").split()[0] for c in table_first_cells(section(f.read(), "VERBS")) if c}
    errors = []
    for verb in sorted(listed - paged):
        errors.append(f"'kevin --help' lists {verb}, which has no page kevin-{verb}.md")
    for verb in sorted(listed - rows):
        errors.append(f"'kevin --help' lists {verb}, which is not in the VERBS table")
    for verb in sorted(((paged | rows) & installed) - listed):
        errors.append(f"{verb} is installed and documented but 'kevin --help' does not list it")
    return errors


def main(argv):
    if len(argv) != 3 or not os.path.isdir(argv[1]) or not os.path.isdir(argv[2]):
        print("usage: check-help-docs.py BIN GUIDE", file=sys.stderr)
        return 2
    bin_dir, guide = argv[1], argv[2]
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        for name in sorted(os.listdir(bin_dir)):
            page = os.path.join(guide, name + ".md")
            if name.startswith("kevin-") and os.path.isfile(page):
                jobs[page] = pool.submit(compare_tool, name, os.path.join(bin_dir, name), page)
        if os.path.isfile(os.path.join(bin_dir, "kevin")):
            jobs[os.path.join(guide, "kevin.md")] = pool.submit(compare_driver, bin_dir, guide)
    mismatches = 0
    for page, job in sorted(jobs.items()):
        for error in job.result():
            mismatches += 1
            print(f"{os.path.basename(page)}: error: {error}")
    print(f"help tables: {len(jobs)} pages, {mismatches} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
