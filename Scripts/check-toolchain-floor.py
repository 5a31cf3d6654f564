#!/usr/bin/python3
"""Keeps the declared toolchain floor true: nothing in the sources needs a newer Swift than Package.swift declares.

Only Swift 6.3 is on the machines that run CI, so a feature of a newer Swift than the declared
`swift-tools-version` compiles here and breaks every older toolchain the package claims (Swift 6.0 and 6.1 rejected
the `weak let` of NetworkMonitor+Receiving.swift while the package said 6.0). This gate reads the floor from
Package.swift and fails, naming file and line, on each use of a language or library feature newer than it, from the
table below (each feature with the Swift Evolution proposal that brought it and the first Swift that has it).
Comments and string literals do not count. It also checks that the podspec, the README, GettingStarted and the Apple
workflow name the same floor.

  Scripts/check-toolchain-floor.py              the gate (exit 1 naming each use, 0 when none)
  Scripts/check-toolchain-floor.py --self-test  shows it failing on each feature above a 6.0 floor, and passing
                                                 the same sources at 6.2 but for the newer ones
"""

import pathlib
import re
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from swift_source import code_only  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
# What the gate reads: everything built from this repository with the package's toolchain.
FOLDERS = ["Sources", "Tests", "Benchmarks", "Fuzz", "Examples"]
# The stand-in SDK's modules stand for Apple's frameworks, built with the same toolchain: included.

# (first Swift with it, what it is, the pattern in code). Versions are the proposals' "Implemented (Swift X.Y)".
# A feature newer than the newest Swift listed here is marked "newer than 6.2": any floor at or below 6.2 rejects it.
FEATURES = [
    ((6, 1), "`nonisolated` on a type or extension (SE-0449)",
     r"^\s*(?:public\s+|package\s+|internal\s+|fileprivate\s+|private\s+)?nonisolated\s+"
     r"(?:final\s+)?(?:class|struct|enum|actor|extension|protocol)\b"),
    ((6, 2), "`weak let` (SE-0481)", r"\bweak\s+let\b"),
    ((6, 2), "`nonisolated(nonsending)` (SE-0461)", r"\bnonisolated\s*\(\s*nonsending\s*\)"),
    ((6, 2), "`@concurrent` (SE-0461)", r"@concurrent\b"),
    ((6, 2), "`InlineArray` (SE-0453)", r"\bInlineArray\b"),
    ((6, 2), "the `[N of T]` inline array sugar (SE-0483)", r"\[\s*\d+\s+of\s+[A-Z_]"),
    ((6, 2), "`Span`, `RawSpan`, `MutableSpan`, `UTF8Span`, `OutputSpan` (SE-0447, SE-0467, SE-0464, SE-0485)",
     r"\b(?:Mutable|Raw|MutableRaw|UTF8|Output|OutputRaw)?Span\b"),
    ((6, 2), "`isolated deinit` (SE-0371)", r"\bisolated\s+deinit\b"),
    ((6, 2), "`Task.immediate` and immediate child tasks (SE-0472)",
     r"\bTask\s*(?:<[^>]*>)?\s*\.immediate\b|\baddImmediateTask(?:UnlessCancelled)?\b"),
    ((6, 2), "`Observations` (SE-0475)", r"\bObservations\s*[({]"),
    ((6, 2), "`@abi` (SE-0476)", r"@abi\s*\("),
    ((6, 2), "strict memory safety's `@unsafe` / `@safe` (SE-0458)", r"@(?:unsafe|safe)\b"),
    ((6, 2), "raw identifiers (SE-0451)", r"`[^`\n]*[^A-Za-z0-9_`$][^`\n]*`"),
    ((6, 3), "`@c` (SE-0495)", r"@c\b(?!\w)"),
    ((6, 3), "module selectors `Module::name` (SE-0491)", r"\b[A-Z]\w*::[A-Za-z_]"),
]


def floor_of(package):
    match = re.match(r"//\s*swift-tools-version\s*:\s*(\d+)\.(\d+)", package.read_text())
    if not match:
        sys.exit(f"{package}: no `// swift-tools-version: X.Y` on its first line")
    return int(match.group(1)), int(match.group(2))


def uses(root, floor):
    found = []
    for folder in FOLDERS:
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.swift")):
            if ".build" in path.parts:
                continue
            code = code_only(path.read_text(errors="replace"))
            for number, line in enumerate(code.split("\n"), 1):
                for version, name, pattern in FEATURES:
                    if version > floor and re.search(pattern, line):
                        found.append(f"{path.relative_to(root)}:{number}: {name} needs Swift "
                                     f"{version[0]}.{version[1]}, above the declared floor {floor[0]}.{floor[1]}")
    return found


