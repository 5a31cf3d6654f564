#!/usr/bin/python3
"""Runs the documentation's samples on a real kernel and checks what they print against the output kept beside them.

    sudo Scripts/run-doc-samples.py              every sample of README.md, the DocC articles and man/netstatus.1
    sudo Scripts/run-doc-samples.py DOCUMENT …   the samples of some documents (paths from the root)
    Scripts/run-doc-samples.py --list            which samples run, and why each of the others does not (no root)
    Scripts/run-doc-samples.py --self-test       shows that a missing, an extra or a wrong line fails a run
    sudo Scripts/run-doc-samples.py --print DOCUMENT …   prints what each Swift sample prints after each action of its
                                                 output comment, to write that comment from (check every line)

What runs (CONTRIBUTING.md, "Code samples in the docs"):

- **Swift samples** of the Markdown documents (Scripts/check-doc-samples.py compiles them all): every block compiled
  for Linux, as the body of an `async` main on the main actor (the main queue runs, as in an app), in a consumer
  package that depends on NetStatus by path (.build-doc-samples) and links its NetStatus and NetStatusTesting
  products, each block a file of its own with exactly the imports it shows; a block that declares `@Test` functions runs as that package's tests. Apple-only blocks (SwiftUI,
  Combine) and manifest fragments stay compile-only, and the run says so.
- **Command transcripts** of man/netstatus.1: every `.EX` block says, in the roff comment before it, whether it runs
  (`.\\" sample: run`) or is shown only, and why (`.\\" sample: shown REASON`). In a block that runs, each `$ COMMAND`
  runs with `sh -c` (the built `netstatus` first in PATH) and the lines after it, up to the next `$`, are its output.
- **Shell blocks** (```sh) of the Markdown documents: the line before one says `<!-- sample: run -->` or
  `<!-- sample: shown REASON -->`; one that runs has its transcript (`$ COMMAND` and output lines) in the comment that
  follows it, as Swift samples have their output.

Expected output, after a Swift or shell block:

    <!-- output
    == start
    a line the sample prints once it runs
    == route-del
    a line it prints after the default route is deleted
    -->

Sections follow the lab's actions in order; within a section, the lines of a Swift sample may come in any order (its
observers run on their own queues); a transcript's come in order. In a transcript an action is a line `== ACTION`
(Markdown) or a roff comment `.\\" sample: ACTION …` (the man page), between output lines. An expected line matches
an output line that is equal, except that `...` stands for any text, a line that is only `...` for any number of lines
(in a transcript), and a date and time (`2026-11-29 15:01:00.732`, `2026-11-30T19:22:47.782113Z`) for any.

The lab: every sample runs in a network namespace of its own (`nstest-docs-…`), which it sees under the names the
documents use (`blue`, `demo`, in a mount namespace of its own) with its own sysfs and a resolver at its gateway. Its
`eth0` (198.51.100.2/24) reaches a peer namespace (198.51.100.1, 2001:db8::1) that answers DNS for the probes' hosts
(connectivity-check.ubuntu.com and nmcheck.gnome.org: 203.0.113.80) and HTTP on 203.0.113.80:80 with 204 No Content
(Tests/Fixtures). The actions: `route-del`, `route-add` (the IPv4 default route), `link-down`, `link-up` (eth0),
`carrier-down`, `carrier-up` (the peer's end), `ipv6-up` (2001:db8::2/64 and a default route through 2001:db8::1),
`vpn-up` (a TUN device, tun0, that routes all IPv4 traffic), `netns-del NAME` (the name goes, as `ip netns del` does),
`interrupt` (SIGINT to the command, as Ctrl-C sends it), `stop` (SIGTERM to it). A transcript's
command must end with status 0, or the one a line `[exit N]` after its output gives (man/netstatus.1, EXIT STATUS:
`watch` stopped by a signal exits 0, `show` and `wait` 130 or 143). A
transcript may show a section's lines in any order with the action `any-order`; `.\\" sample: run names=blue,red`
chooses the names the lab shows (`red`: a namespace with no route).
After each section the run checks that the sample's main queue still answers (a ping it answers from the main actor).
Traffic goes only to the namespaces the run makes. Every wait fails after 30 s.
"""

