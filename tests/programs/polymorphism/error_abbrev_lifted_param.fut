-- An abbreviation declared `type` (unlifted) cannot use a lifted type
-- parameter in its definition: it must be declared `type^`.
-- ==
-- error: declare it with
type wrap '^a = {value: a}

def main (x: i32): i32 =
  let w: wrap i32 = {value = x}
  in w.value
