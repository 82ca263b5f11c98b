-- A size parameter that only an array of empty tuples carries
-- (`[n]()`, a "phantom" size): a first-order function given one gets
-- the size from the argument's type at the call.
-- ==
-- input { [1, 2, 3] } output { [0, 1, 2] [1, 2, 3] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) }

type size [n] = [n]()

def iota' [n] (_: size [n]) : [n]i32 =
  0..1..<i32.i64 n :> [n]i32

def size_of [n] 'a (_: [n]a) : size [n] =
  replicate n ()

def main [n] (xs: [n]i32) = unzip (zip (iota' (size_of xs)) xs)
