-- A file imported inside a functor's body: its declarations are the
-- file's, callable from every instance (Note [Imports in checked-only
-- code]), not part of the body's checked-only copy.
-- ==
-- input { [1, 2, 3] } output { [3, 6, 9] [2, 4, 6] }

module mk (P: { val k : i32 }) = {
  import "lib/scale"
  def run [n] (xs: [n]i32) = scale_all P.k xs
}

module three = mk { def k = 3i32 }
module two = mk { def k = 2i32 }

entry main (xs: []i32) = (three.run xs, two.run xs)
