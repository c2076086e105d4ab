"""BenchExec tool-info module for boolprog, a model checker for Boolean programs.

Install: copy this file into BenchExec's ``benchexec/tools/`` directory and
write ``tool="boolprog"`` in the benchmark definition, or into a package of
your own on PYTHONPATH (``mytools/boolprog.py``) and write the dotted name
(``tool="mytools.boolprog"``); put the ``boolprog`` binary on PATH or in the
directory given with ``--tool-directory``.

A run is ``boolprog check [--trace none] --stats OPTIONS [--target L] FILE``.
A task-definition file's options may name the engine and more check flags
(``options: {engine: explicit, flags: [--max-vars, "30"]}``, as ``boolprog
batch --emit-benchexec DIR TASKS...`` writes them). The target label comes
from the task: its options (``options: {target: MY_LABEL}``), or a property
file that names a label as
``G ! label(MY_LABEL)``; otherwise, or if that label is ``SLIC_ERROR``,
check's default (``SLIC_ERROR``, which may be absent: failing assertions are
always errors).

BenchExec enforces the time and memory limits itself (boolprog gets no
``--timeout``): when it stops a run with SIGTERM, boolprog prints
``VERIFICATION UNKNOWN: interrupted`` and the run is a TIMEOUT.

Results, from check's last line and exit code (README, "Exit codes"):

====================================================  ========================
``VERIFICATION SUCCESSFUL`` (exit 0)                  ``true``
``VERIFICATION SUCCESSFUL up to K ...`` (bounded)     ``unknown`` (no proof)
``VERIFICATION FAILED`` (exit 10)                     ``false(unreach-call)``
``VERIFICATION UNKNOWN: timeout ...`` / cut by time   ``TIMEOUT``
``VERIFICATION UNKNOWN: reason`` (exit 5)             ``unknown``
the Go runtime out of memory, or killed for memory    ``OUT OF MEMORY``
exit 2 with ``file:line:col: message``                ``ERROR (input)``
exit 1 (a bad option)                                 ``ERROR (usage)``
a panic or any other end without a verdict            ``ERROR (crash)``
====================================================  ========================

``get_value_from_output`` reads the lines of ``--stats`` (``engine``,
``time``, ``states``, ``trace steps``, and counters such as
``peak_bdd_nodes``, ``iterations``, ``summaries``).
"""

import re

import benchexec.result as result
import benchexec.tools.template

# The verdict line of `boolprog check`: always the last line it prints for
# a file (never decorated).
_VERDICT = re.compile(r"^VERIFICATION (SUCCESSFUL|FAILED|UNKNOWN)(.*)$")

# A label in an SV-COMP-style property file: G ! label(NAME).
_LABEL = re.compile(r"\blabel\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)")


class Tool(benchexec.tools.template.BaseTool2):
    """boolprog: reachability of errors in Boolean programs (Bebop's question)."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("boolprog")

    def name(self):
        return "boolprog"

    def project_url(self):
        return "https://boolprog.invalid/"

    def version(self, executable):
        # "boolprog (devel) (commit 0123456789ab 2026-11-23T16:00:00Z) go1.22.1"
        return self._version_from_tool(executable, arg="version", line_prefix="boolprog")

    def cmdline(self, executable, options, task, rlimits):
        args = [executable, "check"]
        if not any(o.startswith("--trace") for o in options):
            # The verdict is what BenchExec scores; a trace of millions of
            # steps would only fill its log.
            args += ["--trace", "none"]
        if "--stats" not in options:
            args.append("--stats")
        args += list(options)
        # A task-definition file's options, as `boolprog batch
        # --emit-benchexec` writes them: engine and more check flags.
        topts = task.options if isinstance(task.options, dict) else {}
        if topts.get("engine") and "--engine" not in options:
            args += ["--engine", str(topts["engine"])]
        args += [str(f) for f in topts.get("flags") or []]
        target = self._target(task)
        # The default label may be absent from a program; named with
        # --target it would have to occur.
        if target and target != "SLIC_ERROR" and not any(o == "-l" or o.startswith("--target") for o in options):
            args += ["--target", target]
        return args + ["--", task.single_input_file]

    @staticmethod
    def _target(task):
        """The target label of a task: its options' target, or a label(NAME)
        of its property file."""
        if isinstance(task.options, dict) and task.options.get("target"):
            return str(task.options["target"])
        if task.property_file:
            try:
                with open(task.property_file) as f:
                    m = _LABEL.search(f.read())
            except OSError:
                return None
            if m:
                return m.group(1)
        return None

    def determine_result(self, run):
        verdict, rest = None, ""
        for line in reversed(run.output):
            m = _VERDICT.match(line.strip())
            if m:
                verdict, rest = m.group(1), m.group(2).strip()
                break
        if run.termination_reason == "memory" or run.output.any_line_contains(
            "fatal error: runtime: out of memory"
        ):
            return "OUT OF MEMORY"
        if verdict == "SUCCESSFUL":
            # "up to K context switches": a bounded answer is not a proof.
            return result.RESULT_UNKNOWN if rest.startswith("up to") else result.RESULT_TRUE_PROP
        if verdict == "FAILED":
            return result.RESULT_FALSE_REACH
        if run.was_timeout or (verdict == "UNKNOWN" and rest.startswith(": timeout")):
            return "TIMEOUT"
        if verdict == "UNKNOWN":
            return result.RESULT_UNKNOWN
        code = run.exit_code
        if code.value == 2 and not run.output.any_line_contains("panic:"):
            return "ERROR (input)"
        if code.value == 1:
            return "ERROR (usage)"
        if code.signal:
            return "ERROR (signal %d)" % code.signal
        return "ERROR (crash)"

    def get_value_from_output(self, output, identifier):
        prefix = identifier + ":"
        for line in output:
            if line.startswith(prefix):
                return line[len(prefix):].strip()
        return None
