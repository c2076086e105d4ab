"""Stand-in for benchexec.result: the result strings a tool-info module returns."""

RESULT_DONE = "done"
RESULT_UNKNOWN = "unknown"
RESULT_TIMEOUT = "TIMEOUT"
RESULT_ERROR = "ERROR"
RESULT_TRUE_PROP = "true"
RESULT_FALSE_PROP = "false"
RESULT_FALSE_REACH = RESULT_FALSE_PROP + "(unreach-call)"
