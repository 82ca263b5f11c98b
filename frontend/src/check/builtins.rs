//! The built-in functions and constants: their names and type schemes.
//!
//! Type schemes are written in Futhark's own type syntax (type parameters
//! first) and parsed at start-up, so this table is the one place that says
//! what a built-in's type is. The interpreter implements each by name
//! (`crate::interp`); the prelude (`prelude/prelude.fut`) builds the rest of
//! the basis library on top of them in Futhark.
//!
//! Unqualified names are the SOACs and the array primitives of the basis
//! library (`map` is one-array here; the prelude defines `map2`..`map5`,
//! `tabulate`, `reverse`, `flatten_3d`, ... from them). The
//! numeric modules `i8 … f64` and `bool` are qualified names `T.f` generated
//! by [`numeric_module`].

use crate::types::{PrimType, Size, Type};

/// Unqualified built-ins: name and type scheme.
pub const GENERAL: &[(&str, &str)] = &[
    ("map", "'a 'b [n] (a -> b) -> [n]a -> *[n]b"),
    ("reduce", "'a [n] (a -> a -> a) -> a -> [n]a -> a"),
    ("reduce_comm", "'a [n] (a -> a -> a) -> a -> [n]a -> a"),
    ("scan", "'a [n] (a -> a -> a) -> a -> [n]a -> *[n]a"),
    (
        "hist",
        "'a [n] (a -> a -> a) -> a -> (k: i64) -> [n]i64 -> [n]a -> *[k]a",
    ),
    (
        "reduce_by_index",
        "'a [k] [n] *[k]a -> (a -> a -> a) -> a -> [n]i64 -> [n]a -> *[k]a",
    ),
    ("scatter", "'t [k] [n] *[k]t -> [n]i64 -> [n]t -> *[k]t"),
    (
        "scatter_2d",
        "'t [k] [m] [n] *[k][m]t -> [n](i64, i64) -> [n]t -> *[k][m]t",
    ),
    (
        "scatter_3d",
        "'t [k] [m] [l] [n] *[k][m][l]t -> [n](i64, i64, i64) -> [n]t -> *[k][m][l]t",
    ),
    ("filter", "'a [n] (a -> bool) -> [n]a -> *[]a"),
    ("partition", "'a [n] (a -> bool) -> [n]a -> ([]a, []a)"),
    ("zip", "'a 'b [n] [n]a -> [n]b -> *[n](a, b)"),
    ("zip3", "'a 'b 'c [n] [n]a -> [n]b -> [n]c -> *[n](a, b, c)"),
    (
        "zip4",
        "'a 'b 'c 'd [n] [n]a -> [n]b -> [n]c -> [n]d -> *[n](a, b, c, d)",
    ),
    (
        "zip5",
        "'a 'b 'c 'd 'e [n] [n]a -> [n]b -> [n]c -> [n]d -> [n]e -> *[n](a, b, c, d, e)",
    ),
    ("unzip", "'a 'b [n] [n](a, b) -> ([n]a, [n]b)"),
    ("unzip3", "'a 'b 'c [n] [n](a, b, c) -> ([n]a, [n]b, [n]c)"),
    ("unzip4", "'a 'b 'c 'd [n] [n](a, b, c, d) -> ([n]a, [n]b, [n]c, [n]d)"),
    (
        "unzip5",
        "'a 'b 'c 'd 'e [n] [n](a, b, c, d, e) -> ([n]a, [n]b, [n]c, [n]d, [n]e)",
    ),
    ("iota", "(n: i64) -> *[n]i64"),
    ("replicate", "'t (n: i64) -> t -> *[n]t"),
    ("rep", "'t [n] t -> *[n]t"),
    ("concat", "'t [n] [m] [n]t -> [m]t -> *[]t"),
    ("++", "'t [n] [m] [n]t -> [m]t -> *[]t"),
    ("rotate", "'t [n] i64 -> [n]t -> [n]t"),
    ("transpose", "'t [n] [m] [n][m]t -> [m][n]t"),
    ("flatten", "'t [n] [m] [n][m]t -> [n*m]t"),
    ("unflatten", "'t [n] [m] [n*m]t -> [n][m]t"),
    ("unflatten_3d", "'t [n] [m] [l] [n*m*l]t -> [n][m][l]t"),
    ("unflatten_4d", "'t [n] [m] [l] [k] [n*m*l*k]t -> [n][m][l][k]t"),
    ("split", "'t [n] [m] [n+m]t -> ([n]t, [m]t)"),
    ("copy", "'t t -> *t"),
    ("trace", "'t t -> t"),
    ("opaque", "'t t -> t"),
    // Forward-mode AD; the prelude's `jvp`, `jmp` and `jmp2` are built on
    // it (Note [Dual numbers] in interp/dual.rs).
    ("jvp2", "'a 'b (a -> b) -> a -> a -> (b, b)"),
    // Reverse-mode AD; the prelude's `vjp`, `mjp` and `mjp2` are built on
    // it (Note [Reverse mode] in interp/tape.rs).
    ("vjp2", "'a 'b (a -> b) -> a -> b -> (b, a)"),
    // A custom adjoint (Note [Custom adjoints] in interp/tape.rs); the
    // prelude's `with_vjp_tape` is built on it.
    ("with_vjp", "'a 'b (a -> b) -> (b -> b -> a) -> a -> b"),
    // Accumulators (Note [Accumulators]): the members of the module
    // `intrinsics` that programs may name. `acc` is the abstract type
    // `intrinsics.acc` ([`ACC_TYPE`]).
    (
        "intrinsics.scatter_stream",
        "'a 'b [k] [n] *[k]a -> (*acc ([k]a) -> b -> acc ([k]a)) -> [n]b -> *[k]a",
    ),
    (
        "intrinsics.hist_stream",
        "'a 'b [k] [n] *[k]a -> (a -> a -> a) -> a -> (*acc ([k]a) -> b -> acc ([k]a)) -> [n]b -> *[k]a",
    ),
    ("intrinsics.acc_write", "'a [k] *acc ([k]a) -> i64 -> a -> *acc ([k]a)"),
];

