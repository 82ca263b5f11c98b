-- A random number engine in the style of Futhark's cpprandom library: a
-- module type of engines, a linear congruential engine built by a functor
-- from its parameters, and a functor giving uniform integers in a range.
-- ==
-- input { 1 } output { 48271i32 182605794i32 [3i32, 3i32, 2i32] }

module type rng_engine = {
  module int : { type t }
  type rng
  val rng_from_seed [n] : [n]i32 -> rng
  val rand : rng -> (rng, int.t)
}

module linear_congruential_engine (T: { type t val u32 : t -> u32 val i32 : u32 -> t })
                                  (P: { val a : u32 val c : u32 val m : u32 }) : rng_engine with int.t = T.t = {
  module int = { type t = T.t }
  type rng = u32
  def rng_from_seed [n] (seed: [n]i32) : rng =
    let x = foldl (\acc (s: i32) -> acc ^ u32.i32 s) 0u32 seed
    in if x == 0 then 1 else x
  def rand (x: rng) : (rng, int.t) =
    let x' = u32.u64 ((u64.u32 P.a * u64.u32 x + u64.u32 P.c) % u64.u32 P.m)
    in (x', T.i32 x')
}

module minstd_rand =
  linear_congruential_engine { type t = i32 def u32 (x: i32) = u32.i32 x def i32 (x: u32) = i32.u32 x }
                             { def a = 48271u32 def c = 0u32 def m = 2147483647u32 }

module uniform_int (E: rng_engine with int.t = i32) = {
  def draw (lo: i32) (hi: i32) (r: E.rng) : (E.rng, i32) =
    let (r', x) = E.rand r
    in (r', lo + x % (hi - lo + 1))
}

module U = uniform_int minstd_rand

def main (seed: i32) =
  let r = minstd_rand.rng_from_seed [seed]
  let (r, a) = minstd_rand.rand r
  let (_, b) = minstd_rand.rand r
  let (_, ds) = loop (r, ds) = (r, [0, 0, 0]) for i < 3 do
                  let (r', d) = U.draw 1 4 r in (r', ds with [i] = d)
  in (a, b, ds)
