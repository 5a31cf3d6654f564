#!/usr/bin/env python3
"""Every public declaration of the Apple SDK stand-ins has the real SDK's availability, with a cited source.

The Apple build on Linux (Scripts/check-apple-build.sh) enforces the deployment floor only as far as the stand-ins
declare availability: a stand-in symbol without `@available` passes anywhere. This gate reads every public
declaration of the stand-ins (Tests/NetworkStandIn, Tests/AppleSDKStandIn/Modules) and its availability as the
compiler sees it (its own `@available`, else its enclosing type's or extension's, else the extended type's), and
compares it with Tests/AppleSDKStandIn/Availability.md, one row per declaration, each with the Apple page it was
taken from. It fails, naming file and line, on a declaration without a row, a row without a declaration, and an
availability that differs from its row. A row that says "none" records a declaration the SDK itself declares
without availability (as old as the platforms: Dispatch, Darwin's C library, `NSObject`).

    Scripts/check-stand-in-availability.py              check
    Scripts/check-stand-in-availability.py --list       print every declaration and its availability
    Scripts/check-stand-in-availability.py --self-test  show that the gate catches what it must
    … [--module Network,os] [--table FILE]              only these modules; another table
"""

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "Tests/AppleSDKStandIn/Availability.md"
PLATFORMS = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]
# Test hooks of the runtime stand-in are not Apple's API; the files without Apple API at all.
SKIPPED_FILES = {"Package.swift", "StandInConnection.swift"}


def modules(root):
    """(module name, file) for every stand-in source."""
    for path in sorted((root / "Tests/NetworkStandIn").glob("*.swift")):
        if path.name not in SKIPPED_FILES:
            yield "Network", path
    for folder in sorted((root / "Tests/AppleSDKStandIn/Modules").iterdir()):
        for path in sorted(folder.rglob("*.swift")):
            yield folder.name, path


def strip(text):
    """The source with comments and string literals blanked (newlines kept, so line numbers hold)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j - 2]) + '""')
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append('"' + " " * (min(j, n) - i - 1) + '"')
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def parse_version(text):
    match = re.fullmatch(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?", text.strip())
    if not match:
        return None
    major, minor, patch = (int(part) if part else 0 for part in match.groups())
    return f"{major}.{minor}" + (f".{patch}" if patch else "")


def availability(attribute):
    """Platform -> introduced version (or "unavailable") from the text inside one `@available(…)`."""
    parts = [part.strip() for part in attribute.split(",")]
    result = {}
    if not parts or parts[0] == "*":
        return result  # `@available(*, noasync)`, `@available(*, deprecated)`: no platform version
    names = {name.lower(): name for name in PLATFORMS + ["macCatalyst", "OSX", "xrOS"]}
    if len(parts) >= 2 and parts[0].lower() in names and " " not in parts[0]:
        # The long form: `@available(macOS, introduced: 10.15, deprecated: …)` or `@available(iOS, unavailable)`.
        platform = canonical_platform(parts[0])
        for part in parts[1:]:
            if part == "unavailable":
                result[platform] = "unavailable"
            elif part.startswith("introduced:"):
                result[platform] = parse_version(part.split(":", 1)[1])
        return result
    for part in parts:
        if part == "*":
            continue
        name, _, version = part.partition(" ")
        result[canonical_platform(name)] = parse_version(version)
    return result


def canonical_platform(name):
    return {"osx": "macOS", "xros": "visionOS"}.get(name.lower(), next(
        (platform for platform in PLATFORMS + ["macCatalyst"] if platform.lower() == name.lower()), name))


def effective(declared):
    """The five platforms' availability as the compiler derives it; visionOS, when not named, follows iOS."""
    if declared is None or not any(platform in declared for platform in PLATFORMS):
        return "none"  # nothing, or only Mac Catalyst's (which the table does not record)
    values = {platform: declared.get(platform) for platform in PLATFORMS}
    if values["visionOS"] is None and values["iOS"] not in (None, "unavailable"):
        major = int(values["iOS"].split(".")[0])
        values["visionOS"] = "1.0" if major <= 17 else ("2.0" if major == 18 else values["iOS"])
    return ", ".join(f"{platform} {values[platform] or '-'}" for platform in PLATFORMS)


