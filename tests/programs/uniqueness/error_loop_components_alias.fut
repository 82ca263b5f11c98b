-- A loop body that returns one fresh array for two parameters gives a
-- result whose components alias each other, so they cannot both be
-- returned as unique (Futhark's issue 1975).
-- ==
-- error: aliased to some other component

def main (n: i64) : (*[]i64, *[]i64) =
  let (foo, bar) =
    loop _ = (iota 10, iota 10) for _i < n do
      let arr = iota 10
      in (arr, arr)
  in (foo, bar)
