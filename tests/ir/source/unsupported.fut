-- A size parameter no parameter type mentions is a diagnostic at its
-- span (as in Futhark), not a panic in the emitter.
-- RUN: not futmlir opt %s --emit=source 2>&1
def fill [n] (x: i32): [n]i32 = replicate n x

def main (x: i32) = fill x

-- (The CHECK lines are far from the definition, so that the snippet of
-- the source in the message does not show them.)
-- CHECK: size `n` is the size of nothing in the parameters' types
-- CHECK: unsupported.fut:4:10
