-- Sieve of Eratosthenes with loops and in-place updates.
-- ==
-- input { 30i64 }
-- output { [2i64, 3i64, 5i64, 7i64, 11i64, 13i64, 17i64, 19i64, 23i64, 29i64] }
-- input { 2i64 }
-- output { empty([0]i64) }
-- input { 0i64 }
-- output { empty([0]i64) }
def main (n: i64): []i64 =
  let is_prime = map (\i -> i >= 2) (iota n)
  let is_prime =
    loop is_prime = is_prime for i < n do
      if is_prime[i] then
        let (is_prime, _) =
          loop (is_prime, j) = (is_prime, i * i) while j < n do
            (is_prime with [j] = false, j + i)
        in is_prime
      else is_prime
  in filter (\i -> is_prime[i]) (iota n)
