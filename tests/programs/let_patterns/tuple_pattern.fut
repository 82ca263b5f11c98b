-- Destructuring a tuple in a let binding.
-- ==
-- input { 5 }
-- output { 16 }
def main (x: i32): i32 =
  let (a, b) = (x + 1, x * 2)
  in a + b
