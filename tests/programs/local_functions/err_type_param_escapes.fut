-- A local function's type parameter cannot become the type of something
-- bound outside it (Note [Scope violations]).
-- ==
-- error: "b".*scope-violation

def f x =
  let g 'b (y: b) = if true then y else x
  in g

def main (x: i32) = x
