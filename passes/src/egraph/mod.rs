//! The bridge to egg: rule files, their compilation into egg rewrites, and
//! the term language of `soac` scalar code that they rewrite.
//!
//! - [`rules`]: the rule-file syntax (Note [Rule files]) and its parser.
//! - [`ruleset`]: checking a parsed file against a [`ruleset::TermLanguage`]
//!   and the Rust [`ruleset::Predicate`]s, building egg rewrites, running a
//!   schedule within limits.
//! - [`terms`]: the term language of `soac` scalar operations, literals and
//!   the predicates rules may name.
//! - [`book`]: the [`RuleBook`], the rule files of one invocation, read
//!   from `rewrite-rules/` (or the folder `--rules-dir` names) when
//!   futmlir runs, and compiled once.
//! - [`fold`]: constant folding as an e-class analysis (every class with a
//!   known value also holds it as a literal).
//!
//! **Note [Rule files].**
//! Rewrites are data, in `rewrite-rules/*.rules`, so that a user can read,
//! extend and reorder them without recompiling (edit `rewrite-rules/`, or
//! add `--rules FILE`; Note [Rule files at run time]). A file is
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

pub mod book;
pub mod fold;
pub mod fusion;
pub mod rules;
pub mod ruleset;
pub mod terms;

pub use book::RuleBook;
use fold::ConstFold;
use rules::RuleError;
use ruleset::Rules;

/// The rule files that ship with futmlir, compiled into the binary: the
/// fallback when `rewrite-rules/` is not there to be read (Note [Rule
/// files at run time] in `book.rs`).
pub const BUILTIN_RULE_FILES: &[(&str, &str)] = &[
    (
        "rewrite-rules/simplify.rules",
        include_str!("../../../rewrite-rules/simplify.rules"),
    ),
    (
        "rewrite-rules/fusion.rules",
        include_str!("../../../rewrite-rules/fusion.rules"),
    ),
];

/// A compiled rule file: rewrites of scalar code or fusion rules.
pub enum Compiled {
    Scalar(Rules<ConstFold>),
    Fusion(Rules<()>),
}

/// Compile one rule file against the term language its `language` line
/// names (scalar code when it names none).
pub fn compile_file(text: &str) -> Result<Compiled, RuleError> {
    let file = rules::parse(text)?;
    Ok(match file.language() {
        "fusion" => Compiled::Fusion(ruleset::compile(&file, &fusion::language(), &fusion::predicates())?),
        _ => Compiled::Scalar(ruleset::compile(&file, &terms::language(), &terms::predicates())?),
    })
}

#[cfg(test)]
mod tests;
