//! Verifiers of the `source` ops. Ops with the same shape as in `soac`
//! (functions, scalars, `if`, indexing) use `soac`'s verifiers.

use crate::ir::{AttrKind, Dim, OpView, Type, TypeKind};
use crate::soac::verify as core;

pub fn loop_(v: &OpView) -> Result<(), String> {
    core::loop_with_forms(v, &["for", "while", "for_in"])
}

/// `apply`: by `callee` symbol (checked like `soac.apply`), or of a
/// function-typed first operand whose type the rest of the op must match.
pub fn apply(v: &OpView) -> Result<(), String> {
    if v.attr("callee").is_some() {
        return core::apply(v);
    }
    v.expect_regions(0)?;
    v.expect_operands_at_least(1)?;
    let ft = v.operand_type(0);
    let TypeKind::Function { inputs, results } = v.ctx.type_kind(ft) else {
        return Err(format!(
            "expects a 'callee' attribute or a function as operand #0, found {}",
            v.show(ft)
        ));
    };
    v.expect_types("argument", inputs, &v.operand_types()[1..])?;
    v.expect_types("result", results, &v.result_types())
}

fn function_type<'a>(v: &OpView<'a>, t: Type) -> Result<(&'a [Type], &'a [Type]), String> {
    match v.ctx.type_kind(t) {
        TypeKind::Function { inputs, results } => Ok((inputs, results)),
        _ => Err(format!("expects a function type, found {}", v.show(t))),
    }
}

/// `lambda`: a region taking the function's inputs and yielding its
/// results; the one result is the function value.
pub fn lambda(v: &OpView) -> Result<(), String> {
    v.expect_operands(0)?;
    v.expect_results(1)?;
    v.expect_regions(1)?;
    let (inputs, results) = function_type(v, v.result_type(0))?;
    v.expect_block_args(0, inputs)?;
    v.expect_yield(0, results)
}

/// `match(x) {patterns}`: one region per pattern, each yielding the
/// result types; a region's arguments are the values its pattern binds.
pub fn match_(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    let n = match v.expect_attr("patterns")? {
        AttrKind::Array(ps) => ps.len(),
        _ => return Err("attribute 'patterns' must be an array".into()),
    };
    if n == 0 {
        return Err("expects at least one pattern".into());
    }
    v.expect_regions(n)?;
    let rts = v.result_types();
    for r in 0..n {
        v.single_block_args(r)?;
        v.expect_yield(r, &rts)?;
    }
    Ok(())
}

/// `tuple(xs...)` → `tuple<types of xs>`.
pub fn tuple(v: &OpView) -> Result<(), String> {
    v.expect_results(1)?;
    let TypeKind::Tuple(ts) = v.ctx.type_kind(v.result_type(0)) else {
        return Err(format!(
            "result must be a tuple, found {}",
            v.show(v.result_type(0))
        ));
    };
    v.expect_types("element", ts, &v.operand_types())
}

/// `tuple_get(t) {index}` → the component's type.
pub fn tuple_get(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    let i = v.int_attr("index")?;
    let TypeKind::Tuple(ts) = v.ctx.type_kind(v.operand_type(0)) else {
        return Err(format!(
            "operand must be a tuple, found {}",
            v.show(v.operand_type(0))
        ));
    };
    let Some(&t) = usize::try_from(i).ok().and_then(|i| ts.get(i)) else {
        return Err(format!(
            "index {i} is out of range for a tuple of {} components",
            ts.len()
        ));
    };
    v.expect_type("result", t, v.result_type(0))
}

fn record_fields<'a>(v: &OpView<'a>, t: Type) -> Result<Vec<(&'a str, Type)>, String> {
    match v.ctx.type_kind(t) {
        TypeKind::Record(fs) => Ok(fs.iter().map(|(k, t)| (v.ctx.str(*k), *t)).collect()),
        _ => Err(format!("expects a record, found {}", v.show(t))),
    }
}

fn field_type(v: &OpView, record: Type) -> Result<(String, Type), String> {
    let name = v.string_attr("field")?;
    record_fields(v, record)?
        .into_iter()
        .find(|(k, _)| *k == name)
        .map(|(k, t)| (k.to_string(), t))
        .ok_or_else(|| format!("record {} has no field '{name}'", v.show(record)))
}

