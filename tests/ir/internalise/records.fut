-- Records are flattened in field-name order (id, x, y); field access and
-- `with` pick and replace components.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "main", function_type = (i32, f32, f32) -> (i32, f32, f32), entry
-- CHECK-NEXT: ^bb0(%0: i32, %1: f32, %2: f32):
-- CHECK-NEXT: %3 = soac.binop(%1, %2) {kind = "add"} : (f32, f32) -> f32
-- CHECK-NEXT: soac.return(%0, %3, %2) : (i32, f32, f32) -> ()
-- CHECK-NOT: record
type point = {x: f32, y: f32, id: i32}

entry main (p: point): point =
  let s = p.x + p.y
  in p with x = s
