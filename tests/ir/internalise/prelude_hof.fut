-- Higher-order prelude functions (|>, all, foldl) are inlined, their
-- function arguments becoming the regions of the SOACs they call.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "main"
-- CHECK-NEXT: ^bb0(%0: i64, %1: [%0]i32):
-- CHECK-NEXT: %2 = soac.map(%0, %1) ({
-- CHECK: {kind = "mul"}
-- CHECK: %7 = soac.reduce(%0, %6, %2) ({
-- CHECK: {kind = "add"}
-- CHECK: soac.return(%7) : (i32) -> ()
-- CHECK-NOT: soac.apply
-- CHECK-LABEL: sym_name = "all_pos"
-- CHECK: soac.map(
-- CHECK: -> [%11]bool
-- CHECK: soac.reduce(%11, %14, %15) ({
-- CHECK: {kind = "and"}
-- CHECK-LABEL: sym_name = "fold"
-- CHECK: soac.loop(%22, %24) {form = "for"}
-- CHECK-NOT: sym_name

entry main (xs: []i32): i32 = xs |> map (\x -> x * 2) |> reduce (+) 0

entry all_pos (xs: []i32): bool = all (> 0) xs

entry fold (xs: []f64): f64 = foldl (+) 0 xs
