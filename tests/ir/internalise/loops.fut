-- Loops become soac.loop: `for i < n` and `for x in xs` with form "for"
-- (the counter's type is the bound's), `while` with the condition as the
-- first merge value. A merge parameter whose size changes gets an
-- existential size, named again in the body and after the loop.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "for_loop"
-- CHECK: %2 = soac.loop(%0, %1) {form = "for"} ({
-- CHECK-NEXT: ^bb0(%3: i32, %4: i32):
-- CHECK-NEXT: soac.binop(%4, %3) {kind = "add"}
-- CHECK-LABEL: sym_name = "for_in"
-- CHECK: %10:2 = soac.loop(%6, %8, %9) {form = "for"} ({
-- CHECK-NEXT: ^bb0(%11: i64, %12: f32, %13: f32):
-- CHECK-NEXT: %14 = soac.index(%7, %11) : ([%6]f32, i64) -> f32
-- CHECK: soac.yield(%15, %16) : (f32, f32) -> ()
-- CHECK-LABEL: sym_name = "while_loop"
-- CHECK: %19 = soac.cmpop(%17, %18) {kind = "lt"}
-- CHECK-NEXT: %20:2 = soac.loop(%19, %17) {form = "while"} ({
-- CHECK-NEXT: ^bb0(%21: bool, %22: i64):
-- CHECK: soac.yield(%26, %24) : (bool, i64) -> ()
-- CHECK: soac.return(%20#1) : (i64) -> ()
-- CHECK-LABEL: sym_name = "growing"
-- CHECK: %30 = soac.loop(%27, %29) {form = "for"} ({
-- CHECK-NEXT: ^bb0(%31: i64, %32: [?]i64):
-- CHECK-NEXT: %33 = soac.size(%32) {dim = 0 : i64} : ([?]i64) -> i64
-- CHECK-NEXT: %34 = soac.reshape(%32, %33) : ([?]i64, i64) -> [%33]i64
-- CHECK: %38 = soac.concat(%37, %34, %36) {dim = 0 : i64} : (i64, [%33]i64, [1]i64) -> [%37]i64
-- CHECK-NEXT: %39 = soac.reshape(%38, %37) : ([%37]i64, i64) -> [?]i64
-- CHECK-NEXT: soac.yield(%39) : ([?]i64) -> ()
-- CHECK-NEXT: }) : (i64, [1]i64) -> [?]i64
-- CHECK-NEXT: %40 = soac.size(%30) {dim = 0 : i64}

entry for_loop (n: i32): i32 = loop acc = 0 for i < n do acc + i

entry for_in (xs: []f32): (f32, f32) =
  loop (s, p) = (0, 1) for x in xs do (s + x, p * x)

entry while_loop (x: i64): i64 = loop x while x < 100 do x * 2

entry growing (n: i64): []i64 = loop xs = [0] for i < n do xs ++ [i]
