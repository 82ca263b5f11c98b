-- A size parameter that only the result type mentions is allowed (as in
-- Futhark, whose call sites take it from their context); a call whose
-- context does not give it is a diagnostic at the call, not a panic in
-- the emitter.
-- RUN: not futmlir opt %s --emit=source 2>&1
def fill [n] (x: i32): [n]i32 = replicate n x

def main (x: i32) = fill x

-- (The CHECK lines are far from the definition, so that the snippet of
-- the source in the message does not show them.)
-- CHECK: size parameter `n` that no parameter type mentions
-- CHECK: unsupported.fut:8:21
