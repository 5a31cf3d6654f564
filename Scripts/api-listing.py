#!/usr/bin/python3
"""Turns `swift-api-digester -dump-sdk` JSON into the text listing of a module's public API (API/*.txt).

    Scripts/api-listing.py --demangler SWIFT-DEMANGLE --output-dir DIR DUMP.json…   # writes DIR/MODULE.txt each

Scripts/check-api.sh runs it; see there. One declaration a line, nested under its type by two spaces:

    [static ]KIND SIGNATURE[  { ACCESSORS }][  defaults: LABELS][  @_spi(GROUP)][  ATTRIBUTES]
    struct NetworkPath: Decodable, Encodable, Equatable, …   (a type: its public conformances, sorted)

SIGNATURE is the toolchain's demangling of the declaration's mangled name (swift-demangle, the digester's own
toolchain), which spells what the digester's JSON leaves out: `async`, typed `throws(E)`, `inout`, `@Sendable`,
generic requirements, full type names. The type it is nested in is dropped from the front. Only what a client of
the module sees is listed: the digester marks `package` and internal declarations `isInternal`, and implicit ones
(synthesised `hash(into:)`, `==`, `CodingKeys`, accessors) `implicit`; both are skipped, with everything inside
them, and so is a conformance to a protocol that is hidden in any of the dumps given (a `package` protocol).
Extensions of other modules' types (`Notification.Name`) are listed as `extension TYPE` when they add a public
member; their conformances are the other module's. Lines are sorted within each level (by line, so a declaration's position in its file does not matter),
which makes the listing deterministic and its diffs one line per changed declaration.

Standard library only (python3 of any Debian).
"""

import json
import re
import subprocess
import sys

# Attributes worth a reviewer's eye: they change what a client may do or how it compiles against the declaration.
# The digester's names (DeclAttrKind), spelled as in source.
SHOWN_ATTRIBUTES = {
    "DiscardableResult": "@discardableResult",
    "Frozen": "@frozen",
    "Inlinable": "@inlinable",
    "UsableFromInline": "@usableFromInline",
    "Nonisolated": "nonisolated",
    "Preconcurrency": "@preconcurrency",
    "Available": "@available",
    "Dynamic": "dynamic",
    "Final": "final",
    "Required": "required",
    "Convenience": "convenience",
    "Lazy": "lazy",
    "Mutating": "mutating",
}
# Conformances every type has unless it says otherwise: listed only by their absence (~Copyable).
IMPLIED_CONFORMANCES = ("Copyable", "Escapable")
KINDS = {
    "Func": "func",
    "Constructor": "init",
    "Var": "var",
    "Subscript": "subscript",
    "EnumElement": "case",
    "TypeAlias": "typealias",
    "AssociatedType": "associatedtype",
    "Struct": "struct",
    "Enum": "enum",
    "Class": "class",
    "Protocol": "protocol",
    "Actor": "actor",
    "Macro": "macro",
    "Operator": "operator",
    "PrecedenceGroup": "precedencegroup",
}


def is_listed(node):
    """Whether a client of the module sees this declaration (types used in signatures are not declarations)."""
    kind = node.get("kind", "")
    if kind in ("Import", "Conformance", "Accessor") or kind.startswith("Type") and kind not in ("TypeDecl", "TypeAlias"):
        return False
    if node.get("isInternal") or node.get("implicit"):
        return False
    return not node.get("name", "").startswith("__derived")


def declarations(root):
    """Every listed declaration, as (node, parent node or None), parents before children."""
    found = []

    def walk(node, parent):
        for child in node.get("children", []):
            if is_listed(child):
                found.append((child, parent))
                walk(child, child)

    walk(root, None)
    return found


