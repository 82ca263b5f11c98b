//! Tests of the interpreter on hand-built checked trees (the parser and the
//! checker arrive on other branches).

use std::rc::Rc;

use super::eval::Interp;
use super::value::{Array, Data, Value};
use super::*;
use crate::check::{Checked, Entry};
use crate::span::Span;
use crate::syntax::ast::*;
use crate::types::{PrimType, Size, Type};
use crate::values::f16::f16_to_f32;
use crate::values::{self as ext, PrimValue};

use PrimType::{Bool as BOOL, F16, F32, F64, I16, I32, I64, I8, U16, U32, U64, U8};

// ---------------------------------------------------------------------------
// Building trees.

fn sp() -> Span {
    Span::default()
}

fn at(mut e: Exp, lo: u32) -> Exp {
    e.span = Span::new(0, lo, lo + 1);
    e
}

fn nm(s: &str) -> Name {
    Rc::from(s)
}

fn pt(t: PrimType) -> Type {
    Type::Prim(t)
}

fn arr_t(t: Type, dims: Vec<Size>) -> Type {
    Type::Array {
        elem: Rc::new(t),
        shape: dims,
        unique: false,
    }
}

fn uniq(t: Type) -> Type {
    match t {
        Type::Array { elem, shape, .. } => Type::Array {
            elem,
            shape,
            unique: true,
        },
        t => t,
    }
}

fn arrow(params: Vec<Type>, ret: Type) -> Type {
    params.into_iter().rev().fold(ret, |r, p| Type::Arrow {
        param_name: None,
        param: Rc::new(p),
        ret: Rc::new(r),
    })
}

fn ex(kind: ExpKind) -> Exp {
    Exp::new(kind, sp())
}

fn typed(mut e: Exp, t: Type) -> Exp {
    e.ty = Some(t);
    e
}

fn int(v: i128, t: PrimType) -> Exp {
    typed(
        ex(ExpKind::Lit(Literal::Int {
            value: v as u128,
            suffix: None,
        })),
        pt(t),
    )
}

fn i32_(v: i32) -> Exp {
    int(v as i128, I32)
}

fn i64_(v: i64) -> Exp {
    int(v as i128, I64)
}

fn flt(v: f64, t: PrimType) -> Exp {
    typed(ex(ExpKind::Lit(Literal::Float { value: v, suffix: None })), pt(t))
}

fn f64_(v: f64) -> Exp {
    flt(v, F64)
}

fn f32_(v: f64) -> Exp {
    flt(v, F32)
}

fn bool_(b: bool) -> Exp {
    typed(ex(ExpKind::Lit(Literal::Bool(b))), pt(BOOL))
}

fn var(x: &str) -> Exp {
    ex(ExpKind::Var(Var {
        name: QualName::unqual(nm(x)),
        res: Some(Resolved::Local),
    }))
}

fn opvar(op: &str) -> Var {
    Var {
        name: QualName::unqual(nm(op)),
        res: Some(Resolved::Builtin(nm(op))),
    }
}

fn bi(name: &str) -> Exp {
    ex(ExpKind::Var(opvar(name)))
}

fn global(dec: u32) -> Exp {
    ex(ExpKind::Var(Var {
        name: QualName::unqual(nm("g")),
        res: Some(Resolved::Global(GlobalId { program: 1, dec })),
    }))
}

fn app(f: Exp, args: Vec<Exp>) -> Exp {
    ex(ExpKind::Apply(Box::new(f), args))
}

fn call(name: &str, args: Vec<Exp>) -> Exp {
    app(bi(name), args)
}

fn bin(op: &str, l: Exp, r: Exp) -> Exp {
    ex(ExpKind::BinOp {
        op: opvar(op),
        op_span: sp(),
        lhs: Box::new(l),
        rhs: Box::new(r),
    })
}

fn section(op: &str, left: Option<Exp>, right: Option<Exp>) -> Exp {
    ex(ExpKind::OpSection {
        op: opvar(op),
        op_span: sp(),
        left: left.map(Box::new),
        right: right.map(Box::new),
    })
}

fn op(o: &str) -> Exp {
    section(o, None, None)
}

fn pid(x: &str) -> Pat {
    Pat {
        kind: PatKind::Id(nm(x)),
        span: sp(),
        ty: None,
    }
}

fn pty(x: &str, t: Type) -> Pat {
    Pat {
        kind: PatKind::Id(nm(x)),
        span: sp(),
        ty: Some(t),
    }
}

fn pwild() -> Pat {
    Pat {
        kind: PatKind::Wildcard,
        span: sp(),
        ty: None,
    }
}

fn ptup(ps: Vec<Pat>) -> Pat {
    Pat {
        kind: PatKind::Tuple(ps),
        span: sp(),
        ty: None,
    }
}

fn precord(fs: Vec<(&str, Pat)>) -> Pat {
    Pat {
        kind: PatKind::Record(fs.into_iter().map(|(n, p)| (nm(n), sp(), p)).collect()),
        span: sp(),
        ty: None,
    }
}

fn lam(ps: Vec<Pat>, body: Exp) -> Exp {
    ex(ExpKind::Lambda {
        params: ps,
        ret: None,
        body: Box::new(body),
    })
}

fn lam1(x: &str, body: Exp) -> Exp {
    lam(vec![pid(x)], body)
}

/// `map (\(a, b) -> a op b) (zip xs ys)`: what the prelude's `map2 (op)`
/// is (the prelude is not loaded here).
fn zipmap(o: &str, xs: Exp, ys: Exp) -> Exp {
    let f = lam(vec![ptup(vec![pid("a"), pid("b")])], bin(o, var("a"), var("b")));
    call("map", vec![f, call("zip", vec![xs, ys])])
}

fn lam2(x: &str, y: &str, body: Exp) -> Exp {
    lam(vec![pid(x), pid(y)], body)
}

fn let_(p: Pat, v: Exp, body: Exp) -> Exp {
    ex(ExpKind::Let {
        pat: Box::new(p),
        value: Box::new(v),
        body: Box::new(body),
    })
}

fn letv(x: &str, v: Exp, body: Exp) -> Exp {
    let_(pid(x), v, body)
}

fn tup(es: Vec<Exp>) -> Exp {
    ex(ExpKind::Tuple(es))
}

fn record(fs: Vec<(&str, Exp)>) -> Exp {
    ex(ExpKind::Record(
        fs.into_iter()
            .map(|(n, e)| RecordField::Explicit(nm(n), sp(), e))
            .collect(),
    ))
}

fn proj(e: Exp, f: &str) -> Exp {
    ex(ExpKind::Project(Box::new(e), nm(f)))
}

fn arrlit(es: Vec<Exp>) -> Exp {
    ex(ExpKind::ArrayLit(es))
}

fn ints(xs: &[i32]) -> Exp {
    arrlit(xs.iter().map(|x| i32_(*x)).collect())
}

fn i64s(xs: &[i64]) -> Exp {
    arrlit(xs.iter().map(|x| i64_(*x)).collect())
}

fn f64s(xs: &[f64]) -> Exp {
    arrlit(xs.iter().map(|x| f64_(*x)).collect())
}

fn index(a: Exp, ix: Vec<DimIndex>) -> Exp {
    ex(ExpKind::Index(Box::new(a), ix))
}

fn fix(e: Exp) -> DimIndex {
    DimIndex::Fix(e)
}

fn sl(s: Option<i64>, e: Option<i64>, st: Option<i64>) -> DimIndex {
    DimIndex::Slice {
        start: s.map(i64_),
        end: e.map(i64_),
        stride: st.map(i64_),
    }
}

fn if_(c: Exp, t: Exp, f: Exp) -> Exp {
    ex(ExpKind::If {
        cond: Box::new(c),
        then: Box::new(t),
        els: Box::new(f),
    })
}

fn range(start: Exp, second: Option<Exp>, end: Exp, kind: RangeEnd) -> Exp {
    ex(ExpKind::Range {
        start: Box::new(start),
        second: second.map(Box::new),
        end: Box::new(end),
        kind,
    })
}

fn update(a: Exp, ix: Vec<DimIndex>, v: Exp) -> Exp {
    ex(ExpKind::Update {
        array: Box::new(a),
        index: ix,
        value: Box::new(v),
    })
}

fn loop_(pat: Pat, init: Exp, form: LoopForm, body: Exp) -> Exp {
    ex(ExpKind::Loop {
        pat: Box::new(pat),
        init: Some(Box::new(init)),
        form: Box::new(form),
        body: Box::new(body),
    })
}

fn for_(i: &str, bound: Exp) -> LoopForm {
    LoopForm::For(nm(i), sp(), Box::new(bound))
}

fn checked(decs: Vec<Dec>) -> Checked {
    Checked {
        programs: vec![Program::default(), Program { decs }],
        entries: Vec::new(),
        warnings: Vec::new(),
    }
}

fn valbind(name: &str, type_params: Vec<TypeParam>, params: Vec<Pat>, body: Exp) -> Dec {
    Dec::Val(ValBind {
        entry: false,
        name: nm(name),
        name_span: sp(),
        type_params,
        params,
        ret: None,
        body,
        attrs: Vec::new(),
        span: sp(),
        recursive: false,
    })
}

fn size_param(n: &str) -> TypeParam {
    TypeParam::Size {
        name: nm(n),
        span: sp(),
    }
}

// ---------------------------------------------------------------------------
// Running and showing.

fn show_prim(p: PrimValue) -> String {
    match p {
        PrimValue::I8(x) => format!("{x}i8"),
        PrimValue::I16(x) => format!("{x}i16"),
        PrimValue::I32(x) => format!("{x}"),
        PrimValue::I64(x) => format!("{x}i64"),
        PrimValue::U8(x) => format!("{x}u8"),
        PrimValue::U16(x) => format!("{x}u16"),
        PrimValue::U32(x) => format!("{x}u32"),
        PrimValue::U64(x) => format!("{x}u64"),
        PrimValue::F16(x) => format!("{:?}f16", f16_to_f32(x)),
        PrimValue::F32(x) => format!("{x:?}f32"),
        PrimValue::F64(x) => format!("{x:?}"),
        PrimValue::Bool(b) => format!("{b}"),
    }
}

fn show_rows(a: &Array<'_>, dim: usize, off: &mut usize) -> String {
    let n = a.shape[dim];
    let mut parts = Vec::with_capacity(n);
    for _ in 0..n {
        if dim + 1 == a.shape.len() {
            parts.push(show(&a.data.get(*off)));
            *off += 1;
        } else {
            parts.push(show_rows(a, dim + 1, off));
        }
    }
    format!("[{}]", parts.join(", "))
}

