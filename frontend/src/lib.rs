//! The Futhark frontend: source text to a checked program, the reference
//! interpreter, and external values.
//!
//! - [`span`], [`diag`]: source files, spans, miette diagnostics, and the
//!   warnings' collector (Note [Warnings]).
//! - [`syntax`]: lexer, parser, the AST.
//! - [`types`]: semantic types.
//! - [`modules`]: the module system, elaborated away into flat
//!   declarations before checking.
//! - [`check`]: name resolution, type inference, size and uniqueness checks,
//!   exhaustiveness of pattern matching, and the warnings that need the
//!   whole checked program (`check::warnings`).
//! - [`source_ir`]: the checked program as `source`-dialect IR.
//! - [`internalise`]: the checked program to the `soac` dialect.
//! - [`interp`]: the reference interpreter over the checked AST.
//! - [`values`]: Futhark's value formats (text, binary), comparison,
//!   generation, and the one scalar semantics ([`values::scalar`]).
//! - [`testspec`]: the `-- ==` test blocks of a program.
//!
//! The pipeline: [`check::check_file`] parses the prelude and the program
//! and checks them, giving a [`check::Checked`] (the typed AST, every name
//! resolved, and the program's warnings); [`interp::run_entry`] runs an entry point of it;
//! [`source_ir::emit_source`] emits it as a `source`-dialect module (the
//! program as written: tuples, records, lambdas, polymorphic functions);
//! [`internalise::internalise`] turns it into a `soac`-dialect module.
//! Internalisation works from the typed AST, not from the `source` IR.
//! The internalised module runs on the soac/segop interpreter beside its
//! dialects, `futmlir_dialects::interp`.

pub mod check;
pub mod diag;
pub mod internalise;
pub mod interp;
pub mod modules;
pub mod source_ir;
pub mod span;
pub mod syntax;
pub mod testspec;
pub mod types;
pub use futmlir_values as values;
