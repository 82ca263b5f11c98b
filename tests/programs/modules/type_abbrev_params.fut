-- Type abbreviations with parameters defined in a module, applied through
-- qualified names.
-- ==
-- input { 2 } output { [2, 2, 2] 3 true }

module T = {
  type vec [n] 'a = [n]a
  type pair 'a 'b = (a, b)
  def rep 'a (x: a) : vec [3] a = replicate 3 x
}

def main (x: i32) : ([3]i32, i32, bool) =
  let v : T.vec [3] i32 = T.rep x
  let p : T.pair i32 bool = (x + 1, true)
  in (v, p.0, p.1)
