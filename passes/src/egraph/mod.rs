//! The bridge to egg: rule files, their compilation into egg rewrites, and
//! the term language of `soac` scalar code that they rewrite.
//!
//! - [`rules`]: the rule-file syntax (Note [Rule files]) and its parser.
//! - [`ruleset`]: checking a parsed file against a [`ruleset::TermLanguage`]
//!   and the Rust [`ruleset::Predicate`]s, building egg rewrites, running a
//!   schedule within limits.
//! - [`terms`]: the term language of `soac` scalar operations, literals and
//!   the predicates rules may name.
//! - [`fold`]: constant folding as an e-class analysis (every class with a
//!   known value also holds it as a literal).
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

pub mod fold;
pub mod rules;
pub mod ruleset;
pub mod terms;

use std::sync::Mutex;

use fold::ConstFold;
use rules::RuleError;
use ruleset::Rules;

/// The rule files that ship with futmlir, compiled into the binary.
pub const BUILTIN_RULE_FILES: &[(&str, &str)] = &[(
    "rewrite-rules/simplify.rules",
    include_str!("../../../rewrite-rules/simplify.rules"),
)];

/// Rule files a user added with `--rules FILE` (path, text), in order.
static USER_RULE_FILES: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

/// Compile one rule file against the soac term language.
pub fn compile_file(text: &str) -> Result<Rules<ConstFold>, RuleError> {
    ruleset::compile(&rules::parse(text)?, &terms::language(), &terms::predicates())
}

/// Add a user's rule file (`--rules FILE`): it must compile on its own,
/// and its rule sets must not clash with the loaded ones. Passes created
/// afterwards see its sets, and its schedule runs after the built-in ones.
pub fn add_user_rule_file(path: &str, text: &str) -> Result<(), miette::Report> {
    let compiled = compile_file(text).map_err(|e| e.to_report(path, text))?;
    let mut all = loaded_rules().map_err(|e| miette::miette!("{e}"))?;
    all.extend(compiled).map_err(|e| miette::miette!("{path}: {e}"))?;
    USER_RULE_FILES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push((path.to_string(), text.to_string()));
    Ok(())
}

/// The built-in rule files and the user's, compiled.
pub fn loaded_rules() -> Result<Rules<ConstFold>, String> {
    let user = USER_RULE_FILES.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let mut all: Option<Rules<ConstFold>> = None;
    for (path, text) in BUILTIN_RULE_FILES
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .chain(user)
    {
        let r = compile_file(&text).map_err(|e| e.to_plain(&path, &text))?;
        match &mut all {
            None => all = Some(r),
            Some(a) => a.extend(r).map_err(|e| format!("{path}: {e}"))?,
        }
    }
    Ok(all.unwrap_or(Rules {
        sets: Vec::new(),
        schedule: Vec::new(),
    }))
}

#[cfg(test)]
mod tests;
