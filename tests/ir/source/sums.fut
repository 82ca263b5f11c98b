-- Sum types are opaque `!source.sum` types spelled as written; a
-- constructor is source.constr, and a `match` is source.match with each
-- case's pattern as text and the names it binds as block arguments
-- (Note [Source match]).
-- RUN: futmlir opt %s --emit=source | futmlir opt -
-- CHECK-LABEL: sym_name = "get", function_type = (i32, !source.sum<"#none | #some i32">) -> i32}
-- CHECK: source.match(%1) {patterns = ["#some x", "#none"]} ({
-- CHECK-NEXT: ^bb0(%3: i32):
-- CHECK-NEXT: source.yield(%3)
-- CHECK-LABEL: sym_name = "main"
-- CHECK: source.constr(%4) {constructor = "some"} : (i32) -> !source.sum<"#none | #some i32">
-- CHECK: source.constr() {constructor = "none"} : () -> !source.sum<"#none | #some i32">
-- CHECK: source.match(%12) {patterns = ["(#some y, 1)", "(_, z)"]}
type opt 'a = #some a | #none
def get (d: i32) (o: opt i32): i32 = match o case #some x -> x case #none -> d
entry main (x: i32): i32 =
  let o = if x > 0 then #some x else #none
  in get 7 o + (match (o, x) case (#some y, 1) -> y case (_, z) -> z)
