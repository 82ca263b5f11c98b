// RUN: futmlir opt %s --split-input-file --verify-diagnostics

// Without --allow-unregistered-dialect an unknown op is an error.
// expected-error @+1 {{unknown dialect 'test' in operation 'test.x'}}
"test.x"() : () -> ()
