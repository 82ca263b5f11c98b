-- The futmlir prelude: Futhark's basis library, written in Futhark on top
-- of the intrinsics (frontend/src/check/builtins.rs): the SOACs and array
-- primitives, and per scalar type its arithmetic, comparisons, bit
-- operations, math functions and conversions. Here the scalar intrinsics
-- of type `T` are the module `intrinsics.T`, which only this file can
-- name (Note [Intrinsic modules] in frontend/src/modules/mod.rs); the
-- numeric modules `i8` ... `f64` at the end of this file are built from
-- them and from what is derived here.

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

-- Repetition: `f` applied `n` times (none when `n <= 0`), or for as long
-- as `p` does (`iterate_while`) or does not (`iterate_until`) hold of the
-- current value, tested before each application.
def iterate 'a (n: i32) (f: a -> a) (x: a): a = loop x for _i < n do f x
def iterate_until 'a (p: a -> bool) (f: a -> a) (x: a): a = loop x while !(p x) do f x
def iterate_while 'a (p: a -> bool) (f: a -> a) (x: a): a = loop x while p x do f x

def not (x: bool): bool = !x

-- Forward-mode automatic differentiation, on the intrinsic `jvp2 f x x'`
-- (`f x` and its tangent in direction `x'`): the tangent alone, and the
-- tangents of several directions (`jmp`, "Jacobian-matrix product").
def jvp 'a 'b (f: a -> b) (x: a) (x': a): b = (jvp2 f x x').1
def jmp 'a 'b [n] (f: a -> b) (x: a) (x': [n]a): [n]b = map (\t -> (jvp2 f x t).1) x'
def jmp2 'a 'b [n] (f: a -> b) (x: a) (x': [n]a): (b, [n]b) = (f x, jmp f x x')

-- Reverse-mode automatic differentiation, on the intrinsic `vjp2 f x y'`
-- (`f x` and the adjoint of `x` for the cotangent `y'` of the result):
-- the adjoint alone, and the adjoints of several cotangents (`mjp`,
-- "matrix-Jacobian product").
def vjp 'a 'b (f: a -> b) (x: a) (y': b): a = (vjp2 f x y').1
def mjp 'a 'b [n] (f: a -> b) (x: a) (y': [n]b): [n]a = map (\t -> (vjp2 f x t).1) y'
def mjp2 'a 'b [n] (f: a -> b) (x: a) (y': [n]b): (b, [n]a) = (f x, mjp f x y')

-- A custom adjoint whose function gets the tape `c` that `f` made beside
-- its result, and the result's cotangent, on the intrinsic `with_vjp f f'
-- x` (`f x`, with the adjoint `f' (f x) y'`).
def with_vjp_tape 'a 'b 'c (f: a -> (c, b)) (f': (c, b) -> a) (x: a): b =
  (with_vjp f (\(c, _) (_, b') -> f' (c, b')) x).1

-- A break point in Futhark's REPL, which futmlir does not have: the
-- identity, like `trace` without the printing.
def break 't (x: t): t = x

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
def reverse [n] 't (xs: [n]t): [n]t = xs[::-1] :> [n]t

-- `xs` at size `n`: a run-time error unless `n` is its size.
def sized [m] 't (n: i64) (xs: [m]t): [n]t = xs :> [n]t

-- A fresh copy: an array in its own memory, laid out row by row.
def manifest 't (x: t): *t = copy x

def zip2 [n] 'a 'b (as: [n]a) (bs: [n]b): *[n](a, b) = zip as bs
def unzip2 [n] 'a 'b (xs: [n](a, b)): ([n]a, [n]b) = unzip xs

def flatten_3d [n] [m] [l] 't (xs: [n][m][l]t): [n*m*l]t = flatten (flatten xs)
def flatten_4d [n] [m] [l] [k] 't (xs: [n][m][l][k]t): [n*m*l*k]t = flatten (flatten_3d xs)

-- The maps of several arrays: one map (the intrinsic) of their zip.
def map1 'a 'x [n] (f: a -> x) (as: [n]a): *[n]x = map f as
def map2 'a 'b 'x [n] (f: a -> b -> x) (as: [n]a) (bs: [n]b): *[n]x =
  map (\(a, b) -> f a b) (zip as bs)
def map3 'a 'b 'c 'x [n] (f: a -> b -> c -> x) (as: [n]a) (bs: [n]b) (cs: [n]c): *[n]x =
  map (\(a, b, c) -> f a b c) (zip3 as bs cs)
def map4 'a 'b 'c 'd 'x [n] (f: a -> b -> c -> d -> x) (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d): *[n]x =
  map (\(a, b, c, d) -> f a b c d) (zip4 as bs cs ds)
def map5 'a 'b 'c 'd 'e 'x [n] (f: a -> b -> c -> d -> e -> x)
                                (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) (es: [n]e): *[n]x =
  map (\(a, b, c, d, e) -> f a b c d e) (zip5 as bs cs ds es)

-- Each size is checked (`iota`) even where another is 0.
def tabulate 'a (n: i64) (f: i64 -> a): *[n]a = map f (iota n)
def tabulate_2d 'a (n: i64) (m: i64) (f: i64 -> i64 -> a): *[n][m]a =
  let js = iota m
  in map (\i -> map (f i) js) (iota n)
def tabulate_3d 'a (n: i64) (m: i64) (l: i64) (f: i64 -> i64 -> i64 -> a): *[n][m][l]a =
  let js = iota m
  let ks = iota l
  in map (\i -> map (\j -> map (f i j) ks) js) (iota n)

def all [n] 'a (f: a -> bool) (xs: [n]a): bool = reduce (&&) true (map f xs)
def any [n] 'a (f: a -> bool) (xs: [n]a): bool = reduce (||) false (map f xs)

def foldl [n] 'a 'b (f: a -> b -> a) (acc: a) (bs: [n]b): a =
  loop acc for b in bs do f acc b

def foldr [n] 'a 'b (f: b -> a -> a) (acc: a) (bs: [n]b): a =
  loop acc for i < n do f bs[n - 1 - i] acc

def and [n] (xs: [n]bool): bool = reduce (&&) true xs
def or [n] (xs: [n]bool): bool = reduce (||) false xs

-- Histograms over the rows of a matrix or cube: an index out of range in
-- any dimension writes nothing, as in `reduce_by_index`.
def reduce_by_index_2d 'a [k] [m] [n] (dest: *[k][m]a) (f: a -> a -> a) (ne: a)
                                      (is: [n](i64, i64)) (vs: [n]a): *[k][m]a =
  let flat (i: i64, j: i64) = if i >= 0 && i < k && j >= 0 && j < m then i * m + j else -1
  in unflatten (reduce_by_index (flatten dest) f ne (map flat is) vs)

def reduce_by_index_3d 'a [k] [m] [l] [n] (dest: *[k][m][l]a) (f: a -> a -> a) (ne: a)
                                          (is: [n](i64, i64, i64)) (vs: [n]a): *[k][m][l]a =
  let flat (i: i64, j: i64, h: i64) =
    if i >= 0 && i < k && j >= 0 && j < m && h >= 0 && h < l then (i * m + j) * l + h else -1
  in unflatten_3d (reduce_by_index (flatten_3d dest) f ne (map flat is) vs)

-- `k` elements, `vs[j]` at `is[j]` and `x` where no index points; an
-- index out of range writes nothing.
def spread 't [n] (k: i64) (x: t) (is: [n]i64) (vs: [n]t): *[k]t = scatter (replicate k x) is vs

-- The exclusive scan: element `i` combines the elements before `i` (the
-- first is `ne`). It is the inclusive scan of the input shifted right by
-- one, `ne` in front, which fuses with the scan.
def exscan [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a): *[n]a =
  scan op ne (map (\i -> if i == 0 then ne else as[i - 1]) (iota n))

-- The irregular map: `f` gives each element a segment of some length `k`
-- (and a value `c`); the results are the segments' lengths (the shape),
-- the flags (`true` where a segment starts), each segment's offset, the
-- segments one after the other, and the values `c`. Futhark's arrays are
-- regular, so no `map` can hold the segments: element `j` of the result
-- finds its segment `i` by a binary search of the offsets (the last `i`
-- with `offsets[i] <= j`: empty segments before it share its offset) and
-- is computed as `(f as[i]).0[j - offsets[i]]`, which applies `f` once per
-- element of a segment, as well as once per segment for the shape and the
-- values. A search rather than a scatter of the segments' starts: it is
-- a map, which the compiled backends also take inside another map.
def flatmap [n] 'a 'b 'c (f: a -> ?[k].([k]b, c)) (as: [n]a): ?[m].([n]i64, [m]bool, [n]i64, [m]b, [n]c) =
  let (shape, cs) = unzip (map (\x -> let (bs, c) = f x in (length bs, c)) as)
  let offsets = exscan (+) 0 shape
  let m = reduce (+) 0 shape
  -- `offsets[lo] <= j < offsets[hi]` (or `hi == n`); `offsets[0] == 0`.
  let segment (j: i64): i64 =
    let (lo, _) =
      loop (lo, hi) = (0, n) while hi - lo > 1 do
        let mid = (lo + hi) / 2
        in if offsets[mid] <= j then (mid, hi) else (lo, mid)
    in lo
  let segments = map segment (iota m)
  let flags = map2 (\j i -> j == offsets[i]) (iota m) segments
  let data = map2 (\j i -> (f as[i]).0[j - offsets[i]]) (iota m) segments
  in (shape, flags, offsets, data, cs)

-- `flatmap` of a function without the value `c`.
def flatmap' [n] 'a 'b (f: a -> ?[k].[k]b) (as: [n]a): ?[m].([n]i64, [m]bool, [n]i64, [m]b) =
  let (shape, flags, offsets, data, _) = flatmap (\x -> (f x, ())) as
  in (shape, flags, offsets, data)

-- Three classes, each in its original order: those `p1` holds for, then
-- those `p2` holds for, then the rest.
def partition2 [n] 'a (p1: a -> bool) (p2: a -> bool) (xs: [n]a): ([]a, []a, []a) =
  let (as, rest) = partition p1 xs
  let (bs, cs) = partition p2 rest
  in (as, bs, cs)

-- The streams: the chunk function must give the same result however the
-- input is split into chunks, so one chunk (the whole input) is a valid
-- split; the parallelism left is inside the chunk function.
def map_stream [n] 'a 'b (f: (c: i64) -> [c]a -> [c]b) (xs: [n]a): [n]b = f n xs
def map_stream_per [n] 'a 'b (f: (c: i64) -> [c]a -> [c]b) (xs: [n]a): [n]b = f n xs
def reduce_stream [n] 'a 'b (_op: b -> b -> b) (f: (c: i64) -> [c]a -> b) (xs: [n]a): b = f n xs
def reduce_stream_per [n] 'a 'b (_op: b -> b -> b) (f: (c: i64) -> [c]a -> b) (xs: [n]a): b = f n xs

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
  val to_i64 : t -> i64
  val to_f64 : t -> f64
  val sqrt : t -> t
  val rsqrt : t -> t
  val cbrt : t -> t
  val exp : t -> t
  val sin : t -> t
  val cos : t -> t
  val tan : t -> t
  val sinpi : t -> t
  val cospi : t -> t
  val tanpi : t -> t
  val asin : t -> t
  val acos : t -> t
  val atan : t -> t
  val asinpi : t -> t
  val acospi : t -> t
  val atanpi : t -> t
  val sinh : t -> t
  val cosh : t -> t
  val tanh : t -> t
  val asinh : t -> t
  val acosh : t -> t
  val atanh : t -> t
  val atan2 : t -> t -> t
  val atan2pi : t -> t -> t
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
  val isinf : t -> bool
  val isnan : t -> bool
  val inf : t
  val nan : t
  val pi : t
  val e : t
  val recip : t -> t
  val pow : t -> t -> t
}

-- `isfinite` is futmlir's; Futhark's float modules lack it.
module type float = {
  include real
  type int_t
  val from_bits : int_t -> t
  val to_bits : t -> int_t
  val num_bits : i32
  val get_bit : i32 -> t -> i32
  val set_bit : i32 -> t -> i32 -> t
  val epsilon : t
  val nextafter : t -> t -> t
  val ldexp : t -> i32 -> t
  val copysign : t -> t -> t
  val isfinite : t -> bool
}

-- The numeric modules. Each is a functor applied to a structure of the
-- type's intrinsics (`open intrinsics.T`) and its constants; the functor
-- adds the members derivable from those, and re-exports the structure
-- (`open P` last, so that the derived definitions still see the
-- overloaded operators on `i32` and `bool`).

-- What every numeric module gets from its intrinsics and constants.
local module type numeric_core = {
  include from_prim
  val (+) : t -> t -> t
  val (-) : t -> t -> t
  val (*) : t -> t -> t
  val (/) : t -> t -> t
  val (%) : t -> t -> t
  val (**) : t -> t -> t
  val (==) : t -> t -> bool
  val (!=) : t -> t -> bool
  val (<) : t -> t -> bool
  val (<=) : t -> t -> bool
  val (>) : t -> t -> bool
  val (>=) : t -> t -> bool
  val max : t -> t -> t
  val min : t -> t -> t
  val abs : t -> t
  val sgn : t -> t
  val neg : t -> t
  val to_i64 : t -> i64
  val num_bits : i32
  val highest : t
  val lowest : t
}

local module type integral_core = {
  include numeric_core
  val (//) : t -> t -> t
  val (%%) : t -> t -> t
  val (&) : t -> t -> t
  val (|) : t -> t -> t
  val (^) : t -> t -> t
  val (<<) : t -> t -> t
  val (>>) : t -> t -> t
  val (>>>) : t -> t -> t
  val not : t -> t
  val popc : t -> i32
  val clz : t -> i32
  val mul_hi : t -> t -> t
}

local module type float_core = {
  include numeric_core
  type int_t
  -- The integers of the same width, and the bits of the significand
  -- (the stored ones, without the leading 1).
  module bits: integral with t = int_t
  val significand_bits : i32
  val to_f64 : t -> f64
  val to_bits : t -> int_t
  val from_bits : int_t -> t
  val sqrt : t -> t
  val cbrt : t -> t
  val exp : t -> t
  val log : t -> t
  val log2 : t -> t
  val log10 : t -> t
  val log1p : t -> t
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
  val floor : t -> t
  val ceil : t -> t
  val round : t -> t
  val copysign : t -> t -> t
  val fma : t -> t -> t -> t
  val mad : t -> t -> t -> t
  val inf : t
  val nan : t
  val pi : t
  val e : t
  val epsilon : t
}

-- The reductions of every numeric module. `reduce_comm`: the operators
-- are commutative, which lets the compiler reorder the reduction.
local module numeric_ops (P: numeric_core) = {
  def sum [n] (xs: [n]P.t): P.t = reduce_comm (P.+) (P.i32 0) xs
  def product [n] (xs: [n]P.t): P.t = reduce_comm (P.*) (P.i32 1) xs
  def maximum [n] (xs: [n]P.t): P.t = reduce_comm P.max P.lowest xs
  def minimum [n] (xs: [n]P.t): P.t = reduce_comm P.min P.highest xs
}

local module integral_ops (P: integral_core) = {
  open (numeric_ops P)

  -- A bit number outside `0..num_bits` reads as 0 and writes nothing;
  -- `set_bit` sets the bit to the low bit of its last argument.
  def get_bit (bit: i32) (x: P.t): i32 =
    if bit < 0 || bit >= P.num_bits then 0
    else if P.(((x >> i32 bit) & i32 1) == i32 0) then 0
    else 1

  def set_bit (bit: i32) (x: P.t) (b: i32): P.t =
    if bit < 0 || bit >= P.num_bits then x
    else let mask = P.(i32 1 << i32 bit)
         in if (b & 1) == 1 then P.(x | mask) else P.(x & not mask)

  -- The trailing zeros of `x` are the ones of `!x & (x - 1)`.
  def ctz (x: P.t): i32 = P.(popc (not x & (x - i32 1)))

  def mad_hi (a: P.t) (b: P.t) (c: P.t): P.t = P.(mul_hi a b + c)

  open P
}

local module float_ops (P: float_core) = {
  open (numeric_ops P)

  def pow (x: P.t) (y: P.t): P.t = P.(x ** y)
  def recip (x: P.t): P.t = P.(i32 1 / x)
  def from_fraction (num: i64) (den: i64): P.t = P.(i64 num / i64 den)
  def lerp (v0: P.t) (v1: P.t) (w: P.t): P.t = P.(v0 + (v1 - v0) * w)
  def trunc (x: P.t): P.t = if P.(x < i32 0) then P.ceil x else P.floor x
  -- NaN is the one value unequal to itself, and compares false with
  -- everything.
  def isnan (x: P.t): bool = P.(x != x)
  def isinf (x: P.t): bool = P.(abs x == inf)
  def isfinite (x: P.t): bool = P.(abs x < inf)

  def rsqrt (x: P.t): P.t = P.(i32 1 / sqrt x)

  -- Note [Half turns]
  -- `sinpi`, `cospi` and `tanpi` take `x` in half turns. `r = x - 2 *
  -- round (x / 2)` is `x` modulo whole turns, in [-1, 1], and exact (it
  -- is a multiple of `x`'s last place, no larger than `x`). On [0, 1],
  -- `|r|` is mapped to at most a quarter of a half turn from 0, 1/2 or 1,
  -- by the symmetries of sine and cosine, with differences that are exact
  -- there (Sterbenz): the results at whole and half turns are exact (`sinpi
  -- 1 == 0`, `cospi 0.5 == 0`, `tanpi 0.5 == inf`), and `pi * a` is small
  -- however large `x` is.
  def sinpi (x: P.t): P.t =
    let r = P.(x - i32 2 * round (x / i32 2))
    let a = P.abs r
    let s = if P.(a <= f64 0.25) then P.(sin (pi * a))
            else if P.(a <= f64 0.75) then P.(cos (pi * (f64 0.5 - a)))
            else P.(sin (pi * (i32 1 - a)))
    -- A zero takes the sign of `x` (`sinpi (-2) == -0`); NaN stays NaN.
    in if P.(s == i32 0) then P.(x * i32 0) else P.copysign s r

  def cospi (x: P.t): P.t =
    let a = P.(abs (x - i32 2 * round (x / i32 2)))
    in if P.(a <= f64 0.25) then P.(cos (pi * a))
       else if P.(a <= f64 0.75) then P.(sin (pi * (f64 0.5 - a)))
       else P.(neg (cos (pi * (i32 1 - a))))

  -- Infinite at odd halves, with the sign of the sine there.
  def tanpi (x: P.t): P.t = P.(sinpi x / cospi x)

  def asinpi (x: P.t): P.t = P.(asin x / pi)
  def acospi (x: P.t): P.t = P.(acos x / pi)
  def atanpi (x: P.t): P.t = P.(atan x / pi)
  def atan2pi (y: P.t) (x: P.t): P.t = P.(atan2 y x / pi)

  -- The bits of the representation (`to_bits`); a bit number outside
  -- `0..num_bits` reads as 0 and writes nothing.
  def get_bit (bit: i32) (x: P.t): i32 = P.bits.get_bit bit (P.to_bits x)
  def set_bit (bit: i32) (x: P.t) (b: i32): P.t = P.from_bits (P.bits.set_bit bit (P.to_bits x) b)

  -- Away from `x` towards `y` by one representable number: one step of
  -- the bits, which order the numbers of each sign by magnitude. From a
  -- zero the step is to the least subnormal of `y`'s sign; `y` itself
  -- when they are equal (so the sign of a zero `y`), NaN if either is.
  def nextafter (x: P.t) (y: P.t): P.t =
    if isnan x || isnan y then P.(x + y)
    else if P.(x == y) then y
    else if P.(x == i32 0) then P.copysign (P.from_bits (P.bits.i32 1)) y
    else let b = P.to_bits x
         in if P.(x < y) == P.(x > i32 0)
            then P.from_bits P.bits.(b + i32 1)
            else P.from_bits P.bits.(b - i32 1)

  -- Note [ldexp]
  -- `x * 2**n` rounded once. A power of two between the least and the
  -- greatest exponent of a normal number, `emin..emax`, is made from its
  -- bits, and multiplying by one is exact unless the product leaves the
  -- normal range. Larger steps go up by `2**emax` (exact until the
  -- product overflows, when the result does too) or down by
  -- `2**(emin + p)`, `p` the significand's precision: a product that
  -- leaves the normal range there is less than `2**emin`, and the rest of
  -- `n` is below `-p`, so the exact result and the result of rounding
  -- twice are both less than half the least subnormal: 0. Beyond
  -- `2*(emax - emin + p)` any finite nonzero `x` overflows or
  -- vanishes, so `n` is clamped there first (a bound on the steps).
  def ldexp (x: P.t) (n: i32): P.t =
    let bias = (1 << (P.num_bits - P.significand_bits - 2)) - 1
    let (emin, emax, p) = (1 - bias, bias, P.significand_bits + 1)
    let down = emin + p
    let pow2 (k: i32): P.t =
      let biased = k + bias
      in P.from_bits P.bits.(i32 biased << i32 P.significand_bits)
    let limit = 2 * (emax - emin + p)
    let n = if n > limit then limit else if n < -limit then -limit else n
    let (x, n) =
      loop (x, n) = (x, n) while n > emax || n < emin do
        if n > emax then (P.(x * pow2 emax), n - emax)
        else (P.(x * pow2 down), n - down)
    in P.(x * pow2 n)

  open P
}

module i8: integral with t = i8 = integral_ops {
  open intrinsics.i8
  def num_bits: i32 = 8
  def highest: i8 = 127
  def lowest: i8 = -128
}

module i16: integral with t = i16 = integral_ops {
  open intrinsics.i16
  def num_bits: i32 = 16
  def highest: i16 = 32767
  def lowest: i16 = -32768
}

module i32: integral with t = i32 = integral_ops {
  open intrinsics.i32
  def num_bits: i32 = 32
  def highest: i32 = 2147483647
  def lowest: i32 = -2147483648
}

module i64: integral with t = i64 = integral_ops {
  open intrinsics.i64
  def num_bits: i32 = 64
  def highest: i64 = 9223372036854775807
  def lowest: i64 = -9223372036854775808
}

module u8: integral with t = u8 = integral_ops {
  open intrinsics.u8
  def num_bits: i32 = 8
  def highest: u8 = 255
  def lowest: u8 = 0
}

module u16: integral with t = u16 = integral_ops {
  open intrinsics.u16
  def num_bits: i32 = 16
  def highest: u16 = 65535
  def lowest: u16 = 0
}

module u32: integral with t = u32 = integral_ops {
  open intrinsics.u32
  def num_bits: i32 = 32
  def highest: u32 = 4294967295
  def lowest: u32 = 0
}

module u64: integral with t = u64 = integral_ops {
  open intrinsics.u64
  def num_bits: i32 = 64
  def highest: u64 = 18446744073709551615
  def lowest: u64 = 0
}

-- `inf` and `nan` have no literals: they stay intrinsics.
module f16: float with t = f16 with int_t = u16 = float_ops {
  open intrinsics.f16
  module bits = u16
  def significand_bits: i32 = 10
  def num_bits: i32 = 16
  def highest: f16 = inf
  def lowest: f16 = -inf
  def pi: f16 = 3.14159265358979323846
  def e: f16 = 2.71828182845904523536
  def epsilon: f16 = 0.0009765625
}

module f32: float with t = f32 with int_t = u32 = float_ops {
  open intrinsics.f32
  module bits = u32
  def significand_bits: i32 = 23
  def num_bits: i32 = 32
  def highest: f32 = inf
  def lowest: f32 = -inf
  def pi: f32 = 3.14159265358979323846
  def e: f32 = 2.71828182845904523536
  def epsilon: f32 = 1.1920928955078125e-7
}

module f64: float with t = f64 with int_t = u64 = float_ops {
  open intrinsics.f64
  module bits = u64
  def significand_bits: i32 = 52
  def num_bits: i32 = 64
  def highest: f64 = inf
  def lowest: f64 = -inf
  def pi: f64 = 3.14159265358979323846
  def e: f64 = 2.71828182845904523536
  def epsilon: f64 = 2.220446049250313080847e-16
}

module bool = intrinsics.bool

-- The math module's conversions between i32 and the floats.
def r32 (x: i32): f32 = f32.i32 x
def t32 (x: f32): i32 = i32.f32 x
def r64 (x: i32): f64 = f64.i32 x
def t64 (x: f64): i32 = i32.f64 x
