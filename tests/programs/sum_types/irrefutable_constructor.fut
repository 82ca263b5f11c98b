-- A constructor pattern outside `match` is fine where the type has no
-- other constructor.
-- ==
-- input { 4 } output { 12 }
type wrapped = #wrap i32 i32

def unwrap ((#wrap a b): wrapped): i32 = a * b

def main (x: i32): i32 =
  let w: wrapped = #wrap x 3
  let (#wrap p q) = w
  in unwrap w + p - q - 1
