-- A built-in module sealed opaquely: its type is abstract (`I.t` is not
-- `i32` outside), its members are the built-in ones at the
-- specification's types, operators and local opens included.
-- ==
-- input { 5 }
-- output { 28i64 5.377661f32 }

module I: integral = i32
module F: float = f32

def main (x: i32) : (i64, f32) =
  let a = I.i32 x
  let b = I.(a * a + i32 3)
  in (I.to_i64 (I.max b (I.highest I.- I.highest)), f32.f64 (F.to_f64 (F.sqrt (F.i32 x) F.+ F.pi)))
