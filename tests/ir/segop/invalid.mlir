// RUN: futmlir opt %s --split-input-file --verify-diagnostics

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>):
  // expected-error @+1 {{'segop.segmap' op attribute 'level' must be one of "thread", "group", found "warp"}}
  %r = "segop.segmap"(%n) ({
  ^bb0(%k: i64):
    "segop.yield"(%x) : (f32) -> ()
  }) {level = "warp"} : (i64) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>):
  // expected-error @+1 {{expected an array over 1 segment dimensions of f32}}
  %r = "segop.segmap"(%n) ({
  ^bb0(%k: i64):
    "segop.yield"(%x) : (f32) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%w]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>):
  // expected-error @+1 {{'segop.segmap' op region #0 argument #0 (a thread index) must be i64, found i32}}
  %r = "segop.segmap"(%n) ({
  ^bb0(%k: i32):
    "segop.yield"(%x) : (f32) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>):
  // expected-error @+1 {{'segop.segred' op region #0 yield #0 has type i32, expected f32}}
  %r = "segop.segred"(%n, %x) ({
  ^bb0(%k: i64):
    "segop.yield"(%i) : (i32) -> ()
  }, {
  ^bb0(%a: f32, %b: f32):
    "segop.yield"(%a) : (f32) -> ()
  }) {level = "thread"} : (i64, f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>):
  // expected-error @+1 {{'segop.segscan' op result #0 has type f32, expected an array over 1 segment dimensions of f32}}
  %r = "segop.segscan"(%n, %x) ({
  ^bb0(%k: i64):
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%a: f32, %b: f32):
    "segop.yield"(%a) : (f32) -> ()
  }) {level = "thread"} : (i64, f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>):
  // expected-error @+1 {{'segop.seghist' op destination #0 has outer size}}
  %r = "segop.seghist"(%n, %n, %d, %x) ({
  ^bb0(%k: i64):
    "segop.yield"(%k, %x) : (i64, f32) -> ()
  }, {
  ^bb0(%a: f32, %b: f32):
    "segop.yield"(%a) : (f32) -> ()
  }) {level = "thread"} : (i64, i64, !fut.array<[%w]f32>, f32) -> !fut.array<[%w]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>):
  // expected-error @+1 {{'segop.seghist' op region #0 yield #0 has type f32, expected i64}}
  %r = "segop.seghist"(%n, %w, %d, %x) ({
  ^bb0(%k: i64):
    "segop.yield"(%x, %x) : (f32, f32) -> ()
  }, {
  ^bb0(%a: f32, %b: f32):
    "segop.yield"(%a) : (f32) -> ()
  }) {level = "thread"} : (i64, i64, !fut.array<[%w]f32>, f32) -> !fut.array<[%w]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>):
  // expected-error @+1 {{'segop.if_threshold' op expects attribute 'threshold'}}
  %r = "segop.if_threshold"(%n) ({
    "segop.yield"(%x) : (f32) -> ()
  }, {
    "segop.yield"(%x) : (f32) -> ()
  }) : (i64) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>):
  // expected-error @+1 {{'segop.if_threshold' op region #0 yield #0 has type i32, expected f32}}
  %r = "segop.if_threshold"(%n) ({
    "segop.yield"(%i) : (i32) -> ()
  }, {
    "segop.yield"(%x) : (f32) -> ()
  }) {threshold = "t"} : (i64) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>):
  // expected-error @+1 {{'segop.manifest' op attribute 'perm' must be a permutation of 0..1, found [0, 1]}}
  %r = "segop.manifest"(%xs) {perm = [0, 1]} : (!fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
  // expected-error @+1 {{'segop.yield' op must end a region of a structured op}}
  "segop.yield"() : () -> ()
}) {sym_name = "f", function_type = () -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %d: !fut.array<[%m]f32>):
  // expected-error @+1 {{'segop.segmap' op region #0 yield #1 has type i64, but destination #0 has rows of another type}}
  %r = "segop.segmap"(%n, %d) ({
  ^bb0(%i: i64):
    %j = "soac.index"(%is, %i) : (!fut.array<[%n]i64>, i64) -> i64
    "segop.yield"(%j, %j) : (i64, i64) -> ()
  }) {level = "thread", writes = 1 : i64} : (i64, !fut.array<[%m]f32>) -> !fut.array<[%m]f32>
  "soac.return"(%r) : (!fut.array<[%m]f32>) -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>):
  // expected-error @+1 {{'segop.filter' op the body must yield a bool (whether to keep the point) first}}
  %c, %r = "segop.filter"(%n) ({
  ^bb0(%k: i64):
    "segop.yield"(%x, %x) : (f32, f32) -> ()
  }) {level = "thread"} : (i64) -> (i64, !fut.array<[%n]f32>)
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %w: i64, %xs: !fut.array<[%n]f32>, %x: f32, %i: i32, %d: !fut.array<[%w]f32>, %b: i1):
  // expected-error @+1 {{'segop.filter' op result #0 (the count) must be i64, found f32}}
  %c, %r = "segop.filter"(%n) ({
  ^bb0(%k: i64):
    "segop.yield"(%b, %x) : (i1, f32) -> ()
  }) {level = "thread"} : (i64) -> (f32, !fut.array<[%n]f32>)
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, f32, i32, !fut.array<[?]f32>, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %x: f32):
  // expected-error @+1 {{'segop.segred' op attribute 'tile' must be [rows, cols, k] with rows and cols 1 to 8 and k 1 to 64}}
  %r = "segop.segred"(%n, %n, %n, %x) ({
  ^bb0(%i: i64, %j: i64, %k: i64):
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%c) : (f32) -> ()
  }) {level = "thread", tile = [16, 8, 8]} : (i64, i64, i64, f32) -> !fut.array<[%n][%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, f32) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %x: f32):
  // expected-error @+1 {{'segop.segred' op a tiled segop must have at least 3 dimensions}}
  %r = "segop.segred"(%n, %n, %x) ({
  ^bb0(%i: i64, %k: i64):
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%c) : (f32) -> ()
  }) {level = "thread", tile = [8, 8, 8]} : (i64, i64, f32) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, f32) -> ()} : () -> ()
