//! Verifiers of the `source` ops. Ops with the same shape as in `soac`
//! (scalars, `if`, indexing, sizes, asserts) use `soac`'s verifiers.
//!
//! Note [Type variables]: a polymorphic function's types spell its type
//! parameter `'a` as the opaque type `!source.tyvar<"a">`, and the
//! function lists the names in its `type_params` attribute. Inside the
//! function a type variable is a type like any other (equal only to
//! itself). A `source.apply` of the function by name instantiates it:
//! each type variable stands for one type at that call, which may be an
//! array (so `[n]a` with `a = [m]i32` is `[n][m]i32`, the IR's array types
//! having scalar, tuple or record elements only).

use crate::ir::{AttrKind, Context, Dim, OpView, Type, TypeKind};
use crate::soac::verify as core;

/// The name of the type variable `t` (`a` for `!source.tyvar<"a">`).
pub fn tyvar_name(ctx: &Context, t: Type) -> Option<&str> {
    match ctx.type_kind(t) {
        TypeKind::Opaque {
            dialect,
            name,
            body: Some(b),
        } if ctx.str(*dialect) == "source" && ctx.str(*name) == "tyvar" => {
            ctx.str(*b).strip_prefix('"').and_then(|b| b.strip_suffix('"'))
        }
        _ => None,
    }
}

/// The type variables occurring in `t`, in order, each once.
fn tyvars<'a>(ctx: &'a Context, t: Type, out: &mut Vec<&'a str>) {
    if let Some(n) = tyvar_name(ctx, t) {
        if !out.contains(&n) {
            out.push(n);
        }
        return;
    }
    match ctx.type_kind(t) {
        TypeKind::Array { elem, .. } => tyvars(ctx, *elem, out),
        TypeKind::Tuple(ts) => ts.iter().for_each(|&t| tyvars(ctx, t, out)),
        TypeKind::Record(fs) => fs.iter().for_each(|&(_, t)| tyvars(ctx, t, out)),
        TypeKind::Function { inputs, results } => {
            inputs.iter().chain(results).for_each(|&t| tyvars(ctx, t, out));
        }
        TypeKind::Scalar(_) | TypeKind::Mem(_) | TypeKind::Opaque { .. } => {}
    }
}

/// The `type_params` of a function op (empty when absent).
fn type_params(ctx: &Context, op: crate::ir::OpId) -> Result<Vec<&str>, String> {
    let Some(a) = ctx.attr(op, "type_params") else {
        return Ok(Vec::new());
    };
    let err = || "attribute 'type_params' must be an array of strings".to_string();
    match ctx.attr_kind(a) {
        AttrKind::Array(xs) => xs
            .iter()
            .map(|&x| match ctx.attr_kind(x) {
                AttrKind::String(s) => Ok(ctx.str(*s)),
                _ => Err(err()),
            })
            .collect(),
        _ => Err(err()),
    }
}

/// `func`: as `soac.func`, and every type variable of its type is one of
/// its `type_params` (Note [Type variables]).
pub fn func(v: &OpView) -> Result<(), String> {
    core::func(v)?;
    let params = type_params(v.ctx, v.op)?;
    let mut used = Vec::new();
    tyvars(v.ctx, v.type_attr("function_type")?, &mut used);
    match used.iter().find(|n| !params.contains(n)) {
        Some(n) => Err(format!(
            "type variable '{n}' of the function type is not among its 'type_params'"
        )),
        None => Ok(()),
    }
}

/// What a type variable stands for at one call. The IR cannot intern
/// types while verifying, so an instance made of parts is kept in parts:
/// an element type under some dimensions (`[m]i32` for `[n]a` matched
/// with `[n][m]i32`), or a function's inputs and results (`a -> b` with
/// `b = c -> d` is `(a, c) -> d`, arrows being uncurried as far as they
/// go).
enum Instance {
    Array { dims: Vec<Dim>, elem: Type },
    Function { inputs: Vec<Type>, results: Vec<Type> },
}

