-- A call in a map of a recursive function that returns an array: on the
-- GPU the device function returns a block it allocated in the thread,
-- which the calling thread owns and frees (Note [Functions at the imp
-- level] in lowering/src/segop_to_imp/call.rs).
-- ==
-- input { [0i64, 1i64, 3i64, 4i64] }
-- output { [0i64, 2i64, 9i64, 14i64] [0i64, 1i64, 3i64, 4i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) empty([0]i64) }

def countdown (n: i64) : []i64 =
  if n <= 0 then [] else [n] ++ countdown (n - 1)

def main (ns: []i64) : ([]i64, []i64) =
  unzip (map (\n -> let xs = countdown n
                    in (reduce (+) 0 xs + length xs, if n > 0 then xs[0] else 0)) ns)
