// RUN: futmlir opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{unknown dialect 'nosuch' in operation 'nosuch.op'}}
"nosuch.op"() : () -> ()

// -----

"builtin.module"() ({
^bb0(%x: i32):
// expected-error @-2 {{'builtin.module' op body block must have no arguments}}
}) : () -> ()

// -----

// expected-error @+1 {{'builtin.module' op expects 1 region, found 0}}
"builtin.module"() : () -> ()

// -----

// expected-error @+1 {{expected SSA value, found ':'}}
"builtin.module"( : () -> ()

// -----

// A module is a symbol table: one op a symbol (as in upstream MLIR).
"imp.func"() ({
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = () -> ()} : () -> ()
// expected-error @+1 {{'imp.func' op redefinition of symbol named 'f'}}
"imp.func"() ({
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = () -> ()} : () -> ()
