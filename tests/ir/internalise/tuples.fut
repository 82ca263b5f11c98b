-- Tuples are flattened into several SSA values: parameters, results,
-- branches and projections; a polymorphic function on tuples is inlined.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "main", function_type = (i32, f32, i1) -> (f32, i32), entry
-- CHECK-NEXT: ^bb0(%0: i32, %1: f32, %2: bool):
-- CHECK-NEXT: %3:2 = soac.if(%2)
-- CHECK-NEXT: soac.yield(%1, %0) : (f32, i32) -> ()
-- CHECK: soac.yield(%5, %7) : (f32, i32) -> ()
-- CHECK-NEXT: }) : (bool) -> (f32, i32)
-- CHECK-NEXT: soac.return(%3#0, %3#1) : (f32, i32) -> ()
-- CHECK-NOT: tuple
def swap 'a 'b ((x, y): (a, b)): (b, a) = (y, x)

entry main (p: (i32, f32)) (b: bool): (f32, i32) =
  if b then swap p else (p.1 + 1, p.0 * 2)
