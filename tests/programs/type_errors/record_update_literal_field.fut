-- A field whose type is a literal's cannot become a bool by a record
-- update (Futhark unifies the two; a known field type may change).
-- ==
-- error: bool

def main (x: i32) =
  let r = {a = [1, 2], b = x}
  let r.a = [true]
  in r.b
