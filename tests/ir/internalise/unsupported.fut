-- A construct the internaliser does not handle yet is a diagnostic at its
-- span, not a crash.
-- RUN: not futmlir opt %s 2>&1
-- CHECK: internalisation of a call that does not determine the size parameter `n` is not supported yet
-- CHECK: unsupported.fut:7:28

entry main (n: i64): i64 = length (replicate n ())
