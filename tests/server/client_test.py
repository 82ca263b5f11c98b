"""Drives `prog --server` (prog built from prog.fut beside this file) with
Futhark's own Python client, `futhark_server.Server` (pip package
`futhark-server`), end to end: values in from NumPy, calls chained through
variables that stay in the server, values out to NumPy, and a failing call
that leaves the server running.

Usage: python client_test.py PROG
"""

import sys

import numpy as np
from futhark_server import Failure, Server


def check(what, got, want):
    if isinstance(want, np.ndarray):
        ok = isinstance(got, np.ndarray) and got.dtype == want.dtype and np.array_equal(got, want)
    else:
        ok = type(got) is type(want) and got == want
    if not ok:
        sys.exit(f"{what}: got {got!r}, want {want!r}")


def main(exe):
    # Futhark's server executables serve by themselves; futmlir's take
    # `--server`, which the client passes on as an option.
    with Server(exe, "--server") as s:
        check("entry points", sorted(s.cmd_entry_points()), ["negate", "pick", "row_sums", "scale", "total", "wrap"])
        check("inputs", s.cmd_inputs("scale"), ["f32", "[]f32"])
        check("outputs", s.cmd_output("row_sums"), ["*[]i32", "i64"])

        xs = np.array([1.5, -2.0, 4.25], dtype=np.float32)
        s.put_value("xs", xs)
        s.put_value("k", np.float32(2.0))
        s.cmd_call("scale", "ys", "k", "xs")
        check("scale", s.get_value("ys"), xs * np.float32(2.0))
        # `ys` never left the server: it is the argument of the next call.
        s.cmd_call("total", "t", "ys")
        check("total", s.get_value("t"), np.float32(7.5))
        # Arguments are not consumed: `xs` is still there.
        check("xs after the calls", s.get_value("xs"), xs)

        xss = np.arange(12, dtype=np.int32).reshape(4, 3)
        s.put_value("xss", xss)
        s.cmd_call("row_sums", "sums", "n", "xss")
        check("row_sums", s.get_value("sums"), xss.sum(axis=1, dtype=np.int32))
        check("length", s.get_value("n"), np.int64(4))

        s.put_value("b", np.bool_(True))
        s.put_value("bytes", np.array([0, 1, 255], dtype=np.uint8))
        s.cmd_call("negate", "nb", "nbytes", "b", "bytes")
        check("negate", s.get_value("nb"), np.bool_(False))
        check("negate bytes", s.get_value("nbytes"), np.array([255, 254, 0], dtype=np.uint8))

        s.put_value("is", np.array([10, 20, 30], dtype=np.int64))
        s.put_value("i", np.int64(7))
        try:
            s.cmd_call("pick", "p", "is", "i")
            sys.exit("pick out of bounds: no failure")
        except Failure as e:
            if "out of bounds" not in str(e):
                sys.exit(f"pick out of bounds: wrong message {e}")
        # The server goes on after a failed call.
        s.cmd_free("i")
        s.put_value("i", np.int64(2))
        s.cmd_call("pick", "p", "is", "i")
        check("pick", s.get_value("p"), np.int64(30))

        try:
            s.cmd_call("total", "t2", "xss")
            sys.exit("a call with an argument of the wrong type: no failure")
        except Failure as e:
            if "type" not in str(e):
                sys.exit(f"wrong type: wrong message {e}")

        s.cmd_rename("p", "q")
        check("renamed", s.get_value("q"), np.int64(30))
        s.cmd_free("q", "ys", "xs")
        try:
            s.get_value("ys")
            sys.exit("a freed variable can still be read")
        except Failure:
            pass
        s.cmd_set_tuning_param("reduce_groups", "16")
        s.cmd_clear()
        try:
            s.cmd_call("wrap", "o", "i")
            sys.exit("an entry point with an opaque result: no failure")
        except Failure as e:
            if "opaque types" not in str(e):
                sys.exit(f"opaque result: wrong message {e}")
        check("types", sorted(s.cmd_types()), ["[][]i32", "[]f32", "[]i32", "[]i64", "[]u8"])
    print("futhark_server client test passed")


if __name__ == "__main__":
    main(sys.argv[1])
