-- A structure ascribed a parametric module type.
-- ==
-- error: expected a parametric module

module type VAL = { val v : i32 }

module M : (P: VAL) -> VAL = { def v = 1 }

def main (x: i32) = x
