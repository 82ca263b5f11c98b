-- A loop has one merge value, of the pattern's type: the pattern is bound
-- inside the body. A while loop carries its condition as the first merge
-- value. A size the body changes is made `?` (source.coerce), since the
-- initial values, parameters and yields of a loop have one type.
-- RUN: futmlir opt %s --emit=source
-- CHECK-LABEL: sym_name = "main"
-- CHECK-NEXT: ^bb0(%0: i64, %1: i32, %2: [%0]i32):
-- CHECK-NEXT: %3 = source.constant() {value = 0 : i32} : () -> i32
-- CHECK-NEXT: %4 = source.loop(%1, %3) {form = "for"} ({
-- CHECK-NEXT: ^bb0(%5: i32, %6: i32):
-- CHECK-NEXT: source.binop(%6, %5) {kind = "add"}
-- CHECK: }) : (i32, i32) -> i32
-- CHECK: %9 = source.loop(%2, %8) {form = "for_in"} ({
-- CHECK-NEXT: ^bb0(%10: i32, %11: i32):
-- CHECK: }) : ([%0]i32, i32) -> i32
-- CHECK: %15 = source.tuple(%13, %14) : (i32, i32) -> tuple<i32, i32>
-- CHECK-NEXT: %16 = source.tuple_get(%15) {index = 0 : i64}
-- CHECK: %18 = source.cmpop(%16, %1) {kind = "lt"} : (i32, i32) -> bool
-- CHECK-NEXT: %19:2 = source.loop(%18, %15) {form = "while"} ({
-- CHECK-NEXT: ^bb0(%20: bool, %21: tuple<i32, i32>):
-- CHECK: source.yield(%31, %28) : (bool, tuple<i32, i32>) -> ()
-- CHECK-NEXT: }) : (bool, tuple<i32, i32>) -> (bool, tuple<i32, i32>)
-- CHECK: %32 = source.coerce(%2) : ([%0]i32) -> [?]i32
-- CHECK: %34 = source.loop(%33, %32) {form = "for"} ({
-- CHECK-NEXT: ^bb0(%35: i32, %36: [?]i32):
-- CHECK: }) : (i32, [?]i32) -> [?]i32
-- CHECK-NEXT: source.tuple(%4, %9, %19#1, %34)
entry main [m] (n: i32) (xs: [m]i32): (i32, i32, (i32, i32), []i32) =
  let a = loop acc = 0 for i < n do acc + i
  let b = loop acc = 0 for x in xs do acc + x
  let c = loop (i, j) = (0, 1) while i < n do (i + 1, j * 2)
  let d = loop ys = xs for _i < 2 do ys ++ ys
  in (a, b, c, d)