import concurrent.futures
import importlib.util
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sample_support import WAIT, Failure, LabRun, ScriptedProcess, ip_batch, run  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / ".build-doc-samples"
SCRATCH = ROOT / ".build-consumers"
FIXTURES = ROOT / "Tests" / "Fixtures"
ACTIONS = {"start", "route-del", "route-add", "link-down", "link-up", "carrier-down", "carrier-up", "ipv6-up",
           "vpn-up", "netns-del", "interrupt", "stop"}
NAMES = ("blue", "demo")
# Which of the lab's namespaces each name is: its own (the sample's), or `red`, one with no route.
LAB_NAMES = {"blue": "own", "demo": "own", "red": "red"}

spec = importlib.util.spec_from_file_location("check_doc_samples", ROOT / "Scripts" / "check-doc-samples.py")
samples_module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(samples_module)


# MARK: What the documents say


class Section:
    """What a sample prints after an action (`start` for the first), and whether its lines may come in any order."""

    def __init__(self, actions, lines=None, any_order=False):
        self.actions, self.lines, self.any_order = actions, lines or [], any_order


class Expected:
    """A sample's expected output: its sections, the first after `start`; `exit`, a transcript's expected status."""

    def __init__(self, sections):
        self.sections = sections

    @staticmethod
    def parse(text, where):
        sections = [Section(["start"])]
        for line in text.split("\n"):
            if line.startswith("== "):
                actions = line[3:].split()
                if actions == ["any-order"]:
                    sections[-1].any_order = True
                    continue
                if not actions or actions[0] not in ACTIONS:
                    raise Failure(f"{where}: unknown action in '{line}'; known: {sorted(ACTIONS)} and any-order")
                if actions == ["start"]:
                    continue
                sections.append(Section(actions))
            elif line.strip():
                sections[-1].lines.append(line)
        return Expected(sections)


class Sample:
    """One block of a document: a Swift sample, or a transcript of commands."""

    def __init__(self, document, line, kind, code=None, expected=None, not_run=None, names=NAMES, commands=None):
        self.document, self.line, self.kind = document, line, kind
        self.code, self.expected, self.not_run = code, expected, not_run
        # The namespace names the lab shows; for a Markdown shell block, the commands it shows.
        self.names, self.commands = names, commands

    @property
    def name(self):
        return f"{self.document}:{self.line}"


OUTPUT_OPEN = re.compile(r"^\s*<!--\s*output\b(.*)$")
SH_MARKER = re.compile(r"^\s*<!--\s*sample:\s*(run|shown)\b\s*(.*?)\s*-->\s*$")


def run_options(text, where):
    """The names a `run` marker asks for (`names=blue,red`); the lab's default names otherwise."""
    names = NAMES
    for word in text.split():
        if word.startswith("names="):
            names = tuple(word[len("names="):].split(","))
            if not set(names) <= set(LAB_NAMES):
                raise Failure(f"{where}: the lab has the names {sorted(LAB_NAMES)}, not {names}")
        else:
            raise Failure(f"{where}: unknown run option '{word}' (names=A,B)")
    return names


def output_after(lines, index, where):
    """The `<!-- output … -->` comment after the block that ends at `index`, or None."""
    after = index + 1
    while after < len(lines) and not lines[after].strip():
        after += 1
    if after >= len(lines):
        return None
    opening = OUTPUT_OPEN.match(lines[after])
    if not opening:
        return None
    body = [opening.group(1)]
    end = after
    while "-->" not in body[-1]:
        end += 1
        if end >= len(lines):
            raise Failure(f"{where}: an output comment that does not end")
        body.append(lines[end])
    body[-1] = body[-1].split("-->")[0]
    return Expected.parse("\n".join(body), where)


