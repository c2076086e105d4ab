"""Stand-in for the part of benchexec.util that tool-info modules see."""

import collections
import os


class ProcessExitCode(collections.namedtuple("ProcessExitCode", "raw value signal")):
    """How a process ended: the raw wait status, its exit value (None when a
    signal ended it) and the signal (None when it exited)."""

    @classmethod
    def create(cls, value=None, signal=None):
        raw = (value << 8) if value is not None else signal
        return cls(raw, value, signal)

    def __bool__(self):
        return bool(self.value or self.signal)


def get_path():
    return os.environ.get("PATH", "").split(os.pathsep)


def find_executable2(name, dirs, mode=os.X_OK):
    for d in dirs:
        path = os.path.join(d, name)
        if os.path.isfile(path) and os.access(path, mode):
            return path
    return None
