#!/usr/bin/env python3
"""Every public declaration of the Apple SDK stand-ins has the real SDK's availability, with a cited source.

The Apple build on Linux (Scripts/check-apple-build.sh) enforces the deployment floor only as far as the stand-ins
declare availability: a stand-in symbol without `@available` passes anywhere. This gate reads every public
declaration of the stand-ins (Tests/NetworkStandIn, Tests/AppleSDKStandIn/Modules; enum cases and protocol
requirements included) and its availability as the compiler derives it (its type's or extension's, narrowed by its
own), and compares it with Tests/AppleSDKStandIn/Availability.md, one row per declaration, each with the Apple page
it was checked against. It fails, naming file and line, on a declaration without a row, a row without a
declaration, an availability that differs from its row, and a `public`/`open` it cannot read. A row that says
"none" records a declaration whose page gives no version (Dispatch's types, AppKit's `NSWorkspace`, Darwin's C
library).

    Scripts/check-stand-in-availability.py              check
    Scripts/check-stand-in-availability.py --list       print every declaration and its availability
    Scripts/check-stand-in-availability.py --self-test  show that the gate catches what it must
    … [--module Network,os] [--table FILE]              only these modules; another table
"""

import bisect
import re
import signal
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from swift_source import code_only  # noqa: E402

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
    """The five platforms' availability as the compiler derives it (visionOS, when not named, follows iOS), and Mac
    Catalyst's when the declaration names it."""
    if declared is None:
        return "none"
    catalyst = f"; macCatalyst {declared['macCatalyst']}" if "macCatalyst" in declared else ""
    if not any(platform in declared for platform in PLATFORMS):
        return "none" + catalyst
    values = {platform: declared.get(platform) for platform in PLATFORMS}
    if values["visionOS"] is None and values["iOS"] not in (None, "unavailable"):
        major = int(values["iOS"].split(".")[0])
        values["visionOS"] = "1.0" if major <= 17 else ("2.0" if major == 18 else values["iOS"])
    return ", ".join(f"{platform} {values[platform] or '-'}" for platform in PLATFORMS) + catalyst


def parameters(params):
    """The parameters of a parameter list's text (without its parentheses), each as (label, type)."""
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
    result = []
    for piece in pieces:
        head, _, kind = piece.partition(":")
        words = [word for word in head.split() if not word.startswith("@")]
        kind = re.split(r"\s=\s", kind, maxsplit=1)[0]
        result.append((words[0] if words else "_", " ".join(kind.split())))
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


ACCESS = r"public|open|package|internal|private|fileprivate"
DECLARATION = re.compile(
    r"(?P<attrs>(?:@\w+(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?\s+)*)"
    r"(?P<mods>(?:(?:" + ACCESS + r"|final|static|override|mutating|nonmutating|nonisolated|convenience|required|"
    r"indirect|dynamic|lazy|optional|prefix|postfix|infix|consuming|borrowing|__consuming|weak|unowned|"
    r"class(?=\s+(?:var|let|func|subscript|override|final)\b))(?:\([^)]*\))?\s+)*)"
    r"(?P<kind>class|struct|enum|protocol|actor|extension|func|macro|init\??|subscript|var|let|typealias|"
    r"associatedtype|case)\b"
)
# `public` or `open` as a modifier (not `open(` the function): every one must belong to a declaration read here.
MODIFIER = re.compile(r"\b(public|open)\s+(?=[@\w])")


def merged(*availabilities):
    """Availability narrowed outer to inner; None when nothing says any."""
    result = {}
    for value in availabilities:
        result.update(value or {})
    return result or None


