-- An abbreviation for arrays of records.
-- ==
-- input { [1, 2, 3] }
-- output { 14 }
type item = {key: i32, weight: i32}
type~ table = []item

def score (t: table): i32 = i32.sum (map (\e -> e.key * e.weight) t)

def main (xs: []i32): i32 = score (map (\x -> {key = x, weight = x}) xs)