def declarations(root, floor):
    """The places that name the floor, each checked to name the one Package.swift declares."""
    text = f"{floor[0]}.{floor[1]}"
    problems = []
    checks = [
        ("NetStatus.podspec", rf"swift_versions\s*=\s*\[\s*'{re.escape(text)}'", f"swift_versions = ['{text}']"),
        ("README.md", rf"Swift {re.escape(text)} or later", f"Swift {text} or later"),
        ("Sources/NetStatus/NetStatus.docc/GettingStarted.md", rf"Swift {re.escape(text)} or later",
         f"Swift {text} or later"),
        ("CONTRIBUTING.md", rf"Swift {re.escape(text)}", f"Swift {text}"),
        # The workflow builds with the oldest Xcode that has the floor's Swift (XCODE_FOR_SWIFT) and the newest.
        (".github/workflows/apple.yml", rf"OLDEST_XCODE:\s*\"?{re.escape(XCODE_FOR_SWIFT.get(floor, '?'))}\"?",
         f"OLDEST_XCODE: \"{XCODE_FOR_SWIFT.get(floor, '?')}\""),
    ]
    for name, pattern, wanted in checks:
        path = root / name
        if not path.exists():
            continue
        if not re.search(pattern, path.read_text()):
            problems.append(f"{name}: does not say {wanted}, the floor Package.swift declares")
    return problems


# The first Xcode whose toolchain is that Swift (Xcode's release notes).
XCODE_FOR_SWIFT = {(6, 0): "16.0", (6, 1): "16.3", (6, 2): "26.0"}


def check(root):
    floor = floor_of(root / "Package.swift")
    return floor, uses(root, floor) + declarations(root, floor)


SAMPLES = {
    "`weak let`": "final class R: Sendable { weak let m: AnyObject? = nil }",
    "`nonisolated(nonsending)`": "nonisolated(nonsending) func f() async {}",
    "`@concurrent`": "@concurrent func g() async {}",
    "`InlineArray`": "let a: InlineArray<2, Int> = [1, 2]",
    "`isolated deinit`": "@MainActor final class C { isolated deinit {} }",
    "`Task.immediate`": "func h() { Task.immediate { } }",
    "`Span`": "func s(_ x: Span<UInt8>) {}",
    "`@c`": "@c func exported() {}",
}


def self_test():
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "Sources" / "M").mkdir(parents=True)
        source = root / "Sources" / "M" / "F.swift"
        # What must not count: the names in comments and strings.
        quiet = '// weak let, @concurrent, InlineArray\n/* Task.immediate /* nested */ Span */\nlet t = "weak let @c"\n'
        source.write_text(quiet + "\n".join(SAMPLES.values()) + "\n")
        first = quiet.count("\n") + 1
        for tools, newer in (("6.0", set(SAMPLES)), ("6.2", {"`@c`"})):
            (root / "Package.swift").write_text(f"// swift-tools-version: {tools}\n")
            _, found = check(root)
            for offset, name in enumerate(SAMPLES):
                line = f"Sources/M/F.swift:{first + offset}:"
                caught = any(problem.startswith(line) for problem in found)
                if caught != (name in newer):
                    failures.append(f"at {tools}, {name} {'was' if caught else 'was not'} reported: {found}")
            if any(problem.startswith(f"Sources/M/F.swift:{n}:") for n in range(1, first) for problem in found):
                failures.append(f"at {tools}, a comment or a string was reported: {found}")
        # A declaration that names another floor is reported.
        (root / "Package.swift").write_text("// swift-tools-version: 6.2\n")
        (root / "NetStatus.podspec").write_text("s.swift_versions = ['6.0']\n")
        _, found = check(root)
        if not any(problem.startswith("NetStatus.podspec:") for problem in found):
            failures.append(f"a podspec naming 6.0 under a 6.2 floor was not reported: {found}")
    if failures:
        print("check-toolchain-floor: self-test FAILED:\n  " + "\n  ".join(failures), file=sys.stderr)
        return 1
    print(f"check-toolchain-floor: self-test: {len(SAMPLES)} features above a 6.0 floor each reported at its line, "
          "the newer one above 6.2 too, comments and strings not; a podspec naming another floor reported")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    floor, problems = check(ROOT)
    if problems:
        print("check-toolchain-floor: above the declared toolchain (Package.swift: swift-tools-version "
              f"{floor[0]}.{floor[1]}):\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    print(f"check-toolchain-floor: nothing needs a Swift newer than {floor[0]}.{floor[1]}, and every declaration says "
          "so")
    return 0


if __name__ == "__main__":
    sys.exit(main())
