#!/usr/bin/python3
"""Compiles every ```swift block of README.md and of the DocC articles (Sources/*/*.docc/*.md).

    Scripts/check-doc-samples.py                          Linux: against the package's debug build (swift build)
    Scripts/check-doc-samples.py DOCUMENT …               the same, for some documents only (paths from the root)
    Scripts/check-doc-samples.py --apple SDK TRIPLE BIN   an Apple platform: against the stand-in SDK's build
                                                          (Scripts/check-apple-build.sh runs this for each platform)
    Scripts/check-doc-samples.py --self-test              shows that a broken sample fails the check

A block is compiled as written, to an object file (type-checked and checked as the compiler checks any code; not
linked or run), in Swift 6 language mode, against the library's modules. Errors name the document and its line
(`#sourceLocation`). The convention, for the line before a block (CONTRIBUTING.md, "Code samples in the docs"):

    (no marker)                       statements: the body of an `async throws` function on the main actor
    <!-- sample: declarations -->     declarations at file scope (a type, an `@main` app, an extension)
    <!-- sample: apple -->            Apple platforms only (SwiftUI, Combine): compiled in the Apple stand-in build
    <!-- sample: linux -->            Linux only (network namespaces; API the Apple stand-in SDK lacks:
                                      Swift Testing, JSONEncoder)
    <!-- sample: manifest -->         the arguments of a Package.swift's `Package(...)`, loaded by SwiftPM

Words combine (`<!-- sample: apple declarations -->`). Each block is a file of its own, compiled with exactly the
imports it shows, and with the upcoming feature MemberImportVisibility, so that nothing another file imports leaks into
it: a block that uses Foundation (NotificationCenter, JSONEncoder) must show `import Foundation`, and one that uses
ScriptedPathSource `import NetStatusTesting` (a module of the builds compiled against: Linux's, and the Apple build's,
which compiles it). A block without any `import` line continues a file of the reader's that imports NetStatus (the pages are about it): it gets `import
NetStatus`, and nothing else. Every block may use the names of Scripts/doc-samples/Prelude.swift (the app's own code a
sample calls: `startLargeDownload()`, `monitor`, …) and, for Apple blocks, of Scripts/doc-samples/ApplePrelude.swift.
A warning fails the check, except a value a sample declares to show it and does not use (`let path = …`). Exits
non-zero naming each failure. Scripts/run-doc-samples.py runs the Linux ones.
"""

import concurrent.futures
import glob
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PRELUDE = ROOT / "Scripts" / "doc-samples" / "Prelude.swift"
APPLE_PRELUDE = ROOT / "Scripts" / "doc-samples" / "ApplePrelude.swift"
KINDS = {"declarations", "apple", "linux", "manifest"}
MARKER = re.compile(r"^\s*<!--\s*sample:\s*([a-z ]+?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```swift\s*$")
# Warnings a sample may leave: a value declared to show it, not used.
ALLOWED_WARNING = re.compile(r"was never used|was never mutated|never used; consider replacing")


class Sample:
    def __init__(self, document, line, code, kinds):
        self.document, self.line, self.code, self.kinds = document, line, code, kinds

    @property
    def name(self):
        return f"{self.document}:{self.line}"


def documents():
    found = [ROOT / "README.md"] + sorted(pathlib.Path(p) for p in glob.glob(str(ROOT / "Sources/*/*.docc/*.md")))
    return [path for path in found if path.exists()]