def markdown_samples(path):
    relative = str(path.relative_to(ROOT))
    lines = path.read_text().split("\n")
    found = []
    swift, _ = samples_module.extract(path)
    by_line = {sample.line: sample for sample in swift}
    index = 0
    while index < len(lines):
        fence = re.match(r"^\s*```(\w+)\s*$", lines[index])
        if not fence or fence.group(1) not in ("swift", "sh"):
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        where = f"{relative}:{index + 2}"
        expected = output_after(lines, end, where)
        previous = next((lines[i] for i in range(index - 1, -1, -1) if lines[i].strip()), "")
        if fence.group(1) == "swift":
            sample = by_line[index + 2]
            if "apple" in sample.kinds:
                not_run = "Apple platforms only (SwiftUI, Combine): compiled against the Apple stand-in SDK"
            elif "manifest" in sample.kinds:
                not_run = "a Package.swift fragment: loaded by SwiftPM in Scripts/check-doc-samples.py"
            else:
                not_run = None
            kind = "test" if "declarations" in sample.kinds else "swift"
            found.append(Sample(relative, index + 2, kind, code=sample, expected=expected, not_run=not_run))
        else:
            marker = SH_MARKER.match(previous)
            if not marker:
                raise Failure(f"{where}: a sh block needs <!-- sample: run --> or <!-- sample: shown REASON --> "
                              "on the line before it")
            if marker.group(1) == "shown":
                found.append(Sample(relative, index + 2, "shell", not_run=marker.group(2) or "no reason given"))
            else:
                if expected is None:
                    raise Failure(f"{where}: a sh block that runs needs its transcript in <!-- output … --> after it")
                shown = [line.strip() for line in lines[index + 1:end] if line.strip()]
                found.append(Sample(relative, index + 2, "shell", expected=expected,
                                    names=run_options(marker.group(2), where), commands=shown))
        index = end + 1
    return found


ROFF = [("\\-", "-"), ("\\&", ""), ("\\(dq", '"'), ("\\e", "\\"), ("\\(aq", "'"), ("\\(lq", '"'), ("\\(rq", '"')]


def unroff(line):
    for escape, text in ROFF:
        line = line.replace(escape, text)
    return line


def manual_samples(path):
    relative = str(path.relative_to(ROOT))
    lines = path.read_text().split("\n")
    found = []
    for index, line in enumerate(lines):
        if line.strip() != ".EX":
            continue
        previous = next((lines[i] for i in range(index - 1, -1, -1) if lines[i].strip() not in ("", ".PP")), "")
        marker = re.match(r'^\.\\"\s*sample:\s*(run|shown)\b\s*(.*)$', previous)
        where = f"{relative}:{index + 1}"
        if not marker:
            raise Failure(f"{where}: an .EX block needs '.\\\" sample: run' or '.\\\" sample: shown REASON' before it")
        if marker.group(1) == "shown":
            found.append(Sample(relative, index + 1, "shell", not_run=unroff(marker.group(2)) or "no reason given"))
            continue
        body = []
        end = index + 1
        while lines[end].strip() != ".EE":
            text = lines[end]
            action = re.match(r'^\.\\"\s*sample:\s*(.*)$', text)
            body.append("== " + action.group(1) if action else unroff(text))
            end += 1
        found.append(Sample(relative, index + 1, "shell", expected=Expected.parse("\n".join(body), where),
                            names=run_options(marker.group(2), where)))
    return found


def documents(arguments):
    chosen = [ROOT / a for a in arguments if not a.startswith("-")]
    return chosen or ([ROOT / "README.md"] + sorted(ROOT.glob("Sources/*/*.docc/*.md")) + [ROOT / "man" / "netstatus.1"])


def all_samples(paths, printing=False):
    found = []
    for path in paths:
        found += manual_samples(path) if path.suffix == ".1" else markdown_samples(path)
    for sample in found:
        if sample.not_run is None and sample.kind != "test" and sample.expected is None and not printing:
            raise Failure(f"{sample.name}: no expected output: write what it prints in <!-- output … --> after it "
                          "(`<!-- output -->` for nothing)")
    return found


# MARK: Matching


TIME = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d\.\d+Z?")


def matches(expected, line):
    if expected == line:
        return True
    if "..." not in expected and not TIME.search(expected):
        return False
    pattern = ""
    for part in re.split(r"(\.\.\.)", expected):
        if part == "...":
            pattern += ".*"
        else:
            pieces = TIME.split(part)
            pattern += TIME.pattern.join(re.escape(piece) for piece in pieces)
    return re.fullmatch(pattern, line) is not None


# MARK: The lab


TUN_HOLDER = """
import fcntl, os, struct, sys, time
descriptor = os.open("/dev/net/tun", os.O_RDWR)
fcntl.ioctl(descriptor, 0x400454CA, struct.pack("16sH", b"tun0", 0x0001 | 0x1000))  # TUNSETIFF: IFF_TUN, IFF_NO_PI
print("ready", flush=True)
time.sleep(3600)
"""