def demangle(names, demangler):
    """The demangled form of each mangled name, through one swift-demangle process."""
    if not names:
        return {}
    result = subprocess.run([demangler], input="\n".join(names) + "\n", capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    if len(lines) != len(names):
        sys.exit(f"api-listing.py: {demangler} answered {len(lines)} lines for {len(names)} names")
    return dict(zip(names, lines))


def signature(node, parent, spelled):
    """The declaration's signature, its parent's qualified name dropped from the front."""
    text = spelled.get(node.get("mangledName", ""), node.get("printedName", ""))
    prefix = ""
    if text.startswith("static "):
        prefix, text = "static ", text[len("static ") :]
    text = re.sub(r"^\(extension in [^)]*\):", "", text)
    if parent is not None:
        owner = spelled.get(parent.get("mangledName", ""), "")
        if owner and text.startswith(owner + "."):
            text = text[len(owner) + 1 :]
    elif node.get("moduleName") and text.startswith(node["moduleName"] + "."):
        text = text[len(node["moduleName"]) + 1 :]
    # An opaque result demangles as a bare `some`; the JSON names its constraint (`some SwiftUI.View`).
    result = (node.get("children") or [{}])[0]
    if result.get("name") == "OpaqueTypeArchetype" and re.search(r"(->|:) some$", text):
        text = text[: -len("some")] + result.get("printedName", "some")
    if node.get("declKind") == "EnumElement":
        # Demangled as a curried function of the metatype: `name(T.Type) -> (Payload) -> T`, or `name : T`.
        curried = re.match(r"^([^(\s]+)\([^()]*\.Type\) -> (\(.*\)) -> ", text)
        bare = re.match(r"^([^(\s]+)\([^()]*\.Type\) -> [^()]*$", text)
        text = curried.group(1) + curried.group(2) if curried else bare.group(1) if bare else text.split(" : ")[0]
    return prefix, text


def line(node, parent, spelled, hidden):
    """The listing's line for one declaration (without its indentation)."""
    kind = node.get("declKind", node.get("kind", "?"))
    prefix, text = signature(node, parent, spelled)
    if kind == "Constructor":
        head = prefix + text  # the demangled name starts with `init(`
    elif node.get("isExternal"):
        # Another module's type, extended: its members added here are listed, not its own conformances.
        return "extension " + text
    elif kind == "TypeAlias" and node.get("children"):
        head = prefix + "typealias " + text + " = " + node["children"][0].get("printedName", "?")
    else:
        head = prefix + KINDS.get(kind, kind.lower()) + " " + text
    out = [head]
    if node.get("kind") == "TypeDecl":
        conformances = {c["printedName"] for c in node.get("conformances", []) if c.get("usr") not in hidden}
        listed = ["~" + name for name in IMPLIED_CONFORMANCES if name not in conformances]
        listed += sorted(conformances - set(IMPLIED_CONFORMANCES))
        if listed:
            out[0] += ": " + ", ".join(listed)
    if kind in ("Var", "Subscript"):
        accessors = [a["accessorKind"] for a in node.get("accessors", []) if not a.get("isInternal")]
        out.append("{ " + " ".join(a for a in ("get", "set", "_modify", "_read") if a in accessors) + " }")
    if kind in ("Func", "Constructor", "Subscript"):
        labels = re.findall(r"([^(:]*):", node.get("printedName", "").split("(", 1)[-1])
        parameters = node.get("children", [])[1:]
        defaults = [labels[i] if i < len(labels) else str(i) for i, p in enumerate(parameters) if p.get("hasDefaultArg")]
        if defaults:
            out.append("defaults: " + ", ".join(defaults))
    if node.get("spi_group_names"):
        out.append("@_spi(" + ", ".join(sorted(node["spi_group_names"])) + ")")
    attributes = sorted({SHOWN_ATTRIBUTES[a] for a in node.get("declAttributes", []) if a in SHOWN_ATTRIBUTES})
    if node.get("isOpen"):
        attributes.append("open")
    if attributes:
        out.append(" ".join(attributes))
    return "  ".join(out)


def hidden_declarations(dumps):
    """The USRs of every declaration a client cannot see, in any of the dumps: a public type's conformance to a
    `package` protocol is not part of the API."""
    hidden = set()

    def walk(node):
        if node.get("isInternal") and node.get("usr"):
            hidden.add(node["usr"])
        for child in node.get("children", []):
            walk(child)

    for dump in dumps:
        walk(dump["ABIRoot"])
    return hidden


def listing(dump, demangler, hidden):
    """The listing's lines, each level sorted, children under their parent."""
    root = dump["ABIRoot"]
    found = declarations(root)
    names = {n["mangledName"] for n, _ in found if n.get("mangledName")}
    spelled = demangle(sorted(names), demangler)

    def block(node, depth):
        entries = []
        for child in node.get("children", []):
            if not is_listed(child):
                continue
            inner = block(child, depth + 1)
            if child.get("isExternal") and not inner:
                continue  # an extension of another module's type that adds nothing public
            entries.append(["  " * depth + line(child, node if node is not root else None, spelled, hidden)] + inner)
        entries.sort()
        return [text for entry in entries for text in entry]

    return block(root, 0)


def main():
    arguments = sys.argv[1:]
    if len(arguments) < 5 or arguments[0] != "--demangler" or arguments[2] != "--output-dir":
        sys.exit("usage: " + __doc__.strip().splitlines()[2].strip())
    demangler, folder, paths = arguments[1], arguments[3], arguments[4:]
    dumps = []
    for path in paths:
        with open(path, encoding="utf-8") as file:
            dumps.append(json.load(file))
    hidden = hidden_declarations(dumps)
    for dump in dumps:
        module = dump["ABIRoot"]["name"]
        with open(f"{folder}/{module}.txt", "w", encoding="utf-8") as file:
            file.write(f"// The public API of {module}, as Scripts/check-api.sh lists it (--update rewrites this file).\n")
            for text in listing(dump, demangler, hidden):
                file.write(text + "\n")


if __name__ == "__main__":
    main()