def declarations(module, path):
    """Each declaration of one file, as a dict: module, name, typed name, availability (its own narrowing that of the
    scopes around it), the type it belongs to (for the type's own, possibly declared elsewhere), public, file, line;
    and the lines holding a `public`/`open` modifier that no declaration read here accounts for."""
    text = code_only(path.read_text())
    result = []
    scopes = []  # dicts: kind, name (a type's qualified name; an extension's extended type), where, own, public, depth
    depth = 0
    index = 0
    covered = set()
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(position):
        return bisect.bisect_right(line_starts, position)

    def cover(start, end):
        covered.update(range(line_of(start), line_of(end) + 1))

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
            while scopes and scopes[-1]["depth"] > depth:
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
        in_body = not scopes or scopes[-1]["depth"] == depth
        match = DECLARATION.match(text, index)
        if not match or not in_body or (scopes and scopes[-1]["kind"] == "func"):
            index += 1
            continue
        attrs, mods, kind = match.group("attrs"), match.group("mods"), match.group("kind")
        end = match.end()
        own = None
        for attribute in re.findall(r"@available\(([^()]*)\)", attrs):
            parsed = availability(attribute)
            if parsed:
                own = {**(own or {}), **parsed}
        scope = scopes[-1] if scopes else None
        # Public: said so, or implied by a public protocol (its requirements), a `public extension` (its members) or a
        # public enum (its cases); test hooks (`@_spi`) are not Apple's API.
        access = re.search(r"\b(" + ACCESS + r")\b", mods)
        implied = scope is not None and scope["public"] and (
            scope["kind"] == "protocol" or (scope["kind"] == "extension" and scope["explicit"])
            or (scope["kind"] == "enum" and kind == "case"))
        is_public = (access.group(1) in ("public", "open") if access else implied) and "@_spi" not in attrs
        context = merged(*(outer["own"] for outer in scopes))
        rest = text[end:]
        if kind == "extension":
            name_match = re.match(r"\s*([\w.]+)", rest)
            extended = name_match.group(1) if name_match else "?"
            brace = text.find("{", end)
            where = re.search(r"\bwhere\b([^{]*)", text[end:brace])
            cover(match.start(), brace)
            scopes.append({"kind": "extension", "name": extended, "own": own, "public": is_public,
                           "explicit": bool(access), "depth": depth + 1,
                           "where": f" where {' '.join(where.group(1).split())}" if where else ""})
            index = brace
            continue
        scope_name = scope["name"] if scope else ""
        where_suffix = scope["where"] if scope else ""
        prefix = f"{scope_name}." if scope_name else ""

        def record(name, typed=None, start=match.start(), stop=end):
            result.append({"module": module, "name": prefix + name + where_suffix,
                           "typed": prefix + (typed or name) + where_suffix, "own": merged(context, own),
                           "type": scope_name, "public": is_public, "path": path, "line": line_of(start)})
            cover(start, stop)

        if kind in ("class", "struct", "enum", "protocol", "actor"):
            name = re.match(r"\s*`?(\w+)`?", rest).group(1)
            brace = text.find("{", end)
            record(name, stop=brace)
            scopes.append({"kind": kind, "name": prefix + name, "own": own, "public": is_public, "explicit": False,
                           "depth": depth + 1, "where": ""})
            index = brace
            continue
        if kind == "case":
            if scope is None or scope["kind"] != "enum":
                index = end
                continue
            stop = text.find("\n", end)
            stop = len(text) if stop < 0 else stop
            names = re.findall(r"(?:^|,)\s*`?(\w+)`?", re.sub(r"\([^()]*\)|=[^,]*", "", text[end:stop]))
            for name in names:
                record(name, stop=stop)
            index = stop
            continue
        if kind in ("func", "macro", "init", "init?", "subscript"):
            # An operator is its run of operator characters (`<`, `==`), a function its identifier.
            name_match = re.match(r"\s*([-+*/%<>=!&|^~?.]+|`?\w+`?)", rest)
            name = name_match.group(1).strip("`") if kind in ("func", "macro") else kind.rstrip("?")
            open_paren = text.find("(", end)
            close_paren = matching(text, open_paren, "(", ")")
            found = parameters(text[open_paren + 1:close_paren])
            head = ("#" if kind == "macro" else "") + name
            record(f"{head}({''.join(label + ':' for label, _ in found)})",
                   f"{head}({', '.join(f'{label}: {kind_}' for label, kind_ in found)})", stop=close_paren)
            body = re.match(r"[^{\n]*\{", text[close_paren:])
            if body:
                scopes.append({"kind": "func", "name": name, "own": own, "public": False, "explicit": False,
                               "depth": depth + 1, "where": ""})
                index = close_paren + body.end() - 1
            else:
                index = close_paren + 1
            continue
        if kind in ("var", "let", "typealias", "associatedtype"):
            name_match = re.match(r"\s*`?(\w+)`?", rest)
            if not name_match:  # a pattern (`let (a, b) = …`): left unread, so reported
                index = end
                continue
            name = name_match.group(1)
            record(name)
            brace_match = re.match(r"[^{=\n]*\{", rest)
            if brace_match:
                scopes.append({"kind": "func", "name": name, "own": own, "public": False, "explicit": False,
                               "depth": depth + 1, "where": ""})
                index = end + brace_match.end() - 1
                continue
            index = end
            continue
        index = end
    unread = [line_of(m.start()) for m in MODIFIER.finditer(text) if line_of(m.start()) not in covered]
    return result, unread


