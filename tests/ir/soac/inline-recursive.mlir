// RUN: futmlir opt %s --pass-pipeline=soac-inline

// Calls that stay calls (Note [Calls kept as calls]): a call in a cycle
// of calls (`fact` calls itself, and `main` calls `fact`), a call
// marked `noinline`, and a call of a function marked `noinline`. The
// other calls are inlined, also into the callees kept (`fact` calls
// `dec`), and the functions still called stay.
// CHECK-LABEL: sym_name = "dec"
// CHECK-LABEL: sym_name = "fact"
// CHECK-NOT: callee = @dec
// CHECK: {callee = @fact}
// CHECK-LABEL: sym_name = "twice"
// CHECK-LABEL: sym_name = "main"
// CHECK: {callee = @fact}
// CHECK: {callee = @dec, noinline}
// CHECK: {callee = @twice}
"soac.func"() ({
^bb0(%x: i32):
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %y = "soac.binop"(%x, %one) {kind = "sub"} : (i32, i32) -> i32
  "soac.return"(%y) : (i32) -> ()
}) {sym_name = "dec", function_type = (i32) -> i32} : () -> ()
"soac.func"() ({
^bb0(%x: i32):
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %c = "soac.cmpop"(%x, %zero) {kind = "eq"} : (i32, i32) -> bool
  %r = "soac.if"(%c) ({
    %one = "soac.constant"() {value = 1 : i32} : () -> i32
    "soac.yield"(%one) : (i32) -> ()
  }, {
    %d = "soac.apply"(%x) {callee = @dec} : (i32) -> i32
    %f = "soac.apply"(%d) {callee = @fact} : (i32) -> i32
    %p = "soac.binop"(%x, %f) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%p) : (i32) -> ()
  }) : (bool) -> i32
  "soac.return"(%r) : (i32) -> ()
}) {sym_name = "fact", function_type = (i32) -> i32, recursive} : () -> ()
"soac.func"() ({
^bb0(%x: i32):
  %y = "soac.binop"(%x, %x) {kind = "add"} : (i32, i32) -> i32
  "soac.return"(%y) : (i32) -> ()
}) {sym_name = "twice", function_type = (i32) -> i32, noinline} : () -> ()
"soac.func"() ({
^bb0(%x: i32):
  %a = "soac.apply"(%x) {callee = @fact} : (i32) -> i32
  %b = "soac.apply"(%a) {callee = @dec, noinline} : (i32) -> i32
  %c = "soac.apply"(%b) {callee = @twice} : (i32) -> i32
  "soac.return"(%c) : (i32) -> ()
}) {sym_name = "main", function_type = (i32) -> i32, entry} : () -> ()
