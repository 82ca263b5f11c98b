-- A record of an operator and its neutral element (a lifted type
-- abbreviation) passed to a generic reduction.
-- ==
-- input { [3, -1, 4] }
-- output { 6 4 false }
-- input { [2, 5] }
-- output { 7 5 true }
type^ monoid 'a = {op: a -> a -> a, ne: a}

def mconcat 'a (m: monoid a) (xs: []a): a = reduce m.op m.ne xs

def main (xs: []i32): (i32, i32, bool) =
  ( mconcat {op = (+), ne = 0} xs
  , mconcat {op = i32.max, ne = i32.lowest} xs
  , mconcat {op = (&&), ne = true} (map (> 0) xs) )
