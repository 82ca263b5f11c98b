-- A functor whose body defines nested modules and a module type.
-- ==
-- input { 6 } output { 3 12 }

module F (P: { val k : i32 }) = {
  module type T = { val h : i32 -> i32 }
  module Half : T = { def h (x: i32) = x / 2 }
  module Scale = { def h (x: i32) = x * P.k }
}

module G = F { def k = 2 }

def main (x: i32) = (G.Half.h x, G.Scale.h x)
