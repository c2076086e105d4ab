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
``G ! label(MY_LABEL)`` (SV-COMP's ``unreach-label`` property, which
``boolprog batch --emit-benchexec`` writes); otherwise, or if that label is
``SLIC_ERROR``, check's default (``SLIC_ERROR``, which may be absent:
failing assertions are always errors). Any other property file (an
``unreach-call``, memory-safety or termination property) raises
``UnsupportedFeatureException``: boolprog decides label reachability only.

BenchExec enforces the time and memory limits itself (boolprog gets no
``--timeout``): when it stops a run with SIGTERM, boolprog prints
``VERIFICATION UNKNOWN: interrupted`` and the run is a TIMEOUT.

Results, from check's last line and exit code (README, "Exit codes"):

====================================================  ========================
``VERIFICATION SUCCESSFUL`` (exit 0)                  ``true``
``VERIFICATION SUCCESSFUL up to K ...`` (bounded)     ``unknown`` (no proof)
``VERIFICATION FAILED`` (exit 10)                     ``false(unreach-label)``
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
from benchexec.tools.template import UnsupportedFeatureException

# The verdict line of `boolprog check`: always the last line it prints for
# a file (never decorated).
_VERDICT = re.compile(r"^VERIFICATION (SUCCESSFUL|FAILED|UNKNOWN)(.*)$")

# A label property (SV-COMP's unreach-label): the whole LTL formula is
# G ! label(NAME).
_LABEL = re.compile(r"LTL\(\s*G\s*!\s*label\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)\s*\)")

# The result of a reached label under the unreach-label property, as
# BenchExec names the property's violation.
_FALSE_LABEL = result.RESULT_FALSE_PROP + "(unreach-label)"


class Tool(benchexec.tools.template.BaseTool2):
    """boolprog: reachability of errors in Boolean programs (Bebop's question)."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("boolprog")

    def name(self):
        return "boolprog"

    def project_url(self):
        # boolprog has no public web page or repository address yet (its
        # README names none): None is BenchExec's "no URL" rather than a
        # made-up one.
        return None

    def version(self, executable):
        # "boolprog 0.9.0 ((devel) (commit 0123456789ab 2026-11-23T16:00:00Z) go1.26.8)":
        # the semantic version first, as BenchExec expects, the build after it.
        return self._version_from_tool(executable, arg="version", line_prefix="boolprog ")

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
        target = self._target(task)  # raises for an unsupported property
        # The default label may be absent from a program; named with
        # --target it would have to occur.
        if target and target != "SLIC_ERROR" and not any(o == "-l" or o.startswith("--target") for o in options):
            args += ["--target", target]
        return args + ["--", task.single_input_file]

    @staticmethod
    def _property_label(task):
        """The label of the task's property file (G ! label(NAME)), None
        without a property file; UnsupportedFeatureException for any other
        property, which boolprog cannot check."""
        if not task.property_file:
            return None
        try:
            with open(task.property_file) as f:
                text = f.read()
        except OSError as e:
            raise UnsupportedFeatureException("cannot read the property file %s: %s" % (task.property_file, e))
        m = _LABEL.search(text)
        if not m:
            raise UnsupportedFeatureException(
                "boolprog checks only the reachability of a label (G ! label(NAME)), not the property of %s" % task.property_file
            )
        return m.group(1)

    @classmethod
    def _target(cls, task):
        """The target label of a task: its options' target, or the label of
        its property file."""
        label = cls._property_label(task)
        if isinstance(task.options, dict) and task.options.get("target"):
            return str(task.options["target"])
        return label

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
            # A reached label or a failing assertion: the violation of
            # unreach-label, the only property cmdline accepts (the run
            # does not say whether the task had a property file; without
            # one BenchExec scores no result anyway).
            return _FALSE_LABEL
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