def labels(params):
    """The argument labels of a parameter list's text (without its parentheses)."""
    depth, current, pieces = 0, "", []
    for position, char in enumerate(params):
        if char in "([<":
            depth += 1
        elif char in ")]" or (char == ">" and params[position - 1 : position] != "-"):  # `->` closes nothing
            depth -= 1
        if char == "," and depth == 0:
            pieces.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        pieces.append(current)
    result = ""
    for piece in pieces:
        head = piece.split(":", 1)[0].split()
        head = [word for word in head if not word.startswith("@")]
        result += (head[0] if head else "_") + ":"
    return result


def matching(text, start, open_char, close_char):
    depth = 0
    for index in range(start, len(text)):
        if text[index] == open_char:
            depth += 1
        elif text[index] == close_char:
            depth -= 1
            if depth == 0:
                return index
    return len(text)


DECLARATION = re.compile(
    r"(?P<attrs>(?:@\w+(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?\s+)*)"
    r"(?P<mods>(?:(?:public|open|package|internal|private|fileprivate|final|static|override|mutating|"
    r"class(?=\s+(?:var|let|func|subscript|override|final)\b)|"
    r"nonmutating|nonisolated|convenience|required|indirect|dynamic|lazy|optional|prefix|postfix|infix|"
    r"consuming|borrowing|__consuming)(?:\([^)]*\))?\s+)*)"
    r"(?P<kind>class|struct|enum|protocol|actor|extension|func|macro|init\??|subscript|var|let|typealias|"
    r"associatedtype|case)\b"
)


def declarations(module, path, source=None):
    """Each declaration of one file: (module, name, availability or None, is public, file, line)."""
    text = strip(source if source is not None else path.read_text())
    result = []
    # A stack of scopes: (kind, qualified name, own availability, extended name for extensions, brace depth).
    scopes = []
    depth = 0
    index = 0
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(position):
        low, high = 0, len(line_starts) - 1
        while low < high:
            mid = (low + high + 1) // 2
            if line_starts[mid] <= position:
                low = mid
            else:
                high = mid - 1
        return low + 1

    statement_start = True
    while index < len(text):
        char = text[index]
        if char == "{":
            depth += 1
            index += 1
            statement_start = True
            continue
        if char == "}":
            depth -= 1
            while scopes and scopes[-1][4] > depth:
                scopes.pop()
            index += 1
            statement_start = True
            continue
        if char in "\n;":
            index += 1
            statement_start = True
            continue
        if char.isspace() or not statement_start:
            index += 1
            continue
        statement_start = False
        # Only declarations directly inside a type or an extension, or at the top level, are API.
        in_body = not scopes or scopes[-1][4] == depth
        match = DECLARATION.match(text, index)
        if not match or not in_body or (scopes and scopes[-1][0] == "func"):
            index += 1
            continue
        attrs, mods, kind = match.group("attrs"), match.group("mods"), match.group("kind")
        end = match.end()
        own = None
        for attribute in re.findall(r"@available\(([^()]*)\)", attrs):
            parsed = availability(attribute)
            if parsed:
                own = {**(own or {}), **parsed}
        is_public = bool(re.search(r"\b(public|open)\b", mods)) and "@_spi" not in attrs
        rest = text[end:]
        if kind == "extension":
            name_match = re.match(r"\s*([\w.]+)", rest)
            extended = name_match.group(1) if name_match else "?"
            brace = text.find("{", end)
            where = re.search(r"\bwhere\b([^{]*)", text[end:brace])
            qualified = extended + (f" where {' '.join(where.group(1).split())}" if where else "")
            scopes.append(("extension", qualified, own, extended, depth + 1))
            index = brace
            continue
        scope_name = scopes[-1][3] if scopes and scopes[-1][0] == "extension" else (scopes[-1][1] if scopes else "")
        where_suffix = ""
        if scopes and scopes[-1][0] == "extension" and " where " in scopes[-1][1]:
            where_suffix = scopes[-1][1][len(scopes[-1][3]):]
        if kind in ("class", "struct", "enum", "protocol", "actor"):
            name = re.match(r"\s*`?(\w+)`?", rest).group(1)
            qualified = f"{scope_name}.{name}" if scope_name else name
            result.append((module, qualified, own, is_public, path, line_of(match.start())))
            brace = text.find("{", end)
            scopes.append((kind, qualified, own, qualified, depth + 1))
            index = brace
            continue
        if kind in ("func", "macro", "init", "init?", "subscript"):
            # An operator is its run of operator characters (`<`, `==`), a function its identifier.
            name_match = re.match(r"\s*([-+*/%<>=!&|^~?.]+|`?\w+`?)", rest)
            name = name_match.group(1).strip("`") if kind in ("func", "macro") else kind.rstrip("?")
            open_paren = text.find("(", end)
            close_paren = matching(text, open_paren, "(", ")")
            member = ("#" if kind == "macro" else "") + f"{name}({labels(text[open_paren + 1:close_paren])})"
            body = re.match(r"[^{\n]*\{", text[close_paren:])
            result.append((module, (f"{scope_name}.{member}" if scope_name else member) + where_suffix, own,
                           is_public, path, line_of(match.start())))
            if body:
                brace = close_paren + body.end() - 1
                scopes.append(("func", member, own, member, depth + 1))
                index = brace
            else:
                index = close_paren + 1
            continue
        if kind in ("var", "let", "typealias", "associatedtype"):
            name = re.match(r"\s*`?(\w+)`?", rest).group(1)
            result.append((module, (f"{scope_name}.{name}" if scope_name else name) + where_suffix, own, is_public,
                           path, line_of(match.start())))
            brace_match = re.match(r"[^{=\n]*\{", rest)
            if brace_match:
                scopes.append(("func", name, own, name, depth + 1))
                index = end + brace_match.end() - 1
                continue
            index = end
            continue
        index = end
    return result, scopes