class Lab:
    """The sample's namespace (`eth0`, 198.51.100.2/24) and its peer (198.51.100.1, DNS, HTTP on 203.0.113.80), and
    `red`, a namespace with no route, when a sample names it."""

    def __init__(self, tag, names=NAMES):
        self.name = f"nstest-docs-{os.getpid()}-{tag}"
        self.peer = self.name + "p"
        self.red = self.name + "r"
        self.names = names
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="netstatus-docs-"))
        self.helpers = []
        run(["ip", "netns", "add", self.name])
        try:
            run(["ip", "netns", "add", self.peer])
            if "red" in names:
                run(["ip", "netns", "add", self.red])
                self.batch(self.red, ["link set lo up"])
            self.batch(self.name, ["link set lo up", f"link add eth0 type veth peer name eth1 netns {self.peer}",
                                   "addr add 198.51.100.2/24 dev eth0", "link set eth0 up",
                                   "route add default via 198.51.100.1 dev eth0"])
            self.batch(self.peer, ["link set lo up", "addr add 198.51.100.1/24 dev eth1",
                                   "addr add 2001:db8::1/64 dev eth1 nodad", "addr add 203.0.113.80/32 dev lo",
                                   "link set eth1 up"])
            (self.folder / "resolv.conf").write_text("nameserver 198.51.100.1\n")
            # `./deploy`, for the recipes that run one.
            deploy = self.folder / "deploy"
            deploy.write_text("#!/bin/sh\necho deploying\n")
            deploy.chmod(0o755)
            self.helper(self.peer, [sys.executable, str(FIXTURES / "dns_server.py"), "--address", "198.51.100.1",
                                    "--record", "connectivity-check.ubuntu.com=203.0.113.80", "--record",
                                    "nmcheck.gnome.org=203.0.113.80", "--lifetime", "3600"], ready=True)
            self.helper(self.peer, [sys.executable, str(FIXTURES / "probe_http_server.py"), "--address",
                                    "203.0.113.80", "--mode", "204", "--lifetime", "3600"], ready=True)
            # A container's main process, for the samples that watch one by its PID.
            self.container = self.helper(self.peer, ["sleep", "3600"], ready=False)
        except BaseException:
            self.delete()
            raise

    def helper(self, namespace, command, ready):
        process = subprocess.Popen(["ip", "netns", "exec", namespace, *command], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True)
        self.helpers.append(process)
        if ready:
            result = {}
            reader = threading.Thread(target=lambda: result.update(line=process.stdout.readline()), daemon=True)
            reader.start()
            reader.join(WAIT)
            if result.get("line", "").strip() != "ready":
                raise Failure(f"the lab's helper {command[:2]} did not start")
        return process

    batch = staticmethod(ip_batch)

    def command(self, program):
        """`program` run inside the lab: in its namespace, with its names, its own sysfs and its resolver. The names
        live in a mount namespace of the program's own: nothing of the machine's /run/netns is seen or touched."""
        steps = []
        for name in self.names:
            host = self.name if LAB_NAMES[name] == "own" else self.red
            steps += [f"touch {self.folder}/ns-{name}", f"mount --bind /run/netns/{host} {self.folder}/ns-{name}"]
        steps.append("mount -t tmpfs netstatus-docs /run/netns")
        for name in self.names:
            steps += [f"touch /run/netns/{name}", f"mount --bind {self.folder}/ns-{name} /run/netns/{name}"]
        steps += ["mount -t sysfs sysfs /sys", f"mount --bind {self.folder}/resolv.conf /etc/resolv.conf",
                  f"cd {self.folder}", 'exec stdbuf -oL "$@"']
        return ["nsenter", f"--net=/run/netns/{self.name}", "unshare", "--mount", "--propagation", "private", "--",
                "sh", "-c", " && ".join(steps), "lab", *program]

    def act(self, action, arguments, running):
        commands = {
            "route-del": (self.name, ["route del default via 198.51.100.1 dev eth0"]),
            "route-add": (self.name, ["route add default via 198.51.100.1 dev eth0"]),
            "link-down": (self.name, ["link set eth0 down"]),
            "link-up": (self.name, ["link set eth0 up"]),
            "carrier-down": (self.peer, ["link set eth1 down"]),
            "carrier-up": (self.peer, ["link set eth1 up"]),
            "ipv6-up": (self.name, ["addr add 2001:db8::2/64 dev eth0 nodad",
                                    "route add default via 2001:db8::1 dev eth0"]),
        }
        if action in commands:
            namespace, lines = commands[action]
            self.batch(namespace, lines)
        elif action == "vpn-up":
            self.helper(self.name, [sys.executable, "-c", TUN_HOLDER], ready=True)
            self.batch(self.name, ["addr add 10.8.0.2/24 dev tun0", "link set tun0 up",
                                   "route add 0.0.0.0/1 dev tun0", "route add 128.0.0.0/1 dev tun0"])
        elif action == "netns-del":
            for name in arguments or list(self.names):
                run(["nsenter", f"--mount=/proc/{running.process.pid}/ns/mnt", "ip", "netns", "del", name])
                # Gone for the rest of the sample: the next commands' mount namespaces do not name it.
                self.names = tuple(n for n in self.names if n != name)
        elif action == "interrupt":
            running.signal(signal.SIGINT)
        elif action == "stop":
            running.signal(signal.SIGTERM)

    def delete(self):
        for process in self.helpers:
            if process.poll() is None:
                process.kill()
                process.wait()
        for namespace in (self.name, self.peer, self.red):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


