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
pub mod fusion;
pub mod rules;
pub mod ruleset;
pub mod terms;

use std::sync::Mutex;

use fold::ConstFold;
use rules::RuleError;
use ruleset::Rules;

/// The rule files that ship with futmlir, compiled into the binary.
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

/// Rule files a user added with `--rules FILE` (path, text), in order.
static USER_RULE_FILES: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

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

/// Add a user's rule file (`--rules FILE`): it must compile on its own,
/// and its rule sets must not clash with the loaded ones of its language.
/// Passes created afterwards see its sets, and its schedule runs after the
/// built-in ones.
pub fn add_user_rule_file(path: &str, text: &str) -> Result<(), miette::Report> {
    let compiled = compile_file(text).map_err(|e| e.to_report(path, text))?;
    let clash = |e: String| miette::miette!("{path}: {e}");
    match compiled {
        Compiled::Scalar(r) => loaded_rules()
            .map_err(|e| miette::miette!("{e}"))?
            .extend(r)
            .map_err(clash)?,
        Compiled::Fusion(r) => loaded_fusion_rules()
            .map_err(|e| miette::miette!("{e}"))?
            .extend(r)
            .map_err(clash)?,
    }
    USER_RULE_FILES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push((path.to_string(), text.to_string()));
    Ok(())
}

/// Every loaded file (built-in, then the user's), compiled, in order.
fn loaded() -> Result<Vec<Compiled>, String> {
    let user = USER_RULE_FILES.lock().unwrap_or_else(|p| p.into_inner()).clone();
    BUILTIN_RULE_FILES
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .chain(user)
        .map(|(path, text)| compile_file(&text).map_err(|e| e.to_plain(&path, &text)))
        .collect()
}

fn merge<N: egg::Analysis<egg::SymbolLang> + Clone + Default + 'static>(
    parts: impl Iterator<Item = Rules<N>>,
) -> Result<Rules<N>, String> {
    let mut all = Rules {
        sets: Vec::new(),
        schedule: Vec::new(),
    };
    for r in parts {
        all.extend(r)?;
    }
    Ok(all)
}

/// The scalar rule files, built-in and the user's, compiled together.
pub fn loaded_rules() -> Result<Rules<ConstFold>, String> {
    merge(loaded()?.into_iter().filter_map(|c| match c {
        Compiled::Scalar(r) => Some(r),
        Compiled::Fusion(_) => None,
    }))
}

/// The fusion rule files, built-in and the user's, compiled together.
pub fn loaded_fusion_rules() -> Result<Rules<()>, String> {
    merge(loaded()?.into_iter().filter_map(|c| match c {
        Compiled::Fusion(r) => Some(r),
        Compiled::Scalar(_) => None,
    }))
}

#[cfg(test)]
mod tests;