def resolve(items):
    """Each public declaration with its availability as the compiler derives it."""
    by_name = {}
    for module, name, own, _, _, _ in items:
        if own is not None and "(" not in name:
            by_name.setdefault((module, name), own)
    resolved = []
    for module, name, own, is_public, path, line in items:
        if not is_public:
            continue
        # As the compiler does: the enclosing declarations' availability (`A`, then `A.B` for `A.B.c`), narrowed by
        # the declaration's own.
        base = name.split(" where ")[0]
        base = base[: base.index("(")] if "(" in base else base
        parts = base.split(".")[:-1]
        value = {}
        for count in range(1, len(parts) + 1):
            value.update(by_name.get((module, ".".join(parts[:count])), {}))
        value.update(own or {})
        resolved.append((module, name, effective(value or None), path, line))
    return resolved


def with_extension_availability(module, path, source=None):
    """Declarations of a file, members of an annotated extension taking its availability."""
    text = strip(source if source is not None else path.read_text())
    items, _ = declarations(module, path, source)
    # Extensions' own availability: a member without its own takes the innermost annotated extension's.
    extension_ranges = []
    for match in re.finditer(r"((?:@\w+(?:\([^()]*\))?\s+)*)extension\s+([\w.]+)[^{]*\{", text):
        own = None
        for attribute in re.findall(r"@available\(([^()]*)\)", match.group(1)):
            parsed = availability(attribute)
            if parsed:
                own = {**(own or {}), **parsed}
        start = match.end() - 1
        extension_ranges.append((start, matching(text, start, "{", "}"), own))
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    result = []
    for module_name, name, own, is_public, file, line in items:
        position = line_starts[line - 1]
        for start, end, extension_own in extension_ranges:
            if start < position < end and extension_own is not None:
                own = {**extension_own, **(own or {})}
        result.append((module_name, name, own, is_public, file, line))
    return result


def collect(root):
    items = []
    for module, path in modules(root):
        items += with_extension_availability(module, path)
    return resolve(items)