def take(running, section, what):
    """Reads a section's lines: in order, `...` standing for any lines up to the next expected one; or, for a section
    in any order, each line one of those still expected. Returns how many lines matched, and whether the output
    ended (which `...` allows)."""
    seen = 0
    after = " ".join(section.actions)
    if section.any_order:
        wanted = list(section.lines)
        while wanted:
            line = running.next_line(f"{wanted} after {after}")
            if line is None:
                raise Failure(f"{what} ended while {wanted} were still expected after {after}")
            found = next((w for w in wanted if matches(w, line)), None)
            if found is None:
                raise Failure(f"after {after}: '{line}' is not among the expected {wanted}")
            wanted.remove(found)
            seen += 1
        return seen, False
    index = 0
    while index < len(section.lines):
        wanted = section.lines[index]
        if wanted.strip() == "...":
            following = section.lines[index + 1] if index + 1 < len(section.lines) else None
            while True:
                line = running.next_line(f"'{following}'" if following else "the end")
                if line is None:
                    if following is not None:
                        raise Failure(f"{what} ended while '{following}' was still expected after {after}")
                    return seen, True
                if following is not None and matches(following, line):
                    seen += 1
                    index += 2
                    break
            continue
        line = running.next_line(f"'{wanted}' after {after}")
        if line is None:
            raise Failure(f"{what} ended while '{wanted}' was still expected after {after}")
        if not matches(wanted, line):
            raise Failure(f"after {after}: expected '{wanted}', got '{line}'")
        seen += 1
        index += 1
    return seen, False


# MARK: Running Swift samples


def record(running, expected, act, settle):
    """For writing an expected output (--print): what the sample prints after each section's actions, the lines
    that come within `settle` seconds of the action and before the main actor answers a ping. A tool for the writer,
    who checks the lines are right; never a test (it waits on a clock)."""
    sections = []
    for number, section in enumerate(expected.sections):
        if section.actions != ["start"]:
            act(section.actions[0], section.actions[1:])
        threading.Event().wait(settle)
        running.write(f"ping {number}")
        lines = []
        line = None
        while True:
            line = running.next_line("the ping's answer")
            if line is None or line == f"pong {number}":
                break
            lines.append(line)
        sections.append(Section(section.actions, lines))
        if line is None:
            break
    return sections


def follow_swift(running, expected, act):
    """A Swift sample's run: after each section's actions, its lines, in any order (its observers run on queues of
    their own); then a ping, which the main actor must answer next."""
    seen = 0
    for number, section in enumerate(expected.sections):
        if section.actions != ["start"]:
            act(section.actions[0], section.actions[1:])
        count, _ = take(running, Section(section.actions, section.lines, any_order=True), "the sample")
        seen += count
        after = " ".join(section.actions)
        running.write(f"ping {number}")
        line = running.next_line(f"'pong {number}' from the main actor after {after}")
        if line != f"pong {number}":
            raise Failure(f"after {after}: '{line}' where only 'pong {number}' was expected (a line that was not "
                          "expected, or one printed late)")
    return seen


