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
