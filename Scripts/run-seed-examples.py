#!/usr/bin/python3
"""Builds and runs the seed examples (Examples/Seeds), each in a network namespace of its own that the network changes
under, and checks that each prints what its expected-output.txt says, in order, with its main queue answering.

    sudo Scripts/run-seed-examples.py            every example (builds them first, in .build-consumers)
    sudo Scripts/run-seed-examples.py 002        the examples whose folder name starts so
    Scripts/run-seed-examples.py --self-test     shows that a missing, an extra or a late line fails the run

Each example is a package that depends on NetStatus by path, as an app's package does. The script builds it, runs its
tests if it has any (`swift test`), then runs its executable under `ip netns exec` in a namespace `nstest-seeds-…`
whose veth `va` reaches a peer namespace (10.77.0.1) through a default route. It then follows the example's
expected-output.txt, a script of sections:

    == ACTION
    a line the example must print after ACTION
    …

The actions: `start` (the example starts: always first), `route-del` and `route-add` (the default route), `carrier-down`
and `carrier-up` (the peer's end of the veth, so va loses and regains carrier), `second-up` and `second-down` (a
second interface, `vc`, with a default route of metric 500, comes and goes), `tap` (writes `tap` to the example: its
start/stop button). After each action the script waits for that section's lines, one by one, each next line of the
example's output compared whole; then writes `ping N` and waits for `pong N`, which the example prints from its main
queue (Examples/Seeds/SeedHarness): a main queue that stopped fails the run there. A line that was not expected, at any
point up to a final ping after the last action, fails the run. Every wait fails after 30 s.

Prints, for each example, the changes it saw out of those it had to see, and the pings its main queue answered.
Cleans up its namespaces whatever happens. Exits non-zero naming each failure.
"""

import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sample_support import Failure, LabRun, ScriptedProcess, ip_batch, run  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = ROOT / "Examples" / "Seeds"
SCRATCH = ROOT / ".build-consumers"
ACTIONS = {"start", "route-del", "route-add", "carrier-down", "carrier-up", "second-up", "second-down", "tap"}


def examples(prefixes):
    found = sorted(path for path in SEEDS.iterdir() if (path / "expected-output.txt").exists())
    if prefixes:
        found = [path for path in found if any(path.name.startswith(prefix) for prefix in prefixes)]
    return found