/// The flat name of the abstract type `intrinsics.acc t` (Note
/// [Accumulators]); the signatures above write it `acc`.
pub const ACC_TYPE: &str = "intrinsics.acc";

/// The built-ins of [`GENERAL`] that programs name as members of the
/// module `intrinsics` (the part after the dot), with the type
/// [`ACC_TYPE`].
pub const ACC_FUNCTIONS: &[&str] = &["scatter_stream", "hist_stream", "acc_write"];

// Note [Accumulators]
// Futhark's accumulators (`intrinsics.acc`, used by its test programs
// through `accs/intrinsics.fut`, and by its reverse-mode AD):
//
//   scatter_stream dest f bs        -- f : *acc ([k]a) -> b -> acc ([k]a)
//   hist_stream dest op ne f bs
//   acc_write acc i v
//
// For every element `b` of `bs`, in parallel and in no particular order,
// `f acc b` writes into the accumulator with `acc_write acc i v`: `dest[i]
// = v` for `scatter_stream`, `dest[i] = op dest[i] v` for `hist_stream`
// (`op` associative and commutative, `ne` its neutral element); a write
// out of bounds is ignored. The result is `dest` after all writes. An
// accumulator can only be written: it is consumed by each write (its type
// is unique), and nothing reads it.
//
// To the checker `acc t` is an abstract type with one parameter (Note
// [Abstract types] in `check::seal`): nothing unifies with it but itself,
// so a program cannot index it or pass it where an array is expected;
// `*acc t` is unique (its payload is, so `contains_unique` sees it).
// Once the program is checked, `acc t` is made concrete as `t`, the array:
// the interpreter and internalisation see an accumulator as the array it
// writes into (`interp::builtins`, `soac.scatter_stream` in the soac
// dialect).

/// The number of size parameters of built-in `name` that cannot be read
/// off the shape of its argument at run time: `unflatten`'s `[n][m]` from
/// an array of size `n*m`, `split`'s `[n]` and `[m]` from `n+m`, `rep`'s
/// `[n]`, which only its result has (`rep x` is `replicate n x`). The
/// checker binds them from the argument's type (Note [Static size
/// checking]); the interpreters take them as leading `i64` arguments,
/// evaluated from the type of the built-in where it is used
/// ([`implicit_sizes`]).
///
/// Note [Sizes derived from the argument]
/// An implicit size may be `Unknown` where it is used: the argument's size
/// is one the checker does not track (`unflatten (xs :> [opaque 1*b]t)`,
/// `unflatten (filter p xs)` used as `[][b]t`), so unification bound
/// nothing, and no context bound it either. One such size is still
/// determined by the argument, whose size is always known at run time:
/// it is the length divided by the product of the other sizes
/// (`unflatten`), or the length minus the other size (`split`). The
/// interpreters pass it as [`DERIVED_SIZE`] and the built-in computes it
/// before its usual size check; two unknown sizes (or `rep`'s one) are a
/// compile-time error (`check::zonk`).
pub fn implicit_size_count(name: &str) -> usize {
    match name {
        "rep" => 1,
        "unflatten" | "split" => 2,
        "unflatten_3d" => 3,
        "unflatten_4d" => 4,
        _ => 0,
    }
}