impl Instance {
    /// Type `t` as an instance.
    fn of(v: &OpView, t: Type) -> Instance {
        match v.ctx.type_kind(t) {
            TypeKind::Array { elem, shape } => Instance::Array {
                dims: shape.clone(),
                elem: *elem,
            },
            TypeKind::Function { inputs, results } => Instance::Function {
                inputs: inputs.clone(),
                results: results.clone(),
            },
            _ => Instance::Array {
                dims: Vec::new(),
                elem: t,
            },
        }
    }

    /// Whether two instances are the same type up to agreeing sizes.
    fn agrees(&self, v: &OpView, other: &Instance) -> bool {
        match (self, other) {
            (Instance::Array { dims: d1, elem: e1 }, Instance::Array { dims: d2, elem: e2 }) => {
                d1.len() == d2.len() && d1.iter().zip(d2).all(|(a, b)| v.dims_agree(*a, *b)) && v.compatible(*e1, *e2)
            }
            (
                Instance::Function {
                    inputs: i1,
                    results: r1,
                },
                Instance::Function {
                    inputs: i2,
                    results: r2,
                },
            ) => v.all_compatible(i1, i2) && v.all_compatible(r1, r2),
            _ => false,
        }
    }
}

/// Bind type variable `n` to `new`, or check it agrees with its binding.
fn bind(v: &OpView, inst: &mut Vec<(String, Instance)>, n: &str, new: Instance) -> bool {
    match inst.iter().find(|(m, _)| m == n) {
        Some((_, old)) => old.agrees(v, &new),
        None => {
            inst.push((n.to_string(), new));
            true
        }
    }
}

/// Whether `actual` is `pattern` with its type variables `params`
/// replaced consistently (Note [Type variables]); sizes compare as in
/// [`OpView::compatible`].
fn instance_of(v: &OpView, pattern: Type, actual: Type, params: &[&str], inst: &mut Vec<(String, Instance)>) -> bool {
    let param = |t: Type| tyvar_name(v.ctx, t).filter(|n| params.contains(n));
    if let Some(n) = param(pattern) {
        return bind(v, inst, n, Instance::of(v, actual));
    }
    let all = |inst: &mut Vec<(String, Instance)>, ps: &[Type], qs: &[Type]| {
        ps.len() == qs.len() && ps.iter().zip(qs).all(|(&p, &q)| instance_of(v, p, q, params, inst))
    };
    match (v.ctx.type_kind(pattern), v.ctx.type_kind(actual)) {
        (TypeKind::Array { elem: pe, shape: ps }, TypeKind::Array { elem: ae, shape: as_ }) => {
            let outer_agree = |k: usize| ps.iter().zip(&as_[..k]).all(|(a, b)| v.dims_agree(*a, *b));
            match param(*pe) {
                Some(n) => {
                    let inner = Instance::Array {
                        dims: as_[ps.len().min(as_.len())..].to_vec(),
                        elem: *ae,
                    };
                    as_.len() >= ps.len() && outer_agree(ps.len()) && bind(v, inst, n, inner)
                }
                None => ps.len() == as_.len() && outer_agree(ps.len()) && instance_of(v, *pe, *ae, params, inst),
            }
        }
        (TypeKind::Tuple(a), TypeKind::Tuple(b)) => all(inst, a, b),
        (TypeKind::Record(a), TypeKind::Record(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(&(k1, x), &(k2, y))| k1 == k2 && instance_of(v, x, y, params, inst))
        }
        (
            TypeKind::Function {
                inputs: i1,
                results: r1,
            },
            TypeKind::Function {
                inputs: i2,
                results: r2,
            },
        ) => match param_result(v, r1, params) {
            // `a -> b` with `b` a function: the instance takes more inputs.
            Some(n) if i2.len() > i1.len() => {
                let more = Instance::Function {
                    inputs: i2[i1.len()..].to_vec(),
                    results: r2.clone(),
                };
                all(inst, i1, &i2[..i1.len()]) && bind(v, inst, n, more)
            }
            _ => all(inst, i1, i2) && all(inst, r1, r2),
        },
        // A sum type is opaque text here: one whose text names a type
        // variable (`#ok a | #err e`) may stand for any sum.
        (
            TypeKind::Opaque {
                name: n1,
                body: Some(b),
                ..
            },
            TypeKind::Opaque { name: n2, .. },
        ) if v.ctx.str(*n1) == "sum" && v.ctx.str(*n2) == "sum" => {
            let text = v.ctx.str(*b);
            pattern == actual
                || text
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
                    .any(|w| params.contains(&w))
        }
        _ => v.compatible(pattern, actual),
    }
}

