#!/usr/bin/env python3
"""Fails when the README states a headline figure that its table does not hold.

    python3 tools/check_figures.py [ROOT]       check README.md against docs/
    python3 tools/check_figures.py --self-test  prove it finds a stale figure

Each row of the README's "Headline figures" table names its figure in bold
(`**16 of 20 (80%)**`) and links the handbook section that holds the table
(`[strength.md](docs/strength.md#anchor)`). In that section, the row in
force is marked `**current**` in a table row; older rows are history. Every
bold value of the README row must appear in a current row of its section
(spaces and the thin spaces of numbers ignored), so a figure has one value:
the README can only repeat what the table says now. A README row with no
bold figure, no link, a section with no current row, or a value the current
rows lack is one `README.md: …` line; exits 1 when there is any.
Standard library only.
"""

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_links import ATX, code_free_lines, slug  # noqa: E402

BOLD = re.compile(r"\*\*(.+?)\*\*")
LINK = re.compile(r"\]\(([^)#\s]+\.md)#([^)\s]+)\)")
CURRENT = "**current**"


def headline_rows(readme):
    """The README's headline table: (figure cell, more cell) per row."""
    rows, inside = [], False
    for line in readme.splitlines():
        m = ATX.match(line)
        if m:
            inside = (m.group(2) or "").strip().lower() == "headline figures"
            continue
        if inside and line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 3 or set(cells[0]) <= set("-: ") or cells[0] == "figure":
                continue
            rows.append((cells[0], cells[-1]))
    return rows


def section(text, anchor):
    """The lines under the heading whose slug is `anchor`, to the next
    heading of the same or a higher level; None when there is none."""
    lines = code_free_lines(text)
    start, level = None, 0
    for i, (_, _, fenced, raw) in enumerate(lines):
        m = None if fenced else ATX.match(raw)
        if not m:
            continue
        depth = len(m.group(1))
        if start is None and slug((m.group(2) or "").strip()) == anchor:
            start, level = i + 1, depth
        elif start is not None and depth <= level:
            return [raw for _, _, _, raw in lines[start:i]]
    if start is None:
        return None
    return [raw for _, _, _, raw in lines[start:]]


def squeeze(text):
    return re.sub(r"[\s\u2009\u202f]+", "", text)


def check(root):
    problems = []
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    rows = headline_rows(readme)
    if not rows:
        problems.append("README.md: no headline figures table")
    for figure, more in rows:
        name = BOLD.sub(r"\1", figure)[:50]
        values = BOLD.findall(figure)
        link = LINK.search(more)
        if not values:
            problems.append(f"README.md: '{name}': no figure in bold")
            continue
        if not link:
            problems.append(f"README.md: '{name}': no link to the section of its table")
            continue
        path = os.path.join(root, link.group(1))
        try:
            with open(path, encoding="utf-8") as f:
                lines = section(f.read(), link.group(2))
        except OSError:
            lines = None
        if lines is None:
            problems.append(f"README.md: '{name}': {link.group(1)}#{link.group(2)} is no section")
            continue
        current = [squeeze(l) for l in lines if l.lstrip().startswith("|") and CURRENT in l]
        if not current:
            problems.append(
                f"README.md: '{name}': {link.group(1)}#{link.group(2)} marks no row {CURRENT}"
            )
            continue
        for value in values:
            if not any(squeeze(value) in row for row in current):
                problems.append(
                    f"README.md: '{name}': {value} is not in the current row of "
                    f"{link.group(1)}#{link.group(2)}"
                )
    for p in problems:
        print(p)
    print(f"{len(rows)} headline figures checked, {len(problems)} problems")
    return not problems


def self_test():
    table = (
        "# T\n\n## Sizes\n\n| date | size |\n|---|---|\n"
        "| 2026-12-07 **current** | 3.1 MiB |\n| 2026-12-01 | 3.4 MiB |\n\n## Other\n\n"
        "| date | size |\n|---|---|\n| 2026-12-07 **current** | 9.9 MiB |\n"
    )
    cases = {
        "agrees": ("**3.1 MiB**", "docs/t.md#sizes", True),
        "an old row's value": ("**3.4 MiB**", "docs/t.md#sizes", False),
        "another section's value": ("**9.9 MiB**", "docs/t.md#sizes", False),
        "no bold figure": ("3.1 MiB", "docs/t.md#sizes", False),
        "a missing section": ("**3.1 MiB**", "docs/t.md#nowhere", False),
    }
    failed = []
    for name, (figure, target, good) in cases.items():
        with tempfile.TemporaryDirectory() as root:
            os.mkdir(os.path.join(root, "docs"))
            with open(os.path.join(root, "docs", "t.md"), "w", encoding="utf-8") as f:
                f.write(table)
            with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as f:
                f.write(
                    "# R\n\n## Headline figures\n\n| figure | command | more |\n|---|---|---|\n"
                    f"| the size: {figure} | `make x` | [t]({target}) |\n\n## Next\n"
                )
            with open(os.devnull, "w") as quiet:
                stdout, sys.stdout = sys.stdout, quiet
                try:
                    ok = check(root)
                finally:
                    sys.stdout = stdout
            if ok != good:
                failed.append(name)
    if failed:
        print("self-test failed: " + ", ".join(failed))
        return False
    print(f"self-test: {len(cases)} made-up READMEs judged as expected")
    return True


def main(argv):
    if argv[1:] == ["--self-test"]:
        return 0 if self_test() else 1
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    return 0 if check(root) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
