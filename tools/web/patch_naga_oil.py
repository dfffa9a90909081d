#!/usr/bin/env python3
"""A copy of naga_oil for the web page's build whose regular expressions
are regex-lite's (`make web-build`; docs/web.md, "naga_oil's regular
expressions").

naga_oil (Bevy's shader preprocessor) is the page's only user of the regex
crate, which it asks for with its default features: regex's automata, its
literal search and every Unicode table (scripts, general categories, case
folding, segmentation) in the download. Its patterns are short, read
ASCII shader source (identifiers, `#ifdef` lines, the names it decorates)
and use nothing regex-lite lacks: regex-lite, by regex's authors, takes the
same syntax with ASCII-only `\w`, `\s` and `\d`, and its `Regex`,
`Captures`, `Replacer` and `escape` are the same API, so naga_oil's source
compiles unchanged on it; symphonia (the sounds' decoder) already brings it
into the page. Cargo cannot swap a dependency's dependency from outside,
so the build patches naga_oil with this copy: the same source, the one
dependency renamed in its Cargo.toml.

Usage: patch_naga_oil.py <cargo metadata JSON file> <destination folder>

The copy is rewritten only when it differs from what it would be, so that
an unchanged copy keeps its file times and Cargo does not rebuild it.
"""
import json
import pathlib
import shutil
import sys

ASKED = '[dependencies.regex]\nversion = "1.8"\n'
PATCHED = '[dependencies.regex]\npackage = "regex-lite"\nversion = "0.1.6"\n'


def main():
    metadata = json.loads(pathlib.Path(sys.argv[1]).read_text())
    destination = pathlib.Path(sys.argv[2])
    found = [p for p in metadata["packages"] if p["name"] == "naga_oil"]
    if len(found) != 1:
        sys.exit(f"patch_naga_oil: expected one naga_oil package, found {len(found)}")
    package = found[0]
    source = pathlib.Path(package["manifest_path"]).parent
    manifest = (source / "Cargo.toml").read_text()
    if ASKED not in manifest:
        sys.exit(
            f"patch_naga_oil: naga_oil {package['version']} no longer asks for regex as "
            f"{ASKED!r}: look at its Cargo.toml again (tools/web/patch_naga_oil.py)"
        )
    patched = manifest.replace(ASKED, PATCHED)
    stamp = destination / ".patched-from"
    if stamp.exists() and stamp.read_text() == str(source) and \
            (destination / "Cargo.toml").read_text() == patched:
        return
    if destination.exists():
        shutil.rmtree(destination)
    shutil.copytree(source, destination)
    (destination / "Cargo.toml").write_text(patched)
    stamp.write_text(str(source))
    print(f"naga_oil {package['version']} patched in {destination}")


if __name__ == "__main__":
    main()
