-- A construct the emitter does not handle is a diagnostic at its span,
-- not a panic: here a size parameter no parameter type mentions (Futhark
-- rejects the definition; the checker leaves it to the call).
-- RUN: not futmlir opt %s --emit=source 2>&1
-- CHECK: emission of a size parameter `n` that no parameter type mentions as source IR is not supported yet
-- CHECK: unsupported.fut:9:21
def fill [n] (x: i32): [n]i32 = replicate n x

def main (x: i32) = fill x
