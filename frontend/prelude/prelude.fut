-- The futmlir prelude: the parts of Futhark's basis library that are
-- written in Futhark. The rest are built-ins (see
-- frontend/src/check/builtins.rs). The numeric modules (`i32`, `f32`, ...)
-- are built-in modules whose members are built-ins; the module types they
-- match (`numeric`, `integral`, `real`, ...) are at the end of this file.

-- Function application and composition.
def (|>) '^a '^b (x: a) (f: a -> b): b = f x
def (<|) '^a '^b (f: a -> b) (x: a): b = f x
def (>->) '^a '^b '^c (f: a -> b) (g: b -> c) (x: a): c = g (f x)
def (<-<) '^a '^b '^c (g: b -> c) (f: a -> b) (x: a): c = g (f x)

def id '^a (x: a): a = x
def const '^a '^b (x: a) (_: b): a = x
def flip '^a '^b '^c (f: a -> b -> c) (b: b) (a: a): c = f a b
def curry '^a '^b '^c (f: (a, b) -> c) (a: a) (b: b): c = f (a, b)
def uncurry '^a '^b '^c (f: a -> b -> c) (p: (a, b)): c = f p.0 p.1

-- Arrays.
def length [n] 't (_: [n]t): i64 = n
def null [n] 't (_: [n]t): bool = n == 0
def head [n] 't (xs: [n]t): t = xs[0]
def last [n] 't (xs: [n]t): t = xs[n - 1]
def tail [n] 't (xs: [n]t): []t = xs[1:]
def init [n] 't (xs: [n]t): []t = xs[:n - 1]
def take [n] 't (i: i64) (xs: [n]t): [i]t = xs[0:i] :> [i]t
def drop [n] 't (i: i64) (xs: [n]t): []t = xs[i:]
def indices [n] 't (_: [n]t): *[n]i64 = iota n

def all [n] 'a (f: a -> bool) (xs: [n]a): bool = reduce (&&) true (map f xs)
def any [n] 'a (f: a -> bool) (xs: [n]a): bool = reduce (||) false (map f xs)

def foldl [n] 'a 'b (f: a -> b -> a) (acc: a) (bs: [n]b): a =
  loop acc for b in bs do f acc b

def foldr [n] 'a 'b (f: b -> a -> a) (acc: a) (bs: [n]b): a =
  loop acc for i < n do f bs[n - 1 - i] acc

def and [n] (xs: [n]bool): bool = reduce (&&) true xs
def or [n] (xs: [n]bool): bool = reduce (||) false xs

-- The module types of the numeric modules: `i32`, `u8`, ... match
-- `integral`, `f16`, `f32`, `f64` match `real`, and all match `numeric`.

module type from_prim = {
  type t
  val i8 : i8 -> t
  val i16 : i16 -> t
  val i32 : i32 -> t
  val i64 : i64 -> t
  val u8 : u8 -> t
  val u16 : u16 -> t
  val u32 : u32 -> t
  val u64 : u64 -> t
  val f16 : f16 -> t
  val f32 : f32 -> t
  val f64 : f64 -> t
  val bool : bool -> t
}

module type numeric = {
  include from_prim
  val (+) : t -> t -> t
  val (-) : t -> t -> t
  val (*) : t -> t -> t
  val (/) : t -> t -> t
  val (%) : t -> t -> t
  val (**) : t -> t -> t
  val to_i64 : t -> i64
  val (==) : t -> t -> bool
  val (<) : t -> t -> bool
  val (>) : t -> t -> bool
  val (<=) : t -> t -> bool
  val (>=) : t -> t -> bool
  val (!=) : t -> t -> bool
  val neg : t -> t
  val max : t -> t -> t
  val min : t -> t -> t
  val abs : t -> t
  val sgn : t -> t
  val highest : t
  val lowest : t
  val sum [n] : [n]t -> t
  val product [n] : [n]t -> t
  val maximum [n] : [n]t -> t
  val minimum [n] : [n]t -> t
}

module type integral = {
  include numeric
  val (//) : t -> t -> t
  val (%%) : t -> t -> t
  val (&) : t -> t -> t
  val (|) : t -> t -> t
  val (^) : t -> t -> t
  val not : t -> t
  val (<<) : t -> t -> t
  val (>>) : t -> t -> t
  val (>>>) : t -> t -> t
  val num_bits : i32
  val get_bit : i32 -> t -> i32
  val set_bit : i32 -> t -> i32 -> t
  val popc : t -> i32
  val mul_hi : t -> t -> t
  val mad_hi : t -> t -> t -> t
  val clz : t -> i32
  val ctz : t -> i32
}

module type real = {
  include numeric
  val from_fraction : i64 -> i64 -> t
  val sqrt : t -> t
  val cbrt : t -> t
  val exp : t -> t
  val sin : t -> t
  val cos : t -> t
  val tan : t -> t
  val asin : t -> t
  val acos : t -> t
  val atan : t -> t
  val sinh : t -> t
  val cosh : t -> t
  val tanh : t -> t
  val asinh : t -> t
  val acosh : t -> t
  val atanh : t -> t
  val atan2 : t -> t -> t
  val hypot : t -> t -> t
  val gamma : t -> t
  val lgamma : t -> t
  val erf : t -> t
  val erfc : t -> t
  val lerp : t -> t -> t -> t
  val fma : t -> t -> t -> t
  val mad : t -> t -> t -> t
  val log : t -> t
  val log2 : t -> t
  val log10 : t -> t
  val log1p : t -> t
  val ceil : t -> t
  val floor : t -> t
  val trunc : t -> t
  val round : t -> t
  val copysign : t -> t -> t
  val isinf : t -> bool
  val isnan : t -> bool
  val isfinite : t -> bool
  val inf : t
  val nan : t
  val pi : t
  val e : t
  val epsilon : t
  val recip : t -> t
}

module type float = {
  include real
  type int_t
  val from_bits : int_t -> t
  val to_bits : t -> int_t
  val num_bits : i32
}
