-- Loops with closed forms (Note [Loop closed forms]) go: a sum of an
-- invariant (in the parameter's type, wrapping around), a parameter set to
-- a value from outside, or to one of two under an invariant condition. A
-- negative or zero count gives the initial values.
-- ==
-- input { 10i16 3i64 true }
-- output { 100i16 30i64 7 7 }
-- input { 300i16 -2i64 false }
-- output { 24464i16 0i64 1 1 }
-- input { -5i16 1i64 false }
-- output { 0i16 10i64 7 1 }
-- structure { Loop 0 }

def main (x: i16) (n: i64) (c: bool): (i16, i64, i32, i32) =
  let s = loop acc = 0 for _i < x do acc + x
  let t = loop acc = 0 for _i < n do 10 + acc
  let u = loop v = 1 for _i < n do 7
  let w = loop v = 1 for _i < n do if c then 7 else v
  in (s, t, u, w)
