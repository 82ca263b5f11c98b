-- `#[unsafe] e` removes the assertions inside `e` in compiled code (the
-- interpreter keeps them, as Futhark's does); an assertion outside it stays.
-- ==
-- entry: inside
-- compiled input { 3 } output { 1 }
-- compiled input { 4 } output { 2 }
-- ==
-- entry: outside
-- input { 3 } error: Assertion is false: \(x % 2 == 0\)
-- input { 4 } output { 2 }

entry inside (x: i32) = #[unsafe] assert (x % 2 == 0) (x / 2)
entry outside (x: i32) = assert (x % 2 == 0) (#[unsafe] x / 2)
