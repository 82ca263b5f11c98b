-- `unflatten` of an array coerced to a size we do not track (`opaque`
-- in a size, as diku-dk's linalg writes it): the outer size is derived
-- from the argument's length at run time (Note [Sizes derived from the
-- argument]).
-- ==
-- input { [[1, 2], [3, 4]] } output { [[1, 2], [3, 4]] }
-- input { [[1, 2, 3], [4, 5, 6], [7, 8, 9]] } output { [[1, 2, 3], [4, 5, 6], [7, 8, 9]] }

def main [b] (a: [b][b]i32) : [b][b]i32 =
  map (\(m: [b][b]i32) -> copy m) (unflatten (a :> [opaque 1 * b][b]i32))
  |> head