MAIN = """// What Scripts/run-doc-samples.py runs: the sample named by the first argument, in an async main on the main
// actor, then keeps running (its handlers, observers and tasks go on) and answers `ping N` on standard input with
// `pong N` from the main actor, so that the run knows the main queue still runs.
import Foundation

let name = CommandLine.arguments.dropFirst().first ?? ""
Thread {
  while let line = readLine() {
    Task { @MainActor in print("pong " + line.dropFirst("ping ".count)) }
  }
}.start()
do {
  switch name {
{cases}
  default:
    print("no sample named \\(name)")
    exit(2)
  }
} catch {
  print("error: \\(error)")
  exit(1)
}
while true { try await Task.sleep(for: .seconds(3600)) }
"""


def write_package(swift, tests):
    """The consumer package: one executable, a file per sample; the `@Test` samples as its tests."""
    sources = PACKAGE / "Sources" / "DocSamples"
    test_sources = PACKAGE / "Tests" / "DocSampleTests"
    shutil.rmtree(PACKAGE / "Sources", ignore_errors=True)
    shutil.rmtree(PACKAGE / "Tests", ignore_errors=True)
    sources.mkdir(parents=True)
    test_sources.mkdir(parents=True)
    (PACKAGE / "Package.swift").write_text(f"""// swift-tools-version: 6.0
// Made by Scripts/run-doc-samples.py: the documentation's samples, as a consumer of NetStatus by path.
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]
// The libraries a sample may import: NetStatus, and NetStatusTesting for the samples that drive a ScriptedPathSource
// (each sample still sees only what it imports).
let netStatus: [Target.Dependency] = [
  .product(name: "NetStatus", package: "NetStatus"), .product(name: "NetStatusTesting", package: "NetStatus"),
]
let package = Package(
  name: "DocSamples",
  dependencies: [.package(name: "NetStatus", path: "{ROOT}")],
  targets: [
    .executableTarget(name: "DocSamples", dependencies: netStatus, swiftSettings: strict),
    .testTarget(name: "DocSampleTests", dependencies: netStatus, swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
""")
    shutil.copy(ROOT / "Scripts" / "doc-samples" / "Prelude.swift", sources / "Prelude.swift")
    cases = []
    for number, sample in enumerate(swift):
        name = f"sample{number}"
        (sources / f"Sample{number}.swift").write_text(samples_module.swift_source(sample.code, True, name))
        cases.append(f'  case "{name}": try await {name}()')
    (sources / "main.swift").write_text(MAIN.replace("{cases}", "\n".join(cases)))
    for number, sample in enumerate(tests):
        (test_sources / f"Test{number}.swift").write_text(samples_module.swift_source(sample.code, False, ""))
    if not tests:
        (test_sources / "None.swift").write_text("// No sample declares a test.\n")


def build(swift, tests):
    write_package(swift, tests)
    result = subprocess.run(["swift", "build", "--package-path", str(PACKAGE), "--scratch-path", str(SCRATCH),
                             "--build-tests"], capture_output=True, text=True)
    if result.returncode != 0:
        raise Failure(f"the samples' package does not build:\n{result.stdout}{result.stderr}")
    bin_path = run(["swift", "build", "--package-path", str(PACKAGE), "--scratch-path", str(SCRATCH),
                    "--show-bin-path"]).stdout.strip()
    return pathlib.Path(bin_path) / "DocSamples"


def run_swift(sample, number, binary, printing=False):
    lab = Lab(f"s{number}")
    with LabRun(sample.name, lab) as session:
        running = session.start(lab.command([str(binary), f"sample{number}"]),
                                environment={"SAMPLE_CONTAINER_PID": str(lab.container.pid)})
        act = lambda action, arguments: lab.act(action, arguments, running)  # noqa: E731
        if printing:
            # Without an output comment yet: the route taken away and given back.
            actions = sample.expected or Expected([Section(["start"]), Section(["route-del"]), Section(["route-add"])])
            sections = record(running, actions, act, settle=3.0)
            text = "\n".join(f"== {' '.join(s.actions)}\n" + "\n".join(s.lines) for s in sections)
            return "printed:\n<!-- output\n" + text + "\n-->"
        seen = follow_swift(running, sample.expected, act)
        return f"{seen} lines"


