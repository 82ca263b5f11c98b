// RUN: futmlir opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error @+1 {{use of undefined value '%nope'}}
%0 = "t.a"(%nope) : (i32) -> i32

// -----

%0 = "t.a"() : () -> i32
// expected-error @+1 {{'%0' has type i32, but its use here says f32}}
%1 = "t.b"(%0) : (f32) -> i32

// -----

// expected-error @+1 {{2 results named, but the signature has 1 result types}}
%0:2 = "t.a"() : () -> i32

// -----

// expected-error @+1 {{integer literal does not fit in i8}}
"t.a"() {v = 300 : i8} : () -> ()

// -----

// expected-error @+2 {{size '%x' must have type i64}}
%x = "t.a"() : () -> i32
"t.b"() {t = !fut.array<[%x]f32>} : () -> ()

// -----

// expected-error @+1 {{expected a type, found 'i33'}}
"t.a"() : () -> i33

// -----

// expected-error @+1 {{unbalanced '<' in dialect type or attribute}}
"t.a"() : () -> !t.x<(]>

// -----

// expected-error @+1 {{expected an operation name ("dialect.op"), found '5'}}
%0 = 5

// -----

// A size by definition number (Note [Sizes in types across mlir-opt]):
// `$1` is the second definition, of type i32.
%n = "t.a"() : () -> i64
%x = "t.a"() : () -> i32
// expected-error @+1 {{size '$1' must have type i64}}
"t.b"() : () -> !fut.array<[$1]f32>

// -----

// `$1` is not defined yet: numbers count definitions before the type.
%n = "t.a"() : () -> i64
// expected-error @+1 {{size '$1' is not defined before this type}}
%m = "t.b"() : () -> !fut.array<[$1]f32>

// -----

// `$0` is a block argument of a region that has ended.
"t.r"() ({
^bb0(%n: i64):
  "t.end"() : () -> ()
}) : () -> ()
// expected-error @+1 {{size '$0' is not defined before this type}}
"t.b"() : () -> !fut.array<[$0]f32>

// -----

%p:2 = "t.a"() : () -> (i64, i64)
// expected-error @+1 {{definition $0 has 2 results, so '$0#2' does not exist}}
"t.b"() : () -> !fut.array<[$0#2]f32>

// -----

// expected-error @+1 {{invalid input '$'}}
"t.b"() : () -> !fut.array<[$]f32>

// -----

// An op's own results come after its signature: `$0` is the op itself.
// expected-error @+1 {{size '$0' is not defined before this type}}
%n = "t.a"() : () -> !fut.array<[$0]f32>

// -----

// expected-error @+1 {{expected '{' to open the module's body, found '('}}
module ()
