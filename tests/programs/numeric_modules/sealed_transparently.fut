-- The numeric modules match their module types (the prelude seals them
-- so); a program may seal them again, transparently.
-- ==
-- input { [1, 2, 3] }
-- output { 6 2147483647 true 4607182418800017408u64 2.0f32 }
module I: integral with t = i32 = i32
module F: float with t = f64 with int_t = u64 = f64
module G: real with t = f32 = f32
def main (xs: []i32) = (I.sum xs, I.highest, F.pi > 3.0, F.to_bits 1.0, G.pow 2 1)
