//! Property-based tests of `futmlir test` (futhark-test(1)): a block's
//! `property: names...` names entry points of type `t -> bool` marked
//! `#[prop]`; random candidates of type `t` are tried until one makes the
//! property false, and that counterexample is shrunk (Note [Property
//! tests]).

use std::path::Path;

use futmlir_frontend::syntax::ast::{Attr, Dec};
use futmlir_frontend::types::Type;
use futmlir_frontend::values::{self, Array, ArrayData, PrimValue, Value};

use crate::test::Compiled;

// Note [Property tests]
// ~~~~~~~~~~~~~~~~~~~~~
// A property `p : t -> bool` with `#[prop]` (optionally `#[prop(gen(g),
// shrink(s), size(N))]`) is run on CANDIDATES candidates. A candidate is
// `g N seed` when the property names a generator `g : i64 -> u64 -> t`;
// otherwise `t` must be a scalar or an array of scalars, and the
// candidate is drawn as `futmlir dataset` would draw a value of type
// `[N]...[N]elem`. The first candidate that makes `p` false (or fail) is
// a counterexample, which is shrunk greedily: among the smaller values
// (`s candidate r` for random `r` when the property names a shrinker;
// otherwise the halves of an array and the array without one element,
// then each element made smaller as a scalar is; for a scalar zero, half
// of it, and one step towards zero) the first
// that is still a counterexample replaces it, until none is, or after
// SHRINK_STEPS steps. The seed of the candidates (`--seed`, else one
// drawn from the clock) is in the report, so that a failure can be
// repeated.

/// Candidates tried per property.
const CANDIDATES: usize = 100;
/// The size of candidates without `size(N)`.
const DEFAULT_SIZE: i64 = 20;
/// Shrink steps at most (each replaces the counterexample by a smaller
/// one).
const SHRINK_STEPS: usize = 1000;
/// Random shrinker calls per step before the counterexample counts as
/// shrunk as far as it goes.
const SHRINK_TRIES: usize = 100;

/// A property: its `#[prop]` arguments and parameter type.
struct Property {
    gen: Option<String>,
    shrink: Option<String>,
    size: i64,
    param: Type,
}

/// Tests the property `name` of the program at `path` (run as `program`),
/// drawing candidates from `seed`; `Err`: the counterexample, or why the
/// property cannot be tested.
pub fn check(path: &Path, program: &dyn Compiled, name: &str, seed: u64) -> Result<(), String> {
    let prop = property(path, name)?;
    let mut rng = values::Rng::new(seed);
    for candidate_no in 1..=CANDIDATES {
        let candidate = generate(program, &prop, &mut rng)?;
        if let Some(why) = fails(program, name, &candidate)? {
            let (smallest, why, steps) = shrink(program, name, &prop, candidate, why, &mut rng)?;
            return Err(format!(
                "counterexample (candidate {candidate_no} of {CANDIDATES}, seed {seed}), shrunk in {steps} steps:\n{smallest}{why}"
            ));
        }
    }
    Ok(())
}

/// The `#[prop]` entry point `name` of the program at `path`.
fn property(path: &Path, name: &str) -> Result<Property, String> {
    let (_, checked) = crate::run::load_plain(path)?;
    let entry = checked
        .entries
        .iter()
        .find(|e| &*e.name == name)
        .ok_or_else(|| format!("no entry point `{name}`"))?;
    let attr = checked
        .programs
        .iter()
        .flat_map(|p| &p.decs)
        .filter_map(|d| match d {
            Dec::Val(v) if v.entry && &*v.name == name => Some(&v.attrs),
            _ => None,
        })
        .flatten()
        .find(|a| &*a.name == "prop")
        .ok_or_else(|| format!("entry point `{name}` is not a property: it has no #[prop] attribute"))?;
    let param = match (&entry.params[..], &entry.ret) {
        ([param], Type::Prim(values::PrimType::Bool)) => param.clone(),
        _ => return Err(format!("property `{name}` must have type t -> bool")),
    };
    let mut prop = Property {
        gen: None,
        shrink: None,
        size: DEFAULT_SIZE,
        param,
    };
    for arg in &attr.args {
        let value = match &arg.args[..] {
            [Attr { name, args, .. }] if args.is_empty() => name.to_string(),
            _ => {
                return Err(format!(
                    "#[prop({})]: expected one name or number in parentheses",
                    arg.name
                ))
            }
        };
        match &*arg.name {
            "gen" => prop.gen = Some(value),
            "shrink" => prop.shrink = Some(value),
            "size" => {
                prop.size = value
                    .parse()
                    .map_err(|_| format!("#[prop(size({value}))]: the size must be an integer"))?
            }
            other => return Err(format!("#[prop({other}(...))]: unknown; expected gen, shrink or size")),
        }
    }
    Ok(prop)
}