/// The type variable that is the one result of a function type, if any.
fn param_result<'a>(v: &OpView<'a>, results: &[Type], params: &[&str]) -> Option<&'a str> {
    match results {
        [r] => tyvar_name(v.ctx, *r).filter(|n| params.contains(n)),
        _ => None,
    }
}

/// `apply {callee}` of a polymorphic function: the operand and result
/// types are an instance of its function type.
fn apply_instance(v: &OpView, callee: &str, params: &[&str], inputs: &[Type], results: &[Type]) -> Result<(), String> {
    let (ots, rts) = (v.operand_types(), v.result_types());
    for (what, expected, found) in [("argument", inputs, &ots), ("result", results, &rts)] {
        if expected.len() != found.len() {
            return Err(format!(
                "{what}: expects {} values, found {}",
                expected.len(),
                found.len()
            ));
        }
    }
    let mut inst = Vec::new();
    let pairs = inputs.iter().zip(&ots).map(|p| ("argument", p));
    let pairs = pairs.chain(results.iter().zip(&rts).map(|p| ("result", p)));
    for (i, (what, (&e, &f))) in pairs.enumerate() {
        if !instance_of(v, e, f, params, &mut inst) {
            let i = if what == "argument" { i } else { i - inputs.len() };
            return Err(format!(
                "{what} #{i} has type {}, which is not an instance of {} in this call of @{callee}",
                v.show(f),
                v.show(e)
            ));
        }
    }
    Ok(())
}

pub fn loop_(v: &OpView) -> Result<(), String> {
    core::loop_with_forms(v, &["for", "while", "for_in"])
}

/// `apply`: by `callee` symbol (checked like `soac.apply`), or of a
/// function-typed first operand whose type the rest of the op must match.
pub fn apply(v: &OpView) -> Result<(), String> {
    if v.attr("callee").is_some() {
        let callee = v.symbol_attr("callee")?;
        let f = v.lookup_symbol(callee);
        let params = match f {
            Some(f) => type_params(v.ctx, f)?,
            None => Vec::new(),
        };
        let ft = f.and_then(|f| v.ctx.attr(f, "function_type"));
        if let (false, Some(ft)) = (params.is_empty(), ft) {
            if let AttrKind::Type(t) = v.ctx.attr_kind(ft) {
                if let TypeKind::Function { inputs, results } = v.ctx.type_kind(*t) {
                    v.expect_regions(0)?;
                    return apply_instance(v, callee, &params, inputs, results);
                }
            }
        }
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
/// `constr(payload...) {constructor}` → a `!source.sum` that has the
/// constructor (the sum's text is opaque, so the payload types are the
/// frontend's to get right).
pub fn constr(v: &OpView) -> Result<(), String> {
    v.expect_results(1)?;
    let c = v.string_attr("constructor")?;
    let rt = v.result_type(0);
    let TypeKind::Opaque { dialect, name, body } = v.ctx.type_kind(rt) else {
        return Err(format!("result must be a !source.sum type, found {}", v.show(rt)));
    };
    if v.ctx.str(*dialect) != "source" || v.ctx.str(*name) != "sum" {
        return Err(format!("result must be a !source.sum type, found {}", v.show(rt)));
    }
    let text = body.map(|b| v.ctx.str(b).to_string()).unwrap_or_default();
    let has = text
        .trim_matches('"')
        .split('|')
        .any(|alt| alt.trim().trim_start_matches('#').split_whitespace().next() == Some(c));
    if !has {
        return Err(format!("the sum type {} has no constructor `#{c}`", v.show(rt)));
    }
    Ok(())
}

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
        return Err(format!("result must be a tuple, found {}", v.show(v.result_type(0))));
    };
    v.expect_types("element", ts, &v.operand_types())
}