def extract(path):
    """The swift blocks of a document, each with the line of its first line of code and its marker's words."""
    lines = path.read_text().split("\n")
    relative = str(path.relative_to(ROOT))
    samples, problems = [], []
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        indent = fence.group(1)
        previous = next((lines[i] for i in range(index - 1, -1, -1) if lines[i].strip()), "")
        kinds = set()
        marker = MARKER.match(previous)
        if marker:
            kinds = set(marker.group(1).split())
            unknown = kinds - KINDS
            if unknown:
                problems.append(f"{relative}:{index}: unknown sample marker word(s) {sorted(unknown)}; known: {sorted(KINDS)}")
        body, end = [], index + 1
        while end < len(lines) and lines[end].strip() != "```":
            text = lines[end]
            body.append(text[len(indent):] if text.startswith(indent) else text.lstrip())
            end += 1
        samples.append(Sample(relative, index + 2, body, kinds))
        index = end + 1
    return samples, problems


def imports_of(sample):
    """The sample's own import lines, or `import NetStatus` for a block that shows none."""
    own = [line for line in sample.code if re.match(r"^\s*(@\w+\s+)?import\s", line)]
    return own, [line.strip() for line in own] or ["import NetStatus"]


def swift_source(sample, wrap, name):
    """One sample as a file of its own: its imports, then its code, mapped back to its document's lines; with `wrap`,
    the body of `@MainActor func NAME() async throws`."""
    own, imports = imports_of(sample)
    code = ["" if line in own else line for line in sample.code]
    if wrap:
        # The opening line shares the sample's first line, so that line numbers stay the document's.
        code[0] = f"@MainActor func {name}() async throws {{ " + (code[0] if code else "")
        code.append("}")
    parts = imports + [f'#sourceLocation(file: "{sample.document}", line: {sample.line})'] + code
    return "\n".join(parts + ["#sourceLocation()"]) + "\n"


# Each file sees only what it imports (SE-0444), as a reader's file would.
STRICT_IMPORTS = ["-enable-upcoming-feature", "MemberImportVisibility"]


def compile_swift(samples, wrap, compiler_flags, preludes, directory, label):
    sources = []
    for number, sample in enumerate(samples):
        source = pathlib.Path(directory) / f"{label}-{number}.swift"
        source.write_text(swift_source(sample, wrap, f"sample{number}"))
        sources.append(str(source))
    command = ["swiftc", "-c", "-wmo", "-parse-as-library", "-swift-version", "6", "-module-name", "DocSample",
               *STRICT_IMPORTS, *compiler_flags, *sources, *map(str, preludes), "-o",
               str(pathlib.Path(directory) / f"{label}.o")]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    output = result.stdout + result.stderr
    warnings = [line for line in output.splitlines() if ": warning: " in line and not ALLOWED_WARNING.search(line)]
    failed = result.returncode != 0 or warnings
    if not failed:
        return None
    # The diagnostics' first lines, which name the document's line; all of the compiler's output if there are none.
    problems = [line for line in output.splitlines()
                if re.match(r"^\S+:\d+:\d+: (error|warning): ", line) and not ALLOWED_WARNING.search(line)]
    what = samples[0].name if len(samples) == 1 else f"{len(samples)} statement samples"
    return f"{what}:\n" + "\n".join(problems or [output.strip()])


