#!/usr/bin/env python3
"""Follows every relative link and image in the handbook and fails on a broken one.

    python3 tools/check_links.py [ROOT]       check README.md, CHANGELOG.md, docs/**/*.md
    python3 tools/check_links.py --self-test  prove it finds broken links (a made-up tree)

Reads Markdown links and images (`[text](target)`, `![alt](target)`,
reference definitions `[ref]: target`) and HTML `<img src=…>` / `<a href=…>`,
outside fenced code blocks and inline code. Absolute URLs (`scheme:`, `//…`)
are skipped. A relative target is resolved against the file's folder (one
starting with `/` against ROOT) and must exist; a `#anchor` (alone, or after
a `.md` file) must be the GitHub slug of a heading of that file, or an HTML
`id`/`name` in it. Prints one `file:line: …` line per broken link, then
`N links checked, M broken`; exits 1 when M > 0. Standard library only.
"""

import os
import re
import sys
import tempfile
import unicodedata
from urllib.parse import unquote

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
INLINE_CODE = re.compile(r"(`+)(?:.+?)\1")
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
MD_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)"
)
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_LINK = re.compile(
    r"<(?:img|a)\b[^>]*?\b(?:src|href)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+))",
    re.IGNORECASE,
)
HTML_ID = re.compile(r"<[^>]+\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def code_free_lines(text):
    """The file's lines with fenced blocks blanked and inline code removed,
    each as (line number, text, inside a fence, the line as written)."""
    out = []
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            out.append((number, "", True, line))
            continue
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip()[len(m.group(1)):].strip():
                fence = None
            out.append((number, "", True, line))
            continue
        out.append((number, INLINE_CODE.sub("", line), False, line))
    return out


def heading_text(raw):
    """What GitHub renders for a heading's inline Markdown."""
    t = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    t = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", t)
    t = re.sub(r"<[^>]+>", "", t)
    t = t.replace("`", "")
    t = re.sub(r"(\*+|(?<!\w)_+|_+(?!\w))", "", t)
    return t.strip()


def slug(text):
    """GitHub's heading anchor: lowercase; letters (any script), marks,
    digits, `-` and `_` kept, each space a `-`, everything else dropped."""
    out = []
    for ch in text.lower():
        if ch == " ":
            out.append("-")
        elif ch in "-_" or unicodedata.category(ch)[0] in "LMN":
            out.append(ch)
    return "".join(out)


def anchors(path, cache={}):
    """Every anchor a Markdown file offers: its headings' slugs (with
    GitHub's -1, -2 for repeats) and its HTML ids and names."""
    if path in cache:
        return cache[path]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = set()
    seen = {}
    lines = code_free_lines(text)
    previous = None
    for number, line, in_fence, raw in lines:
        heading = None
        # A heading's anchor keeps the words of its inline code.
        m = ATX.match(raw) if not in_fence else None
        if m:
            heading = m.group(2) or ""
        elif not in_fence and previous is not None and SETEXT.match(raw) and previous.strip() \
                and not previous.lstrip().startswith(("|", "-", "*", ">")):
            heading = previous
        if heading is not None:
            base = slug(heading_text(heading))
            n = seen.get(base, 0)
            found.add(base if n == 0 else f"{base}-{n}")
            seen[base] = n + 1
        for m in HTML_ID.finditer(line):
            found.add(m.group(1))
        previous = None if in_fence else raw
    cache[path] = found
    return found


def targets(text):
    """(line number, target) for every link and image outside code."""
    for number, line, in_fence, _ in code_free_lines(text):
        if in_fence:
            continue
        for m in MD_LINK.finditer(line):
            yield number, m.group(1)
        m = REF_DEF.match(line)
        if m:
            yield number, m.group(1)
        for m in HTML_LINK.finditer(line):
            yield number, next(g for g in m.groups() if g is not None)


def check_file(root, path):
    """(links checked, [problems]) for one Markdown file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    checked = 0
    problems = []
    rel = os.path.relpath(path, root)
    for number, target in targets(text):
        target = target.strip()
        if target.startswith("<") and target.endswith(">"):
            target = target[1:-1].strip()
        if not target or SCHEME.match(target) or target.startswith("//"):
            continue
        checked += 1
        link, _, fragment = target.partition("#")
        link = unquote(link)
        fragment = unquote(fragment)
        if link:
            base = root if link.startswith("/") else os.path.dirname(path)
            resolved = os.path.normpath(os.path.join(base, link.lstrip("/") if link.startswith("/") else link))
            if not os.path.exists(resolved):
                problems.append(f"{rel}:{number}: broken link: {target} (no file {os.path.relpath(resolved, root)})")
                continue
        else:
            resolved = path
        if fragment and os.path.isfile(resolved) and resolved.endswith(".md"):
            offered = anchors(resolved)
            if fragment not in offered and fragment.lower() not in offered:
                problems.append(
                    f"{rel}:{number}: broken anchor: {target} "
                    f"(no heading #{fragment} in {os.path.relpath(resolved, root)})"
                )
    return checked, problems


def markdown_files(root):
    files = [os.path.join(root, name) for name in ("README.md", "CHANGELOG.md")]
    files = [f for f in files if os.path.isfile(f)]
    docs = os.path.join(root, "docs")
    for folder, subfolders, names in os.walk(docs):
        subfolders.sort()
        files.extend(os.path.join(folder, n) for n in sorted(names) if n.endswith(".md"))
    return files


def check(root):
    """Checks the tree at root; returns (links checked, problems)."""
    total = 0
    problems = []
    for path in markdown_files(root):
        n, p = check_file(root, path)
        total += n
        problems.extend(p)
    return total, problems


def report(root):
    total, problems = check(root)
    for p in problems:
        print(p)
    print(f"{total} links checked, {len(problems)} broken")
    return 1 if problems else 0


def self_test():
    """A made-up tree with good links, one missing file, one missing image,
    one broken anchor, and broken links inside code (which must not count)."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs", "rules"))
        with open(os.path.join(root, "docs", "pic.png"), "wb") as f:
            f.write(b"\x89PNG")
        with open(os.path.join(root, "docs", "rules", "chushogi.md"), "w", encoding="utf-8") as f:
            f.write("# 中将棋 rules\n\n## The rule profiles: JCSA and lishogi\n\n## 先獅子 (`jcsa`)\n\n"
                    "## Twice\n\n## Twice\n\nBack: [index](../README.md#handbook--ハンドブック).\n")
        with open(os.path.join(root, "docs", "README.md"), "w", encoding="utf-8") as f:
            f.write("# Handbook — ハンドブック\n\n"
                    "- [profiles](rules/chushogi.md#the-rule-profiles-jcsa-and-lishogi)\n"
                    "- [先獅子](rules/chushogi.md#先獅子-jcsa) and [the second](rules/chushogi.md#twice-1)\n"
                    "- ![a picture](pic.png \"title\") <img src=\"pic.png\" alt=\"x\">\n"
                    "- [here](#handbook--ハンドブック) [web](https://example.org/x.md#nothing) "
                    "[mail](mailto:someone@example.org)\n"
                    "- [missing](rules/missing.md)\n"
                    "- [bad anchor](rules/chushogi.md#no-such-heading)\n"
                    "- <img src=\"gone.png\">\n"
                    "- `[in code](nowhere.md)`\n\n"
                    "```\n[in a fence](nowhere.md)\n```\n")
        with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as f:
            f.write("# Front\n\n[Handbook](docs/README.md) ![pic](docs/pic.png)\n")
        total, problems = check(root)
        found = sorted(p.split(": ", 2)[1] + ": " + p.split(": ", 2)[2].split(" ")[0] for p in problems)
        expected = sorted([
            "broken link: rules/missing.md",
            "broken anchor: rules/chushogi.md#no-such-heading",
            "broken link: gone.png",
        ])
        ok = found == expected and total == 12
        for p in problems:
            print("  found:", p)
        print(f"self-test: {total} links checked, {len(problems)} broken "
              f"(expected 12 checked, 3 broken: a missing file, a missing image, a missing anchor)")
        if not ok:
            print("self-test FAILED: expected", expected, "got", found)
            return 1
        print("self-test passed")
        return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return report(os.path.abspath(root))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
