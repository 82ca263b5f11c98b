//! The bridge to egg: rule files, their compilation into egg rewrites, and
//! the term language of `soac` scalar code that they rewrite.
//!
//! - [`rules`]: the rule-file syntax (Note [Rule files]) and its parser.
//! - [`ruleset`]: checking a parsed file against a [`ruleset::TermLanguage`]
//!   and the Rust [`ruleset::Predicate`]s, building egg rewrites, running a
//!   schedule within limits.
//! - [`terms`]: the term language of `soac` scalar operations, literals and
//!   the predicates rules may name.
//!
//! **Note [Rule files].**
//! Rewrites are data, in `rewrite-rules/*.rules`, so that a user can read,
//! extend and reorder them without recompiling (`--rules FILE`). A file is
//! a sequence of lines; `#` starts a comment:
//!
//! ```text
//! ruleset arith                              # a named set of rules
//! rule add-zero  (add ?x 0i32) => ?x          # one named rule a line
//! rule add-comm  (add ?x ?y) <=> (add ?y ?x)  # bidirectional
//! rule div-self  (div ?x ?x) => 1i32 if (nonzero ?x)
//! schedule                                    # which sets run, in order,
//! arith 8                                     # and for how many iterations
//! ```
//!
//! Patterns are s-expressions: `(op child ...)`, pattern variables `?x`,
//! and leaves (literals with their type suffix, `0i32`, `1.5f32`, `true`).
//! Conditions `if (predicate ?x ...)` name predicates implemented in Rust
//! ([`terms::predicates`]); everything else — which rewrites exist and in
//! which order they run — is in the file. Errors (syntax, an unknown
//! operator or predicate, a wrong arity, a right side that uses a variable
//! its left side does not bind) name the file, line and column.

pub mod rules;
pub mod ruleset;
pub mod terms;

#[cfg(test)]
mod tests;