fn show(v: &Value<'_>) -> String {
    if let Some(p) = v.as_prim() {
        return show_prim(p);
    }
    match v {
        Value::Array(a) if a.data.is_empty() => {
            let ty = match &a.data {
                Data::I32(_) => "i32",
                Data::I64(_) => "i64",
                Data::F32(_) => "f32",
                Data::F64(_) => "f64",
                Data::Bool(_) => "bool",
                Data::Boxed(_) => "?",
                _ => "prim",
            };
            format!("empty({}{ty})", super::value::shape_str(&a.shape))
        }
        Value::Array(a) => show_rows(a, 0, &mut 0),
        Value::Tuple(vs) => format!("({})", vs.iter().map(show).collect::<Vec<_>>().join(", ")),
        Value::Record(fs) => format!(
            "{{{}}}",
            fs.iter()
                .map(|(n, v)| format!("{n} = {}", show(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Sum(s) => {
            let mut out = format!("#{}", s.constr);
            for x in &s.payload {
                out.push(' ');
                out.push_str(&show(x));
            }
            out
        }
        _ => "<fun>".to_string(),
    }
}

/// Evaluate a closed expression (with top-level definitions `decs`).
fn eval_in(decs: Vec<Dec>, e: Exp, cost: bool) -> (Result<String, RuntimeError>, Cost) {
    let c = checked(decs);
    let mut it = Interp::new(&c, cost, None);
    let r = it.eval(&e).map(|v| show(&v)).map_err(|e| *e);
    let cost = Cost {
        work: it.work,
        span: it.span,
    };
    (r, cost)
}

fn ev(e: Exp) -> String {
    match eval_in(Vec::new(), e, false).0 {
        Ok(s) => s,
        Err(e) => panic!("unexpected error: {}", e.message),
    }
}

fn ev_err(e: Exp) -> RuntimeError {
    match eval_in(Vec::new(), e, false).0 {
        Ok(s) => panic!("expected an error, got {s}"),
        Err(e) => e,
    }
}

fn ev_cost(e: Exp) -> Cost {
    let (r, c) = eval_in(Vec::new(), e, true);
    r.unwrap_or_else(|e| panic!("{}", e.message));
    c
}

// ---------------------------------------------------------------------------
// Tests: scalars and operators.

#[test]
fn value_is_16_bytes() {
    assert_eq!(std::mem::size_of::<Value<'_>>(), 16);
    assert_eq!(std::mem::size_of::<Option<Value<'_>>>(), 16);
    assert_eq!(std::mem::size_of::<super::eval::R<Value<'_>>>(), 16);
}

#[test]
fn literals_take_their_type_from_the_checker() {
    assert_eq!(ev(int(1, F32)), "1.0f32");
    assert_eq!(ev(int(300, U8)), "44u8");
    assert_eq!(ev(int(0xffff_ffff_ffff_ffff, U64)), "18446744073709551615u64");
    assert_eq!(ev(ex(ExpKind::Neg(Box::new(int(128, I8))))), "-128i8");
    assert_eq!(ev(ex(ExpKind::Neg(Box::new(int(1, U8))))), "255u8");
    assert_eq!(ev(flt(0.1, F32)), "0.1f32");
    assert_eq!(ev(flt(1.5, F16)), "1.5f16");
    assert_eq!(ev(ex(ExpKind::Lit(Literal::String(b"ab".to_vec())))), "[97u8, 98u8]");
    assert_eq!(ev(ex(ExpKind::Not(Box::new(bool_(false))))), "true");
    assert_eq!(ev(ex(ExpKind::Not(Box::new(i32_(0))))), "-1");
}

#[test]
fn integer_operators_wrap_and_round_down() {
    assert_eq!(ev(bin("+", i32_(i32::MAX), i32_(1))), format!("{}", i32::MIN));
    assert_eq!(ev(bin("*", int(100, I8), int(3, I8))), "44i8");
    assert_eq!(ev(bin("/", i32_(-7), i32_(2))), "-4");
    assert_eq!(ev(bin("%", i32_(-7), i32_(2))), "1");
    assert_eq!(ev(bin("//", i32_(-7), i32_(2))), "-3");
    assert_eq!(ev(bin("%%", i32_(-7), i32_(2))), "-1");
    assert_eq!(ev(bin("/", i32_(7), i32_(-2))), "-4");
    assert_eq!(ev(bin("%", i32_(7), i32_(-2))), "-1");
    assert_eq!(ev(bin("**", i32_(3), i32_(4))), "81");
    assert_eq!(ev(bin("<<", i32_(1), i32_(31))), format!("{}", i32::MIN));
    assert_eq!(ev(bin(">>", i32_(-16), i32_(2))), "-4");
    assert_eq!(ev(bin(">>>", i32_(-16), i32_(28))), "15");
    assert_eq!(ev(bin(">>", int(128, U8), int(7, U8))), "1u8");
    assert_eq!(ev(bin("&", i32_(12), i32_(10))), "8");
    assert_eq!(ev(bin("|", i32_(12), i32_(10))), "14");
    assert_eq!(ev(bin("^", i32_(12), i32_(10))), "6");
    assert_eq!(ev(bin("<", int(1, U32), int(0xffff_ffff, U32))), "true");
    assert_eq!(ev(bin("==", i64_(3), i64_(3))), "true");
    assert_eq!(ev(bin("!=", i64_(3), i64_(3))), "false");
    assert_eq!(ev(bin(">=", f64_(f64::NAN), f64_(1.0))), "false");
    assert_eq!(ev(bin("**", f64_(16.0), f64_(0.5))), "4.0");
    assert_eq!(ev(bin("%", f64_(-7.5), f64_(2.0))), "-1.5");
    assert_eq!(ev(bin("/", f64_(1.0), f64_(0.0))), "inf");
    assert_eq!(ev(bin("+", flt(1.5, F16), flt(0.25, F16))), "1.75f16");
    assert_eq!(ev(bin("*", flt(1.5, F16), flt(0.25, F16))), "0.375f16");
}

#[test]
fn division_by_zero_is_an_error_at_the_expression() {
    for o in ["/", "%", "//", "%%"] {
        let e = ev_err(at(bin(o, i32_(1), i32_(0)), 40));
        assert_eq!(e.message, "division by zero");
        assert_eq!(e.span, Some(Span::new(0, 40, 41)));
    }
    let e = ev_err(bin("**", i32_(2), i32_(-1)));
    assert!(e.message.contains("negative exponent"), "{}", e.message);
}

#[test]
fn logical_operators_short_circuit() {
    let boom = bin("==", bin("/", i32_(1), i32_(0)), i32_(0));
    assert_eq!(ev(bin("&&", bool_(false), boom.clone())), "false");
    assert_eq!(ev(bin("||", bool_(true), boom.clone())), "true");
    assert_eq!(ev(bin("&&", bool_(true), bool_(false))), "false");
    assert_eq!(ev(bin("||", bool_(false), bool_(true))), "true");
    assert_eq!(ev_err(bin("&&", bool_(true), boom)).message, "division by zero");
    // As a function value, `&&` is an ordinary (strict) operator.
    assert_eq!(
        ev(call(
            "reduce",
            vec![op("&&"), bool_(true), arrlit(vec![bool_(true), bool_(false)])]
        )),
        "false"
    );
}

#[test]
fn structural_equality() {
    assert_eq!(ev(bin("==", ints(&[1, 2]), ints(&[1, 2]))), "true");
    assert_eq!(ev(bin("==", ints(&[1, 2]), ints(&[1, 3]))), "false");
    assert_eq!(ev(bin("==", ints(&[1, 2]), ints(&[1]))), "false");
    assert_eq!(
        ev(bin("==", tup(vec![i32_(1), f64_(2.0)]), tup(vec![i32_(1), f64_(2.0)]))),
        "true"
    );
    assert_eq!(
        ev(bin("!=", record(vec![("a", i32_(1))]), record(vec![("a", i32_(2))]))),
        "true"
    );
    assert_eq!(ev(bin("==", f64s(&[f64::NAN]), f64s(&[f64::NAN]))), "false");
}

// ---------------------------------------------------------------------------
// Tests: bindings, functions, closures.

#[test]
fn let_patterns_tuples_and_records() {
    let e = let_(
        ptup(vec![pid("a"), pwild(), pid("b")]),
        tup(vec![i32_(1), i32_(2), i32_(3)]),
        bin("+", var("a"), var("b")),
    );
    assert_eq!(ev(e), "4");
    let r = record(vec![("y", i32_(2)), ("x", i32_(1))]);
    assert_eq!(ev(r.clone()), "{x = 1, y = 2}");
    assert_eq!(ev(proj(r.clone(), "y")), "2");
    let e = let_(
        precord(vec![("x", pid("p")), ("y", pid("q"))]),
        r.clone(),
        bin("-", var("p"), var("q")),
    );
    assert_eq!(ev(e), "-1");
    let upd = ex(ExpKind::RecordUpdate {
        record: Box::new(record(vec![("a", r), ("b", i32_(0))])),
        path: vec![nm("a"), nm("x")],
        value: Box::new(i32_(9)),
    });
    assert_eq!(ev(upd), "{a = {x = 9, y = 2}, b = 0}");
    // `{0 = a, 1 = b}` is a tuple.
    assert_eq!(ev(record(vec![("1", i32_(2)), ("0", i32_(1))])), "(1, 2)");
    assert_eq!(ev(proj(tup(vec![i32_(1), i32_(2)]), "1")), "2");
    // Shadowing.
    assert_eq!(
        ev(letv("x", i32_(1), letv("x", bin("+", var("x"), i32_(1)), var("x")))),
        "2"
    );
    // Implicit record fields.
    let e = letv(
        "x",
        i32_(5),
        ex(ExpKind::Record(vec![RecordField::Implicit(
            nm("x"),
            sp(),
            Some(Resolved::Local),
        )])),
    );
    assert_eq!(ev(e), "{x = 5}");
}

#[test]
fn closures_capture_their_scope() {
    // let y = 10 in map (\x -> x + y) [1, 2, 3]
    let e = letv(
        "y",
        i32_(10),
        call("map", vec![lam1("x", bin("+", var("x"), var("y"))), ints(&[1, 2, 3])]),
    );
    assert_eq!(ev(e), "[11, 12, 13]");
    // let f = let k = 3 in \x -> x * k in let k = 100 in f 2
    let e = letv(
        "f",
        letv("k", i32_(3), lam1("x", bin("*", var("x"), var("k")))),
        letv("k", i32_(100), app(var("f"), vec![i32_(2)])),
    );
    assert_eq!(ev(e), "6");
    // Nested closures: map (\x -> map (\y -> x * 10 + y) [1, 2]) [1, 2]
    let inner = call(
        "map",
        vec![
            lam1("y", bin("+", bin("*", var("x"), i32_(10)), var("y"))),
            ints(&[1, 2]),
        ],
    );
    assert_eq!(
        ev(call("map", vec![lam1("x", inner), ints(&[1, 2])])),
        "[[11, 12], [21, 22]]"
    );
}

#[test]
fn curried_partial_and_over_application() {
    // (\x -> \y -> x - y) 10 3
    let f = lam1("x", lam1("y", bin("-", var("x"), var("y"))));
    assert_eq!(ev(app(f, vec![i32_(10), i32_(3)])), "7");
    // let g = \x y -> x - y in let h = g 10 in h 4
    let e = letv(
        "g",
        lam2("x", "y", bin("-", var("x"), var("y"))),
        letv("h", app(var("g"), vec![i32_(10)]), app(var("h"), vec![i32_(4)])),
    );
    assert_eq!(ev(e), "6");
    // Partial application of a built-in: let f = map (\x -> x * 2) in f [1, 2]
    let e = letv(
        "f",
        call("map", vec![lam1("x", bin("*", var("x"), i32_(2)))]),
        app(var("f"), vec![ints(&[1, 2])]),
    );
    assert_eq!(ev(e), "[2, 4]");
    // A local function: let add3 a b c = a + b + c in add3 1 2 3
    let e = ex(ExpKind::LetFun {
        name: nm("add3"),
        name_span: sp(),
        type_params: Vec::new(),
        params: vec![pid("a"), pid("b"), pid("c")],
        ret: None,
        value: Box::new(bin("+", bin("+", var("a"), var("b")), var("c"))),
        body: Box::new(app(var("add3"), vec![i32_(1), i32_(2), i32_(3)])),
    });
    assert_eq!(ev(e), "6");
}

#[test]
fn sections() {
    assert_eq!(
        ev(call("map", vec![section("+", None, Some(i32_(1))), ints(&[1, 2])])),
        "[2, 3]"
    );
    assert_eq!(
        ev(call("map", vec![section("-", Some(i32_(10)), None), ints(&[1, 2])])),
        "[9, 8]"
    );
    assert_eq!(
        ev(call("map", vec![section("-", None, Some(i32_(10))), ints(&[1, 2])])),
        "[-9, -8]"
    );
    assert_eq!(ev(zipmap("*", ints(&[2, 3]), ints(&[4, 5]))), "[8, 15]");
    let pairs = call("zip", vec![ints(&[1, 2]), f64s(&[0.5, 1.5])]);
    let p = ex(ExpKind::ProjectSection(vec![nm("1")]));
    assert_eq!(ev(call("map", vec![p, pairs])), "[0.5, 1.5]");
    let recs = arrlit(vec![record(vec![("a", tup(vec![i32_(1), i32_(2)]))])]);
    let p = ex(ExpKind::ProjectSection(vec![nm("a"), nm("0")]));
    assert_eq!(ev(call("map", vec![p, recs])), "[1]");
    // A qualified operator as a section: (i32.max)
    assert_eq!(
        ev(call("reduce", vec![bi("i32.max"), i32_(i32::MIN), ints(&[3, 9, 2])])),
        "9"
    );
}

#[test]
fn top_level_functions_constants_and_sizes() {
    // def length [n] 't (_: [n]t): i64 = n
    let length = valbind(
        "length",
        vec![size_param("n")],
        vec![Pat {
            kind: PatKind::Wildcard,
            span: sp(),
            ty: Some(arr_t(Type::Param(nm("t")), vec![Size::Var(nm("n"))])),
        }],
        var("n"),
    );
    // def k = 6 * 7
    let k = valbind("k", Vec::new(), Vec::new(), bin("*", i32_(6), i32_(7)));
    // def addk (x: i32) = x + k
    let addk = valbind("addk", Vec::new(), vec![pid("x")], bin("+", var("x"), global(1)));
    let decs = || vec![length.clone(), k.clone(), addk.clone()];
    let run = |e: Exp| eval_in(decs(), e, false).0.map_err(|e| e.message);
    assert_eq!(run(app(global(0), vec![ints(&[5, 6, 7])])), Ok("3i64".into()));
    assert_eq!(run(global(1)), Ok("42".into()));
    assert_eq!(run(app(global(2), vec![i32_(1)])), Ok("43".into()));
    assert_eq!(run(call("map", vec![global(2), ints(&[1, 2])])), Ok("[43, 44]".into()));
    // def same [n] (xs: [n]i32) (ys: [n]i32) = 0: sizes must agree.
    let n = || Size::Var(nm("n"));
    let same = valbind(
        "same",
        vec![size_param("n")],
        vec![
            pty("xs", arr_t(pt(I32), vec![n()])),
            pty("ys", arr_t(pt(I32), vec![n()])),
        ],
        i32_(0),
    );
    let r = eval_in(
        vec![same.clone()],
        app(global(0), vec![ints(&[1]), ints(&[1, 2])]),
        false,
    )
    .0;
    assert!(r.unwrap_err().message.contains("size"));
    let r = eval_in(vec![same], app(global(0), vec![ints(&[1, 2]), ints(&[3, 4])]), false).0;
    assert_eq!(r, Ok("0".into()));
}

// ---------------------------------------------------------------------------
// Tests: arrays, indexing, updates, ranges, loops.

#[test]
fn array_literals() {
    assert_eq!(ev(arrlit(vec![ints(&[1, 2]), ints(&[3, 4])])), "[[1, 2], [3, 4]]");
    assert_eq!(ev(arrlit(vec![tup(vec![i32_(1), bool_(true)])])), "[(1, true)]");
    let e = typed(arrlit(Vec::new()), arr_t(pt(F32), vec![Size::Const(0)]));
    assert_eq!(ev(e), "empty([0]f32)");
    let e = typed(arrlit(Vec::new()), arr_t(pt(I32), vec![Size::Const(0), Size::Const(3)]));
    assert_eq!(ev(e), "empty([0][3]i32)");
    let e = ev_err(arrlit(vec![ints(&[1, 2]), ints(&[3])]));
    assert!(e.message.contains("size"), "{}", e.message);
}

fn matrix() -> Exp {
    arrlit(vec![ints(&[1, 2, 3]), ints(&[4, 5, 6])])
}

#[test]
fn indexing_and_slicing() {
    let xs = || ints(&[0, 1, 2, 3, 4]);
    assert_eq!(ev(index(xs(), vec![fix(i64_(2))])), "2");
    assert_eq!(ev(index(xs(), vec![sl(Some(1), Some(3), None)])), "[1, 2]");
    assert_eq!(ev(index(xs(), vec![sl(None, None, Some(-1))])), "[4, 3, 2, 1, 0]");
    assert_eq!(ev(index(xs(), vec![sl(Some(3), Some(0), Some(-1))])), "[3, 2, 1]");
    assert_eq!(ev(index(xs(), vec![sl(None, None, Some(-2))])), "[4, 2, 0]");
    assert_eq!(ev(index(xs(), vec![sl(Some(1), None, Some(2))])), "[1, 3]");
    assert_eq!(ev(index(xs(), vec![sl(Some(2), Some(2), None)])), "empty([0]i32)");
    assert_eq!(ev(index(xs(), vec![sl(Some(5), None, None)])), "empty([0]i32)");
    assert_eq!(ev(index(matrix(), vec![fix(i64_(1))])), "[4, 5, 6]");
    assert_eq!(ev(index(matrix(), vec![fix(i64_(1)), fix(i64_(2))])), "6");
    assert_eq!(ev(index(matrix(), vec![sl(None, None, None), fix(i64_(1))])), "[2, 5]");
    assert_eq!(
        ev(index(matrix(), vec![sl(None, None, Some(-1)), sl(Some(1), None, None)])),
        "[[5, 6], [2, 3]]"
    );
    assert_eq!(ev(index(matrix(), vec![sl(Some(0), Some(1), None)])), "[[1, 2, 3]]");
    // Indexing with another integer type.
    assert_eq!(ev(index(xs(), vec![fix(i32_(4))])), "4");
}

#[test]
fn index_errors() {
    let e = ev_err(at(index(ints(&[1, 2, 3]), vec![fix(i64_(5))]), 7));
    assert_eq!(e.message, "Index [5] out of bounds for array of shape [3].");
    assert_eq!(e.span, Some(Span::new(0, 7, 8)));
    let e = ev_err(index(ints(&[1, 2, 3]), vec![fix(i64_(-1))]));
    assert_eq!(e.message, "Index [-1] out of bounds for array of shape [3].");
    let e = ev_err(index(matrix(), vec![fix(i64_(1)), fix(i64_(3))]));
    assert_eq!(e.message, "Index [1, 3] out of bounds for array of shape [2][3].");
    let e = ev_err(index(ints(&[1, 2, 3]), vec![sl(Some(2), Some(1), None)]));
    assert_eq!(e.message, "Index [2:1] out of bounds for array of shape [3].");
    let e = ev_err(index(ints(&[1, 2, 3]), vec![sl(None, Some(4), None)]));
    assert!(e.message.contains("out of bounds"));
    let e = ev_err(index(ints(&[1, 2, 3]), vec![sl(None, None, Some(0))]));
    assert_eq!(e.message, "Index [::0] out of bounds for array of shape [3].");
}

#[test]
fn updates() {
    let e = letv("xs", ints(&[1, 2, 3]), update(var("xs"), vec![fix(i64_(1))], i32_(9)));
    assert_eq!(ev(e), "[1, 9, 3]");
    let e = update(matrix(), vec![fix(i64_(0))], ints(&[7, 8, 9]));
    assert_eq!(ev(e), "[[7, 8, 9], [4, 5, 6]]");
    let e = update(matrix(), vec![sl(None, None, None), fix(i64_(2))], ints(&[0, 0]));
    assert_eq!(ev(e), "[[1, 2, 0], [4, 5, 0]]");
    let e = update(ints(&[1, 2, 3, 4]), vec![sl(Some(1), Some(3), None)], ints(&[8, 9]));
    assert_eq!(ev(e), "[1, 8, 9, 4]");
    let e = ev_err(update(
        ints(&[1, 2, 3, 4]),
        vec![sl(Some(1), Some(3), None)],
        ints(&[8]),
    ));
    assert!(e.message.contains("size"), "{}", e.message);
    let e = ev_err(update(ints(&[1, 2]), vec![fix(i64_(2))], i32_(0)));
    assert_eq!(e.message, "Index [2] out of bounds for array of shape [2].");
    // let xs[0] = 5 in xs
    let e = letv(
        "xs",
        ints(&[1, 2]),
        ex(ExpKind::LetWith {
            name: nm("xs"),
            name_span: sp(),
            index: vec![fix(i64_(0))],
            value: Box::new(i32_(5)),
            body: Box::new(var("xs")),
        }),
    );
    assert_eq!(ev(e), "[5, 2]");
    // The original survives when it is still referenced: let ys = xs with ...
    let e = letv(
        "xs",
        ints(&[1, 2]),
        letv(
            "ys",
            update(var("xs"), vec![fix(i64_(0))], i32_(5)),
            tup(vec![var("ys")]),
        ),
    );
    assert_eq!(ev(e), "([5, 2])");
}

#[test]
fn updates_of_a_unique_variable_happen_in_place() {
    let c = checked(Vec::new());
    let mut it = Interp::new(&c, false, None);
    let xs = Value::array(Array::new(vec![3], Data::I32(vec![1, 2, 3])));
    let ptr = match &xs {
        Value::Array(a) => match &a.data {
            Data::I32(v) => v.as_ptr(),
            _ => unreachable!(),
        },
        _ => unreachable!(),
    };
    it.push_var("xs", xs);
    let e = update(var("xs"), vec![fix(i64_(0))], i32_(7));
    let v = it.eval(&e).unwrap();
    match &v {
        Value::Array(a) => match &a.data {
            Data::I32(d) => {
                assert_eq!(d, &[7, 2, 3]);
                assert_eq!(d.as_ptr(), ptr, "the update copied the array");
            }
            _ => unreachable!(),
        },
        _ => unreachable!(),
    }
    // scatter with a unique destination variable also updates in place.
    it.push_var("ys", v);
    let sc = app(
        typed(
            bi("scatter"),
            arrow(
                vec![
                    uniq(arr_t(pt(I32), vec![Size::Unknown])),
                    arr_t(pt(I64), vec![Size::Unknown]),
                    arr_t(pt(I32), vec![Size::Unknown]),
                ],
                arr_t(pt(I32), vec![Size::Unknown]),
            ),
        ),
        vec![var("ys"), i64s(&[2]), ints(&[0])],
    );
    match it.eval(&sc).unwrap() {
        Value::Array(a) => match &a.data {
            Data::I32(d) => {
                assert_eq!(d, &[7, 2, 0]);
                assert_eq!(d.as_ptr(), ptr, "scatter copied the array");
            }
            _ => unreachable!(),
        },
        _ => unreachable!(),
    }
}

#[test]
fn ranges() {
    use RangeEnd::*;
    assert_eq!(ev(range(i32_(1), None, i32_(4), Inclusive)), "[1, 2, 3, 4]");
    assert_eq!(ev(range(i32_(1), None, i32_(4), UpToExclusive)), "[1, 2, 3]");
    assert_eq!(ev(range(i32_(4), None, i32_(1), DownToExclusive)), "[4, 3, 2]");
    assert_eq!(
        ev(range(i32_(10), Some(i32_(8)), i32_(0), DownToExclusive)),
        "[10, 8, 6, 4, 2]"
    );
    assert_eq!(ev(range(i32_(10), Some(i32_(7)), i32_(1), Inclusive)), "[10, 7, 4, 1]");
    assert_eq!(ev(range(i32_(0), Some(i32_(3)), i32_(7), Inclusive)), "[0, 3, 6]");
    assert_eq!(ev(range(i32_(0), Some(i32_(2)), i32_(6), UpToExclusive)), "[0, 2, 4]");
    assert_eq!(ev(range(i32_(0), None, i32_(0), UpToExclusive)), "empty([0]i32)");
    assert_eq!(
        ev(range(int(250, U8), None, int(255, U8), Inclusive)),
        "[250u8, 251u8, 252u8, 253u8, 254u8, 255u8]"
    );
    assert_eq!(ev(range(i64_(2), None, i64_(3), Inclusive)), "[2i64, 3i64]");
    for bad in [
        range(i32_(1), None, i32_(0), Inclusive),
        range(i32_(1), Some(i32_(1)), i32_(5), Inclusive),
        range(i32_(5), None, i32_(1), UpToExclusive),
        range(i32_(1), None, i32_(5), DownToExclusive),
        range(i32_(0), Some(i32_(-1)), i32_(5), UpToExclusive),
    ] {
        let e = ev_err(bad);
        assert!(e.message.contains("Range"), "{}", e.message);
    }
}

#[test]
fn loops() {
    // loop acc = 0 for i < 5 do acc + i
    let e = loop_(pid("acc"), i32_(0), for_("i", i32_(5)), bin("+", var("acc"), var("i")));
    assert_eq!(ev(e), "10");
    // loop (a, b) = (0, 1) for i < 10 do (b, a + b)
    let e = loop_(
        ptup(vec![pid("a"), pid("b")]),
        tup(vec![i64_(0), i64_(1)]),
        for_("i", i64_(10)),
        tup(vec![var("b"), bin("+", var("a"), var("b"))]),
    );
    assert_eq!(ev(e), "(55i64, 89i64)");
    // loop s = 0 for x in [1, 2, 3] do s * 10 + x
    let e = loop_(
        pid("s"),
        i32_(0),
        LoopForm::ForIn(pid("x"), Box::new(ints(&[1, 2, 3]))),
        bin("+", bin("*", var("s"), i32_(10)), var("x")),
    );
    assert_eq!(ev(e), "123");
    // loop (n, steps, _) = (27, 0, true) while n != 1 do (collatz n, steps + 1, false)
    let collatz = if_(
        bin("==", bin("%", var("n"), i32_(2)), i32_(0)),
        bin("/", var("n"), i32_(2)),
        bin("+", bin("*", var("n"), i32_(3)), i32_(1)),
    );
    let e = loop_(
        ptup(vec![pid("n"), pid("steps"), pwild()]),
        tup(vec![i32_(27), i32_(0), bool_(true)]),
        LoopForm::While(Box::new(bin("!=", var("n"), i32_(1)))),
        tup(vec![collatz, bin("+", var("steps"), i32_(1)), bool_(false)]),
    );
    assert_eq!(ev(e), "(1, 111, false)");
    // A loop with zero iterations and a negative bound.
    let e = loop_(pid("acc"), i32_(7), for_("i", i32_(-3)), i32_(0));
    assert_eq!(ev(e), "7");
    // loop xs = replicate 4 0 for i < 4 do xs with [i] = i * i   (loop `xs` without init)
    let body = update(var("xs"), vec![fix(var("i"))], bin("*", var("i"), var("i")));
    let e = letv(
        "xs",
        call("replicate", vec![i64_(4), i64_(0)]),
        ex(ExpKind::Loop {
            pat: Box::new(pid("xs")),
            init: None,
            form: Box::new(for_("i", i64_(4))),
            body: Box::new(body),
        }),
    );
    assert_eq!(ev(e), "[0i64, 1i64, 4i64, 9i64]");
}

#[test]
fn big_loop_of_updates_is_linear() {
    // loop xs = replicate n 0 for i < n do xs with [i] = i: quadratic if each
    // update copied.
    let n = 200_000;
    let e = loop_(
        pid("xs"),
        call("replicate", vec![i64_(n), i64_(0)]),
        for_("i", i64_(n)),
        update(var("xs"), vec![fix(var("i"))], var("i")),
    );
    let e = call("reduce", vec![op("+"), i64_(0), e]);
    let start = std::time::Instant::now();
    assert_eq!(ev(e), format!("{}i64", n * (n - 1) / 2));
    assert!(start.elapsed().as_secs() < 20);
}

#[test]
fn coercions_and_assertions() {
    let c = |t: Type| typed(ex(ExpKind::Coerce(Box::new(ints(&[1, 2, 3])), Box::new(dummy_te()))), t);
    assert_eq!(ev(c(arr_t(pt(I32), vec![Size::Const(3)]))), "[1, 2, 3]");
    let e = ev_err(at(c(arr_t(pt(I32), vec![Size::Const(4)])), 3));
    assert_eq!(e.message, "Value of shape [3] cannot match shape of type \"[4]i32\".");
    assert_eq!(e.span, Some(Span::new(0, 3, 4)));
    let e = letv("m", i64_(3), c(arr_t(pt(I32), vec![Size::Var(nm("m"))])));
    assert_eq!(ev(e), "[1, 2, 3]");
    let e = letv("m", i64_(2), c(arr_t(pt(I32), vec![Size::Var(nm("m"))])));
    assert_eq!(
        ev_err(e).message,
        "Value of shape [3] cannot match shape of type \"[2]i32\"."
    );
    assert_eq!(ev(c(arr_t(pt(I32), vec![Size::Unknown]))), "[1, 2, 3]");
    let a = ex(ExpKind::Assert(Box::new(at(bool_(false), 9)), Box::new(i32_(1))));
    let e = ev_err(a);
    assert_eq!(e.message, "Assertion is false");
    assert!(e.quotes_span);
    assert_eq!(e.span, Some(Span::new(0, 9, 10)));
    let a = ex(ExpKind::Assert(Box::new(bool_(true)), Box::new(i32_(1))));
    assert_eq!(ev(a), "1");
    let s = ex(ExpKind::Constr(nm("some"), vec![i32_(3)]));
    assert_eq!(ev(s), "#some 3");
}

fn dummy_te() -> TypeExp {
    TypeExp {
        kind: TypeExpKind::Tuple(Vec::new()),
        span: sp(),
    }
}

fn nested_neg(depth: usize) -> Exp {
    let mut e = i32_(1);
    for _ in 0..depth {
        e = ex(ExpKind::Neg(Box::new(e)));
    }
    e
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let c = checked(Vec::new());
    let mut it = Interp::new(&c, false, None);
    let deep = nested_neg(200_000);
    let r = it.eval(&deep);
    assert!(r.unwrap_err().message.contains("nested too deeply"));
    // Dropping (or cloning) the tree recursively would itself overflow.
    std::mem::forget(deep);
    let mut it = Interp::new(&c, false, None);
    let fine = nested_neg(400);
    assert_eq!(
        it.eval(&fine).map(|v| show(&v)).map_err(|e| e.message),
        Ok("1".to_string())
    );
}

// ---------------------------------------------------------------------------
// Tests: cost.

#[test]
fn cost_of_map_and_reduce() {
    // reduce (+) 0 (map (\x -> x * 2 + 1) (iota 1000))
    let body = bin("+", bin("*", var("x"), i64_(2)), i64_(1));
    let e = call(
        "reduce",
        vec![
            op("+"),
            i64_(0),
            call("map", vec![lam1("x", body), call("iota", vec![i64_(1000)])]),
        ],
    );
    // iota: work 1000, span 1; map: work 2000, span 2; reduce: work 1000,
    // span ceil(log2 1000) = 10.
    assert_eq!(ev_cost(e), Cost { work: 4000, span: 13 });
    // The same reduction through a lambda (not the fast path) costs the same.
    let e = call(
        "reduce",
        vec![
            lam2("a", "b", bin("+", var("a"), var("b"))),
            i64_(0),
            call("iota", vec![i64_(1000)]),
        ],
    );
    assert_eq!(ev_cost(e), Cost { work: 2000, span: 11 });
    // A sequential loop adds its iterations: loop a = 0 for i < 10 do a + i * i
    let e = loop_(
        pid("a"),
        i32_(0),
        for_("i", i32_(10)),
        bin("+", var("a"), bin("*", var("i"), var("i"))),
    );
    assert_eq!(ev_cost(e), Cost { work: 20, span: 20 });
    // Nested map: span is that of one element.
    let inner = call(
        "map",
        vec![lam1("y", bin("+", var("x"), var("y"))), call("iota", vec![i64_(8)])],
    );
    let e = call("map", vec![lam1("x", inner), call("iota", vec![i64_(4)])]);
    // outer iota 4 (4, 1); per element: iota 8 (8, 1) + map (8, 1).
    assert_eq!(
        ev_cost(e),
        Cost {
            work: 4 + 4 * 16,
            span: 1 + 2
        }
    );
    assert_eq!(eval_in(Vec::new(), i32_(1), false).1, Cost { work: 0, span: 0 });
}

// ---------------------------------------------------------------------------
// Tests: the unqualified built-ins.

#[test]
fn builtin_maps() {
    let add = |a: &str, b: &str| bin("+", var(a), var(b));
    // (`map2`..`map5` are the prelude's, tested by tests/programs/prelude.)
    assert_eq!(ev(call("map", vec![lam1("x", add("x", "x")), ints(&[1, 2])])), "[2, 4]");
    let e = ev_err(zipmap("+", ints(&[1, 2]), ints(&[1])));
    assert!(e.message.contains("size"), "{}", e.message);
    // Rows of a matrix; results that are arrays and tuples.
    let e = call(
        "map",
        vec![
            lam1("x", tup(vec![var("x"), bin("*", var("x"), var("x"))])),
            ints(&[2, 3]),
        ],
    );
    assert_eq!(ev(e), "[(2, 4), (3, 9)]");
    let e = call(
        "map",
        vec![lam1("x", call("replicate", vec![i64_(2), var("x")])), ints(&[2, 3])],
    );
    assert_eq!(ev(e), "[[2, 2], [3, 3]]");
    // A map over an empty array takes its element type from the result type.
    let e = typed(
        call(
            "map",
            vec![
                lam1("x", bin("*", var("x"), f32_(2.0))),
                typed(arrlit(vec![]), arr_t(pt(F32), vec![Size::Const(0)])),
            ],
        ),
        arr_t(pt(F32), vec![Size::Const(0)]),
    );
    assert_eq!(ev(e), "empty([0]f32)");
    let e = typed(
        call(
            "map",
            vec![
                lam1("x", ints(&[1, 2, 3])),
                typed(arrlit(vec![]), arr_t(pt(I32), vec![Size::Const(0)])),
            ],
        ),
        arr_t(pt(I32), vec![Size::Const(0), Size::Const(3)]),
    );
    assert_eq!(ev(e), "empty([0][3]i32)");
    // A map whose rows differ in size.
    let e = call("map", vec![lam1("n", call("iota", vec![var("n")])), i64s(&[1, 2])]);
    assert!(ev_err(e).message.contains("size"));
}

#[test]
fn builtin_reductions() {
    assert_eq!(ev(call("reduce", vec![op("+"), i32_(0), ints(&[1, 2, 3])])), "6");
    assert_eq!(ev(call("reduce_comm", vec![op("*"), i32_(1), ints(&[2, 3, 4])])), "24");
    assert_eq!(ev(call("reduce", vec![op("+"), i32_(7), ints(&[])])), "7");
    assert_eq!(ev(call("reduce", vec![op("-"), i32_(0), ints(&[1, 2, 3])])), "-6");
    assert_eq!(ev(call("reduce", vec![op("+"), f64_(0.5), f64s(&[1.0, 2.0])])), "3.5");
    assert_eq!(
        ev(call(
            "reduce",
            vec![op("+"), int(0, U8), arrlit(vec![int(200, U8), int(100, U8)])]
        )),
        "44u8"
    );
    // Tuples: argmax.
    let pick = lam2(
        "a",
        "b",
        if_(bin(">=", proj(var("a"), "0"), proj(var("b"), "0")), var("a"), var("b")),
    );
    let xs = call("zip", vec![ints(&[3, 9, 2]), i64s(&[0, 1, 2])]);
    let e = call("reduce", vec![pick, tup(vec![i32_(i32::MIN), i64_(-1)]), xs]);
    assert_eq!(ev(e), "(9, 1i64)");
    // Rows.
    let rows = lam2("xs", "ys", zipmap("+", var("xs"), var("ys")));
    let e = call("reduce", vec![rows, ints(&[0, 0, 0]), matrix()]);
    assert_eq!(ev(e), "[5, 7, 9]");
    assert_eq!(
        ev(call("scan", vec![op("+"), i32_(0), ints(&[1, 2, 3, 4])])),
        "[1, 3, 6, 10]"
    );
    assert_eq!(
        ev(call(
            "scan",
            vec![op("+"), i32_(0), typed(ints(&[]), arr_t(pt(I32), vec![Size::Const(0)]))]
        )),
        "empty([0]i32)"
    );
    let e = call(
        "scan",
        vec![lam2("a", "b", bin("*", var("a"), var("b"))), i64_(1), i64s(&[2, 3])],
    );
    assert_eq!(ev(e), "[2i64, 6i64]");
    // hist: out-of-range indices are ignored.
    let e = call(
        "hist",
        vec![
            op("+"),
            i32_(0),
            i64_(3),
            i64s(&[0, 2, 2, 5, -1]),
            ints(&[1, 2, 3, 4, 5]),
        ],
    );
    assert_eq!(ev(e), "[1, 0, 5]");
    let e = call(
        "reduce_by_index",
        vec![
            ints(&[10, 10]),
            bi("i32.max"),
            i32_(i32::MIN),
            i64s(&[1, 1, 0]),
            ints(&[3, 12, 4]),
        ],
    );
    assert_eq!(ev(e), "[10, 12]");
    let e = call("hist", vec![op("+"), i32_(0), i64_(2), i64s(&[0]), ints(&[1, 2])]);
    assert!(ev_err(e).message.contains("size"));
}

#[test]
fn builtin_scatter() {
    let e = call(
        "scatter",
        vec![ints(&[0, 0, 0]), i64s(&[2, 0, 7, -1]), ints(&[5, 6, 7, 8])],
    );
    assert_eq!(ev(e), "[6, 0, 5]");
    let idx2 = arrlit(vec![
        tup(vec![i64_(0), i64_(1)]),
        tup(vec![i64_(1), i64_(2)]),
        tup(vec![i64_(2), i64_(0)]),
    ]);
    let e = call("scatter_2d", vec![matrix(), idx2, ints(&[7, 8, 9])]);
    assert_eq!(ev(e), "[[1, 7, 3], [4, 5, 8]]");
    let cube = arrlit(vec![
        arrlit(vec![ints(&[0, 0]), ints(&[0, 0])]),
        arrlit(vec![ints(&[0, 0]), ints(&[0, 0])]),
    ]);
    let idx3 = arrlit(vec![
        tup(vec![i64_(1), i64_(0), i64_(1)]),
        tup(vec![i64_(0), i64_(2), i64_(0)]),
    ]);
    let e = call("scatter_3d", vec![cube, idx3, ints(&[4, 9])]);
    assert_eq!(ev(e), "[[[0, 0], [0, 0]], [[0, 4], [0, 0]]]");
    // Rows of a matrix.
    let e = call("scatter", vec![matrix(), i64s(&[1]), arrlit(vec![ints(&[0, 0, 0])])]);
    assert_eq!(ev(e), "[[1, 2, 3], [0, 0, 0]]");
    let e = call("scatter", vec![ints(&[0]), i64s(&[0]), ints(&[])]);
    assert!(ev_err(e).message.contains("size"));
}

#[test]
fn builtin_filter_zip_unzip() {
    let even = lam1("x", bin("==", bin("%", var("x"), i32_(2)), i32_(0)));
    assert_eq!(ev(call("filter", vec![even.clone(), ints(&[1, 2, 3, 4])])), "[2, 4]");
    assert_eq!(ev(call("filter", vec![even.clone(), ints(&[1, 3])])), "empty([0]i32)");
    assert_eq!(
        ev(call("partition", vec![even, ints(&[1, 2, 3, 4, 5])])),
        "([2, 4], [1, 3, 5])"
    );
    let big = lam1(
        "r",
        bin(">", call("reduce", vec![op("+"), i32_(0), var("r")]), i32_(10)),
    );
    assert_eq!(ev(call("filter", vec![big, matrix()])), "[[4, 5, 6]]");
    assert_eq!(
        ev(call("zip", vec![ints(&[1, 2]), f64s(&[0.5, 1.5])])),
        "[(1, 0.5), (2, 1.5)]"
    );
    assert_eq!(
        ev(call("zip3", vec![ints(&[1]), ints(&[2]), ints(&[3])])),
        "[(1, 2, 3)]"
    );
    assert_eq!(
        ev(call("zip4", vec![ints(&[1]), ints(&[2]), ints(&[3]), ints(&[4])])),
        "[(1, 2, 3, 4)]"
    );
    let e = call("zip5", vec![ints(&[1]), ints(&[2]), ints(&[3]), ints(&[4]), ints(&[5])]);
    assert_eq!(ev(e), "[(1, 2, 3, 4, 5)]");
    assert!(ev_err(call("zip", vec![ints(&[1, 2]), ints(&[1])]))
        .message
        .contains("size"));
    assert_eq!(
        ev(call("zip", vec![matrix(), ints(&[7, 8])])),
        "[([1, 2, 3], 7), ([4, 5, 6], 8)]"
    );
    let z = |k: usize| {
        let name = if k == 2 { "zip".to_string() } else { format!("zip{k}") };
        call(&name, (0..k).map(|i| ints(&[i as i32, 10 + i as i32])).collect())
    };
    assert_eq!(ev(call("unzip", vec![z(2)])), "([0, 10], [1, 11])");
    assert_eq!(ev(call("unzip3", vec![z(3)])), "([0, 10], [1, 11], [2, 12])");
    assert_eq!(ev(call("unzip4", vec![z(4)])), "([0, 10], [1, 11], [2, 12], [3, 13])");
    assert_eq!(
        ev(call("unzip5", vec![z(5)])),
        "([0, 10], [1, 11], [2, 12], [3, 13], [4, 14])"
    );
    assert_eq!(
        ev(call("unzip", vec![call("zip", vec![matrix(), ints(&[7, 8])])])),
        "([[1, 2, 3], [4, 5, 6]], [7, 8])"
    );
    // Unzipping an empty array: the result type gives the element types.
    let empty_pairs = call("zip", vec![ints(&[]), f64s(&[])]);
    let t = Type::Tuple(vec![
        arr_t(pt(I32), vec![Size::Const(0)]),
        arr_t(pt(F64), vec![Size::Const(0)]),
    ]);
    assert_eq!(
        ev(typed(call("unzip", vec![empty_pairs]), t)),
        "(empty([0]i32), empty([0]f64))"
    );
}

#[test]
fn builtin_array_functions() {
    assert_eq!(ev(call("iota", vec![i64_(4)])), "[0i64, 1i64, 2i64, 3i64]");
    assert_eq!(ev(call("iota", vec![i64_(0)])), "empty([0]i64)");
    assert_eq!(
        ev_err(call("iota", vec![i64_(-1)])).message,
        "Range 0..1..<-1 is invalid."
    );
    assert_eq!(ev(call("replicate", vec![i64_(2), bool_(true)])), "[true, true]");
    assert_eq!(ev(call("replicate", vec![i64_(2), ints(&[1, 2])])), "[[1, 2], [1, 2]]");
    assert_eq!(
        ev(call("replicate", vec![i64_(2), tup(vec![i32_(1), i32_(2)])])),
        "[(1, 2), (1, 2)]"
    );
    assert_eq!(ev(call("replicate", vec![i64_(0), i32_(1)])), "empty([0]i32)");
    assert!(ev_err(call("replicate", vec![i64_(-2), i32_(1)]))
        .message
        .contains("negative"));
    assert_eq!(ev(call("concat", vec![ints(&[1, 2]), ints(&[3])])), "[1, 2, 3]");
    assert_eq!(ev(bin("++", ints(&[1]), ints(&[2, 3]))), "[1, 2, 3]");
    assert_eq!(
        ev(call("++", vec![matrix(), arrlit(vec![ints(&[7, 8, 9])])])),
        "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]"
    );
    assert_eq!(ev(call("concat", vec![ints(&[]), ints(&[3])])), "[3]");
    let e = ev_err(call("concat", vec![matrix(), arrlit(vec![ints(&[7, 8])])]));
    assert!(e.message.contains("size"), "{}", e.message);
    assert_eq!(ev(call("rotate", vec![i64_(1), ints(&[1, 2, 3])])), "[2, 3, 1]");
    assert_eq!(ev(call("rotate", vec![i64_(-1), ints(&[1, 2, 3])])), "[3, 1, 2]");
    assert_eq!(ev(call("rotate", vec![i64_(7), ints(&[1, 2, 3])])), "[2, 3, 1]");
    assert_eq!(ev(call("rotate", vec![i64_(1), ints(&[])])), "empty([0]?)");
    assert_eq!(ev(call("transpose", vec![matrix()])), "[[1, 4], [2, 5], [3, 6]]");
    let cube = arrlit(vec![
        arrlit(vec![ints(&[1, 2]), ints(&[3, 4])]),
        arrlit(vec![ints(&[5, 6]), ints(&[7, 8])]),
    ]);
    assert_eq!(
        ev(call("transpose", vec![cube.clone()])),
        "[[[1, 2], [5, 6]], [[3, 4], [7, 8]]]"
    );
    assert_eq!(ev(call("flatten", vec![matrix()])), "[1, 2, 3, 4, 5, 6]");
    assert_eq!(
        ev(call("flatten", vec![cube.clone()])),
        "[[1, 2], [3, 4], [5, 6], [7, 8]]"
    );
    // `unflatten` and `split` applied as the interpreter applies them: their
    // implicit sizes (from the type of the use) first.
    assert_eq!(
        ev(call(
            "unflatten",
            vec![i64_(3), i64_(2), call("flatten", vec![matrix()])]
        )),
        "[[1, 2], [3, 4], [5, 6]]"
    );
    let e = ev_err(call(
        "unflatten",
        vec![i64_(4), i64_(2), call("flatten", vec![matrix()])],
    ));
    assert!(e.message.contains("size"), "{}", e.message);
    assert!(
        ev_err(call("unflatten", vec![i64_(-1), i64_(-6), ints(&[1, 2, 3, 4, 5, 6])]))
            .message
            .contains("size")
    );
    let flat = call("iota", vec![i64_(8)]);
    assert_eq!(
        ev(call("unflatten_3d", vec![i64_(2), i64_(2), i64_(2), flat.clone()])),
        "[[[0i64, 1i64], [2i64, 3i64]], [[4i64, 5i64], [6i64, 7i64]]]"
    );
    assert_eq!(
        ev(call("unflatten_4d", vec![i64_(1), i64_(2), i64_(1), i64_(4), flat])),
        "[[[[0i64, 1i64, 2i64, 3i64]], [[4i64, 5i64, 6i64, 7i64]]]]"
    );
    assert_eq!(
        ev(call("split", vec![i64_(1), i64_(2), ints(&[1, 2, 3])])),
        "([1], [2, 3])"
    );
    for (n, m) in [(1, 1), (4, -1), (-1, 4)] {
        let e = ev_err(call("split", vec![i64_(n), i64_(m), ints(&[1, 2, 3])]));
        assert!(e.message.contains("size"), "{}", e.message);
    }
    assert_eq!(ev(call("copy", vec![matrix()])), "[[1, 2, 3], [4, 5, 6]]");
    // (`reverse` and `tabulate`.. are the prelude's.)
    assert_eq!(ev(call("trace", vec![ints(&[1])])), "[1]");
    assert_eq!(ev(call("opaque", vec![i32_(5)])), "5");
}

// ---------------------------------------------------------------------------
// Tests: the numeric modules.

/// `T.f args` evaluated and shown.
fn num(f: &str, args: Vec<Exp>) -> String {
    ev(call(f, args))
}

#[test]
fn numeric_common_functions() {
    let nan = || f64_(f64::NAN);
    assert_eq!(num("f64.max", vec![nan(), f64_(1.0)]), "1.0");
    assert_eq!(num("f64.min", vec![f64_(2.0), nan()]), "2.0");
    assert_eq!(num("f32.max", vec![f32_(f64::NAN), f32_(-1.0)]), "-1.0f32");
    assert_eq!(num("f16.min", vec![flt(f64::NAN, F16), flt(0.5, F16)]), "0.5f16");
    assert_eq!(num("i32.max", vec![i32_(-3), i32_(2)]), "2");
    assert_eq!(num("u32.min", vec![int(3, U32), int(0xffff_fff0, U32)]), "3u32");
    assert_eq!(num("i32.abs", vec![i32_(-5)]), "5");
    assert_eq!(num("i32.abs", vec![i32_(i32::MIN)]), format!("{}", i32::MIN));
    assert_eq!(num("f64.abs", vec![f64_(-0.5)]), "0.5");
    assert_eq!(num("i64.sgn", vec![i64_(-9)]), "-1i64");
    assert_eq!(num("u8.sgn", vec![int(9, U8)]), "1u8");
    assert_eq!(num("f32.sgn", vec![f32_(0.0)]), "0.0f32");
    assert_eq!(num("f64.sgn", vec![f64_(-2.5)]), "-1.0");
    assert_eq!(num("i32.neg", vec![i32_(5)]), "-5");
    assert_eq!(num("u16.neg", vec![int(1, U16)]), "65535u16");
    assert_eq!(num("f32.neg", vec![f32_(1.5)]), "-1.5f32");
    assert_eq!(num("i32.to_i64", vec![i32_(-1)]), "-1i64");
    assert_eq!(num("u32.to_i64", vec![int(0xffff_ffff, U32)]), "4294967295i64");
    assert_eq!(num("f64.to_i64", vec![f64_(-3.9)]), "-3i64");
    // Qualified operators.
    assert_eq!(num("i32.+", vec![i32_(1), i32_(2)]), "3");
    assert_eq!(num("u8.-", vec![int(1, U8), int(2, U8)]), "255u8");
    assert_eq!(num("f32.*", vec![f32_(1.5), f32_(2.0)]), "3.0f32");
    assert_eq!(num("i64./", vec![i64_(-7), i64_(2)]), "-4i64");
    assert_eq!(num("i64.%", vec![i64_(-7), i64_(2)]), "1i64");
    assert_eq!(num("i16.//", vec![int(-7, I16), int(2, I16)]), "-3i16");
    assert_eq!(num("i16.%%", vec![int(-7, I16), int(2, I16)]), "-1i16");
    assert_eq!(num("i32.**", vec![i32_(2), i32_(10)]), "1024");
    assert_eq!(num("f64.**", vec![f64_(2.0), f64_(0.5)]), format!("{:?}", 2f64.sqrt()));
    assert_eq!(num("i32.==", vec![i32_(1), i32_(1)]), "true");
    assert_eq!(num("f32.!=", vec![f32_(1.0), f32_(1.0)]), "false");
    assert_eq!(num("u64.<", vec![int(1, U64), int(2, U64)]), "true");
    assert_eq!(num("i8.<=", vec![int(2, I8), int(2, I8)]), "true");
    assert_eq!(num("f64.>", vec![f64_(1.0), f64_(2.0)]), "false");
    assert_eq!(num("i32.>=", vec![i32_(3), i32_(2)]), "true");
    assert_eq!(
        ev_err(call("i32./", vec![i32_(1), i32_(0)])).message,
        "division by zero"
    );
}

#[test]
fn numeric_integral_functions() {
    assert_eq!(num("i32.&", vec![i32_(12), i32_(10)]), "8");
    assert_eq!(num("u8.|", vec![int(12, U8), int(10, U8)]), "14u8");
    assert_eq!(num("i64.^", vec![i64_(12), i64_(10)]), "6i64");
    assert_eq!(num("i32.<<", vec![i32_(1), i32_(4)]), "16");
    assert_eq!(num("i8.>>", vec![int(-128, I8), int(7, I8)]), "-1i8");
    assert_eq!(num("i8.>>>", vec![int(-128, I8), int(7, I8)]), "1i8");
    assert_eq!(num("u32.>>", vec![int(0x8000_0000, U32), int(31, U32)]), "1u32");
    assert_eq!(num("i32.<<", vec![i32_(1), i32_(32)]), "0");
    assert_eq!(num("i32.not", vec![i32_(0)]), "-1");
    assert_eq!(num("u8.not", vec![int(1, U8)]), "254u8");
    assert_eq!(num("bool.not", vec![bool_(true)]), "false");
    assert_eq!(num("i32.popc", vec![i32_(-1)]), "32");
    assert_eq!(num("u16.popc", vec![int(0xff, U16)]), "8");
    assert_eq!(num("i32.clz", vec![i32_(1)]), "31");
    assert_eq!(num("i64.clz", vec![i64_(0)]), "64");
    assert_eq!(num("u64.mul_hi", vec![int(u64::MAX as i128, U64), int(2, U64)]), "1u64");
    assert_eq!(num("i32.mul_hi", vec![i32_(-2), i32_(3)]), "-1");
    assert_eq!(num("i32.mul_hi", vec![i32_(1 << 30), i32_(8)]), "2");
}

#[test]
fn numeric_float_functions() {
    let f = |name: &str, x: f64| num(&format!("f64.{name}"), vec![f64_(x)]);
    let r = |x: f64| format!("{x:?}");
    assert_eq!(f("sqrt", 2.0), r(2f64.sqrt()));
    assert_eq!(f("cbrt", 27.0), r(3.0));
    assert_eq!(f("exp", 1.0), r(1f64.exp()));
    assert_eq!(f("log", 10.0), r(10f64.ln()));
    assert_eq!(f("log2", 8.0), r(3.0));
    assert_eq!(f("log10", 1000.0), r(3.0));
    assert_eq!(f("log1p", 1e-10), r(1e-10f64.ln_1p()));
    assert_eq!(f("sin", 1.0), r(1f64.sin()));
    assert_eq!(f("cos", 1.0), r(1f64.cos()));
    assert_eq!(f("tan", 1.0), r(1f64.tan()));
    assert_eq!(f("asin", 0.5), r(0.5f64.asin()));
    assert_eq!(f("acos", 0.5), r(0.5f64.acos()));
    assert_eq!(f("atan", 0.5), r(0.5f64.atan()));
    assert_eq!(f("sinh", 0.5), r(0.5f64.sinh()));
    assert_eq!(f("cosh", 0.5), r(0.5f64.cosh()));
    assert_eq!(f("tanh", 0.5), r(0.5f64.tanh()));
    assert_eq!(f("asinh", 0.5), r(0.5f64.asinh()));
    assert_eq!(f("acosh", 1.5), r(1.5f64.acosh()));
    assert_eq!(f("atanh", 0.5), r(0.5f64.atanh()));
    assert_eq!(f("gamma", 5.0), r(24.0));
    assert_eq!(f("lgamma", 1.0), r(0.0));
    assert_eq!(f("erf", 0.0), r(0.0));
    assert_eq!(f("erfc", 0.0), r(1.0));
    assert_eq!(f("floor", -1.5), r(-2.0));
    assert_eq!(f("ceil", -1.5), r(-1.0));
    assert_eq!(f("round", 2.5), r(2.0));
    assert_eq!(f("round", -3.5), r(-4.0));
    assert_eq!(f("to_bits", 1.0), format!("{}u64", 1f64.to_bits()));
    let g = |name: &str, xs: Vec<Exp>| num(&format!("f32.{name}"), xs);
    assert_eq!(
        g("atan2", vec![f32_(1.0), f32_(1.0)]),
        format!("{:?}f32", 1f32.atan2(1.0))
    );
    assert_eq!(g("hypot", vec![f32_(3.0), f32_(4.0)]), "5.0f32");
    assert_eq!(g("copysign", vec![f32_(3.0), f32_(-0.0)]), "-3.0f32");
    assert_eq!(g("fma", vec![f32_(2.0), f32_(3.0), f32_(1.0)]), "7.0f32");
    assert_eq!(g("mad", vec![f32_(2.0), f32_(3.0), f32_(1.0)]), "7.0f32");
    assert_eq!(g("from_bits", vec![int(0x3f80_0000, U32)]), "1.0f32");
    assert_eq!(g("sqrt", vec![f32_(2.0)]), format!("{:?}f32", 2f32.sqrt()));
    assert_eq!(
        g("gamma", vec![f32_(0.5)]),
        format!("{:?}f32", std::f64::consts::PI.sqrt() as f32)
    );
    assert_eq!(
        g("erf", vec![f32_(1.0)]),
        format!("{:?}f32", 0.842_700_792_949_714_9f64 as f32)
    );
    assert_eq!(ev(bi("f32.inf")), "inff32");
    // f16: computed in f32, rounded to half.
    assert_eq!(num("f16.sqrt", vec![flt(4.0, F16)]), "2.0f16");
    assert_eq!(
        num("f16.fma", vec![flt(2.0, F16), flt(3.0, F16), flt(1.0, F16)]),
        "7.0f16"
    );
    assert_eq!(num("f16.to_bits", vec![flt(1.5, F16)]), "15872u16");
    assert_eq!(num("f16.from_bits", vec![int(0x3c00, U16)]), "1.0f16");
}

#[test]
fn conversions() {
    assert_eq!(num("f32.i32", vec![i32_(3)]), "3.0f32");
    assert_eq!(num("i32.f32", vec![f32_(2.75)]), "2");
    assert_eq!(num("i32.f32", vec![f32_(-2.75)]), "-2");
    assert_eq!(num("f64.f32", vec![f32_(2.75)]), "2.75");
    assert_eq!(num("i64.f64", vec![f64_(-3.5)]), "-3i64");
    assert_eq!(num("f32.f64", vec![f64_(0.25)]), "0.25f32");
    assert_eq!(num("u8.i32", vec![i32_(-1)]), "255u8");
    assert_eq!(num("i64.u32", vec![int(0xffff_ffff, U32)]), "4294967295i64");
    assert_eq!(num("i32.i64", vec![i64_(1 << 33)]), "0");
    assert_eq!(num("i32.bool", vec![bool_(true)]), "1");
    assert_eq!(num("bool.i32", vec![i32_(2)]), "true");
    assert_eq!(num("bool.f64", vec![f64_(0.0)]), "false");
    assert_eq!(num("f16.f64", vec![f64_(0.1)]), format!("{:?}f16", f16_to_f32(0x2e66)));
    assert_eq!(num("f32.f16", vec![flt(1.5, F16)]), "1.5f32");
    assert_eq!(num("i8.f64", vec![f64_(1000.0)]), "127i8");
    assert_eq!(num("u16.f32", vec![f32_(-5.0)]), "0u16");
    assert_eq!(num("i32.i32", vec![i32_(5)]), "5");
    assert_eq!(num("u64.i8", vec![int(-1, I8)]), format!("{}u64", u64::MAX));
}

// ---------------------------------------------------------------------------
// Tests: entry points (the public API).

/// A program whose declaration `i` of the user's file is an entry point
/// when listed in `entries` (name, dec, parameter types, return type).
fn program(decs: Vec<Dec>, entries: Vec<(&str, u32, Vec<Type>, Type)>) -> Checked {
    let mut c = checked(decs);
    c.entries = entries
        .into_iter()
        .map(|(name, dec, params, ret)| Entry {
            name: nm(name),
            id: GlobalId { program: 1, dec },
            params,
            ret,
        })
        .collect();
    c
}

fn ext_i32s(xs: &[i32]) -> ext::Value {
    ext::Value::Array(ext::Array {
        shape: vec![xs.len()],
        data: ext::ArrayData::I32(xs.to_vec()),
    })
}

fn run(c: &Checked, entry: &str, args: Vec<ext::Value>) -> Result<Vec<ext::Value>, String> {
    run_entry(c, entry, args, &RunOptions::default())
        .and_then(|r| r.values(entry))
        .map_err(|e| e.message)
}

fn n_arr(t: PrimType, n: &str) -> Type {
    arr_t(pt(t), vec![Size::Var(nm(n))])
}

#[test]
fn entry_points() {
    let n = || Size::Var(nm("n"));
    // entry main [n] (xs: [n]i32) (ys: [n]i32): ([n]i32, i32) =
    //   (map (\(a, b) -> a + b) (zip xs ys), i32.sum xs)
    let main = valbind(
        "main",
        vec![size_param("n")],
        vec![pty("xs", n_arr(I32, "n")), pty("ys", n_arr(I32, "n"))],
        tup(vec![
            zipmap("+", var("xs"), var("ys")),
            call("reduce", vec![op("+"), i32_(0), var("xs")]),
        ]),
    );
    // entry pairs (xs: []i32) = zip xs xs      (opaque result)
    let pairs = valbind(
        "pairs",
        Vec::new(),
        vec![pty("xs", arr_t(pt(I32), vec![Size::Unknown]))],
        call("zip", vec![var("xs"), var("xs")]),
    );
    // entry answer = 42
    let answer = valbind("answer", Vec::new(), Vec::new(), i32_(42));
    // entry ident (xs: []i32) = let f = map (\x -> x) in f xs   (no type for an empty result)
    let ident = valbind(
        "ident",
        Vec::new(),
        vec![pty("xs", arr_t(pt(I32), vec![Size::Unknown]))],
        letv(
            "f",
            call("map", vec![lam1("x", var("x"))]),
            app(var("f"), vec![var("xs")]),
        ),
    );
    // entry len [n] (_: [n]i32) (b: bool): i64 = if b then n else 0
    let len = valbind(
        "len",
        vec![size_param("n")],
        vec![
            Pat {
                kind: PatKind::Wildcard,
                span: sp(),
                ty: Some(n_arr(I32, "n")),
            },
            pty("b", pt(BOOL)),
        ],
        if_(var("b"), var("n"), i64_(0)),
    );
    let c = program(
        vec![main, pairs, answer, ident, len],
        vec![
            (
                "main",
                0,
                vec![n_arr(I32, "n"), n_arr(I32, "n")],
                Type::Tuple(vec![arr_t(pt(I32), vec![n()]), pt(I32)]),
            ),
            (
                "pairs",
                1,
                vec![arr_t(pt(I32), vec![Size::Unknown])],
                arr_t(Type::Tuple(vec![pt(I32), pt(I32)]), vec![Size::Unknown]),
            ),
            ("answer", 2, Vec::new(), pt(I32)),
            (
                "ident",
                3,
                vec![arr_t(pt(I32), vec![Size::Unknown])],
                arr_t(pt(I32), vec![Size::Unknown]),
            ),
            ("len", 4, vec![n_arr(I32, "n"), pt(BOOL)], pt(I64)),
        ],
    );
    let r = run(&c, "main", vec![ext_i32s(&[1, 2]), ext_i32s(&[10, 20])]).unwrap();
    assert_eq!(r, vec![ext_i32s(&[11, 22]), ext::Value::Prim(PrimValue::I32(3))]);
    assert_eq!(
        run(&c, "answer", vec![]).unwrap(),
        vec![ext::Value::Prim(PrimValue::I32(42))]
    );
    assert_eq!(run(&c, "ident", vec![ext_i32s(&[])]).unwrap(), vec![ext_i32s(&[])]);
    assert_eq!(run(&c, "ident", vec![ext_i32s(&[4])]).unwrap(), vec![ext_i32s(&[4])]);
    let b = ext::Value::Prim(PrimValue::Bool(true));
    assert_eq!(
        run(&c, "len", vec![ext_i32s(&[4, 5, 6]), b]).unwrap(),
        vec![ext::Value::Prim(PrimValue::I64(3))]
    );
    // Errors.
    assert_eq!(
        run(&c, "nope", vec![]).unwrap_err(),
        "no entry point `nope`; entry points: main, pairs, answer, ident, len"
    );
    let e = run(&c, "main", vec![ext_i32s(&[1])]).unwrap_err();
    assert_eq!(e, "entry point `main` takes 2 arguments, got 1");
    let f32s = ext::Value::Array(ext::Array {
        shape: vec![3],
        data: ext::ArrayData::F32(vec![1.0, 2.0, 3.0]),
    });
    let e = run(&c, "main", vec![f32s, ext_i32s(&[1])]).unwrap_err();
    assert_eq!(e, "entry point argument 1: expected [n]i32, got [3]f32");
    let e = run(&c, "main", vec![ext_i32s(&[1]), ext::Value::Prim(PrimValue::I32(1))]).unwrap_err();
    assert_eq!(e, "entry point argument 2: expected [n]i32, got i32");
    let e = run(&c, "main", vec![ext_i32s(&[1, 2]), ext_i32s(&[1])]).unwrap_err();
    assert!(e.contains("size"), "{e}");
    let e = run(&c, "pairs", vec![ext_i32s(&[1])]).unwrap_err();
    assert!(e.contains("opaque"), "{e}");
    // The cost comes back when asked for.
    let r = run_entry(
        &c,
        "main",
        vec![ext_i32s(&[1, 2]), ext_i32s(&[3, 4])],
        &RunOptions {
            cost: true,
            trace: None,
        },
    )
    .unwrap();
    // The zip, the map and the reduction, each over two elements.
    assert_eq!(r.cost, Some(Cost { work: 6, span: 3 }));
    let r = run_entry(&c, "answer", vec![], &RunOptions::default()).unwrap();
    assert_eq!(r.cost, None);
}

#[test]
fn trace_reports_each_value_with_its_location() {
    let mut sm = crate::span::SourceMap::default();
    let src = "def main (xs: []i32) =\n  let ys = map (\\x -> trace (x + 1)) xs\n  in trace (zip ys ys, filter (> 9) ys) |> (.1)\n";
    let file = sm.add("t.fut", src);
    let c = crate::check::check_file(&mut sm, file).unwrap_or_else(|d| panic!("{}", d[0].message));
    let seen = std::cell::RefCell::new(Vec::new());
    let sink = |span: Span, v: &str| seen.borrow_mut().push(format!("{}: {v}", sm.describe_range(span)));
    let opts = RunOptions {
        cost: false,
        trace: Some(&sink),
    };
    let r = run_entry(&c, "main", vec![ext_i32s(&[1, 2])], &opts).unwrap();
    assert_eq!(r.results.len(), 1);
    assert_eq!(
        *seen.borrow(),
        [
            "t.fut:2:23-36: 2i32",
            "t.fut:2:23-36: 3i32",
            "t.fut:3:6-40: ([(2i32, 2i32), (3i32, 3i32)], empty([0]i32))"
        ]
    );
}

#[test]
fn runtime_errors_render_with_their_location() {
    let mut sm = crate::span::SourceMap::default();
    let file = sm.add("prog.fut", "def main (x: i32) =\n  x / 0\n");
    let div = Exp {
        span: Span::new(file, 22, 27),
        ..bin("/", var("x"), i32_(0))
    };
    let c = program(
        vec![valbind("main", Vec::new(), vec![pty("x", pt(I32))], div)],
        vec![("main", 0, vec![pt(I32)], pt(I32))],
    );
    let e = run_entry(
        &c,
        "main",
        vec![ext::Value::Prim(PrimValue::I32(1))],
        &RunOptions::default(),
    )
    .err()
    .unwrap();
    assert_eq!(e.render(&sm), "Error: division by zero (prog.fut:2:3)");
    let e = run_entry(&c, "other", vec![], &RunOptions::default()).err().unwrap();
    assert_eq!(e.render(&sm), "Error: no entry point `other`; entry points: main");
}

// ---------------------------------------------------------------------------
// Throughput: `cargo test --release -p futmlir-frontend bench_map_reduce -- --ignored --nocapture`

#[test]
#[ignore = "benchmark, opt-in: cargo test --release -- --ignored bench_"]
fn bench_map_reduce() {
    // reduce (+) 0 (map (\x -> x * 2 + 1) (iota 10_000_000))
    let n = 10_000_000i64;
    let body = bin("+", bin("*", var("x"), i64_(2)), i64_(1));
    let e = call(
        "reduce",
        vec![
            op("+"),
            i64_(0),
            call("map", vec![lam1("x", body), call("iota", vec![i64_(n)])]),
        ],
    );
    let c = checked(Vec::new());
    for cost in [false, true, false] {
        let mut it = Interp::new(&c, cost, None);
        let t = std::time::Instant::now();
        let v = it.eval(&e).map(|v| show(&v)).unwrap_or_else(|e| e.message);
        let dt = t.elapsed();
        assert_eq!(v, format!("{}i64", n * n));
        eprintln!(
            "cost={cost}: {:.1} ns/element (work {}, span {})",
            dt.as_nanos() as f64 / n as f64,
            it.work,
            it.span
        );
    }
}

#[test]
#[ignore = "benchmark, opt-in: cargo test --release -- --ignored bench_"]
fn bench_breakdown() {
    let n = 5_000_000i64;
    let cases: Vec<(&str, Exp)> = vec![
        ("iota", call("iota", vec![i64_(n)])),
        (
            "reduce (+) 0 (iota n)",
            call("reduce", vec![op("+"), i64_(0), call("iota", vec![i64_(n)])]),
        ),
        (
            "map (\\x -> x) (iota n)",
            call("map", vec![lam1("x", var("x")), call("iota", vec![i64_(n)])]),
        ),
        (
            "map (\\x -> 1) (iota n)",
            call("map", vec![lam1("x", i64_(1)), call("iota", vec![i64_(n)])]),
        ),
        (
            "map (\\x -> x + 1) (iota n)",
            call(
                "map",
                vec![lam1("x", bin("+", var("x"), i64_(1))), call("iota", vec![i64_(n)])],
            ),
        ),
        (
            "map (\\x -> x * 2 + 1) (iota n)",
            call(
                "map",
                vec![
                    lam1("x", bin("+", bin("*", var("x"), i64_(2)), i64_(1))),
                    call("iota", vec![i64_(n)]),
                ],
            ),
        ),
    ];
    let c = checked(Vec::new());
    for (name, e) in &cases {
        let mut best = f64::MAX;
        for _ in 0..3 {
            let mut it = Interp::new(&c, false, None);
            let t = std::time::Instant::now();
            let v = it.eval(e).map(|_| ()).map_err(|e| e.message);
            assert!(v.is_ok());
            best = best.min(t.elapsed().as_nanos() as f64 / n as f64);
        }
        eprintln!("{best:6.1} ns/element  {name}");
    }
}

// ---------------------------------------------------------------------------
// Tests: more names, functions and loops.

fn gvar(name: &str, dec: u32) -> Var {
    Var {
        name: QualName::unqual(nm(name)),
        res: Some(Resolved::Global(GlobalId { program: 1, dec })),
    }
}

#[test]
fn user_defined_operators_and_sections() {
    // def (<+>) (a: i32) (b: i32) = a * 10 + b
    let plusplus = valbind(
        "<+>",
        Vec::new(),
        vec![pid("a"), pid("b")],
        bin("+", bin("*", var("a"), i32_(10)), var("b")),
    );
    // def sub3 (a: i32) (b: i32) (c: i32) = a - b - c
    let sub3 = valbind(
        "sub3",
        Vec::new(),
        vec![pid("a"), pid("b"), pid("c")],
        bin("-", bin("-", var("a"), var("b")), var("c")),
    );
    let decs = || vec![plusplus.clone(), sub3.clone()];
    let run = |e: Exp| eval_in(decs(), e, false).0.map_err(|e| e.message);
    let op_exp = |l: Exp, r: Exp| {
        ex(ExpKind::BinOp {
            op: gvar("<+>", 0),
            op_span: sp(),
            lhs: Box::new(l),
            rhs: Box::new(r),
        })
    };
    assert_eq!(run(op_exp(i32_(1), i32_(2))), Ok("12".into()));
    let sec = |left: Option<Exp>, right: Option<Exp>, dec: u32, name: &str| {
        ex(ExpKind::OpSection {
            op: gvar(name, dec),
            op_span: sp(),
            left: left.map(Box::new),
            right: right.map(Box::new),
        })
    };
    assert_eq!(
        run(call("map", vec![sec(Some(i32_(4)), None, 0, "<+>"), ints(&[1, 2])])),
        Ok("[41, 42]".into())
    );
    assert_eq!(
        run(call("map", vec![sec(None, Some(i32_(4)), 0, "<+>"), ints(&[1, 2])])),
        Ok("[14, 24]".into())
    );
    assert_eq!(
        run(call(
            "reduce",
            vec![sec(None, None, 0, "<+>"), i32_(0), ints(&[1, 2, 3])]
        )),
        Ok("123".into())
    );
    // (`sub3` 1): \x -> sub3 x 1, still waiting for its third argument.
    let partial = app(sec(None, Some(i32_(1)), 1, "sub3"), vec![i32_(10)]);
    assert_eq!(run(app(partial, vec![i32_(2)])), Ok("7".into()));
    // Partial application of a top-level function: map (sub3 100 1) xs
    let e = call("map", vec![app(global(1), vec![i32_(100), i32_(1)]), ints(&[10, 20])]);
    assert_eq!(run(e), Ok("[89, 79]".into()));
    // An operator bound to a local name: let (^^) = \a b -> a - b in 5 ^^ 3
    let local_op = Var {
        name: QualName::unqual(nm("^^")),
        res: Some(Resolved::Local),
    };
    let e = letv(
        "^^",
        lam2("a", "b", bin("-", var("a"), var("b"))),
        ex(ExpKind::BinOp {
            op: local_op,
            op_span: sp(),
            lhs: Box::new(i32_(5)),
            rhs: Box::new(i32_(3)),
        }),
    );
    assert_eq!(run(e), Ok("2".into()));
    // A global constant through a `local` declaration, and an implicit
    // record field naming it.
    let k = Dec::Local(Box::new(valbind("k", Vec::new(), Vec::new(), i32_(7))), sp());
    let e = ex(ExpKind::Record(vec![RecordField::Implicit(
        nm("k"),
        sp(),
        Some(Resolved::Global(GlobalId { program: 1, dec: 0 })),
    )]));
    assert_eq!(
        eval_in(vec![k], e, false).0.map_err(|e| e.message),
        Ok("{k = 7}".into())
    );
}

#[test]
fn local_functions_bind_their_sizes() {
    // let f [n] (xs: [n]i32) (ys: [n]i32) : i64 = n in (f [1, 2] [3, 4], f [1] [2, 3])
    let n = || Size::Var(nm("n"));
    let letfun = |body: Exp| {
        ex(ExpKind::LetFun {
            name: nm("f"),
            name_span: sp(),
            type_params: vec![size_param("n")],
            params: vec![
                pty("xs", arr_t(pt(I32), vec![n()])),
                pty("ys", arr_t(pt(I32), vec![n()])),
            ],
            ret: None,
            value: Box::new(var("n")),
            body: Box::new(body),
        })
    };
    assert_eq!(ev(letfun(app(var("f"), vec![ints(&[1, 2]), ints(&[3, 4])]))), "2i64");
    let e = ev_err(letfun(app(var("f"), vec![ints(&[1]), ints(&[2, 3])])));
    assert!(e.message.contains("size"), "{}", e.message);
    // A constant size in a parameter type is checked too.
    let g = valbind(
        "g",
        Vec::new(),
        vec![pty("xs", arr_t(pt(I32), vec![Size::Const(2)]))],
        i32_(0),
    );
    let r = eval_in(vec![g], app(global(0), vec![ints(&[1, 2, 3])]), false).0;
    assert!(r.unwrap_err().message.contains("size"));
}

#[test]
fn unique_parameters_are_updated_in_place() {
    // def set0 (xs: *[]i32) = xs with [0] = 42
    let set0 = valbind(
        "set0",
        Vec::new(),
        vec![pty("xs", uniq(arr_t(pt(I32), vec![Size::Unknown])))],
        update(var("xs"), vec![fix(i64_(0))], i32_(42)),
    );
    let c = checked(vec![set0]);
    let mut it = Interp::new(&c, false, None);
    it.push_var("ys", Value::array(Array::new(vec![2], Data::I32(vec![1, 2]))));
    let ys = var("ys");
    let ptr = match it.eval(&ys).unwrap() {
        Value::Array(a) => match &a.data {
            Data::I32(v) => v.as_ptr(),
            _ => unreachable!(),
        },
        _ => unreachable!(),
    };
    let f = typed(
        global(0),
        arrow(
            vec![uniq(arr_t(pt(I32), vec![Size::Unknown]))],
            arr_t(pt(I32), vec![Size::Unknown]),
        ),
    );
    let e = app(f, vec![var("ys")]);
    match it.eval(&e).unwrap() {
        Value::Array(a) => match &a.data {
            Data::I32(v) => {
                assert_eq!(v, &[42, 2]);
                assert_eq!(v.as_ptr(), ptr, "the call copied its unique argument");
            }
            _ => unreachable!(),
        },
        _ => unreachable!(),
    }
    // The consumed variable is gone; reading it is an internal error (the
    // checker forbids it).
    let r = it.eval(&ys);
    assert!(r.unwrap_err().message.contains("consumed"));
}

#[test]
fn while_loop_with_a_record_pattern() {
    // loop {i, acc} = {i = 0, acc = 1} while i < 5 do {i = i + 1, acc = acc * 2}
    let e = loop_(
        precord(vec![("i", pid("i")), ("acc", pid("acc"))]),
        record(vec![("i", i32_(0)), ("acc", i32_(1))]),
        LoopForm::While(Box::new(bin("<", var("i"), i32_(5)))),
        record(vec![
            ("i", bin("+", var("i"), i32_(1))),
            ("acc", bin("*", var("acc"), i32_(2))),
        ]),
    );
    assert_eq!(ev(e), "{acc = 32, i = 5}");
    // A while loop that never runs its body.
    let e = loop_(pid("x"), i32_(3), LoopForm::While(Box::new(bool_(false))), i32_(0));
    assert_eq!(ev(e), "3");
}

#[test]
fn extreme_indices_and_sizes_do_not_panic() {
    let xs = || ints(&[1, 2, 3]);
    assert_eq!(ev(index(xs(), vec![sl(None, None, Some(i64::MAX))])), "[1]");
    assert_eq!(ev(index(xs(), vec![sl(None, None, Some(i64::MIN))])), "[3]");
    assert!(ev_err(index(xs(), vec![fix(i64_(i64::MIN))]))
        .message
        .contains("out of bounds"));
    assert!(ev_err(index(xs(), vec![sl(Some(i64::MIN), Some(i64::MAX), None)]))
        .message
        .contains("out of bounds"));
    let e = call("replicate", vec![i64_(1 << 40), call("iota", vec![i64_(1000)])]);
    assert!(ev_err(e).message.contains("too large"));
    assert!(ev_err(call("iota", vec![i64_(i64::MAX)])).message.contains("too large"));
    let e = range(i64_(i64::MIN), None, i64_(i64::MAX), RangeEnd::Inclusive);
    assert!(ev_err(e).message.contains("too large"));
    let e = call("unflatten", vec![i64_(i64::MAX), i64_(i64::MAX), ints(&[1])]);
    assert!(ev_err(e).message.contains("size"));
    let e = call(
        "replicate",
        vec![i64_(1 << 31), call("replicate", vec![i64_(1 << 31), i32_(0)])],
    );
    assert!(ev_err(e).message.contains("too large"));
    assert_eq!(
        ev(bin("**", i64_(3), i64_(i64::MAX))),
        format!("{}i64", wrapping_pow_i64(3, i64::MAX as u64))
    );
}

fn wrapping_pow_i64(mut b: i64, mut e: u64) -> i64 {
    let mut acc = 1i64;
    while e > 0 {
        if e & 1 == 1 {
            acc = acc.wrapping_mul(b);
        }
        b = b.wrapping_mul(b);
        e >>= 1;
    }
    acc
}

#[test]
fn arrays_of_tuples_index_and_update() {
    let xs = || call("zip", vec![ints(&[1, 2, 3]), f64s(&[0.5, 1.5, 2.5])]);
    assert_eq!(ev(index(xs(), vec![fix(i64_(1))])), "(2, 1.5)");
    assert_eq!(ev(index(xs(), vec![sl(None, None, Some(-2))])), "[(3, 2.5), (1, 0.5)]");
    let e = update(xs(), vec![fix(i64_(0))], tup(vec![i32_(9), f64_(9.0)]));
    assert_eq!(ev(e), "[(9, 9.0), (2, 1.5), (3, 2.5)]");
    assert_eq!(
        ev(index(xs(), vec![sl(None, None, Some(-1))])),
        "[(3, 2.5), (2, 1.5), (1, 0.5)]"
    );
    assert_eq!(ev(call("concat", vec![xs(), xs()])).matches('(').count(), 6);
    assert_eq!(
        ev(call(
            "scatter",
            vec![xs(), i64s(&[2]), arrlit(vec![tup(vec![i32_(0), f64_(0.0)])])]
        )),
        "[(1, 0.5), (2, 1.5), (0, 0.0)]"
    );
    // for (a, b) in xs
    let e = loop_(
        pid("s"),
        f64_(0.0),
        LoopForm::ForIn(ptup(vec![pid("a"), pid("b")]), Box::new(xs())),
        bin("+", var("s"), bin("*", call("f64.i32", vec![var("a")]), var("b"))),
    );
    assert_eq!(ev(e), "11.0");
}

#[test]
fn unit_results_give_no_values() {
    let main = valbind("main", Vec::new(), vec![pty("x", pt(I32))], tup(Vec::new()));
    let c = program(vec![main], vec![("main", 0, vec![pt(I32)], Type::unit())]);
    assert_eq!(
        run(&c, "main", vec![ext::Value::Prim(PrimValue::I32(1))]),
        Ok(Vec::new())
    );
}

#[test]
fn closures_capture_only_their_free_variables() {
    use super::free::free_vars;
    // \x -> let y = x + a in loop acc = y for i < n do acc + b + i
    let body = letv(
        "y",
        bin("+", var("x"), var("a")),
        loop_(
            pid("acc"),
            var("y"),
            for_("i", var("n")),
            bin("+", bin("+", var("acc"), var("b")), var("i")),
        ),
    );
    let params = vec![pid("x")];
    assert_eq!(free_vars(&[], &params, &body), vec!["a", "n", "b"]);
    // Sizes in types count; shadowing and nested lambdas are respected.
    let coerce = typed(
        ex(ExpKind::Coerce(Box::new(var("xs")), Box::new(dummy_te()))),
        arr_t(pt(I32), vec![Size::Var(nm("m"))]),
    );
    let body = tup(vec![
        coerce,
        lam1("z", bin("+", var("z"), var("c"))),
        letv("c", i32_(1), var("c")),
    ]);
    assert_eq!(free_vars(&[], &[], &body), vec!["m", "xs", "c"]);
    let body = ex(ExpKind::LetWith {
        name: nm("arr"),
        name_span: sp(),
        index: vec![fix(var("k"))],
        value: Box::new(i32_(0)),
        body: Box::new(var("arr")),
    });
    assert_eq!(free_vars(&[], &[], &body), vec!["arr", "k"]);
    let body = ex(ExpKind::Loop {
        pat: Box::new(ptup(vec![pid("p"), pid("q")])),
        init: None,
        form: Box::new(LoopForm::While(Box::new(var("p")))),
        body: Box::new(var("q")),
    });
    assert_eq!(free_vars(&[], &[], &body), vec!["p", "q"]);

    // A helper closure alive across an update does not hold the array.
    let c = checked(Vec::new());
    let mut it = Interp::new(&c, false, None);
    it.push_var("xs", Value::array(Array::new(vec![2], Data::I32(vec![1, 2]))));
    it.push_var("i", Value::i64(3));
    let e = lam1("j", bin("+", var("j"), var("i")));
    let g = it.eval(&e).unwrap();
    let xs = var("xs");
    match it.eval(&xs).unwrap() {
        Value::Array(a) => assert_eq!(Rc::strong_count(&a), 2, "only the environment and this copy"),
        _ => unreachable!(),
    }
    drop(g);
}

/// The members of the numeric modules that the prelude derives in Futhark
/// (Note [Intrinsic modules] in `crate::modules`), run from source.
#[test]
fn derived_numeric_members() {
    let src = "def main =
  (i8.highest, i64.lowest, u32.highest, f32.highest, f64.lowest, i16.num_bits, f64.num_bits,
   f64.trunc (-1.7), f64.recip 4.0, f64.isnan f64.nan, f64.isinf (-f64.inf), f64.isfinite f64.inf,
   f32.pow 2 10, f32.lerp 1 3 0.25, f32.from_fraction 1 4, f16.from_fraction 1 3,
   f64.pi, f32.e, f64.epsilon, f16.epsilon, map i32.sum [[1, 2, 3], [4, 5, 6]], f64.sum [1, 0.5],
   i32.get_bit 31 (-1), u8.set_bit 0 6 1, i64.ctz 0, u8.mad_hi 200 200 1, u16.maximum [3, 9, 2])";
    let mut sm = crate::span::SourceMap::default();
    let file = sm.add("t.fut", src);
    let c = crate::check::check_file(&mut sm, file).unwrap_or_else(|d| panic!("{}", d[0].message));
    let vs = run(&c, "main", vec![]).unwrap();
    let got: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
    let want = [
        "127i8",
        "-9223372036854775808i64",
        "4294967295u32",
        "f32.inf",
        "-f64.inf",
        "16i32",
        "64i32",
        "-1.0f64",
        "0.25f64",
        "true",
        "true",
        "false",
        "1024.0f32",
        "1.5f32",
        "0.25f32",
        "0.33325195f16",
        "3.141592653589793f64",
        "2.7182817f32",
        "2.220446049250313e-16f64",
        "9.765625e-4f16",
        "[6i32, 15i32]",
        "1.5f64",
        "1i32",
        "7u8",
        "64i32",
        "157u8",
        "9u16",
    ];
    assert_eq!(got, want);
}

#[test]
fn vjp_with_a_cotangent_shaped_unlike_the_result_names_vjp() {
    // `filter` gives its result a size of its own (2), and the cotangent
    // has 3 elements: the type checker cannot tell, the return sweep can
    // (Note [Reverse mode]). The compiled path's check is in internalise
    // (the program is kept out of tests/programs, whose every program
    // must also internalise to IR that verifies).
    let src = "def main (xs: []f64) = vjp (\\zs -> filter (> 1) zs) xs xs\n";
    let mut sm = crate::span::SourceMap::default();
    let file = sm.add("t.fut", src);
    let c = crate::check::check_file(&mut sm, file).unwrap_or_else(|d| panic!("{}", d[0].message));
    let xs = ext::Value::Array(ext::Array {
        shape: vec![3],
        data: ext::ArrayData::F64(vec![1.0, 2.0, 3.0]),
    });
    let e = run(&c, "main", vec![xs]).unwrap_err();
    assert!(
        e.contains("vjp: the cotangent does not have the shape of the result"),
        "{e}"
    );
}

#[test]
fn vjp_leaves_no_tracked_number_in_its_results() {
    // The primal and the adjoint of an array argument come back as typed
    // arrays (the entry point's printing needs plain scalars).
    let src = "def main (xs: []f64) = vjp2 (map (\\x -> x * x)) xs (map (const 1) xs)\n";
    let mut sm = crate::span::SourceMap::default();
    let file = sm.add("t.fut", src);
    let c = crate::check::check_file(&mut sm, file).unwrap_or_else(|d| panic!("{}", d[0].message));
    let xs = ext::Value::Array(ext::Array {
        shape: vec![2],
        data: ext::ArrayData::F64(vec![3.0, 4.0]),
    });
    let vs = run(&c, "main", vec![xs]).unwrap();
    let got: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
    assert_eq!(got, ["[9.0f64, 16.0f64]", "[6.0f64, 8.0f64]"]);
}