/// `tuple_get(t) {index}` → the component's type.
pub fn tuple_get(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    let i = v.int_attr("index")?;
    let TypeKind::Tuple(ts) = v.ctx.type_kind(v.operand_type(0)) else {
        return Err(format!("operand must be a tuple, found {}", v.show(v.operand_type(0))));
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
    if soac == "scatter" {
        // `scatter dest is vs`: the only SOAC without a function.
        v.expect_operands(3)?;
        v.expect_results(1)?;
        return v.expect_type("result", v.operand_type(0), v.result_type(0));
    }
    let fidx = (0..v.num_operands())
        .find(|&i| matches!(v.ctx.type_kind(v.operand_type(i)), TypeKind::Function { .. }))
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
            let n = xs.first().and_then(|&x| v.outer_dim(x)).unwrap_or(Dim::Unknown);
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
                return Err("the operator must be a function of two arguments and one result".into());
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

/// Whether two types differ in their sizes only.
fn same_but_sizes(v: &OpView, a: Type, b: Type) -> bool {
    if a == b {
        return true;
    }
    match (v.ctx.type_kind(a), v.ctx.type_kind(b)) {
        (TypeKind::Array { elem: e1, shape: s1 }, TypeKind::Array { elem: e2, shape: s2 }) => {
            s1.len() == s2.len() && same_but_sizes(v, *e1, *e2)
        }
        (TypeKind::Tuple(x), TypeKind::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(&p, &q)| same_but_sizes(v, p, q))
        }
        (TypeKind::Record(x), TypeKind::Record(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(&(k1, p), &(k2, q))| k1 == k2 && same_but_sizes(v, p, q))
        }
        (
            TypeKind::Function {
                inputs: i1,
                results: r1,
            },
            TypeKind::Function {
                inputs: i2,
                results: r2,
            },
        ) => {
            i1.len() == i2.len()
                && r1.len() == r2.len()
                && i1
                    .iter()
                    .chain(r1)
                    .zip(i2.iter().chain(r2))
                    .all(|(&p, &q)| same_but_sizes(v, p, q))
        }
        _ => false,
    }
}

/// `coerce(x)`: the result type is the operand's up to sizes.
pub fn coerce(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    v.expect_regions(0)?;
    let (from, to) = (v.operand_type(0), v.result_type(0));
    if !same_but_sizes(v, from, to) {
        return Err(format!(
            "result type {} differs from the operand type {} in more than sizes",
            v.show(to),
            v.show(from)
        ));
    }
    Ok(())
}

/// `hole() {message}`: no operands, one result of any type.
pub fn hole(v: &OpView) -> Result<(), String> {
    v.expect_operands(0)?;
    v.expect_results(1)?;
    v.expect_regions(0)?;
    v.string_attr("message")?;
    Ok(())
}

/// The forms of a `range`.
pub const RANGE_KINDS: &[&str] = &["inclusive", "up_to_exclusive", "down_to_exclusive"];

/// `range(start, [second,] end) {kind}`: integers of one type to a
/// one-dimensional array of them.
pub fn range(v: &OpView) -> Result<(), String> {
    v.expect_results(1)?;
    v.expect_regions(0)?;
    v.enum_attr("kind", RANGE_KINDS)?;
    let n = v.num_operands();
    if !(2..=3).contains(&n) {
        return Err(format!("expects 2 or 3 operands, found {n}"));
    }
    let t = v.operand_type(0);
    if !v.is_int(t) {
        return Err(format!("the bounds must be integers, found {}", v.show(t)));
    }
    if (1..n).any(|i| v.operand_type(i) != t) {
        return Err("expects all operands to have one type".into());
    }
    let rt = v.result_type(0);
    if v.rank(rt) != 1 || !v.is_row_of(rt, t) {
        return Err(format!(
            "result must be a one-dimensional array of {}, found {}",
            v.show(t),
            v.show(rt)
        ));
    }
    Ok(())
}
