-- `#[unroll]` with a constant trip count: the loop becomes copies of its
-- body. A loop whose count is not known stays a loop, as does one without
-- the attribute.
-- ==
-- input { 2 [1, 2, 3, 4] 3i64 }
-- output { 32 10 34 }
-- input { 1 [0, 0, 0, 1] 0i64 }
-- output { 16 1 2 }
-- structure { Loop 2 }

def main (x: i32) (xs: [4]i32) (k: i64): (i32, i32, i32) =
  let a = #[unroll] loop acc = x for _i < 4 do acc * 2
  let b = #[unroll] loop s = 0 for y in xs do s + y
  let c = #[unroll] loop acc = 1 for i < k do acc * 2 + i32.i64 i
  let d = loop acc = 1 for i < k do acc * 3 - i32.i64 i
  in (a, b, c + d)
