//! The term language of `soac` scalar code: the operators of `soac.binop`,
//! `soac.unop` and `soac.cmpop` under their `kind` names (`add`, `neg`,
//! `lt`, ...), `select`, literals spelled as in Futhark (`0i32`, `1.5f32`,
//! `true`) and IR values (`v7`) as leaves; and the predicates rule files
//! may name.

use std::collections::HashMap;

use egg::{EGraph, Id, SymbolLang};
use futmlir_dialects::soac::verify::{BINOP_KINDS, CMPOP_KINDS, UNOP_KINDS};

use super::ruleset::{Predicate, TermLanguage};

/// A literal leaf: an integer or float with its type suffix, or a bool.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    Int(i128, &'static str),
    Float(f64, &'static str),
    Bool(bool),
}

const INT_SUFFIXES: [&str; 8] = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"];
const FLOAT_SUFFIXES: [&str; 3] = ["f16", "f32", "f64"];

/// Parse a literal leaf (`-3i32`, `0.5f64`, `true`); `None` for anything else.
pub fn literal(s: &str) -> Option<Literal> {
    match s {
        "true" => return Some(Literal::Bool(true)),
        "false" => return Some(Literal::Bool(false)),
        _ => {}
    }
    for t in INT_SUFFIXES {
        if let Some(n) = s.strip_suffix(t) {
            // `1f32` must not read as the integer `1f` with suffix `32`.
            if let Ok(v) = n.parse::<i128>() {
                return Some(Literal::Int(v, t));
            }
        }
    }
    for t in FLOAT_SUFFIXES {
        if let Some(n) = s.strip_suffix(t) {
            if let Ok(v) = n.parse::<f64>() {
                return Some(Literal::Float(v, t));
            }
        }
    }
    None
}

/// An IR value leaf: `v` and a number (a name egg prints unquoted).
pub fn value_leaf(s: &str) -> Option<u32> {
    s.strip_prefix('v')?.parse().ok()
}

/// The leaves a rule may name: literals. A value leaf (`v0`) stands for
/// a value of the IR being rewritten, which a rule file cannot know: a
/// rule `(add ?x ?y) => v0` would replace sums by whatever value is
/// numbered 0, so rule files may not name them.
fn is_leaf(s: &str) -> bool {
    literal(s).is_some()
}

/// The operators of `soac` scalar code with their arities.
pub fn language() -> TermLanguage {
    let mut ops = HashMap::new();
    for k in BINOP_KINDS.iter().chain(CMPOP_KINDS) {
        ops.insert(k.to_string(), Some(2));
    }
    for k in UNOP_KINDS {
        ops.insert(k.to_string(), Some(1));
    }
    ops.insert("select".to_string(), Some(3));
    TermLanguage { ops, is_leaf }
}

/// The literals an e-class holds.
fn literals<N: egg::Analysis<SymbolLang>>(g: &EGraph<SymbolLang, N>, id: Id) -> impl Iterator<Item = Literal> + '_ {
    g[id]
        .nodes
        .iter()
        .filter(|n| n.children.is_empty())
        .filter_map(|n| literal(n.op.as_str()))
}

fn has_literal<N: egg::Analysis<SymbolLang>>(g: &EGraph<SymbolLang, N>, ids: &[Id], p: fn(Literal) -> bool) -> bool {
    literals(g, ids[0]).any(p)
}

/// The predicates rule files may name.
pub fn predicates<N: egg::Analysis<SymbolLang>>() -> Vec<Predicate<N>> {
    vec![
        Predicate {
            name: "int-zero",
            arity: 1,
            doc: "the class holds the integer literal 0 (of any integer type)",
            check: |g, ids| has_literal(g, ids, |l| matches!(l, Literal::Int(0, _))),
        },
        Predicate {
            name: "int-one",
            arity: 1,
            doc: "the class holds the integer literal 1 (of any integer type)",
            check: |g, ids| has_literal(g, ids, |l| matches!(l, Literal::Int(1, _))),
        },
        Predicate {
            name: "float-one",
            arity: 1,
            doc: "the class holds the float literal 1.0 (x * 1.0 = x holds for every float x)",
            check: |g, ids| has_literal(g, ids, |l| matches!(l, Literal::Float(v, _) if v == 1.0)),
        },
        Predicate {
            name: "int-literal",
            arity: 1,
            doc: "the class holds an integer literal (integer arithmetic wraps, so it reassociates)",
            check: |g, ids| has_literal(g, ids, |l| matches!(l, Literal::Int(..))),
        },
        Predicate {
            name: "literal",
            arity: 1,
            doc: "the class holds a literal",
            check: |g, ids| literals(g, ids[0]).next().is_some(),
        },
    ]
}