def resolve(items):
    """Each public declaration with its availability as the compiler derives it; overloads that share their labels
    are told apart by their parameters' types."""
    types = {(item["module"], item["name"]): item["own"] for item in items if "(" not in item["name"]}
    names = [(item["module"], item["name"]) for item in items if item["public"]]
    resolved = []
    for item in items:
        if not item["public"]:
            continue
        # A member of an extension takes the extended type's availability (its own type, `A` then `A.B`), narrowed
        # by the extension's and its own.
        parts = item["type"].split(".") if item["type"] else []
        outer = [types.get((item["module"], ".".join(parts[:count]))) for count in range(1, len(parts) + 1)]
        value = merged(*outer, item["own"])
        name = item["typed"] if names.count((item["module"], item["name"])) > 1 else item["name"]
        resolved.append((item["module"], name, effective(value), item["path"], item["line"]))
    return resolved


def collect(root, problems=None):
    items = []
    for module, path in modules(root):
        found, unread = declarations(module, path)
        items += found
        for line in unread:
            if problems is not None:
                problems.append(f"{path.relative_to(root)}:{line}: a public declaration this gate cannot read "
                                "(give it its own line: attributes, modifiers, keyword, name)")
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
    rows, problems = read_table(table)
    declared = [item for item in collect(root, problems) if only is None or item[0] in only]
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
    """A copy of the stand-ins with one fault at a time: each must be reported, at its place, as what it is."""
    import shutil

    failures = 0
    network = "Tests/NetworkStandIn"
    modules_dir = "Tests/AppleSDKStandIn/Modules"
    # (what, file, old text, new text (None: appended at the end), the report expected)
    faults = [
        ("a type's annotation removed", f"{modules_dir}/os/OSAllocatedUnfairLock.swift",
         "@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)\n@frozen", "@frozen",
         "os OSAllocatedUnfairLock is available none;"),
        ("a version changed", f"{network}/NWPathMonitor.swift", "macOS 10.14,", "macOS 10.15,",
         "Network NWPathMonitor is available macOS 10.15,"),
        ("a public declaration added without one", f"{network}/NWPath.swift", None,
         "public var unannotatedForTheSelfTest: Int { 0 }", "Network unannotatedForTheSelfTest (none) has no row"),
        ("an enum case's annotation removed", f"{modules_dir}/UIKit/UIView.swift",
         "    @available(iOS 13.0, *)\n    @available(tvOS, unavailable)\n    case insetGrouped", "    case insetGrouped",
         "UIKit UITableView.Style.insetGrouped is available macOS -, iOS 2.0"),
        ("a protocol requirement added", f"{modules_dir}/UIKit/UIScene.swift",
         "  var window: UIWindow? { get set }", "  var window: UIWindow? { get set }\n  func addedForTheSelfTest()",
         "UIKit UIWindowSceneDelegate.addedForTheSelfTest() ("),
        ("Mac Catalyst's unavailability removed", f"{modules_dir}/AppKit/NSWorkspace.swift",
         "@available(macCatalyst, unavailable)\n", "", "AppKit NSWorkspace is available none;"),
        ("an overload added with the same labels", f"{network}/NWPath.swift", None,
         "extension NWPath {\n  public func usesInterfaceType(_ name: String) -> Bool { false }\n}",
         "Network NWPath.usesInterfaceType(_: String) ("),
        ("a public declaration the gate cannot read", f"{network}/NWPath.swift", None,
         "public let (unreadableA, unreadableB) = (1, 2)", "a public declaration this gate cannot read"),
    ]
    for what, file, old, new, expected in faults:
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch)
            for folder in ("Tests/NetworkStandIn", "Tests/AppleSDKStandIn"):
                shutil.copytree(ROOT / folder, copy / folder)
            target = copy / file
            text = target.read_text()
            if old is not None and old not in text:
                print(f"self-test: '{old}' is not in {file}; update the self-test", file=sys.stderr)
                failures += 1
                continue
            target.write_text(text.replace(old, new, 1) if old is not None else text + "\n" + new + "\n")
            _, problems = check(copy, copy / "Tests/AppleSDKStandIn/Availability.md")
            caught = [problem for problem in problems if problem.startswith(file) and expected in problem]
            if caught:
                print(f"self-test: {what}: caught ({caught[0][:100]}…)")
            else:
                print(f"self-test: {what}: NOT caught as '{expected}' in {file} ({problems})", file=sys.stderr)
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
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `--list | head` ends quietly
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
