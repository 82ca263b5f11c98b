-- The #[unroll] attribute on a loop.
-- ==
-- input { 2 }
-- output { 32 }
def main (x: i32): i32 = #[unroll] loop acc = x for _i < 4 do acc * 2
