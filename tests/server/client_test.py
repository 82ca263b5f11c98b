"""Drives `prog --server` (prog built from prog.fut beside this file) with
Futhark's own Python client, `futhark_server.Server` (pip package
`futhark-server`), end to end: values in from NumPy, calls chained through
variables that stay in the server, values out to NumPy, a failing call
that leaves the server running, and values of opaque types: a record
made by an entry point and by `new`, taken apart by `project` and by an
entry point, stored to bytes and restored, and a sum type passed from one
entry point to another and built and taken apart by `construct` and
`destruct`.

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
        check(
            "entry points",
            sorted(s.cmd_entry_points()),
            ["negate", "nest", "outer", "pack", "pick", "row_sums", "scale", "total", "unpack", "unwrap", "wrap"],
        )
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

        # A record, `rec = {a: []i32, b: f32}`, end to end.
        check("inputs unpack", s.cmd_inputs("unpack"), ["rec"])
        check("outputs pack", s.cmd_output("pack"), ["*rec"])
        check("kind rec", s.cmd("kind", "rec"), ["record"])
        check("fields rec", s.cmd_fields("rec"), ["a []i32", "b f32"])
        a = np.array([5, -1, 7], dtype=np.int32)
        s.put_value("fa", a)
        s.put_value("fb", np.float32(0.5))
        s.cmd_call("pack", "r", "fa", "fb")
        check("type r", s.cmd("type", "r"), ["rec"])
        s.cmd_project("ra", "r", "a")
        s.cmd_project("rb", "r", "b")
        check("project a", s.get_value("ra"), a)
        check("project b", s.get_value("rb"), np.float32(0.5))
        # `new` (the client's `cmd_new` is unfinished upstream: the raw
        # command), from fields in the order `fields` gives.
        s.put_value("a2", np.array([1, 2], dtype=np.int32))
        s.cmd("new", "r2", "rec", "a2", "rb")
        s.cmd_call("unpack", "ua", "ub", "r2")
        check("unpack (new ...)", s.get_value("ua"), np.array([2, 3], dtype=np.int32))
        check("unpack (new ...) b", s.get_value("ub"), np.float32(1.0))
        try:
            s.cmd_project("rc", "r", "c")
            sys.exit("project of a missing field: no failure")
        except Failure as e:
            if "no field c" not in str(e):
                sys.exit(f"project of a missing field: wrong message {e}")
        try:
            s.cmd("new", "r3", "rec", "rb", "a2")
            sys.exit("new with fields of the wrong types: no failure")
        except Failure as e:
            if "has type []i32, but variable rb has type f32" not in str(e):
                sys.exit(f"new with fields of the wrong types: wrong message {e}")
        # Stored to bytes and restored, the record is the same value.
        blob = s.get_value_bytes("r")
        # (`put_value_bytes` takes one pair, its docstring notwithstanding.)
        s.put_value_bytes(blob, ("r4", "rec"))
        s.cmd_free("r", "r2")
        s.cmd_call("unpack", "va", "vb", "r4")
        check("unpack (restored)", s.get_value("va"), a + 1)
        check("unpack (restored) b", s.get_value("vb"), np.float32(1.0))
        # A sum type passes from one entry point to another.
        s.put_value("x", np.int32(9))
        s.cmd_call("wrap", "o", "x")
        check("kind opt", s.cmd("kind", "opt"), ["sum"])
        s.cmd_call("unwrap", "u", "o")
        check("unwrap (wrap 9)", s.get_value("u"), np.int32(9))
        # ... and is built and taken apart by the sum commands (raw
        # commands: the client has no methods for them).
        check("variants opt", s.cmd("variants", "opt"), ["none", "some", "- i32"])
        check("variant o", s.cmd("variant", "o"), ["some"])
        s.cmd("destruct", "o", "payload")
        check("destruct (wrap 9)", s.get_value("payload"), np.int32(9))
        s.cmd("construct", "none", "opt", "none")
        s.cmd_call("unwrap", "u3", "none")
        check("unwrap #none", s.get_value("u3"), np.int32(-1))
        try:
            s.cmd_call("unwrap", "u2", "r4")
            sys.exit("an opaque argument of the wrong type: no failure")
        except Failure as e:
            if "input 1 has type opt, but variable r4 has type rec" not in str(e):
                sys.exit(f"opaque argument of the wrong type: wrong message {e}")
        s.cmd_free("o", "r4")
        types = s.cmd_types()
        for t in ["[][]i32", "[]f32", "[]i32", "[]i64", "[]u8", "rec", "opt", "(i32, bool)"]:
            if t not in types:
                sys.exit(f"types: {t} missing from {types}")
    print("futhark_server client test passed")


if __name__ == "__main__":
    main(sys.argv[1])
