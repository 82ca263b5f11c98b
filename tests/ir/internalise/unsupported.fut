-- A construct the internaliser does not handle yet is a diagnostic at its
-- span, not a crash.
-- RUN: not futmlir opt %s 2>&1
-- CHECK: internalisation of `i32.mul_hi` is not supported yet
-- CHECK: unsupported.fut:7:32

entry main (x: i32): i32 = x + i32.mul_hi x x