/// `record(xs...) {fields}`: the field names in operand order.
pub fn record(v: &OpView) -> Result<(), String> {
    v.expect_results(1)?;
    let names: Vec<&str> = match v.expect_attr("fields")? {
        AttrKind::Array(xs) => xs
            .iter()
            .map(|&a| match v.ctx.attr_kind(a) {
                AttrKind::String(s) => Ok(v.ctx.str(*s)),
                _ => Err("attribute 'fields' must be an array of strings".to_string()),
            })
            .collect::<Result<_, _>>()?,
        _ => return Err("attribute 'fields' must be an array of strings".into()),
    };
    if names.len() != v.num_operands() {
        return Err(format!(
            "attribute 'fields' names {} fields, but there are {} operands",
            names.len(),
            v.num_operands()
        ));
    }
    let fields = record_fields(v, v.result_type(0))?;
    if fields.len() != names.len() {
        return Err(format!(
            "result type {} does not have the fields given",
            v.show(v.result_type(0))
        ));
    }
    for (i, name) in names.iter().enumerate() {
        let Some(&(_, t)) = fields.iter().find(|(k, _)| k == name) else {
            return Err(format!(
                "result type {} has no field '{name}'",
                v.show(v.result_type(0))
            ));
        };
        v.expect_type(&format!("field '{name}'"), t, v.operand_type(i))?;
    }
    Ok(())
}

/// `record_get(r) {field}` → the field's type.
pub fn record_get(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    let (_, t) = field_type(v, v.operand_type(0))?;
    v.expect_type("result", t, v.result_type(0))
}

/// `record_update(r, x) {field}` → `r` with the field replaced.
pub fn record_update(v: &OpView) -> Result<(), String> {
    v.expect_operands(2)?;
    v.expect_results(1)?;
    let (name, t) = field_type(v, v.operand_type(0))?;
    v.expect_type(&format!("field '{name}'"), t, v.operand_type(1))?;
    v.expect_type("result", v.operand_type(0), v.result_type(0))
}

/// `array_lit(xs...)` → `[k]t`: the elements share one type `t`.
pub fn array_lit(v: &OpView) -> Result<(), String> {
    v.expect_results(1)?;
    let rt = v.result_type(0);
    let k = v.num_operands();
    let Some(d) = v.outer_dim(rt) else {
        return Err(format!("result must be an array, found {}", v.show(rt)));
    };
    if !v.dims_agree(d, Dim::Const(k as u64)) {
        return Err(format!(
            "result has outer size {}, but there are {k} elements",
            v.show_dim(d)
        ));
    }
    for i in 0..k {
        if !v.is_row_of(rt, v.operand_type(i)) {
            return Err(format!(
                "element #{i} has type {}, which is not a row of {}",
                v.show(v.operand_type(i)),
                v.show(rt)
            ));
        }
    }
    Ok(())
}

/// The SOACs a `soac_call` may name.
pub const SOACS: &[&str] = &[
    "map",
    "reduce",
    "reduce_comm",
    "scan",
    "filter",
    "partition",
    "scatter",
    "hist",
    "reduce_by_index",
    "stream_seq",
    "stream_par",
];

/// `soac_call(fs..., xs...) {soac}`: a SOAC applied to function values.
/// For `map`, the function takes a row of each array and each result is
/// `[n]` of a function result; for `reduce`/`scan`, operands are
/// `(op, ne, xs)` with `op : (t, t) -> t`.
pub fn soac_call(v: &OpView) -> Result<(), String> {
    v.expect_regions(0)?;
    let soac = v.enum_attr("soac", SOACS)?;
    let fidx = (0..v.num_operands())
        .find(|&i| {
            matches!(
                v.ctx.type_kind(v.operand_type(i)),
                TypeKind::Function { .. }
            )
        })
        .ok_or("expects at least one function-typed operand")?;
    let (inputs, results) = function_type(v, v.operand_type(fidx))?;
    match soac {
        "map" => {
            let xs = &v.operand_types()[fidx + 1..];
            if xs.len() != inputs.len() {
                return Err(format!(
                    "the function takes {} arguments, but {} arrays are mapped",
                    inputs.len(),
                    xs.len()
                ));
            }
            for (i, (&x, &t)) in xs.iter().zip(inputs).enumerate() {
                if !v.is_row_of(x, t) {
                    return Err(format!(
                        "array #{i} has type {}, whose rows are not {}",
                        v.show(x),
                        v.show(t)
                    ));
                }
            }
            v.expect_results(results.len())?;
            let n = xs
                .first()
                .and_then(|&x| v.outer_dim(x))
                .unwrap_or(Dim::Unknown);
            for (i, &t) in results.iter().enumerate() {
                if !v.is_array_of(v.result_type(i), &[n], t) {
                    return Err(format!(
                        "result #{i} has type {}, expected an array of {}",
                        v.show(v.result_type(i)),
                        v.show(t)
                    ));
                }
            }
        }
        "reduce" | "reduce_comm" | "scan" => {
            v.expect_operands(fidx + 3)?;
            v.expect_results(1)?;
            let t = v.operand_type(fidx + 1);
            if inputs.len() != 2 || results.len() != 1 {
                return Err(
                    "the operator must be a function of two arguments and one result".into(),
                );
            }
            v.expect_types("operator argument", &[t, t], inputs)?;
            v.expect_type("operator result", t, results[0])?;
            if !v.is_row_of(v.operand_type(fidx + 2), t) {
                return Err(format!(
                    "the array's rows do not have the neutral element's type {}",
                    v.show(t)
                ));
            }
        }
        _ => {}
    }
    Ok(())
}