def run_tests(tests):
    result = subprocess.run(["swift", "test", "--skip-build", "--package-path", str(PACKAGE), "--scratch-path",
                             str(SCRATCH)], capture_output=True, text=True)
    if result.returncode != 0:
        raise Failure(f"{', '.join(t.name for t in tests)}: the samples' tests failed:\n{result.stdout}{result.stderr}")
    return f"{len(tests)} test samples pass"


# MARK: Running transcripts


EXIT = re.compile(r"^\[exit (\d+)\]$")


def parse_transcript(expected, where):
    """[(command, [Section], exit status or None)]: each command's output, split where the lab's actions happen."""
    commands = []
    for section in expected.sections:
        if section.actions != ["start"]:
            if not commands:
                raise Failure(f"{where}: an action before the first '$ COMMAND'")
            commands[-1][1].append(Section(section.actions, any_order=section.any_order))
        elif section.any_order and commands:
            commands[-1][1][-1].any_order = True
        for line in section.lines:
            if line.startswith("$ "):
                commands.append([line[2:], [Section(["start"])], None])
            elif not commands:
                raise Failure(f"{where}: an output line before the first '$ COMMAND'")
            elif EXIT.match(line):
                commands[-1][2] = int(EXIT.match(line).group(1))
            else:
                commands[-1][1][-1].lines.append(line)
    return commands


def follow_transcript(running, sections, act, status=None):
    """A command's run: each section's lines after its actions, then its end, with the status expected (`status`, or
    0 when the transcript gives none)."""
    seen = 0
    ended = False
    for section in sections:
        if section.actions != ["start"]:
            if ended:
                raise Failure(f"it had ended before {' '.join(section.actions)}")
            act(section.actions[0], section.actions[1:])
        count, ended = take(running, section, "it")
        seen += count
    if not ended:
        line = running.next_line("the end")
        if line is not None:
            raise Failure(f"'{line}' after the last expected line")
    wanted = status if status is not None else 0
    got = running.finish()
    if got != wanted:
        raise Failure(f"exit status {got}, expected {wanted}")
    return seen


def run_transcript(sample, number, netstatus_folder):
    where = sample.name
    commands = parse_transcript(sample.expected, where)
    if sample.commands is not None and [c for c, _, _ in commands] != sample.commands:
        raise Failure(f"{where}: the transcript's commands {[c for c, _, _ in commands]} are not the block's "
                      f"{sample.commands}")
    lab = Lab(f"t{number}", sample.names)
    seen = 0
    with LabRun(where, lab) as session:
        for command, sections, status in commands:
            # A command the lab signals is the shell's own process (`exec`): the signal reaches it as Ctrl-C reaches
            # the command in a terminal, and its own exit status comes back.
            signalled = any(s.actions[0] in ("interrupt", "stop") for s in sections)
            running = session.start(lab.command(["sh", "-c", ("exec " if signalled else "") + command]),
                                    environment={"PATH": f"{netstatus_folder}:{os.environ.get('PATH', '')}"})
            running.process.stdin.close()
            current = running
            seen += follow_transcript(running, sections,
                                      lambda action, arguments: lab.act(action, arguments, current), status)
        return f"{len(commands)} commands, {seen} lines"


# MARK: Main


def list_samples(found):
    for sample in found:
        status = f"not run: {sample.not_run}" if sample.not_run else ("runs as a test" if sample.kind == "test"
                                                                      else "runs")
        print(f"{sample.name} ({sample.kind}): {status}")


