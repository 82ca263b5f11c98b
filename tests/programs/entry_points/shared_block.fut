-- One test block applied to two entry points that agree.
-- ==
-- entry: sum_loop sum_reduce
-- input { [1, 2, 3, 4] }
-- output { 10 }
-- input { empty([0]i32) }
-- output { 0 }

entry sum_loop (xs: []i32): i32 = loop acc = 0 for x in xs do acc + x
entry sum_reduce (xs: []i32): i32 = reduce (+) 0 xs