/// A random candidate.
fn generate(program: &dyn Compiled, prop: &Property, rng: &mut values::Rng) -> Result<Value, String> {
    let Some(gen) = &prop.gen else {
        let spec = value_spec(&prop.param, prop.size)?;
        return values::generate(&spec, rng, &values::Bounds::default()).map_err(|e| e.to_string());
    };
    let args = vec![
        Value::Prim(PrimValue::I64(prop.size)),
        Value::Prim(PrimValue::U64(rng.next_u64())),
    ];
    one_value(program.run(gen, args), gen)
}

/// The value spec (`[20][20]i32`) of candidates of type `t`.
fn value_spec(t: &Type, size: i64) -> Result<String, String> {
    match t {
        Type::Prim(p) => Ok(p.to_string()),
        Type::Array { elem, shape, .. } if matches!(**elem, Type::Prim(_)) => {
            Ok(format!("{}{elem}", format!("[{size}]").repeat(shape.len())))
        }
        _ => Err(format!(
            "candidates of type {t} need a generator: #[prop(gen(f))] with f : i64 -> u64 -> {t}"
        )),
    }
}

/// The one value a generator or shrinker returned.
fn one_value(result: Result<Vec<Value>, String>, f: &str) -> Result<Value, String> {
    let mut values = result.map_err(|e| format!("`{f}`: run-time error: {e}"))?;
    match (values.pop(), values.is_empty()) {
        (Some(v), true) => Ok(v),
        _ => Err(format!("`{f}` must return one value")),
    }
}

/// Why `candidate` is a counterexample (` makes it false`, or the run-time
/// error), if it is one; `Err`: the property did not return a bool.
fn fails(program: &dyn Compiled, name: &str, candidate: &Value) -> Result<Option<String>, String> {
    match program.run(name, vec![candidate.clone()]).as_deref() {
        Ok([Value::Prim(PrimValue::Bool(true))]) => Ok(None),
        Ok([Value::Prim(PrimValue::Bool(false))]) => Ok(Some(String::new())),
        Ok(_) => Err(format!("property `{name}` did not return one bool")),
        Err(e) => Ok(Some(format!("\nrun-time error: {e}"))),
    }
}

/// The smallest counterexample found from `candidate` (failing with
/// `why`), its failure, and how many steps shrank it.
fn shrink(
    program: &dyn Compiled,
    name: &str,
    prop: &Property,
    mut candidate: Value,
    mut why: String,
    rng: &mut values::Rng,
) -> Result<(Value, String, usize), String> {
    for step in 0..SHRINK_STEPS {
        let smaller: Vec<Value> = match &prop.shrink {
            Some(f) => (0..SHRINK_TRIES)
                .map(|_| {
                    let args = vec![candidate.clone(), Value::Prim(PrimValue::U64(rng.next_u64()))];
                    one_value(program.run(f, args), f)
                })
                .collect::<Result<_, _>>()?,
            None => smaller_values(&candidate),
        };
        let mut shrunk = false;
        for s in smaller.into_iter().filter(|s| *s != candidate) {
            if let Some(w) = fails(program, name, &s)? {
                (candidate, why, shrunk) = (s, w, true);
                break;
            }
        }
        if !shrunk {
            return Ok((candidate, why, step));
        }
    }
    Ok((candidate, why, SHRINK_STEPS))
}