/// An implicit size to be computed from the argument's size (See Note
/// [Sizes derived from the argument]).
pub const DERIVED_SIZE: i64 = -1;

/// The size in `sizes` (of `unflatten` or `split`, at most one of them
/// [`DERIVED_SIZE`]) for an argument of outer size `len`, with the derived
/// one computed: the size check that follows rejects a length that does
/// not fit.
pub fn derive_size(name: &str, sizes: &mut [i64], len: i64) {
    let Some(u) = sizes.iter().position(|&d| d == DERIVED_SIZE) else {
        return;
    };
    let mut others = sizes.iter().enumerate().filter(|&(i, _)| i != u).map(|(_, &d)| d);
    sizes[u] = if name == "split" {
        len - others.sum::<i64>()
    } else {
        match others.try_fold(1i64, |a, d| a.checked_mul(d)) {
            Some(p) if p > 0 => len / p,
            _ => 0,
        }
    };
}

/// The implicit sizes (see [`implicit_size_count`]) of a use of built-in
/// `name` at type `ty` (instantiated: `[k*l]t -> [k][l]t`): the outer
/// sizes of the result, of each result for `split`. `Unknown` where the
/// type does not say.
pub fn implicit_sizes(name: &str, ty: &Type) -> Vec<Size> {
    let k = implicit_size_count(name);
    let outer = |t: &Type| match t {
        Type::Array { shape, .. } => shape[0].clone(),
        _ => Size::Unknown,
    };
    let mut sizes = match ty {
        Type::Arrow { ret, .. } => match &**ret {
            Type::Tuple(ts) if name == "split" => ts.iter().map(outer).collect(),
            Type::Array { shape, .. } => shape.iter().take(k).cloned().collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    sizes.resize(k, Size::Unknown);
    sizes
}

/// The intrinsics of every numeric type `T` (`T` stands for the type),
/// besides the conversions `T.i8 … T.f64` and `T.bool`: what one scalar
/// op computes (`max` and `min` too: one instruction, with IEEE NaN
/// handling for floats) and `to_i64`, a conversion. The numeric modules
/// add what derives from these in Futhark (`prelude/prelude.fut`: `sum`,
/// `highest`, `get_bit`, `lerp`, `isnan`, ...).
const NUMERIC_COMMON: &[(&str, &str)] = &[
    ("+", "T -> T -> T"),
    ("-", "T -> T -> T"),
    ("*", "T -> T -> T"),
    ("/", "T -> T -> T"),
    ("%", "T -> T -> T"),
    ("**", "T -> T -> T"),
    ("==", "T -> T -> bool"),
    ("!=", "T -> T -> bool"),
    ("<", "T -> T -> bool"),
    ("<=", "T -> T -> bool"),
    (">", "T -> T -> bool"),
    (">=", "T -> T -> bool"),
    ("max", "T -> T -> T"),
    ("min", "T -> T -> T"),
    ("abs", "T -> T"),
    ("sgn", "T -> T"),
    ("neg", "T -> T"),
    ("to_i64", "T -> i64"),
];

/// Intrinsics of the integer types.
const INTEGRAL: &[(&str, &str)] = &[
    ("//", "T -> T -> T"),
    ("%%", "T -> T -> T"),
    ("&", "T -> T -> T"),
    ("|", "T -> T -> T"),
    ("^", "T -> T -> T"),
    ("<<", "T -> T -> T"),
    (">>", "T -> T -> T"),
    (">>>", "T -> T -> T"),
    ("not", "T -> T"),
    ("popc", "T -> i32"),
    ("clz", "T -> i32"),
    ("mul_hi", "T -> T -> T"),
];

/// Intrinsics of the float types. `mad` stays one (a multiply-add that
/// may fuse, unlike `a*b + c`); `inf` and `nan` have no literals.
const FLOAT: &[(&str, &str)] = &[
    ("sqrt", "T -> T"),
    ("cbrt", "T -> T"),
    ("exp", "T -> T"),
    ("log", "T -> T"),
    ("log2", "T -> T"),
    ("log10", "T -> T"),
    ("log1p", "T -> T"),
    ("sin", "T -> T"),
    ("cos", "T -> T"),
    ("tan", "T -> T"),
    ("asin", "T -> T"),
    ("acos", "T -> T"),
    ("atan", "T -> T"),
    ("sinh", "T -> T"),
    ("cosh", "T -> T"),
    ("tanh", "T -> T"),
    ("asinh", "T -> T"),
    ("acosh", "T -> T"),
    ("atanh", "T -> T"),
    ("atan2", "T -> T -> T"),
    ("hypot", "T -> T -> T"),
    ("gamma", "T -> T"),
    ("lgamma", "T -> T"),
    ("erf", "T -> T"),
    ("erfc", "T -> T"),
    ("floor", "T -> T"),
    ("ceil", "T -> T"),
    ("round", "T -> T"),
    ("inf", "T"),
    ("nan", "T"),
    ("fma", "T -> T -> T -> T"),
    ("mad", "T -> T -> T -> T"),
    ("copysign", "T -> T -> T"),
    ("to_f64", "T -> f64"),
    ("to_bits", "T -> U"),
    ("from_bits", "U -> T"),
];

/// Intrinsics of `bool`.
const BOOL: &[(&str, &str)] = &[("not", "bool -> bool")];

/// The unsigned integer type of the same width as a float type (for
/// `to_bits`/`from_bits`).
pub(crate) fn bits_type(t: PrimType) -> PrimType {
    match t.bits() {
        16 => PrimType::U16,
        32 => PrimType::U32,
        _ => PrimType::U64,
    }
}

/// The signature of member `f` of module `t` as written in the tables
/// above (`T` not yet replaced by the type), or `None` if there is no
/// such member; conversions (`i32.f64`) are not in the tables. Cheaper
/// than [`numeric_module`] for a single lookup.
pub fn numeric_member(t: PrimType, f: &str) -> Option<&'static str> {
    let tables: &[&[(&'static str, &'static str)]] = match t {
        PrimType::Bool => &[BOOL],
        t if t.is_float() => &[NUMERIC_COMMON, FLOAT],
        _ => &[NUMERIC_COMMON, INTEGRAL],
    };
    tables
        .iter()
        .flat_map(|tab| tab.iter())
        .find(|(n, _)| *n == f)
        .map(|(_, s)| *s)
}

/// The members of module `t` (`i32.sum`, `f32.sqrt`, ...) as (name, type
/// scheme) pairs; every member with an array has the size parameter `[n]`.
pub fn numeric_module(t: PrimType) -> Vec<(String, String)> {
    let tn = t.name();
    let subst = |sig: &str| -> String {
        let s: String = sig
            .split(' ')
            .map(|w| match w {
                "T" => tn.to_string(),
                "[n]T" => format!("[n]{tn}"),
                "U" => bits_type(t).name().to_string(),
                w => w.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ");
        if s.contains("[n]") {
            format!("[n] {s}")
        } else {
            s
        }
    };
    let mut out = Vec::new();
    // Conversions from every primitive type.
    for from in PrimType::ALL {
        out.push((from.name().to_string(), format!("{} -> {tn}", from.name())));
    }
    if t == PrimType::Bool {
        out.extend(BOOL.iter().map(|(n, s)| (n.to_string(), subst(s))));
        return out;
    }
    out.extend(NUMERIC_COMMON.iter().map(|(n, s)| (n.to_string(), subst(s))));
    let extra = if t.is_float() { FLOAT } else { INTEGRAL };
    out.extend(extra.iter().map(|(n, s)| (n.to_string(), subst(s))));
    out
}

/// The built-in binary operators on primitive values (overloaded: the
/// checker gives them the type `t -> t -> t` or `t -> t -> bool` for a
/// primitive `t` of the right class). `&&` and `||` are short-circuiting.
pub const OPERATORS: &[&str] = &[
    "+", "-", "*", "/", "%", "//", "%%", "**", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "&", "|", "^", "<<", ">>",
    ">>>",
];

/// The one scalar op of the IR (shared by the `source` and `soac`
/// dialects) that computes a built-in operator or numeric-module function
/// on operands of one primitive type: the op and its `kind`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScalarOp {
    /// `binop`: two operands and the result of type `t`.
    Binary(&'static str),
    /// `cmpop`: two operands of type `t`, a `bool`.
    Compare(&'static str),
    /// `unop`: one operand and the result of type `t`.
    Unary(&'static str),
}

/// The scalar op of operator or module function `name` (`+`, `max`,
/// `sqrt`, unqualified) on operands of type `t`, where one op computes it:
/// `/` and `%` round towards negative infinity (`div`, `mod`), `%%`
/// towards zero (`rem`); signed `//` (truncating division) takes more than
/// one op and has none, as have functions whose result type is not `t`
/// (`popc`, conversions).
pub fn scalar_op(name: &str, t: PrimType) -> Option<ScalarOp> {
    use ScalarOp::{Binary, Compare, Unary};
    Some(match name {
        "+" => Binary("add"),
        "-" => Binary("sub"),
        "*" => Binary("mul"),
        "**" => Binary("pow"),
        "&&" | "&" => Binary("and"),
        "||" | "|" => Binary("or"),
        "^" => Binary("xor"),
        "<<" => Binary("shl"),
        ">>" => Binary("shr"),
        ">>>" => Binary("ushr"),
        "max" => Binary("max"),
        "min" => Binary("min"),
        "/" => Binary("div"),
        "%" => Binary("mod"),
        "//" | "%%" if t.is_float() => Binary("mod"),
        "%%" => Binary("rem"),
        "//" if t.is_unsigned() => Binary("div"),
        "==" => Compare("eq"),
        "!=" => Compare("ne"),
        "<" => Compare("lt"),
        "<=" => Compare("le"),
        ">" => Compare("gt"),
        ">=" => Compare("ge"),
        "abs" => Unary("abs"),
        "sgn" => Unary("signum"),
        "neg" => Unary("neg"),
        "not" => Unary("not"),
        "sqrt" => Unary("sqrt"),
        "exp" => Unary("exp"),
        "log" => Unary("log"),
        "sin" => Unary("sin"),
        "cos" => Unary("cos"),
        "tan" => Unary("tan"),
        "floor" => Unary("floor"),
        "ceil" => Unary("ceil"),
        "round" => Unary("round"),
        "cbrt" => Unary("cbrt"),
        "log2" => Unary("log2"),
        "log10" => Unary("log10"),
        "log1p" => Unary("log1p"),
        "asin" => Unary("asin"),
        "acos" => Unary("acos"),
        "atan" => Unary("atan"),
        "sinh" => Unary("sinh"),
        "cosh" => Unary("cosh"),
        "tanh" => Unary("tanh"),
        "asinh" => Unary("asinh"),
        "acosh" => Unary("acosh"),
        "atanh" => Unary("atanh"),
        "gamma" => Unary("gamma"),
        "lgamma" => Unary("lgamma"),
        "erf" => Unary("erf"),
        "erfc" => Unary("erfc"),
        "atan2" => Binary("atan2"),
        "hypot" => Binary("hypot"),
        "copysign" => Binary("copysign"),
        "mul_hi" => Binary("mul_hi"),
        _ => return None,
    })
}

/// The intrinsic constant `name` of type `t` (`f32.inf`, `f64.nan`): its
/// value.
pub fn numeric_constant(t: PrimType, name: &str) -> Option<f64> {
    match name {
        "inf" if t.is_float() => Some(f64::INFINITY),
        "nan" if t.is_float() => Some(f64::NAN),
        _ => None,
    }
}

/// The number of arguments a built-in takes (0 for constants), its
/// implicit sizes included ([`implicit_sizes`]); `None` if it is not a
/// built-in.
pub fn arity(name: &str) -> Option<usize> {
    if OPERATORS.contains(&name) {
        return Some(2);
    }
    if let Some((_, sig)) = GENERAL.iter().find(|(n, _)| *n == name) {
        return Some(count_arrows(sig) + implicit_size_count(name));
    }
    let (m, f) = name.split_once('.')?;
    let t = PrimType::from_name(m)?;
    if PrimType::from_name(f).is_some() {
        return Some(1); // a conversion
    }
    numeric_member(t, f).map(count_arrows)
}

/// Arrows at parenthesis depth 0 of a type signature (type and size
/// parameters in front of it hold none).
pub(crate) fn count_arrows(sig: &str) -> usize {
    let mut depth = 0i32;
    let mut n = 0;
    let b = sig.as_bytes();
    for i in 0..b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'-' if depth == 0 && b.get(i + 1) == Some(&b'>') => n += 1,
            _ => {}
        }
    }
    n
}
