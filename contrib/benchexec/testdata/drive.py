"""Drives the tool-info module ../boolprog.py as BenchExec would, with the
stand-in API of standin/ on the path: for each case read from stdin (JSON),
it builds the command line with cmdline(), runs it, and asks
determine_result() and get_value_from_output() about the output. Prints the
outcomes as JSON on stdout. Used by benchexec_test.go."""

import json
import os
import signal
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "standin"))
sys.path.insert(0, os.path.dirname(here))

import benchexec.util  # noqa: E402
from benchexec.tools.template import BaseTool2, UnsupportedFeatureException  # noqa: E402
import boolprog  # noqa: E402


def main():
    req = json.load(sys.stdin)
    tool = boolprog.Tool()
    exe = tool.executable(BaseTool2.ToolLocator(tool_directory=req["bindir"]))
    out = {"name": tool.name(), "version": tool.version(exe), "project_url": tool.project_url(), "results": []}
    for case in req["cases"]:
        task = BaseTool2.Task.with_files(
            [case["file"]], property_file=case.get("property_file"), options=case.get("task_options")
        )
        try:
            cmd = tool.cmdline(exe, case.get("options", []), task, BaseTool2.ResourceLimits(cputime=60, memory=1 << 30))
        except UnsupportedFeatureException as e:
            # BenchExec records the run as unsupported and runs nothing.
            out["results"].append({"name": case["name"], "cmdline": [], "result": "UNSUPPORTED", "last": str(e)})
            continue
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        reason = None
        try:
            stdout, _ = p.communicate(timeout=case.get("terminate_after"))
        except subprocess.TimeoutExpired:
            # BenchExec's soft time limit: SIGTERM, then the output so far.
            p.send_signal(signal.SIGTERM)
            stdout, _ = p.communicate()
            reason = "cputime"
        code = p.returncode
        exit_code = benchexec.util.ProcessExitCode.create(value=code) if code >= 0 else benchexec.util.ProcessExitCode.create(signal=-code)
        output = BaseTool2.RunOutput(stdout.splitlines(keepends=True))
        run = BaseTool2.Run(cmd, exit_code, output, reason)
        out["results"].append({
            "name": case["name"],
            "cmdline": list(cmd),
            "result": tool.determine_result(run),
            "engine": tool.get_value_from_output(output, "engine"),
            "states": tool.get_value_from_output(output, "states"),
            "last": output[-1] if len(output) else "",
        })
    json.dump(out, sys.stdout, indent=1)


main()
