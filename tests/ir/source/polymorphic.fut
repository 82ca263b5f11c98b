-- A polymorphic function is emitted once, with its type parameters in
-- `type_params` and spelled !source.tyvar<"a">; a call instantiates it
-- (the verifier checks the instance), also at an array type. A function
-- the checker generalised gets the type parameter it invented. `last` is
-- also a function of the prelude, which calls name: the program's `last`
-- is `last_1`.
-- RUN: futmlir opt %s --emit=source
-- CHECK-LABEL: sym_name = "pair", function_type = (!source.tyvar<"a">, !source.tyvar<"a">) -> !fut.array<[2]!source.tyvar<"a">>, type_params = ["a"]}
-- CHECK-NEXT: ^bb0(%0: !source.tyvar<"a">, %1: !source.tyvar<"a">):
-- CHECK-NEXT: source.array_lit(%0, %1) : (!source.tyvar<"a">, !source.tyvar<"a">) -> [2]!source.tyvar<"a">
-- CHECK-LABEL: sym_name = "last_1", function_type = (i64, !fut.array<[?]!source.tyvar<"t">>) -> !source.tyvar<"t">, type_params = ["t"]}
-- CHECK-NEXT: ^bb0(%3: i64, %4: [%3]!source.tyvar<"t">):
-- CHECK: source.index(%4, %6) : ([%3]!source.tyvar<"t">, i64) -> !source.tyvar<"t">
-- CHECK-LABEL: sym_name = "ident", function_type = (!source.tyvar<"t1">) -> !source.tyvar<"t1">, type_params = ["t1"]}
-- CHECK-LABEL: sym_name = "main"
-- CHECK: {callee = @last_1} : (i64, [2]i32) -> i32
-- CHECK: {callee = @pair} : ([3]f32, [3]f32) -> [2][3]f32
-- CHECK: {callee = @ident} : (f32) -> f32
def pair 'a (x: a) (y: a): [2]a = [x, y]

def last [n] 't (xs: [n]t): t = xs[n - 1]

def ident x = x

entry main [m] (x: i32) (rows: [m][3]f32): (i32, [2][3]f32, f32) =
  (last (pair x x), pair rows[0] rows[1], ident 1f32)
