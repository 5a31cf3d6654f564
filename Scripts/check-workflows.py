#!/usr/bin/python3
"""Checks the GitHub workflows that only run once the repository is published (.github/workflows/).

Linux CI cannot run them (they need macOS and Xcode), so it checks what it can: each file is valid YAML with the shape
GitHub requires (a name, triggers, jobs whose steps each run a command or use an action), and the Apple workflow
makes every check the documentation promises it makes (Sources/NetStatus/NetStatus.docc/Platforms.md): `swift build`
and `swift test` on macOS, an `xcodebuild` build for the iOS, tvOS, watchOS and visionOS simulators and macOS, and
`pod lib lint`. Exits non-zero naming what is wrong.
"""

import os
import pathlib
import subprocess
import sys
import tempfile

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
problems = []


def check_shape(path, workflow):
    if not isinstance(workflow, dict):
        problems.append(f"{path}: not a mapping")
        return []
    if not workflow.get("name"):
        problems.append(f"{path}: no name")
    # PyYAML reads the key `on` as the boolean True (YAML 1.1).
    if "on" not in workflow and True not in workflow:
        problems.append(f"{path}: no triggers (on:)")
    jobs = workflow.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        problems.append(f"{path}: no jobs")
        return []
    commands = []
    for name, job in jobs.items():
        if not isinstance(job, dict) or "runs-on" not in job:
            problems.append(f"{path}: job {name} has no runs-on")
            continue
        steps = job.get("steps")
        if not isinstance(steps, list) or not steps:
            problems.append(f"{path}: job {name} has no steps")
            continue
        for index, step in enumerate(steps):
            if not isinstance(step, dict) or not ("run" in step or "uses" in step):
                problems.append(f"{path}: job {name}, step {index + 1} neither runs nor uses anything")
                continue
            if "run" in step:
                commands.append((name, job, " ".join(str(step["run"]).split())))
    return commands


def check_apple(path, workflow, commands):
    def job_runs(fragment):
        return [(name, job) for name, job, command in commands if fragment in command]

    for fragment in ("swift build", "swift test", "pod lib lint"):
        found = job_runs(fragment)
        if not found:
            problems.append(f"{path}: no step runs `{fragment}`")
        for name, job in found:
            if not str(job["runs-on"]).startswith("macos"):
                problems.append(f"{path}: job {name} runs `{fragment}` on {job['runs-on']}, not macOS")
    platforms = set()
    for name, job, command in commands:
        if "xcodebuild build" not in command:
            continue
        matrix = job.get("strategy", {}).get("matrix", {})
        for entry in matrix.get("include", []):
            platforms.add(entry.get("platform"))
        platforms.update(matrix.get("platform", []))
    for platform in ("iOS Simulator", "tvOS Simulator", "watchOS Simulator", "visionOS Simulator", "macOS"):
        if platform not in platforms:
            problems.append(f"{path}: no xcodebuild build for {platform}")
    # pod lib lint needs a simulator runtime of every platform the podspec declares; watchOS's and visionOS's are
    # downloaded first.
    for name, job, command in commands:
        if "pod lib lint" not in command:
            continue
        runs = " ".join(str(step.get("run", "")) for step in job.get("steps", []) if isinstance(step, dict))
        for platform in ("watchOS", "visionOS"):
            if f"-downloadPlatform {platform}" not in runs:
                problems.append(f"{path}: job {name} lints the pod without downloading the {platform} runtime")
        if "--allow-warnings" in command:
            problems.append(f"{path}: job {name} allows lint warnings")
    # Every job that builds picks its Xcode (Scripts/select-xcode.sh); SwiftPM and xcodebuild with the oldest (the
    # declared floor) and the newest.
    for name, job in workflow.get("jobs", {}).items():
        runs = [str(step.get("run", "")) for step in job.get("steps", []) if isinstance(step, dict)]
        if not any("Scripts/select-xcode.sh" in run for run in runs):
            problems.append(f"{path}: job {name} does not select its Xcode (Scripts/select-xcode.sh)")
        if name in ("swiftpm", "xcodebuild"):
            versions = job.get("strategy", {}).get("matrix", {}).get("xcode", [])
            if sorted(versions) != ["newest", "oldest"]:
                problems.append(f"{path}: job {name} does not build with the oldest and the newest Xcode: {versions}")


def check_select_xcode():
    """Scripts/select-xcode.sh against a fake runner: the oldest Xcode from OLDEST_XCODE on when it has the declared
    Swift, the newest, and a failure when the oldest left has a newer Swift."""
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        for version in ("16.4", "26.0.1", "26.2", "26.10"):
            (root / "apps" / f"Xcode_{version}.app").mkdir(parents=True)
        (root / "bin").mkdir()
        xcrun = root / "bin" / "xcrun"
        xcrun.write_text('#!/bin/sh\ncase "$DEVELOPER_DIR" in *26.10*) echo "Apple Swift version 6.3.1";;\n'
                         '*16.4*) echo "Apple Swift version 6.1.2";; *) echo "Apple Swift version 6.2.3";; esac\n')
        xcrun.chmod(0o755)
        tools = (ROOT / "Package.swift").read_text().split("\n", 1)[0].split(":")[-1].strip()
        environment = dict(os.environ, PATH=f"{root / 'bin'}:{os.environ['PATH']}", XCODE_APPLICATIONS=str(root / "apps"),
                           OLDEST_XCODE="26.0")

        def run(which):
            return subprocess.run(["sh", str(ROOT / "Scripts" / "select-xcode.sh"), which], cwd=ROOT, env=environment,
                                  capture_output=True, text=True)

        if tools != "6.2":
            return  # the fake runner's Swifts are 6.2's; a new floor needs new fakes
        expected = {"oldest": "Xcode_26.0.1.app", "newest": "Xcode_26.10.app"}
        for which, app in expected.items():
            result = run(which)
            if result.returncode != 0 or f"/{app}/Contents/Developer" not in result.stdout:
                problems.append(f"Scripts/select-xcode.sh {which}: wanted {app}, got {result.stdout!r} {result.stderr!r}")
        for version in ("26.0.1", "26.2"):
            (root / "apps" / f"Xcode_{version}.app").rmdir()
        if run("oldest").returncode == 0:
            problems.append("Scripts/select-xcode.sh oldest: succeeded with only a newer Swift than the floor's")


check_select_xcode()
workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
if not workflows:
    problems.append(".github/workflows: no workflow")
for path in workflows:
    relative = path.relative_to(ROOT)
    try:
        workflow = yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        problems.append(f"{relative}: not valid YAML: {error}")
        continue
    commands = check_shape(relative, workflow)
    if path.name == "apple.yml":
        check_apple(relative, workflow, commands)

for problem in problems:
    print(f"check-workflows.py: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-workflows.py: {len(workflows)} workflow(s) checked")