def parse(script_text, name):
    """The expected output's sections: [(action, [lines])]."""
    sections = []
    for number, line in enumerate(script_text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("== "):
            action = line[3:].strip()
            if action not in ACTIONS:
                raise Failure(f"{name}:{number}: unknown action '{action}'; known: {sorted(ACTIONS)}")
            sections.append((action, []))
        elif not sections:
            raise Failure(f"{name}:{number}: a line before the first '== start'")
        else:
            sections[-1][1].append(line)
    if not sections or sections[0][0] != "start":
        raise Failure(f"{name}: the first section must be '== start'")
    return sections


class Lab:
    """A namespace whose va has a default route through a peer namespace, and the commands that change it."""

    def __init__(self, tag):
        self.name = f"nstest-seeds-{os.getpid()}-{tag}"
        self.peer = self.name + "p"
        run(["ip", "netns", "add", self.name])
        try:
            run(["ip", "netns", "add", self.peer])
            self.batch(self.name, ["link set lo up", f"link add va type veth peer name vb netns {self.peer}",
                                   "addr add 10.77.0.2/24 dev va", "link set va up"])
            self.batch(self.peer, ["link set lo up", "addr add 10.77.0.1/24 dev vb", "link set vb up"])
            self.batch(self.name, ["route add default via 10.77.0.1 dev va"])
        except BaseException:
            self.delete()
            raise

    batch = staticmethod(ip_batch)

    def act(self, action):
        if action == "route-del":
            self.batch(self.name, ["route del default via 10.77.0.1 dev va"])
        elif action == "route-add":
            self.batch(self.name, ["route add default via 10.77.0.1 dev va"])
        elif action == "carrier-down":
            self.batch(self.peer, ["link set vb down"])
        elif action == "carrier-up":
            self.batch(self.peer, ["link set vb up"])
        elif action == "second-up":
            self.batch(self.name, ["link add vc type veth peer name vd", "link set vd up",
                                   "addr add 10.78.0.1/24 dev vc", "link set vc up",
                                   "route add default via 10.78.0.2 dev vc metric 500"])
        elif action == "second-down":
            self.batch(self.name, ["link del vc"])

    def delete(self):
        for namespace in (self.name, self.peer):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


def follow(example, sections, act):
    """Drives one run; returns (changes seen, changes expected, pings answered, pings sent)."""
    expected = sum(len(lines) for _, lines in sections)
    seen, pings = 0, 0
    for number, (action, lines) in enumerate(sections):
        act(action)
        for wanted in lines:
            line = example.next_line(f"'{wanted}' after {action}")
            if line is None:
                raise Failure(f"it ended ({example.finish()}) while '{wanted}' was expected after {action}: "
                              f"{example.errors()}")
            if line != wanted:
                raise Failure(f"after {action}: expected '{wanted}', got '{line}'")
            seen += 1
        pings += 1
        example.write(f"ping {pings}")
        line = example.next_line(f"'pong {pings}' (the main queue) after {action}")
        if line != f"pong {pings}":
            raise Failure(f"after {action}: expected 'pong {pings}' from the main queue, got '{line}' (a line that "
                          "was not expected, or one the example printed late)")
    return seen, expected, pings, pings


def run_example(path, binary, tag):
    sections = parse((path / "expected-output.txt").read_text(), f"{path.name}/expected-output.txt")
    lab = Lab(tag)
    with LabRun(path.name, lab) as session:
        example = session.start(["ip", "netns", "exec", lab.name, "stdbuf", "-oL", str(binary)], separate_errors=True)

        def act(action):
            if action == "tap":
                example.write("tap")
            else:
                lab.act(action)

        figures = follow(example, sections, act)
        return figures, example.transcript


def build(path):
    run(["swift", "build", "--package-path", str(path), "--scratch-path", str(SCRATCH)])
    if (path / "Tests").exists():
        result = subprocess.run(["swift", "test", "--package-path", str(path), "--scratch-path", str(SCRATCH)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise Failure(f"{path.name}: its tests failed:\n{result.stdout}{result.stderr}")
        print(f"run-seed-examples: {path.name}: its tests pass")
    bin_path = run(["swift", "build", "--package-path", str(path), "--scratch-path", str(SCRATCH),
                    "--show-bin-path"]).stdout.strip()
    executable = pathlib.Path(bin_path) / path.name.split("-", 1)[1]
    if not executable.exists():
        raise Failure(f"{path.name}: no executable {executable} (each example's executable is named after its "
                      "folder, without the number)")
    return executable


def self_test():
    sections = parse("== start\nonline\n== route-del\noffline\n== route-add\nonline\n", "self-test")
    cases = {
        "as expected": ({"start": ["online"], "route-del": ["offline"], "route-add": ["online"]}, None),
        "a missing line": ({"start": ["online"], "route-add": ["online"]}, "after route-del"),
        "an extra line": ({"start": ["online", "online"], "route-del": ["offline"], "route-add": ["online"]},
                          "after start: expected 'pong 1'"),
        "a line out of order": ({"start": ["online"], "route-del": ["online"], "route-add": ["offline"]},
                                "after route-del: expected 'offline'"),
    }
    problems = []
    for what, (outputs, failure) in cases.items():
        fake = ScriptedProcess(outputs)
        try:
            follow(fake, sections, fake.act)
            if failure:
                problems.append(f"{what}: passed, must fail with '{failure}'")
        except Failure as error:
            if not failure or failure not in str(error):
                problems.append(f"{what}: failed with '{error}', expected {failure or 'to pass'}")
    for problem in problems:
        print(f"run-seed-examples: self-test: {problem}", file=sys.stderr)
    if not problems:
        print(f"run-seed-examples: self-test: {len(cases) - 1} faulty runs fail, a good one passes")
    return 1 if problems else 0


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        return self_test()
    if os.geteuid() != 0:
        print("run-seed-examples: needs root (network namespaces)", file=sys.stderr)
        return 2
    chosen = examples(arguments)
    if not chosen:
        print(f"run-seed-examples: no example matches {arguments}", file=sys.stderr)
        return 2
    failures = []
    for number, path in enumerate(chosen):
        try:
            binary = build(path)
            (seen, expected, answered, sent), _ = run_example(path, binary, number)
            print(f"run-seed-examples: {path.name}: saw {seen} of {expected} changes, in order; "
                  f"its main queue answered {answered} of {sent} pings")
        except (Failure, subprocess.CalledProcessError) as failure:
            detail = failure.stderr if isinstance(failure, subprocess.CalledProcessError) else ""
            failures.append(f"{failure}\n{detail}".strip())
    for failure in failures:
        print(f"run-seed-examples: {failure}\n", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
