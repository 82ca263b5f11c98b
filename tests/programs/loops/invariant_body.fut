-- A for loop whose body reads neither its index nor its parameters is its
-- body once when it runs at all, and its initial values otherwise: the
-- loops go, inner ones first, and an index that can fail fails only when
-- the loop would have run.
-- ==
-- input { 3 2i64 [1,2,3] }
-- output { [2,3] }
-- input { 0 2i64 [1,2,3] }
-- output { [1,2] }
-- input { 2 2i64 [1,2] }
-- error: out of bounds
-- input { 0 2i64 [1,2] }
-- output { [1,2] }
-- structure { Loop 0 }

def main (n: i32) (a: i64) (arr: []i32) =
  let k = length arr + 2
  in loop x = take a arr
     for _i < n do
       loop _y = take a arr for _j < n do map (+ arr[k - 5]) (take a arr)
