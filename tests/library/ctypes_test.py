"""The Python test of driver/tests/library.rs: prog.fut's C library
(`futmlir build --library`) loaded with ctypes, nothing else, and an
opaque record taken through entry points end to end. Usage:
`python3 ctypes_test.py path/to/prog.so`; prints OK, or fails with an
assertion."""

import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
P = ctypes.c_void_p
lib.futhark_context_config_new.restype = P
lib.futhark_context_new.restype = P
lib.futhark_context_new.argtypes = [P]
lib.futhark_context_get_error.restype = P
lib.futhark_context_get_error.argtypes = [P]
lib.futhark_new_f32_1d.restype = P
lib.futhark_new_f32_1d.argtypes = [P, ctypes.POINTER(ctypes.c_float), ctypes.c_int64]
lib.futhark_shape_f32_1d.restype = ctypes.POINTER(ctypes.c_int64)
lib.futhark_shape_f32_1d.argtypes = [P, P]
lib.futhark_values_f32_1d.argtypes = [P, P, ctypes.POINTER(ctypes.c_float)]
lib.futhark_free_f32_1d.argtypes = [P, P]
lib.futhark_new_opaque_cloud.argtypes = [P, ctypes.POINTER(P), P, ctypes.c_float]
lib.futhark_project_opaque_cloud_pts.argtypes = [P, ctypes.POINTER(P), P]
lib.futhark_project_opaque_cloud_w.argtypes = [P, ctypes.POINTER(ctypes.c_float), P]
lib.futhark_free_opaque_cloud.argtypes = [P, P]
lib.futhark_entry_weigh.argtypes = [P, ctypes.POINTER(P), P]
lib.futhark_entry_total.argtypes = [P, ctypes.POINTER(ctypes.c_float), P]
lib.futhark_entry_checked.argtypes = [P, ctypes.POINTER(ctypes.c_int32), P, ctypes.c_int64]
lib.futhark_new_i32_1d.restype = P
lib.futhark_new_i32_1d.argtypes = [P, ctypes.POINTER(ctypes.c_int32), ctypes.c_int64]
lib.futhark_free_i32_1d.argtypes = [P, P]
lib.futhark_context_free.argtypes = [P]
lib.futhark_context_config_free.argtypes = [P]

libc = ctypes.CDLL(None)
libc.free.argtypes = [P]


def error(ctx):
    """The context's error message, freed as the C API says."""
    p = lib.futhark_context_get_error(ctx)
    if not p:
        return None
    text = ctypes.string_at(p).decode()
    libc.free(p)
    return text


cfg = lib.futhark_context_config_new()
ctx = lib.futhark_context_new(cfg)
assert error(ctx) is None

pts = (ctypes.c_float * 3)(1.0, 2.0, 3.0)
arr = lib.futhark_new_f32_1d(ctx, pts, 3)
assert arr

# A record from its fields, through two entry points.
cloud = P()
assert lib.futhark_new_opaque_cloud(ctx, ctypes.byref(cloud), arr, 2.0) == 0
lib.futhark_free_f32_1d(ctx, arr)
weighed = P()
assert lib.futhark_entry_weigh(ctx, ctypes.byref(weighed), cloud) == 0
total = ctypes.c_float()
assert lib.futhark_entry_total(ctx, ctypes.byref(total), weighed) == 0
assert total.value == 36.0, total.value

# Its fields back.
w = ctypes.c_float()
assert lib.futhark_project_opaque_cloud_w(ctx, ctypes.byref(w), weighed) == 0
assert w.value == 3.0, w.value
field = P()
assert lib.futhark_project_opaque_cloud_pts(ctx, ctypes.byref(field), weighed) == 0
n = lib.futhark_shape_f32_1d(ctx, field)[0]
assert n == 3, n
out = (ctypes.c_float * n)()
assert lib.futhark_values_f32_1d(ctx, field, out) == 0
assert list(out) == [2.0, 4.0, 6.0], list(out)
# A value of another type is refused (ctypes does not check C's types).
lib.futhark_values_i32_1d.argtypes = [P, P, ctypes.POINTER(ctypes.c_int32)]
assert lib.futhark_values_i32_1d(ctx, field, (ctypes.c_int32 * n)()) == 1
message = error(ctx)
assert message == "the array has type []f32, but []i32 was expected", message
lib.futhark_free_f32_1d(ctx, field)
for v in (cloud, weighed):
    lib.futhark_free_opaque_cloud(ctx, v)

# A failing assertion is an error code and a message.
xs = (ctypes.c_int32 * 2)(5, 6)
ia = lib.futhark_new_i32_1d(ctx, xs, 2)
z = ctypes.c_int32(0)
assert lib.futhark_entry_checked(ctx, ctypes.byref(z), ia, 7) == 2
message = error(ctx)
assert message is not None and "Assertion is false" in message, message
assert lib.futhark_entry_checked(ctx, ctypes.byref(z), ia, 1) == 0 and z.value == 12
lib.futhark_free_i32_1d(ctx, ia)

lib.futhark_context_free(ctx)
lib.futhark_context_config_free(cfg)
print("OK")