/// The values the default shrinker tries after `v`, smallest first.
fn smaller_values(v: &Value) -> Vec<Value> {
    match v {
        Value::Prim(p) => smaller_scalars(*p).into_iter().map(Value::Prim).collect(),
        Value::Array(a) => {
            let n = a.shape.first().copied().unwrap_or(0);
            let mut out = Vec::new();
            if n > 1 {
                out.push(rows(a, 0, n / 2));
                out.push(rows(a, n / 2, n));
            }
            for i in 0..n {
                let mut without = rows(a, 0, i);
                if let (Value::Array(w), Value::Array(rest)) = (&mut without, rows(a, i + 1, n)) {
                    let mut data = rest.data;
                    w.data.append(&mut data);
                    w.shape[0] = n - 1;
                }
                out.push(without);
            }
            for i in 0..a.data.len() {
                // Invariant: `i` is below the array's length.
                let Some(x) = a.data.get(i) else { continue };
                out.extend(smaller_scalars(x).into_iter().map(|y| with_element(a, i, y)));
            }
            out
        }
    }
}

/// `a` with its `i`th element (flat, row-major) replaced by `y`.
fn with_element(a: &Array, i: usize, y: PrimValue) -> Value {
    let mut data = ArrayData::with_capacity(a.data.elem_type(), a.data.len());
    for j in 0..a.data.len() {
        if let Some(x) = a.data.get(j) {
            data.push(if j == i { y } else { x });
        }
    }
    Value::Array(Array {
        shape: a.shape.clone(),
        data,
    })
}

/// Rows `from..to` of `a` (along its outer dimension).
fn rows(a: &Array, from: usize, to: usize) -> Value {
    let row: usize = a.shape[1..].iter().product();
    let mut data = ArrayData::with_capacity(a.data.elem_type(), (to - from) * row);
    for i in from * row..to * row {
        // Invariant: `i` is below the array's length, `shape[0] * row`.
        if let Some(x) = a.data.get(i) {
            data.push(x);
        }
    }
    let mut shape = a.shape.clone();
    shape[0] = to - from;
    Value::Array(Array { shape, data })
}

/// Zero, half of `p` and one step towards zero (integers), or zero and
/// `p` truncated (floats).
fn smaller_scalars(p: PrimValue) -> Vec<PrimValue> {
    macro_rules! int {
        ($c:ident, $x:expr) => {{
            let x = $x;
            let step = if x > 0 { x - 1 } else { x.wrapping_add(1) };
            vec![PrimValue::$c(0), PrimValue::$c(x / 2), PrimValue::$c(step)]
        }};
    }
    macro_rules! uint {
        ($c:ident, $x:expr) => {{
            let x = $x;
            vec![
                PrimValue::$c(0),
                PrimValue::$c(x / 2),
                PrimValue::$c(x.saturating_sub(1)),
            ]
        }};
    }
    match p {
        PrimValue::I8(x) => int!(I8, x),
        PrimValue::I16(x) => int!(I16, x),
        PrimValue::I32(x) => int!(I32, x),
        PrimValue::I64(x) => int!(I64, x),
        PrimValue::U8(x) => uint!(U8, x),
        PrimValue::U16(x) => uint!(U16, x),
        PrimValue::U32(x) => uint!(U32, x),
        PrimValue::U64(x) => uint!(U64, x),
        PrimValue::F32(x) => vec![PrimValue::F32(0.0), PrimValue::F32(x.trunc())],
        PrimValue::F64(x) => vec![PrimValue::F64(0.0), PrimValue::F64(x.trunc())],
        PrimValue::F16(_) => vec![PrimValue::F16(0)],
        PrimValue::Bool(_) => vec![PrimValue::Bool(false)],
    }
}
