-- A construct the internaliser does not handle yet is a diagnostic at its
-- span, not a crash.
-- RUN: not futmlir opt %s 2>&1
-- CHECK: internalisation of slices with a stride that is not a constant is not supported yet
-- CHECK: unsupported.fut:7:47

entry main (xs: []i32) (s: i64): []i32 = xs[::s]
