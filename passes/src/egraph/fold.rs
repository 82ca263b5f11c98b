//! Constant folding as an e-class analysis: a class whose value is known
//! (a literal, or an operator applied to known values) gets that value as
//! a literal node too, so rules and extraction see it. An operator is the
//! soac op kind of the same name, computed as the soac interpreter computes
//! it (`futmlir_dialects::interp::scalar`, on the one scalar semantics of
//! `futmlir_values::scalar`), so a folded program computes what the
//! unfolded one does.

use egg::{Analysis, DidMerge, EGraph, Id, Language, SymbolLang};
use futmlir_dialects::interp::scalar;
use futmlir_dialects::ir::Scalar;
use futmlir_frontend::values::scalar::{as_f64, as_i128, from_f64, from_i128};
use futmlir_frontend::values::PrimValue;

use super::terms::{literal, Literal};

/// The analysis: the known value of each class, if any.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConstFold;

/// The scalar type of a literal's suffix (`i32`, `f16`).
pub fn scalar_named(s: &str) -> Option<Scalar> {
    Scalar::ALL.into_iter().find(|t| t.futhark_name() == s)
}

/// The value of a literal leaf.
pub fn value_of(l: Literal) -> Option<PrimValue> {
    Some(match l {
        Literal::Bool(b) => PrimValue::Bool(b),
        Literal::Int(v, s) => {
            let t = scalar_named(s)?;
            let p = from_i128(t.prim_type(), v);
            // Out-of-range literals in a rule file do not fold.
            (as_i128(p) == Some(v)).then_some(p)?
        }
        Literal::Float(v, s) => from_f64(scalar_named(s)?.prim_type(), v),
    })
}

/// The literal leaf of a value; `None` for floats that do not print and
/// parse back exactly (NaN, infinities).
pub fn literal_of(p: PrimValue) -> Option<String> {
    let s = p.prim_type().name();
    if let Some(v) = as_i128(p) {
        return Some(format!("{v}{s}"));
    }
    match p {
        PrimValue::Bool(b) => Some(b.to_string()),
        _ => as_f64(p).filter(|x| x.is_finite()).map(|x| format!("{x:?}{s}")),
    }
}

impl Analysis<SymbolLang> for ConstFold {
    type Data = Option<PrimValue>;

    fn make(egraph: &mut EGraph<SymbolLang, Self>, enode: &SymbolLang, _id: Id) -> Self::Data {
        let op = enode.op.as_str();
        if enode.is_leaf() {
            return literal(op).and_then(value_of);
        }
        let args: Option<Vec<PrimValue>> = enode.children.iter().map(|c| egraph[*c].data).collect();
        let args = args?;
        match args.as_slice() {
            [a] => scalar::unop(op, *a).ok(),
            [a, b] if a.prim_type() == b.prim_type() => scalar::binop(op, *a, *b)
                .ok()
                .or_else(|| scalar::cmpop(op, *a, *b).ok().map(PrimValue::Bool)),
            [PrimValue::Bool(c), x, y] if op == "select" => Some(if *c { *x } else { *y }),
            _ => None,
        }
    }

    fn merge(&mut self, a: &mut Self::Data, b: Self::Data) -> DidMerge {
        egg::merge_option(a, b, |_, _| DidMerge(false, false))
    }

    fn modify(egraph: &mut EGraph<SymbolLang, Self>, id: Id) {
        if let Some(text) = egraph[id].data.and_then(literal_of) {
            let leaf = egraph.add(SymbolLang::leaf(text));
            egraph.union(id, leaf);
        }
    }
}
