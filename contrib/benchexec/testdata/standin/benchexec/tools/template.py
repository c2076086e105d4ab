"""Stand-in for benchexec.tools.template: BaseTool2 and the classes of its
parameters, as BenchExec's documentation describes them (see ../../README.md)."""

import collections
import collections.abc
import subprocess

import benchexec
import benchexec.util


class ToolNotFoundException(benchexec.BenchExecException):
    pass


class UnsupportedFeatureException(benchexec.BenchExecException):
    """Raised by a tool-info module (cmdline) for a task the tool cannot
    handle, such as a property it does not check: BenchExec then records
    the run as unsupported instead of running it."""


class BaseTool2:
    """The base of tool-info modules: name() and executable() are required;
    version(), cmdline(), determine_result() and get_value_from_output()
    are usually overridden."""

    def name(self):
        raise NotImplementedError()

    def executable(self, tool_locator):
        raise NotImplementedError()

    def version(self, executable):
        return ""

    def project_url(self):
        return None

    @staticmethod
    def _version_from_tool(executable, arg="--version", use_stderr=False, ignore_stderr=False, line_prefix=None):
        """Runs `executable arg` and returns its output, or with line_prefix
        the rest of the first line that starts with it; "" on failure."""
        try:
            p = subprocess.run([executable, arg], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        except OSError:
            return ""
        if p.returncode or (p.stderr and not use_stderr and not ignore_stderr):
            return ""
        out = (p.stderr if use_stderr else p.stdout).strip()
        if line_prefix:
            out = next((l[len(line_prefix):].strip() for l in out.splitlines() if l.startswith(line_prefix)), "")
        return out

    def cmdline(self, executable, options, task, rlimits):
        return [executable, *options, *task.input_files_or_identifier]

    def determine_result(self, run):
        return "done"

    def get_value_from_output(self, output, identifier):
        return None

    class ToolLocator(collections.namedtuple("ToolLocator", "tool_directory use_path use_current")):
        def __new__(cls, tool_directory=None, use_path=False, use_current=False):
            return super().__new__(cls, tool_directory, use_path, use_current)

        def find_executable(self, executable_name, subdir=""):
            import os

            dirs = []
            if self.tool_directory:
                dirs.append(os.path.join(self.tool_directory, subdir))
            if self.use_path:
                dirs.extend(benchexec.util.get_path())
            if self.use_current:
                dirs.append(os.curdir)
            found = benchexec.util.find_executable2(executable_name, dirs)
            if not found:
                raise ToolNotFoundException("Could not find executable " + executable_name)
            return found

    class Task(collections.namedtuple("Task", "input_files_or_empty identifier property_file options")):
        @classmethod
        def with_files(cls, input_files, *, property_file=None, options=None):
            return cls(tuple(input_files), None, property_file, options)

        @property
        def input_files(self):
            return self.input_files_or_empty

        @property
        def single_input_file(self):
            if len(self.input_files_or_empty) != 1:
                raise benchexec.BenchExecException("exactly one input file required")
            return self.input_files_or_empty[0]

        @property
        def input_files_or_identifier(self):
            return self.input_files_or_empty or (self.identifier,)

    class ResourceLimits(collections.namedtuple("ResourceLimits", "cputime cputime_hard walltime memory cpu_cores")):
        def __new__(cls, cputime=None, cputime_hard=None, walltime=None, memory=None, cpu_cores=None):
            return super().__new__(cls, cputime, cputime_hard, walltime, memory, cpu_cores)

    class Run(collections.namedtuple("Run", "cmdline exit_code output termination_reason")):
        @property
        def was_terminated(self):
            return bool(self.termination_reason)

        @property
        def was_timeout(self):
            return self.termination_reason in ("cputime", "cputime-soft", "walltime")

    class RunOutput(collections.abc.Sequence):
        """The output lines of a run (stdout and stderr together), each
        without its line end."""

        def __init__(self, lines):
            self._lines = lines

        def __getitem__(self, i):
            if isinstance(i, slice):
                return self.__class__(self._lines[i])
            return self._lines[i].rstrip("\n")

        def __len__(self):
            return len(self._lines)

        @property
        def text(self):
            return "".join(self._lines)

        def any_line_contains(self, substr):
            return any(substr in line for line in self._lines)
