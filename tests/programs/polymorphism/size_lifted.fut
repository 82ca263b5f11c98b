-- Size-lifted type parameters `'~a`: their values may be returned from
-- the branches of an `if` and be loop parameters (only functions may not).
-- ==
-- input { [1, 2, 3] true }
-- output { [1, 2, 3] 1 [8, 16, 24] }
-- input { [1, 2, 3] false }
-- output { [3, 2, 1] 3 [8, 16, 24] }
def choose '~a (b: bool) (x: a) (y: a): a = if b then x else y

def iterate '~a (n: i32) (f: a -> a) (x: a): a =
  loop acc = x for _i < n do f acc

def main [n] (xs: [n]i32) (b: bool): ([n]i32, i32, [n]i32) =
  let r = choose b {v = xs, s = xs[0]} {v = reverse xs, s = xs[n - 1]}
  in (r.v, r.s, iterate 3 (map (* 2)) xs)
