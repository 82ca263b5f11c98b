-- A type parameter instantiated with an array type whose size is a
-- variable of the caller: the callee's empty array (or replicate) gets
-- that size, even where the callee binds a variable of the same name.
-- ==
-- input { 2i64 } output { 2i64 empty([0][2]i32) }
-- input { 0i64 } output { 0i64 empty([0][0]i32) }

def empty 'a (x: i64) = (x, [] : [0]a)

def main x : (i64, [][x]i32) = empty x

-- ==
-- entry: other_name
-- input { 3i64 } output { empty([0][3]f32) }
entry other_name (y: i64) : [][y]f32 =
  let (_, r) = empty 7 : (i64, [0][y]f32)
  in r

-- `x` is also the callee's parameter, bound to a different value.
-- ==
-- entry: shadowed
-- input { 4i64 } output { empty([0][4]bool) }
entry shadowed (x: i64) : [][x]bool =
  let (_, r) = empty (x + 1) : (i64, [0][x]bool)
  in r
