-- Features together: a functor parameter whose module type names the
-- previous parameter's type, a functor applied inside a structure, a
-- functor body that opens its parameter, an ascribed functor application,
-- `include S with t = ...` in a module type.
-- ==
-- input { 1 } output { 36 3 6 4.0f32 }

module type T = { type t val x : t }
module F (P: T) (Q: { val y : P.t val f : P.t -> P.t -> i32 }) = { def r = Q.f P.x Q.y }
module A = { type t = i32 def x = 5 def extra = 1 }
module B = F A { def y = 7 def f (a: i32) (b: i32) = a * b }
module M = { module N = F A { def y = 2 def f (a: i32) (b: i32) = a - b } }
module G (P: T with t = i32) = { open P def z = x + 1 }
module type R = { val z : i32 }
module H : R = G A
module type U = { include T with t = f32 val w : t }
module V : U = { type t = f32 def x = 1.5f32 def w = 2.5f32 }
def main (k: i32) = (B.r + k, M.N.r, H.z, V.x + V.w)