def check_manifest(sample, directory, label):
    package = pathlib.Path(directory) / label
    package.mkdir()
    # The directive cannot stand inside the argument list: it comes two lines before the sample's first line.
    text = ["// swift-tools-version: 6.0", "import PackageDescription",
            f'#sourceLocation(file: "{sample.document}", line: {sample.line - 2})', "let package = Package(",
            '  name: "DocSample",', *sample.code, ")", "#sourceLocation()"]
    (package / "Package.swift").write_text("\n".join(text) + "\n")
    result = subprocess.run(["swift", "package", "--package-path", str(package), "dump-package"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        return f"{sample.name} (manifest):\n{(result.stdout + result.stderr).strip()}"
    return None


def linux_flags():
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    modules = pathlib.Path(bin_path) / "Modules"
    if not (modules / "NetStatus.swiftmodule").exists():
        sys.exit(f"check-doc-samples: {modules}/NetStatus.swiftmodule is missing: run swift build first")
    flags = ["-I", str(modules)]
    # The C module NetStatusCore imports (CNetStatusShim), as SwiftPM names it to a client.
    for modulemap in sorted(pathlib.Path(bin_path).glob("*.build/module.modulemap")):
        flags += ["-Xcc", f"-fmodule-map-file={modulemap}"]
    return flags


def check(samples, platform_flags, apple):
    chosen = [s for s in samples if ("apple" in s.kinds) == apple or (apple and not s.kinds & {"linux", "apple"})]
    chosen = [s for s in chosen if not (apple and "linux" in s.kinds)]
    preludes = [PRELUDE] + ([APPLE_PRELUDE] if apple else [])
    failures = []
    with tempfile.TemporaryDirectory(prefix="doc-samples-") as directory:
        jobs = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            statements = [s for s in chosen if not s.kinds & {"declarations", "manifest"}]
            if statements:
                jobs.append(pool.submit(compile_swift, statements, True, platform_flags, preludes, directory,
                                        "statements"))
            for number, sample in enumerate(s for s in chosen if "declarations" in s.kinds):
                jobs.append(pool.submit(compile_swift, [sample], False, platform_flags, preludes, directory,
                                        f"declarations{number}"))
            if not apple:
                for number, sample in enumerate(s for s in chosen if "manifest" in s.kinds):
                    jobs.append(pool.submit(check_manifest, sample, directory, f"manifest{number}"))
            failures = [job.result() for job in jobs if job.result()]
    return chosen, failures


def self_test():
    """A broken sample must fail the check, naming its document's line; so must a sample that uses what it does not
    import, even when another sample imports it."""
    cases = [
        ("a broken sample", [Sample("self-test.md", 7, ["let monitor = NetworkMonitor(networkNamespace: \"blue\")"
                                                        "  // no try"], {"linux"})], "self-test.md:7:"),
        ("a sample that does not show the import it needs",
         [Sample("self-test.md", 12, ["import Foundation", "import NetStatus", "print(Date())"], {"linux"}),
          Sample("self-test.md", 20, ["print(NotificationCenter.default)"], {"linux"})], "self-test.md:20:"),
    ]
    for what, samples, where in cases:
        _, failures = check(samples, linux_flags(), apple=False)
        errors = [line for failure in failures for line in failure.splitlines()
                  if line.startswith(where) and ": error: " in line]
        if not errors:
            print(f"check-doc-samples: self-test: {what} did not fail at {where} {failures}", file=sys.stderr)
            return 1
        print(f"check-doc-samples: self-test: {what} fails, at its line: {errors[0]}")
    return 0


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        return self_test()
    chosen_documents = [ROOT / a for a in arguments if not a.startswith("-")] if arguments[:1] != ["--apple"] else []
    samples, problems = [], []
    for path in chosen_documents or documents():
        found, wrong = extract(path)
        samples += found
        problems += wrong
    if arguments[:1] == ["--apple"]:
        sdk, triple, bin_path = arguments[1:4]
        flags = ["-target", triple, "-sdk", sdk, "-module-cache-path", f"{sdk}/ModuleCache", "-I",
                 f"{bin_path}/Modules", "-Xfrontend", "-disable-objc-interop",
                 "-plugin-path", f"{sdk}/usr/lib/swift/host/plugins"]
        chosen, failures = check(samples, flags, apple=True)
        where = f"Apple ({triple})"
    else:
        chosen, failures = check(samples, linux_flags(), apple=False)
        where = "Linux"
    for failure in problems + failures:
        print(f"check-doc-samples: {failure}\n", file=sys.stderr)
    if problems or failures:
        print(f"check-doc-samples: {where}: a code sample does not compile (above); see CONTRIBUTING.md, "
              '"Code samples in the docs"', file=sys.stderr)
        return 1
    print(f"check-doc-samples: {where}: {len(chosen)} samples compile "
          f"({len(samples)} swift blocks in {len(documents())} documents)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
