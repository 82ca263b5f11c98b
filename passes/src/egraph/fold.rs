//! Constant folding as an e-class analysis: a class whose value is known
//! (a literal, or an operator applied to known values) gets that value as
//! a literal node too, so rules and extraction see it. The semantics are
//! the soac interpreter's (`futmlir_frontend::soac_interp::scalar`), so a
//! folded program computes what the unfolded one does.

use egg::{Analysis, DidMerge, EGraph, Id, Language, SymbolLang};
use futmlir_dialects::ir::Scalar;
use futmlir_frontend::soac_interp::scalar;
use futmlir_frontend::values::f16::f16_to_f32;
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
            let p = scalar::make_int(v, t);
            // Out-of-range literals in a rule file do not fold.
            (scalar::int_value(p) == Some(v)).then_some(p)?
        }
        Literal::Float(v, s) => scalar::make_float(v, scalar_named(s)?),
    })
}

/// The literal leaf of a value; `None` for floats that do not print and
/// parse back exactly (NaN, infinities).
pub fn literal_of(p: PrimValue) -> Option<String> {
    let s = scalar::scalar_of(p);
    if let Some(v) = scalar::int_value(p) {
        return Some(format!("{v}{}", s.futhark_name()));
    }
    match p {
        PrimValue::Bool(b) => Some(b.to_string()),
        _ => {
            let x = match p {
                PrimValue::F64(x) => x,
                PrimValue::F32(x) => f64::from(x),
                PrimValue::F16(h) => f64::from(f16_to_f32(h)),
                _ => return None,
            };
            x.is_finite().then(|| format!("{x:?}{}", s.futhark_name()))
        }
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
            [a, b] if scalar::scalar_of(*a) == scalar::scalar_of(*b) => scalar::binop(op, *a, *b)
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
