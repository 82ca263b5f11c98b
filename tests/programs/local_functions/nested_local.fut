-- Local functions defined inside other local functions.
-- ==
-- input { 5 }
-- output { 36 }
def main (x: i32): i32 =
  let outer (y: i32): i32 =
    let inner (z: i32): i32 = z + 1
    in inner y * inner y
  in outer x
