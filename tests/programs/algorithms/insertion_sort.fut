-- Insertion sort with nested loops and in-place updates.
-- ==
-- input { [5, 2, 9, 1, 5, 6] }
-- output { [1, 2, 5, 5, 6, 9] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
-- input { [3, 2, 1] }
-- output { [1, 2, 3] }
def main (xs: []i32): []i32 =
  let n = length xs
  in loop arr = copy xs for i < n do
       let (arr, _) =
         loop (arr, j) = (arr, i) while j > 0 && arr[j - 1] > arr[j] do
           let a = arr[j - 1]
           let b = arr[j]
           let arr[j - 1] = b
           let arr[j] = a
           in (arr, j - 1)
       in arr
