-- Entry points and functions defined point-free: their value is a
-- function, which takes the arguments (Note [Point-free definitions]).
-- ==
-- entry: main
-- input { [1, 2, 3] } output { [4, 5, 6] }
-- ==
-- entry: total
-- input { [1, 2, 3] } output { 6 }
-- ==
-- entry: curried
-- input { 3 4 } output { 7 }

def inc (x: i32) = x + 1
def inc3 = inc >-> inc >-> inc
def add (x: i32) = \(y: i32) -> x + y

entry main = map inc3
entry total: []i32 -> i32 = reduce (+) 0
entry curried x = add x
