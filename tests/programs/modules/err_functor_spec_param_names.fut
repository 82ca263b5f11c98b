-- A functor given for a parametric module spec must accept every
-- argument the spec does; the mismatch names the spec's type by its
-- path (`Op.t`) and the stand-in for the parameter as written (`X.t`),
-- not by the names elaboration gives them.
-- ==
-- error: Module defines type Op.t = X.t, but module type requires type Op.t = i64

module type Const = {
  type t
  val x : t
}

module type Container = {
  module Op: (X: Const) -> Const
}

module C : Container = {
  module Op (X: Const with t = i64) : Const = {
    type t = i64
    def x = X.x + 1
  }
}
