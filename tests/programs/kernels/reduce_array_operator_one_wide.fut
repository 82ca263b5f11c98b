-- A reduction whose operator is a one-wide `map2 (&&)`, which the
-- simplifier makes an index and a `replicate`: the vectorised-operator
-- rule must decline it (its first op has no operands) rather than panic,
-- and the reduction runs sequentially. Found by `futmlir fuzz`.
-- ==
-- input { 1i64 } output { true }
entry main (a0: i64) =
  (reduce (&&) true (reduce (map2 (&&)) (replicate 1 true) (replicate 3 (replicate 1 true))))