def self_test():
    """Wrong outputs must fail: a missing line, an extra one, a wrong one, a transcript line out of place, a wrong
    exit status."""
    problems = []

    def expect(what, failure, run):
        try:
            run()
            if failure:
                problems.append(f"{what}: passed, must fail with '{failure}'")
        except Failure as error:
            if not failure or failure not in str(error):
                problems.append(f"{what}: {error}; expected {failure or 'to pass'}")

    expected = Expected.parse("== start\nonline\nbanner: online\n== route-del\noffline\n", "self-test")
    for what, outputs, failure in [
        ("as expected, in another order", {"start": ["banner: online", "online"], "route-del": ["offline"]}, None),
        ("a missing line", {"start": ["online"], "route-del": ["offline"]}, "after start"),
        ("an extra line", {"start": ["online", "banner: online", "online"], "route-del": ["offline"]},
         "where only 'pong 0'"),
        ("a wrong line", {"start": ["online", "banner: online"], "route-del": ["online"]}, "is not among"),
    ]:
        fake = ScriptedProcess(outputs)
        fake.act("start", [])
        expect(what, failure, lambda: follow_swift(fake, expected, fake.act))

    transcript = Expected.parse("$ netstatus wait --interface eth9\n... online   eth0 (other)  ...\n== route-del\n"
                                "2026-11-29 15:01:01.422  offline  no route\n== stop\n[exit 143]\n", "self-test")
    ((_, sections, status),) = parse_transcript(transcript, "self-test")
    online = "2026-12-05 13:06:29.216  online   eth0 (other)  IPv4 DNS"
    offline = "2026-12-05 13:06:30.216  offline  no route"
    for what, outputs, exit_status, failure in [
        ("a transcript as expected", {"start": [online], "route-del": [offline], "stop": [None]}, 143, None),
        ("a transcript line that differs", {"start": [online.replace("eth0", "eth1")]}, 143, "expected"),
        ("a transcript with a line too many", {"start": [online], "route-del": [offline], "stop": ["x", None]}, 143,
         "after the last expected line"),
        ("a stop that does not exit as the transcript says", {"start": [online], "route-del": [offline],
                                                               "stop": [None]}, 0, "exit status 0, expected 143"),
    ]:
        fake = ScriptedProcess(outputs, exit_status)
        fake.act("start", [])
        expect(what, failure, lambda: follow_transcript(fake, sections, fake.act, status))
    for problem in problems:
        print(f"run-doc-samples: self-test: {problem}", file=sys.stderr)
    if not problems:
        print("run-doc-samples: self-test: wrong outputs fail and right ones pass, for samples and transcripts")
    return 1 if problems else 0


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        return self_test()
    try:
        found = all_samples(documents(arguments), printing="--print" in arguments)
    except Failure as failure:
        print(f"run-doc-samples: {failure}", file=sys.stderr)
        return 1
    if "--list" in arguments:
        list_samples(found)
        return 0
    printing = "--print" in arguments
    if os.geteuid() != 0:
        print("run-doc-samples: needs root (network and mount namespaces)", file=sys.stderr)
        return 2
    swift = [s for s in found if s.kind == "swift" and not s.not_run]
    tests = [s for s in found if s.kind == "test" and not s.not_run]
    shell = [s for s in found if s.kind == "shell" and not s.not_run]
    failures = []
    try:
        binary = build(swift, tests) if swift or tests else None
    except Failure as failure:
        print(f"run-doc-samples: {failure}", file=sys.stderr)
        return 1
    netstatus = pathlib.Path(run(["swift", "build", "--show-bin-path"], cwd=ROOT).stdout.strip())
    if shell and not (netstatus / "netstatus").exists():
        print(f"run-doc-samples: {netstatus}/netstatus is missing: run swift build first", file=sys.stderr)
        return 2
    jobs = [(sample, lambda s=sample, n=n: run_swift(s, n, binary, printing)) for n, sample in enumerate(swift)]
    jobs += [(sample, lambda s=sample, n=n: run_transcript(s, n, netstatus)) for n, sample in enumerate(shell)]
    if tests:
        jobs.append((tests[0], lambda: run_tests(tests)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        results = [(sample, pool.submit(job)) for sample, job in jobs]
        for sample, result in results:
            try:
                print(f"run-doc-samples: ran {sample.name}: {result.result()}")
            except (Failure, subprocess.CalledProcessError) as failure:
                detail = failure.stderr if isinstance(failure, subprocess.CalledProcessError) else ""
                failures.append(f"{failure}\n{detail}".strip())
    for sample in found:
        if sample.not_run:
            print(f"run-doc-samples: not run: {sample.name}: {sample.not_run}")
    for failure in failures:
        print(f"run-doc-samples: {failure}\n", file=sys.stderr)
    ran = len(swift) + len(tests) + len(shell)
    print(f"run-doc-samples: {ran - len(failures)} of {ran} samples ran as documented; "
          f"{sum(1 for s in found if s.not_run)} are not run here (above)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
