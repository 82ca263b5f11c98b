-- Two sum types with different constructors: Futhark names those only one
-- of them has.
-- ==
-- error: Unshared constructors: #c, #d.

def f (v: #a i32 | #c i32) : #a i32 | #d i32 = v

def main (x: i32) = match f (#a x) case #a y -> y case #d y -> y
