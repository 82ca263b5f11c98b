-- The result of applying a function parameter may alias anything it
-- holds: it aliases the parameter, which is not consumable.
-- ==
-- error: Consuming "f", which is not consumable
def g (f: i32 -> []i32) : i32 =
  let xs = f 1
  let xs[0] = 2
  in xs[0]
