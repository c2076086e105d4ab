"""Stand-in for the top of BenchExec's package (see ../README.md)."""


class BenchExecException(Exception):
    """Base of BenchExec's exceptions."""
