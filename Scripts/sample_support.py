"""What Scripts/run-doc-samples.py and Scripts/run-seed-examples.py share: a process whose output is read line by line
with a bound on every wait, and the `ip` calls that change their labs."""

import os
import queue
import signal
import subprocess
import threading

# How long any wait lasts before it fails the run.
WAIT = 30.0


class Failure(Exception):
    pass


def run(command, **options):
    """Runs a command to its end, raising with its standard error when it fails."""
    return subprocess.run(command, check=True, capture_output=True, text=True, **options)


def ip_batch(namespace, commands):
    """`ip -n NAMESPACE -batch -` with these lines: several changes in one call."""
    run(["ip", "-n", namespace, "-batch", "-"], input="\n".join(commands) + "\n")


class Running:
    """A process in a session of its own: its output's lines (standard output, and standard error unless
    `separate_errors`) in a queue, every line read kept in `transcript`."""

    def __init__(self, command, environment=None, separate_errors=False):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE if separate_errors else subprocess.STDOUT, text=True,
                                        bufsize=1, start_new_session=True, env={**os.environ, **(environment or {})})
        self.lines = queue.Queue()
        self.transcript = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next_line(self, waiting_for):
        """The next line, or None once the output has ended; fails after WAIT."""
        try:
            line = self.lines.get(timeout=WAIT)
        except queue.Empty:
            raise Failure(f"nothing within {WAIT:.0f} s while waiting for {waiting_for}")
        if line is None:
            self.lines.put(None)
            return None
        self.transcript.append(line)
        return line

    def write(self, text):
        try:
            self.process.stdin.write(text + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def signal(self, number):
        if self.process.poll() is None:
            self.process.send_signal(number)

    def finish(self):
        """Waits for the end, returning the exit status."""
        try:
            return self.process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            raise Failure(f"still running {WAIT:.0f} s after its last expected line")

    def kill(self):
        """Ends it and everything it started (its session)."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()

    def errors(self):
        """Its standard error, once it has ended (with `separate_errors`)."""
        return self.process.stderr.read().strip() if self.process.stderr else ""


class LabRun:
    """One sample's run in a lab, as a `with` block: the processes it starts (`start`), a failure re-raised naming the
    sample with what its last process printed, and, whatever happens, the process killed and the lab deleted."""

    def __init__(self, name, lab):
        self.name, self.lab, self.running = name, lab, None

    def start(self, command, **options):
        if self.running:
            self.running.kill()
        self.running = Running(command, **options)
        return self.running

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        try:
            if isinstance(error, Failure):
                printed = "\n    ".join(self.running.transcript if self.running else [])
                raise Failure(f"{self.name}: {error}\n  what it printed:\n    {printed}") from None
        finally:
            if self.running:
                self.running.kill()
            self.lab.delete()
        return False


class ScriptedProcess:
    """For the self-tests: a process that prints, after each action, the lines given for it (None: it ends there),
    answers `ping N` with `pong N`, and ends with `status`."""

    def __init__(self, outputs, status=0):
        self.outputs, self.status, self.lines, self.transcript = outputs, status, queue.Queue(), []

    def act(self, action, arguments=()):
        for line in self.outputs.get(action, []):
            self.lines.put(line)

    def next_line(self, waiting_for):
        try:
            line = self.lines.get(timeout=0.2)
        except queue.Empty:
            raise Failure(f"nothing while waiting for {waiting_for}")
        if line is None:
            self.lines.put(None)
        else:
            self.transcript.append(line)
        return line

    def write(self, text):
        if text.startswith("ping "):
            self.lines.put("pong " + text[5:])

    def finish(self):
        return self.status
