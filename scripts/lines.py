#!/usr/bin/env python3
"""Lines of Rust under src/ at a revision: production code and in-module tests.

    scripts/lines.py [REV ...]        (default: HEAD)

A file counts as tests when it is named tests.rs or declared under #[cfg(test)]
(`#[cfg(test)] mod mock;`); in any other file, the lines from `#[cfg(test)]` followed by
`mod tests` to the end of the file are tests. The benchmark side is bench/ (and, before
it moved there, baseline/, history/, stats.rs, machine.rs and report's bench files).
"""
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git(*args):
    return subprocess.run(["git", *args], capture_output=True, text=True, cwd=root,
                          check=True).stdout


# report/'s files that were bench's before they moved to bench/present/.
REPORT_BENCH = {"bench_csv", "compare", "export", "history", "html", "json", "markdown",
                "paired", "plot", "svg", "table"}


def count(rev):
    files = [f for f in git("ls-tree", "-r", "--name-only", rev, "src").split()
             if f.endswith(".rs")]
    texts = {f: git("show", f"{rev}:{f}") for f in files}
    test_files = set()
    for f, t in texts.items():
        for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub(?:\(crate\))?\s+)?mod (\w+);", t):
            d = os.path.dirname(f)
            base = d if os.path.basename(f) in ("mod.rs", "lib.rs") else f[:-3]
            test_files.add(os.path.join(base, m.group(1) + ".rs"))
            test_files.add(os.path.join(base, m.group(1), "mod.rs"))
    prod = test = 0
    by_area = {}
    for f, t in texts.items():
        lines = t.split("\n")[:-1] if t.endswith("\n") else t.split("\n")
        if os.path.basename(f) == "tests.rs" or f in test_files:
            test += len(lines)
            continue
        cut = len(lines)
        for i, line in enumerate(lines[:-1]):
            if line.strip() == "#[cfg(test)]" and re.match(r"\s*(?:pub(?:\(crate\))? )?mod tests\b", lines[i + 1]):
                cut = i
                break
        prod += cut
        test += len(lines) - cut
        area = f.split("/")[1].removesuffix(".rs")
        if area == "report" and os.path.basename(f)[:-3] in REPORT_BENCH:
            area = "bench"
        by_area[area] = by_area.get(area, 0) + cut
    return prod, test, by_area


for rev in sys.argv[1:] or ["HEAD"]:
    prod, test, by_area = count(rev)
    bench_side = sum(by_area.get(a, 0) for a in ("bench", "baseline", "history", "stats",
                                                 "machine"))
    print(f"{rev}: src {prod + test} lines: production {prod}, in-module tests {test}; "
          f"bench side {bench_side}, report {by_area.get('report', 0)}")