def read_table(path):
    rows = {}
    problems = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 4 or cells[0] in ("Module", "") or set(cells[0]) <= set("-: "):
            continue
        module, name, value, source = cells
        name = name.strip("`").replace("\\|", "|")
        if not re.search(r"https://developer\.apple\.com/\S+", source):
            problems.append(f"{path.name}:{number}: {module} {name}: no developer.apple.com source")
        key = (module, name)
        if key in rows:
            problems.append(f"{path.name}:{number}: {module} {name}: a second row")
        rows[key] = (value, number)
    return rows, problems


def check(root, table, only=None):
    declared = [item for item in collect(root) if only is None or item[0] in only]
    rows, problems = read_table(table)
    rows = {key: value for key, value in rows.items() if only is None or key[0] in only}
    seen = set()
    for module, name, value, path, line in declared:
        key = (module, name)
        where = f"{path.relative_to(root)}:{line}"
        if key not in rows:
            problems.append(f"{where}: {module} {name} ({value}) has no row in {table.name}")
            continue
        seen.add(key)
        expected, number = rows[key]
        if expected != value:
            problems.append(f"{where}: {module} {name} is available {value}; {table.name}:{number} says {expected}")
    for key, (_, number) in rows.items():
        if key not in seen:
            problems.append(f"{table.name}:{number}: {key[0]} {key[1]} is declared by no stand-in")
    return declared, problems


def self_test():
    """A copy of the stand-ins with one fault at a time: each must be caught."""
    import shutil

    failures = 0
    faults = [
        ("an annotation removed", "Tests/AppleSDKStandIn/Modules/os/OSAllocatedUnfairLock.swift",
         "@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)\n@frozen", "@frozen",
         "OSAllocatedUnfairLock"),
        ("a version changed", "Tests/NetworkStandIn/NWPathMonitor.swift",
         "macOS 10.14,", "macOS 10.15,", "NWPathMonitor"),
        ("a public declaration added without one", "Tests/NetworkStandIn/NWPath.swift",
         "public struct NWPath:", "public var unannotatedForTheSelfTest: Int { 0 }\npublic struct NWPath:",
         "unannotatedForTheSelfTest"),
    ]
    for what, file, old, new, expected in faults:
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch)
            for folder in ("Tests/NetworkStandIn", "Tests/AppleSDKStandIn"):
                shutil.copytree(ROOT / folder, copy / folder)
            target = copy / file
            text = target.read_text()
            if old not in text:
                print(f"self-test: '{old}' is not in {file}; update the self-test", file=sys.stderr)
                failures += 1
                continue
            target.write_text(text.replace(old, new, 1))
            _, problems = check(copy, copy / "Tests/AppleSDKStandIn/Availability.md")
            if any(expected in problem for problem in problems):
                print(f"self-test: {what}: caught")
            else:
                print(f"self-test: {what}: NOT caught ({problems})", file=sys.stderr)
                failures += 1
    _, problems = check(ROOT, TABLE)
    if problems:
        print("self-test: the stand-ins as committed do not pass; run the check itself", file=sys.stderr)
        failures += 1
    return 1 if failures else 0


def option(argv, name):
    """The value after `name` in argv, or None."""
    return argv[argv.index(name) + 1] if name in argv and argv.index(name) + 1 < len(argv) else None


def main(argv):
    if "--self-test" in argv:
        return self_test()
    only = set(option(argv, "--module").split(",")) if option(argv, "--module") else None
    table = Path(option(argv, "--table")).resolve() if option(argv, "--table") else TABLE
    if "--list" in argv:
        for module, name, value, path, line in collect(ROOT):
            if only is not None and module not in only:
                continue
            print(f"| {module} | `{name.replace('|', chr(92) + '|')}` | {value} | {path.relative_to(ROOT)}:{line} |")
        return 0
    declared, problems = check(ROOT, table, only)
    for problem in problems:
        print(f"check-stand-in-availability.py: {problem}", file=sys.stderr)
    if problems:
        print(f"check-stand-in-availability.py: {len(problems)} problems in {len(declared)} public declarations "
              f"(the rule: Tests/AppleSDKStandIn/README.md, 'Availability')", file=sys.stderr)
        return 1
    print(f"check-stand-in-availability.py: {len(declared)} public stand-in declarations have the SDK's availability")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
