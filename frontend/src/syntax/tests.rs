//! Tests of the lexer and parser: tree shapes (printed as S-expressions),
//! spans, error messages, nesting limits, and a deterministic fuzz test.

use super::ast::*;
use super::lexer::{tokenize, Tok};
use super::parser::{parse_exp, parse_program, parse_type, parse_type_scheme, MAX_DEPTH};
use crate::diag::Diag;
use crate::values::generate::Rng;

// ---- printing trees as S-expressions ------------------------------------

fn join<T>(xs: &[T], f: impl Fn(&T) -> String) -> String {
    xs.iter().map(f).collect::<Vec<_>>().join(" ")
}

fn lit(l: &Literal) -> String {
    let suf = |s: &Option<crate::types::PrimType>| s.map_or(String::new(), |p| p.name().to_string());
    match l {
        Literal::Int { value, suffix } => format!("{value}{}", suf(suffix)),
        Literal::Float { value, suffix } => format!("{value:?}{}", suf(suffix)),
        Literal::Bool(b) => b.to_string(),
        Literal::String(b) => format!("{:?}", String::from_utf8_lossy(b)),
    }
}

fn opt(x: &Option<Box<Exp>>) -> String {
    x.as_ref().map_or("_".into(), |x| e(x))
}

fn opt_e(x: &Option<Exp>) -> String {
    x.as_ref().map_or("_".into(), e)
}

fn dim(d: &DimIndex) -> String {
    match d {
        DimIndex::Fix(x) => e(x),
        DimIndex::Slice { start, end, stride } => {
            format!("(slice {} {} {})", opt_e(start), opt_e(end), opt_e(stride))
        }
    }
}

fn tparam(tp: &TypeParam) -> String {
    match tp {
        TypeParam::Size { name, .. } => format!("[{name}]"),
        TypeParam::Type { name, liftedness, .. } => {
            let l = match liftedness {
                Liftedness::Unlifted => "",
                Liftedness::SizeLifted => "~",
                Liftedness::Lifted => "^",
            };
            format!("'{l}{name}")
        }
    }
}

fn e(x: &Exp) -> String {
    match &x.kind {
        ExpKind::Lit(l) => lit(l),
        ExpKind::Var(v) => v.name.to_string(),
        ExpKind::Neg(a) => format!("(neg {})", e(a)),
        ExpKind::Not(a) => format!("(not {})", e(a)),
        ExpKind::BinOp { op, lhs, rhs, .. } => format!("({} {} {})", op.name, e(lhs), e(rhs)),
        ExpKind::OpSection { op, left, right, .. } => {
            format!("(section {} {} {})", op.name, opt(left), opt(right))
        }
        ExpKind::ProjectSection(ns) => format!("(.{})", ns.join(".")),
        ExpKind::Hole => "???".to_string(),
        ExpKind::Apply(f, args) => format!("(app {} {})", e(f), join(args, e)),
        ExpKind::Lambda { params, ret, body } => {
            let r = ret.as_ref().map_or(String::new(), |t| format!("{} ", ty(t)));
            format!("(lambda ({}) {r}{})", join(params, pat), e(body))
        }
        ExpKind::Tuple(es) => format!("(tuple{})", es.iter().map(|x| format!(" {}", e(x))).collect::<String>()),
        ExpKind::Record(fs) => {
            let f = |f: &RecordField| match f {
                RecordField::Explicit(n, _, x) => format!("{n}={}", e(x)),
                RecordField::Implicit(n, _, _) => n.to_string(),
            };
            format!("{{{}}}", join(fs, f))
        }
        ExpKind::ArrayLit(es) => format!("[{}]", join(es, e)),
        ExpKind::Range {
            start,
            second,
            end,
            kind,
        } => {
            let k = match kind {
                RangeEnd::Inclusive => "incl",
                RangeEnd::UpToExclusive => "lt",
                RangeEnd::DownToExclusive => "gt",
            };
            let s = second.as_ref().map_or(String::new(), |s| format!("{} ", e(s)));
            format!("(range {} {s}{} {k})", e(start), e(end))
        }
        ExpKind::Project(a, n) => format!("(proj {} {n})", e(a)),
        ExpKind::Index(a, is) => format!("(index {} {})", e(a), join(is, dim)),
        ExpKind::Coerce(a, t) => format!("(:> {} {})", e(a), ty(t)),
        ExpKind::Ascript(a, t) => format!("(: {} {})", e(a), ty(t)),
        ExpKind::If { cond, then, els } => format!("(if {} {} {})", e(cond), e(then), e(els)),
        ExpKind::Let { pat: p, value, body } => format!("(let {} {} {})", pat(p), e(value), e(body)),
        ExpKind::LetFun {
            name,
            type_params,
            params,
            ret,
            value,
            body,
            ..
        } => {
            let r = ret.as_deref().map_or("_".into(), ty);
            format!(
                "(letfun {name} ({}) ({}) {r} {} {})",
                join(type_params, tparam),
                join(params, pat),
                e(value),
                e(body)
            )
        }
        ExpKind::LetWith {
            name,
            index,
            value,
            body,
            ..
        } => format!("(letwith {name} ({}) {} {})", join(index, dim), e(value), e(body)),
        ExpKind::Update { array, index, value } => {
            format!("(update {} ({}) {})", e(array), join(index, dim), e(value))
        }
        ExpKind::RecordUpdate { record, path, value } => {
            format!("(recupd {} {} {})", e(record), path.join("."), e(value))
        }
        ExpKind::Loop {
            pat: p,
            init,
            form,
            body,
        } => {
            let f = match &**form {
                LoopForm::For(i, _, n) => format!("(for {i} {})", e(n)),
                LoopForm::ForIn(p, xs) => format!("(forin {} {})", pat(p), e(xs)),
                LoopForm::While(c) => format!("(while {})", e(c)),
            };
            format!("(loop {} {} {f} {})", pat(p), opt(init), e(body))
        }
        ExpKind::Assert(c, x) => format!("(assert {} {})", e(c), e(x)),
        ExpKind::Attr(a, x) => format!("(attr {} {})", attr(a), e(x)),
        ExpKind::OpenIn(path, x) => format!("(open {} {})", path.join("."), e(x)),
        ExpKind::Constr(c, args) => {
            format!(
                "(#{c}{})",
                args.iter().map(|x| format!(" {}", e(x))).collect::<String>()
            )
        }
        ExpKind::Match(x, cases) => {
            let c = |(p, x): &(Pat, Exp)| format!("({} {})", pat(p), e(x));
            format!("(match {} {})", e(x), join(cases, c))
        }
    }
}

fn attr(a: &Attr) -> String {
    if a.args.is_empty() {
        a.name.to_string()
    } else {
        format!("{}({})", a.name, join(&a.args, attr))
    }
}

fn pat(p: &Pat) -> String {
    match &p.kind {
        PatKind::Id(n) => n.to_string(),
        PatKind::Wildcard => "_".into(),
        PatKind::Tuple(ps) => format!(
            "(tuple{})",
            ps.iter().map(|p| format!(" {}", pat(p))).collect::<String>()
        ),
        PatKind::Record(fs) => format!("{{{}}}", join(fs, |(n, _, p)| format!("{n}={}", pat(p)))),
        PatKind::Ascribe(p, t) => format!("(: {} {})", pat(p), ty(t)),
        PatKind::Lit { lit: l, negated } => format!("{}{}", if *negated { "-" } else { "" }, lit(l)),
        PatKind::Constr(c, args) => {
            format!(
                "(#{c}{})",
                args.iter().map(|p| format!(" {}", pat(p))).collect::<String>()
            )
        }
    }
}

fn size(d: &SizeExp) -> String {
    match d {
        SizeExp::Any => "[]".into(),
        SizeExp::Name(n, _) => format!("[{n}]"),
        SizeExp::Const(c, _) => format!("[{c}]"),
        SizeExp::Exp(..) => "[exp]".into(),
    }
}

fn ty(t: &TypeExp) -> String {
    match &t.kind {
        TypeExpKind::Var(n) => n.to_string(),
        TypeExpKind::Tuple(ts) => format!(
            "(tuple{})",
            ts.iter().map(|t| format!(" {}", ty(t))).collect::<String>()
        ),
        TypeExpKind::Record(fs) => format!("{{{}}}", join(fs, |(n, _, t)| format!("{n}: {}", ty(t)))),
        TypeExpKind::Array(d, t) => format!("{}{}", size(d), ty(t)),
        TypeExpKind::Unique(t) => format!("*{}", ty(t)),
        TypeExpKind::Arrow(None, a, b) => format!("(-> {} {})", ty(a), ty(b)),
        TypeExpKind::Arrow(Some(n), a, b) => format!("(-> ({n}: {}) {})", ty(a), ty(b)),
        TypeExpKind::Apply(f, args) => {
            let a = |a: &TypeArgExp| match a {
                TypeArgExp::Size(d, _) => size(d),
                TypeArgExp::Type(t) => ty(t),
            };
            format!("(tapp {} {})", ty(f), join(args, a))
        }
        TypeExpKind::Existential(ns, t) => {
            format!(
                "(? {} {})",
                ns.iter().map(|(n, _)| format!("[{n}]")).collect::<String>(),
                ty(t)
            )
        }
        TypeExpKind::Sum(cs) => {
            let c = |(n, ts): &(Name, Vec<TypeExp>)| {
                format!("(#{n}{})", ts.iter().map(|t| format!(" {}", ty(t))).collect::<String>())
            };
            format!("(sum {})", join(cs, c))
        }
    }
}

fn pe(s: &str) -> String {
    match parse_exp(0, s) {
        Ok(x) => e(&x),
        Err(d) => panic!("parse_exp({s:?}) failed: {} at {}..{}", d.message, d.span.lo, d.span.hi),
    }
}

fn pt(s: &str) -> String {
    match parse_type(0, s) {
        Ok(t) => ty(&t),
        Err(d) => panic!(
            "parse_type({s:?}) failed: {} at {}..{}",
            d.message, d.span.lo, d.span.hi
        ),
    }
}

fn prog(s: &str) -> Program {
    match parse_program(0, s) {
        Ok(p) => p,
        Err(d) => panic!(
            "parse_program({s:?}) failed: {} at {}..{}",
            d.message, d.span.lo, d.span.hi
        ),
    }
}

fn val(d: &Dec) -> &ValBind {
    match d {
        Dec::Val(v) => v,
        other => panic!("not a value binding: {other:?}"),
    }
}

fn exp_err(s: &str) -> (String, u32, u32) {
    match parse_exp(0, s) {
        Ok(x) => panic!("parse_exp({s:?}) succeeded: {}", e(&x)),
        Err(d) => (d.help.unwrap_or(d.message), d.span.lo, d.span.hi),
    }
}

fn prog_err(s: &str) -> (String, u32, u32) {
    match parse_program(0, s) {
        Ok(p) => panic!("parse_program({s:?}) succeeded: {p:?}"),
        Err(d) => (d.help.unwrap_or(d.message), d.span.lo, d.span.hi),
    }
}

fn check(cases: &[(&str, &str)], f: fn(&str) -> String) {
    for (src, want) in cases {
        assert_eq!(f(src), *want, "input: {src:?}");
    }
}

// ---- expressions ----------------------------------------------------------

#[test]
fn precedence() {
    check(
        &[
            ("1 + 2 * 3", "(+ 1 (* 2 3))"),
            ("1 * 2 + 3", "(+ (* 1 2) 3)"),
            ("a - b - c", "(- (- a b) c)"),
            ("a / b * c % d", "(% (* (/ a b) c) d)"),
            ("a // b %% c", "(%% (// a b) c)"),
            ("a ** b ** c", "(** a (** b c))"),
            ("a * b ** c", "(* a (** b c))"),
            ("a |> f |> g", "(|> (|> a f) g)"),
            ("f <| g <| x", "(<| f (<| g x))"),
            ("a |> f <| x", "(|> a (<| f x))"),
            ("a || b && c", "(|| a (&& b c))"),
            ("a && b || c", "(|| (&& a b) c)"),
            ("a == b && c < d", "(&& (== a b) (< c d))"),
            ("a <= b != c", "(!= (<= a b) c)"),
            ("a & b == c", "(== (& a b) c)"),
            ("a | b ^ c & d", "(& (^ (| a b) c) d)"),
            ("a << 1 + 2", "(<< a (+ 1 2))"),
            ("a >> b >>> c | d", "(| (>>> (>> a b) c) d)"),
            ("x + y |> f", "(|> (+ x y) f)"),
            (
                "xs |> map f |> reduce (+) 0",
                "(|> (|> xs (app map f)) (app reduce (section + _ _) 0))",
            ),
            // User-defined operators take the level of their leading characters.
            ("x <+> y + 1", "(<+> x (+ y 1))"),
            ("xs ++ ys ++ zs", "(++ (++ xs ys) zs)"),
            ("a ++ b * c", "(++ a (* b c))"),
            ("f >-> g >-> h", "(>-> (>-> f g) h)"),
            ("f <-< g", "(<-< f g)"),
            ("a *^ b + c", "(+ (*^ a b) c)"),
            ("a **^ b **^ c", "(**^ a (**^ b c))"),
            ("a |>> b || c", "(|>> a (|| b c))"),
            ("a => b && c", "(&& (=> a b) c)"),
            // Backticks are the loosest binary operators.
            ("a `f` b + c", "(f a (+ b c))"),
            ("a + b `f` c", "(f (+ a b) c)"),
            ("a `f` b `g` c", "(g (f a b) c)"),
            ("a `i32.max` b |> f", "(i32.max a (|> b f))"),
        ],
        pe,
    );
}

#[test]
fn prefix_operators() {
    check(
        &[
            ("-x", "(neg x)"),
            ("-x ** 2", "(** (neg x) 2)"),
            ("-f x", "(neg (app f x))"),
            ("- - x", "(neg (neg x))"),
            ("f -1", "(- f 1)"),
            ("f x -1", "(- (app f x) 1)"),
            ("a * -b", "(* a (neg b))"),
            ("a - -b", "(- a (neg b))"),
            ("!a && b", "(&& (not a) b)"),
            ("!f x", "(not (app f x))"),
            ("-a[i]", "(neg (index a i))"),
            ("-x.y", "(neg x.y)"),
            ("(-1)", "(neg 1)"),
            ("(- x)", "(neg x)"),
            ("(-x + 1)", "(+ (neg x) 1)"),
            ("-if c then 1 else 2", "(neg (if c 1 2))"),
        ],
        pe,
    );
}

#[test]
fn application_and_atoms() {
    check(
        &[
            ("f x y", "(app f x y)"),
            ("f (g x) [1, 2]", "(app f (app g x) [1 2])"),
            ("f(x)", "(app f x)"),
            ("f a[1]", "(app f (index a 1))"),
            ("f a [1]", "(app f a [1])"),
            ("a[1]", "(index a 1)"),
            ("a[i, j]", "(index a i j)"),
            ("a[1:3]", "(index a (slice 1 3 _))"),
            ("a[::2]", "(index a (slice _ _ 2))"),
            ("a[:, 0]", "(index a (slice _ _ _) 0)"),
            ("a[i:j:s]", "(index a (slice i j s))"),
            ("a[i:]", "(index a (slice i _ _))"),
            ("a[:j]", "(index a (slice _ j _))"),
            ("a[::-1]", "(index a (slice _ _ (neg 1)))"),
            ("a[i+1:n-1]", "(index a (slice (+ i 1) (- n 1) _))"),
            ("a[i][j]", "(index (index a i) j)"),
            ("[1, 2, 3][0]", "(index [1 2 3] 0)"),
            ("f (x)[0]", "(app f (index x 0))"),
            ("i32.sum xs", "(app i32.sum xs)"),
            ("f32.sqrt 2.0", "(app f32.sqrt 2.0)"),
            ("r.x.y", "r.x.y"),
            ("x.0", "x.0"),
            ("x.0.1", "x.0.1"),
            ("f r.x", "(app f r.x)"),
            ("(f x).y", "(proj (app f x) y)"),
            ("(a, b).0", "(proj (tuple a b) 0)"),
            ("a[0].1", "(proj (index a 0) 1)"),
            ("a[0].x.y", "(proj (proj (index a 0) x) y)"),
            ("r.xs[i]", "(index r.xs i)"),
            ("reduce (i32.+) 0", "(app reduce i32.+ 0)"),
            ("f32.max", "f32.max"),
            ("()", "(tuple)"),
            ("(a, b)", "(tuple a b)"),
            ("(a, b, c)", "(tuple a b c)"),
            ("((a))", "a"),
            ("{x = 1, y}", "{x=1 y}"),
            ("{}", "{}"),
            ("{0 = a, 1 = b}", "{0=a 1=b}"),
            ("[1, 2, 3]", "[1 2 3]"),
            ("[]", "[]"),
            ("[[1], [2]]", "[[1] [2]]"),
            ("f true false", "(app f true false)"),
            ("f 'a'", "(app f 97)"),
        ],
        pe,
    );
    // Name chains are one `Var` with qualifiers.
    let x = parse_exp(0, "r.x.y").unwrap();
    match &x.kind {
        ExpKind::Var(v) => {
            assert_eq!(v.name.quals, vec![Name::from("r"), Name::from("x")]);
            assert_eq!(&*v.name.name, "y");
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn sections() {
    check(
        &[
            ("(+)", "(section + _ _)"),
            ("(+ 1)", "(section + _ 1)"),
            ("(1 +)", "(section + 1 _)"),
            ("(-)", "(section - _ _)"),
            ("(x -)", "(section - x _)"),
            ("(* 2 + 1)", "(section * _ (+ 2 1))"),
            ("(a + b *)", "(section * (+ a b) _)"),
            ("(`f` x)", "(section f _ x)"),
            ("(x `f`)", "(section f x _)"),
            ("(`f`)", "(section f _ _)"),
            ("(<|)", "(section <| _ _)"),
            ("(<)", "(section < _ _)"),
            ("(|)", "(section | _ _)"),
            ("(<+>)", "(section <+> _ _)"),
            ("(.x)", "(.x)"),
            ("(.0)", "(.0)"),
            ("(.0.y)", "(.0.y)"),
            ("(.[i])", "(lambda ((.[])) (index (.[]) i))"),
            ("f ??? x", "(app f ??? x)"),
            ("map (+ 1) xs", "(app map (section + _ 1) xs)"),
        ],
        pe,
    );
}

#[test]
fn lambdas_and_blocks() {
    check(
        &[
            ("\\x y -> x + y", "(lambda (x y) (+ x y))"),
            ("\\(x: i32) : i32 -> x", "(lambda ((: x i32)) i32 x)"),
            ("\\(a, b) -> a", "(lambda ((tuple a b)) a)"),
            ("\\_ -> 0", "(lambda (_) 0)"),
            ("\\{x, y} -> x", "(lambda ({x=x y=y}) x)"),
            ("\\x -> \\y -> x", "(lambda (x) (lambda (y) x))"),
            ("map (\\x -> x + 1) xs", "(app map (lambda (x) (+ x 1)) xs)"),
            ("x |> \\y -> y + 1", "(|> x (lambda (y) (+ y 1)))"),
            ("if c then a else b + 1", "(if c a (+ b 1))"),
            ("if a then 1 else if b then 2 else 3", "(if a 1 (if b 2 3))"),
            ("x + if c then 1 else 2 * y", "(+ x (if c 1 (* 2 y)))"),
            ("if c then a else b : i32", "(if c a (: b i32))"),
            ("assert (x > 0) (x + 1)", "(assert (> x 0) (+ x 1))"),
            ("assert c x + 1", "(+ (assert c x) 1)"),
            ("e :> [n]i32", "(:> e [n]i32)"),
            ("x + 1 : i32", "(: (+ x 1) i32)"),
            ("(x : i32, y)", "(tuple (: x i32) y)"),
            (
                "#[unroll] loop x = 0 for i < 4 do x",
                "(attr unroll (loop x 0 (for i 4) x))",
            ),
            (
                "#[sequential_inner] #[foo(1, bar)] f x",
                "(attr sequential_inner (attr foo(1 bar) (app f x)))",
            ),
        ],
        pe,
    );
}

#[test]
fn lets() {
    check(
        &[
            ("let x = 1 in x", "(let x 1 x)"),
            ("let x = 1 let y = 2 in x + y", "(let x 1 (let y 2 (+ x y)))"),
            ("let x = 1 in let y = 2 in y", "(let x 1 (let y 2 y))"),
            (
                "let x = 1\nlet y = x\nlet z = y\nin z",
                "(let x 1 (let y x (let z y z)))",
            ),
            ("let (a, b) = p in a", "(let (tuple a b) p a)"),
            ("let x: i32 = 5 in x", "(let (: x i32) 5 x)"),
            ("let (x: i32) = 5 in x", "(let (: x i32) 5 x)"),
            ("let {x, y = z} = r in x", "(let {x=x y=z} r x)"),
            ("let _ = f x in 0", "(let _ (app f x) 0)"),
            ("let () = f x in 0", "(let (tuple) (app f x) 0)"),
            (
                "let f x y = x + y in f 1 2",
                "(letfun f () (x y) _ (+ x y) (app f 1 2))",
            ),
            (
                "let f [n] 'a (xs: [n]a) : [n]a = xs in f",
                "(letfun f ([n] 'a) ((: xs [n]a)) [n]a xs f)",
            ),
            ("let (+^) a b = a in 1 +^ 2", "(letfun +^ () (a b) _ a (+^ 1 2))"),
            ("let x[i] = v in x", "(letwith x (i) v x)"),
            ("let x[i, j:k] = v in x", "(letwith x (i (slice j k _)) v x)"),
            ("let x = let y = 1 in y in x", "(let x (let y 1 y) x)"),
            ("let x = if c then 1 else 2 in x", "(let x (if c 1 2) x)"),
            ("let x = 1 in x : i32", "(let x 1 (: x i32))"),
            (
                "let x = 1 #[unsafe] let y = x in y",
                "(let x 1 (attr unsafe (let y x y)))",
            ),
            ("a with [i] = v", "(update a (i) v)"),
            ("f a with [i] = x + 1", "(update (app f a) (i) (+ x 1))"),
            ("a with [i, j] = v", "(update a (i j) v)"),
            ("a with [0] = 1 with [1] = 2", "(update (update a (0) 1) (1) 2)"),
            ("a |> f with [0] = 1", "(update (|> a f) (0) 1)"),
            ("r with x.y = 1", "(recupd r x.y 1)"),
            ("r with 0 = 1", "(recupd r 0 1)"),
        ],
        pe,
    );
}

#[test]
fn loops_ranges_match() {
    check(
        &[
            ("loop acc = 0 for i < n do acc + i", "(loop acc 0 (for i n) (+ acc i))"),
            (
                "loop (a, b) = (0, 1) for x in xs do (b, a + b)",
                "(loop (tuple a b) (tuple 0 1) (forin x xs) (tuple b (+ a b)))",
            ),
            ("loop x while x < 10 do x * 2", "(loop x _ (while (< x 10)) (* x 2))"),
            ("loop x for i < n do x", "(loop x _ (for i n) x)"),
            ("loop x = 1 for i < n + 1 do x", "(loop x 1 (for i (+ n 1)) x)"),
            ("loop (x: i32) = 0 while true do x", "(loop (: x i32) 0 (while true) x)"),
            ("loop x: i32 = 0 while true do x", "(loop (: x i32) 0 (while true) x)"),
            (
                "loop (i, acc) = (0, 0) for (a, b) in zip xs ys do acc",
                "(loop (tuple i acc) (tuple 0 0) (forin (tuple a b) (app zip xs ys)) acc)",
            ),
            ("0..<n", "(range 0 n lt)"),
            ("a..b", "(range a b incl)"),
            ("a..>b", "(range a b gt)"),
            ("1..3...9", "(range 1 3 9 incl)"),
            ("1..3..<9", "(range 1 3 9 lt)"),
            ("9..7..>0", "(range 9 7 0 gt)"),
            ("0..<n+1", "(range 0 (+ n 1) lt)"),
            ("x..y", "(range x y incl)"),
            ("1..5", "(range 1 5 incl)"),
            ("#some x", "(#some x)"),
            ("#none", "(#none)"),
            ("f #red", "(app f (#red))"),
            (
                "match x case #some y -> y case #none -> 0",
                "(match x ((#some y) y) ((#none) 0))",
            ),
            (
                "match (a, b) case (1, _) -> 1 case _ -> 2",
                "(match (tuple a b) ((tuple 1 _) 1) (_ 2))",
            ),
            (
                "match c case 'a' -> true case _ -> false",
                "(match c (97 true) (_ false))",
            ),
            (
                "match x case -1 -> 0 case -2.5 -> 1 case #some (-3) -> 2 case _ -> 3",
                "(match x (-1 0) (-2.5 1) ((#some -3) 2) (_ 3))",
            ),
        ],
        pe,
    );
}

#[test]
fn literals() {
    check(
        &[
            ("1", "1"),
            ("1i8", "1i8"),
            ("1i16", "1i16"),
            ("1i32", "1i32"),
            ("1i64", "1i64"),
            ("1u8", "1u8"),
            ("1u16", "1u16"),
            ("1u32", "1u32"),
            ("1u64", "1u64"),
            ("1_000_000", "1000000"),
            ("1_000i64", "1000i64"),
            ("0x1F", "31"),
            ("0xffu8", "255u8"),
            ("0x10i32", "16i32"),
            ("0X_ff_ff", "65535"),
            ("0b101", "5"),
            ("0b1111_0000u8", "240u8"),
            ("0xffffffffffffffffu64", "18446744073709551615u64"),
            (
                "340282366920938463463374607431768211455",
                "340282366920938463463374607431768211455",
            ),
            ("1f32", "1.0f32"),
            ("3f64", "3.0f64"),
            ("0x10f32", "69426"),
            ("2.5", "2.5"),
            ("2.5f32", "2.5f32"),
            ("1e10", "10000000000.0"),
            ("1E3", "1000.0"),
            ("1.5e-3", "0.0015"),
            ("1.5e+3f16", "1500.0f16"),
            ("1_0.2_5", "10.25"),
            ("0x1.8p3", "12.0"),
            ("0x1p-2", "0.25"),
            ("0x1.8p3f32", "12.0f32"),
            ("0xAp0", "10.0"),
            ("true", "true"),
            ("false", "false"),
            ("'a'", "97"),
            ("'\\n'", "10"),
            ("'\\''", "39"),
            ("'λ'", "955"),
            ("\"ab\\n\"", "\"ab\\n\""),
            ("\"\\t\\\\\\\"\\'\\0\"", "\"\\t\\\\\\\"'\\0\""),
            ("\"\\x41\\u00e9\"", "\"Aé\""),
            ("\"héllo\"", "\"héllo\""),
            ("\"\"", "\"\""),
        ],
        pe,
    );
    let x = parse_exp(0, "\"é\\x41\"").unwrap();
    match x.kind {
        ExpKind::Lit(Literal::String(b)) => assert_eq!(b, vec![0xc3, 0xa9, 0x41]),
        k => panic!("{k:?}"),
    }
}

#[test]
fn comments_and_whitespace() {
    check(
        &[
            ("1 -- comment\n+ 2", "(+ 1 2)"),
            ("-- | doc\nf -- x\n x", "(app f x)"),
            ("a--b", "a"),
            ("a +-- b", "(+-- a b)"),
        ],
        pe,
    );
}

// ---- types ----------------------------------------------------------------

#[test]
fn types() {
    check(
        &[
            ("i32", "i32"),
            ("[n]f32", "[n]f32"),
            ("[]i32", "[]i32"),
            ("[3]i32", "[3]i32"),
            ("[3i64]i32", "[3]i32"),
            ("[m.n]i32", "[m.n]i32"),
            ("[n][m]f32", "[n][m]f32"),
            ("*[n]i32", "*[n]i32"),
            ("[n]*i32", "[n]*i32"),
            ("a -> b -> c", "(-> a (-> b c))"),
            ("(a -> b) -> c", "(-> (-> a b) c)"),
            ("(x: i64) -> [x]f32", "(-> (x: i64) [x]f32)"),
            (
                "(n: i64) -> (m: i64) -> [n][m]f32",
                "(-> (n: i64) (-> (m: i64) [n][m]f32))",
            ),
            ("vec [n] f32", "(tapp vec [n] f32)"),
            ("pair i32 bool", "(tapp pair i32 bool)"),
            ("pair (i32, f32) []", "(tapp pair (tuple i32 f32) [])"),
            ("[n]pair i32 bool", "[n](tapp pair i32 bool)"),
            ("m.t", "m.t"),
            ("m.t i32 -> i32", "(-> (tapp m.t i32) i32)"),
            ("?[n].[n]i32", "(? [n] [n]i32)"),
            ("?[n][m].[n][m]i32", "(? [n][m] [n][m]i32)"),
            ("a -> ?[k].[k]b", "(-> a (? [k] [k]b))"),
            ("a -> ?[k].([k]b, c) -> d", "(-> a (? [k] (-> (tuple [k]b c) d)))"),
            ("#a | #b i32", "(sum (#a) (#b i32))"),
            (
                "#a | #b i32 (f32, f32) | #c [n]i32",
                "(sum (#a) (#b i32 (tuple f32 f32)) (#c [n]i32))",
            ),
            ("(i32, f32)", "(tuple i32 f32)"),
            ("()", "(tuple)"),
            ("(i32)", "i32"),
            ("{x: f32, y: f32}", "{x: f32 y: f32}"),
            ("{}", "{}"),
            ("[n](a -> b)", "[n](-> a b)"),
        ],
        pt,
    );
}

#[test]
fn type_schemes() {
    let cases = [
        (
            "'a 'b [n] (a -> b) -> [n]a -> *[n]b",
            "'a 'b [n]",
            "(-> (-> a b) (-> [n]a *[n]b))",
        ),
        ("'^a '~b a -> b", "'^a '~b", "(-> a b)"),
        ("[n]i32 -> i32", "", "(-> [n]i32 i32)"),
        ("[n] [m] [n][m]f32", "[n] [m]", "[n][m]f32"),
        ("i32", "", "i32"),
        ("'a [n] (f: a -> a) -> [n]a", "'a [n]", "(-> (f: (-> a a)) [n]a)"),
    ];
    for (src, ps, t) in cases {
        let (params, te) = parse_type_scheme(0, src).unwrap_or_else(|d| panic!("{src}: {}", d.message));
        assert_eq!(join(&params, tparam), ps, "{src}");
        assert_eq!(ty(&te), t, "{src}");
    }
}

// ---- declarations -------------------------------------------------------

#[test]
fn declarations() {
    let p = prog(
        "-- | The sum.\n\
         def sum [n] (xs: [n]i32) : i32 = reduce (+) 0 xs\n\
         let twice 'a (f: a -> a) (x: a) = f (f x)\n\
         entry main (xs: []i32): i32 = i32.sum xs -- trailing\n\
         def (<+>) (x: i32) (y: i32) = x + y\n\
         def (+^) x y = x\n\
         def pi: f64 = 3.14\n\
         def unit () = ()\n",
    );
    assert_eq!(p.decs.len(), 7);
    let names: Vec<_> = p.decs.iter().map(|d| val(d).name.to_string()).collect();
    assert_eq!(names, ["sum", "twice", "main", "<+>", "+^", "pi", "unit"]);
    let sum = val(&p.decs[0]);
    assert!(!sum.entry);
    assert_eq!(join(&sum.type_params, tparam), "[n]");
    assert_eq!(join(&sum.params, pat), "(: xs [n]i32)");
    assert_eq!(sum.ret.as_ref().map(ty).as_deref(), Some("i32"));
    assert_eq!(e(&sum.body), "(app reduce (section + _ _) 0 xs)");
    assert!(val(&p.decs[2]).entry);
    assert_eq!(join(&val(&p.decs[1]).type_params, tparam), "'a");
    assert_eq!(e(&val(&p.decs[3]).body), "(+ x y)");
    assert!(val(&p.decs[5]).params.is_empty());
    assert_eq!(join(&val(&p.decs[6]).params, pat), "(tuple)");

    let p = prog(
        "type vec 'a [n] = [n]a\n\
         type^ f = i32 -> i32\n\
         type~ t = []i32\n\
         type pt = {x: f32, y: f32}\n\
         type color = #red | #green | #blue\n",
    );
    let tb: Vec<_> = p
        .decs
        .iter()
        .map(|d| match d {
            Dec::Type(t) => format!(
                "{} {:?} ({}) {}",
                t.name,
                t.liftedness,
                join(&t.params, tparam),
                ty(&t.def)
            ),
            d => panic!("{d:?}"),
        })
        .collect();
    assert_eq!(
        tb,
        [
            "vec Unlifted ('a [n]) [n]a",
            "f Lifted () (-> i32 i32)",
            "t SizeLifted () []i32",
            "pt Unlifted () {x: f32 y: f32}",
            "color Unlifted () (sum (#red) (#green) (#blue))",
        ]
    );

    let p = prog("local def x = 1\n#[inline] #[noinline(a)] def f x = x\nlocal open m\n");
    match &p.decs[0] {
        Dec::Local(d, s) => {
            assert_eq!(val(d).name.as_ref(), "x");
            assert_eq!((s.lo, s.hi), (0, 15));
        }
        d => panic!("{d:?}"),
    }
    let f = val(&p.decs[1]);
    assert_eq!(join(&f.attrs, attr), "inline noinline(a)");
    assert!(matches!(&p.decs[2], Dec::Local(d, _) if matches!(**d, Dec::Open(..))));
}

#[test]
fn realistic_program() {
    let src = r#"
-- | Matrix multiplication.
def matmul [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\a_row ->
         map (\b_col -> f32.sum (map2 (*) a_row b_col))
             (transpose b))
      a

def mandelbrot (c: (f32, f32)) (limit: i32) : i32 =
  let (cr, ci) = c
  let (_, _, i) =
    loop (zr, zi, i) = (0f32, 0f32, 0)
    while i < limit && zr * zr + zi * zi < 4f32 do
      let zr' = zr * zr - zi * zi + cr
      let zi' = 2f32 * zr * zi + ci
      in (zr', zi', i + 1)
  in i

entry main [n] (xs: [n]i64) : i64 =
  let ys = scan (+) 0 xs
  let zs = filter (\x -> x % 2 == 0) ys
  in reduce (+) 0 zs + i64.i32 (length zs |> i32.i64)

def histogram [n] (k: i64) (is: [n]i64) : [k]i32 =
  reduce_by_index (replicate k 0) (+) 0 is (replicate n 1)

def update [n] (xs: *[n]i32) (i: i64) : *[n]i32 =
  let xs[i] = xs[i] + 1
  in xs with [0] = 42

def pairs = zip (iota 10) (map (\i -> f64.i64 i * 0.5) (iota 10))
def rev [n] 't (xs: [n]t) = xs[::-1]
def tile = tabulate_2d 3 4 (\i j -> i * 4 + j)
def records = let r = {a = 1i32, b = true} in r with a = r.a + 1
def first (p: (i32, f32)) = p.0
def comp = (+ 1) >-> (* 2)
def chunk [n] (xs: [n]i32) (k: i64) = xs[k:n - k:2] :> [m]i32
-- ==
-- input { [1, 2, 3] }
-- output { 6 }
"#;
    let p = prog(src);
    let names: Vec<_> = p.decs.iter().map(|d| val(d).name.to_string()).collect();
    assert_eq!(
        names,
        [
            "matmul",
            "mandelbrot",
            "main",
            "histogram",
            "update",
            "pairs",
            "rev",
            "tile",
            "records",
            "first",
            "comp",
            "chunk"
        ]
    );
    assert_eq!(
        e(&val(&p.decs[4]).body),
        "(letwith xs (i) (+ (index xs i) 1) (update xs (0) 42))"
    );
    assert_eq!(e(&val(&p.decs[9]).body), "p.0");
    assert_eq!(e(&val(&p.decs[10]).body), "(>-> (section + _ 1) (section * _ 2))");
}

#[test]
fn module_declarations() {
    let src = "import \"lib/github.com/x/y\"\n\
               open foo\n\
               module M = { def x = 1 type t = i32 }\n\
               module type S = { val f: i32 -> i32 type t [n] include T module N: U with t = i32 }\n\
               module N = F (M) : S\n\
               module G (P: S) (Q: {type u}) : S with t = P.t = { open P }\n\
               def y = M.(x + 1)\n";
    let p = prog(src);
    let whats: Vec<_> = p
        .decs
        .iter()
        .map(|d| match d {
            Dec::Import(path, _) => format!("import {path}"),
            Dec::Open(e, _) => format!("open {}", &src[e.span.lo as usize..e.span.hi as usize]),
            Dec::Module(m) => format!(
                "module {} params={} sig={} body={}",
                m.name,
                m.params.len(),
                m.sig.is_some(),
                &src[m.body.span.lo as usize..m.body.span.hi as usize]
            ),
            Dec::ModType(s) => match &s.sig.kind {
                SigExpKind::Specs(specs) => format!("module type {} specs={}", s.name, specs.len()),
                _ => panic!("{s:?}"),
            },
            Dec::Val(v) => match &v.body.kind {
                ExpKind::OpenIn(path, _) => format!("def {} open {}", v.name, path.join(".")),
                _ => format!("def {}", v.name),
            },
            d => panic!("{d:?}"),
        })
        .collect();
    assert_eq!(
        whats,
        [
            "import lib/github.com/x/y",
            "open foo",
            "module M params=0 sig=false body={ def x = 1 type t = i32 }",
            "module type S specs=4",
            "module N params=0 sig=false body=F (M) : S",
            "module G params=2 sig=true body={ open P }",
            "def y open M",
        ]
    );
}

#[test]
fn spans() {
    let src = "f (x + 1) a[i]";
    let x = parse_exp(3, src).unwrap();
    assert_eq!(x.span, crate::span::Span::new(3, 0, 14));
    let ExpKind::Apply(f, args) = &x.kind else { panic!() };
    assert_eq!((f.span.lo, f.span.hi), (0, 1));
    assert_eq!((args[0].span.lo, args[0].span.hi), (2, 9));
    assert_eq!((args[1].span.lo, args[1].span.hi), (10, 14));
    let ExpKind::BinOp { op_span, lhs, rhs, .. } = &args[0].kind else {
        panic!()
    };
    assert_eq!((op_span.lo, op_span.hi), (5, 6));
    assert_eq!((lhs.span.lo, rhs.span.hi), (3, 8));

    let src = "let x = -y.z in x";
    let x = parse_exp(0, src).unwrap();
    assert_eq!((x.span.lo, x.span.hi), (0, 17));
    let ExpKind::Let { pat, value, body } = &x.kind else {
        panic!()
    };
    assert_eq!((pat.span.lo, pat.span.hi), (4, 5));
    assert_eq!((value.span.lo, value.span.hi), (8, 12));
    assert_eq!((body.span.lo, body.span.hi), (16, 17));

    let t = parse_type(0, "(x: i64) -> [x]f32").unwrap();
    assert_eq!((t.span.lo, t.span.hi), (0, 18));
    let TypeExpKind::Arrow(_, a, r) = &t.kind else { panic!() };
    assert_eq!((a.span.lo, a.span.hi), (4, 7));
    assert_eq!((r.span.lo, r.span.hi), (12, 18));

    let p = prog("def f (x: i32) = x\n\ndef g = 1");
    let f = val(&p.decs[0]);
    assert_eq!((f.span.lo, f.span.hi), (0, 18));
    assert_eq!((f.name_span.lo, f.name_span.hi), (4, 5));
    assert_eq!((f.params[0].span.lo, f.params[0].span.hi), (6, 14));
    let g = val(&p.decs[1]);
    assert_eq!((g.span.lo, g.span.hi), (20, 29));
}

// ---- errors -------------------------------------------------------------

#[test]
fn errors() {
    let exp_cases: &[(&str, &str, u32, u32)] = &[
        (")", "expected expression, found `)`", 0, 1),
        ("f (", "expected expression, found end of input", 3, 3),
        ("(1, 2", "expected `,` or `)`, found end of input", 5, 5),
        ("(1 2", "expected `)`, found end of input", 4, 4),
        ("[1, 2", "expected `,` or `]`, found end of input", 5, 5),
        ("a[1", "expected `,` or `]`, found end of input", 3, 3),
        ("if c then a", "expected `else`, found end of input", 11, 11),
        ("if c a else b", "expected `then`, found `else`", 7, 11),
        ("let x = 1", "expected `in`, found end of input", 9, 9),
        ("let x = 1 #[a] x", "expected `in`, found `#[`", 10, 12),
        ("let x = 1 in", "expected expression, found end of input", 12, 12),
        ("let = 1 in x", "expected pattern, found `=`", 4, 5),
        ("loop x = 0 do x", "expected `for` or `while`, found `do`", 11, 13),
        ("loop x = 0 for i < n", "expected `do`, found end of input", 20, 20),
        ("\\ -> x", "expected parameter, found `->`", 2, 4),
        ("\\x = x", "expected `->`, found `=`", 3, 4),
        ("{x = }", "expected expression, found `}`", 5, 6),
        ("{x y}", "expected `,` or `}`, found `y`", 3, 4),
        ("match x", "expected `case`, found end of input", 7, 7),
        ("x with y", "expected `=`, found end of input", 8, 8),
        ("x with (y)", "expected `[` or field name, found `(`", 7, 8),
        ("x : ", "expected type, found end of input", 3, 3),
        ("x : [n", "expected `]`, found end of input", 6, 6),
        ("x : [+]i32", "expected size (a name or an integer), found `+`", 5, 6),
        ("1 + case", "expected expression, found `case`", 4, 8),
        ("'ab", "expected expression, found `'`", 0, 1),
        ("x $ y", "unexpected character `$`", 2, 3),
        ("x # y", "unexpected character `#` (expected `#[` or a constructor `#name`)", 2, 3),
        ("\"abc", "unterminated string literal", 0, 1),
        ("'\\n", "unterminated character literal", 0, 3),
        ("\"a\\qb\"", "unknown escape sequence `\\q`", 2, 4),
        ("\"\\u12\"", "malformed escape sequence", 1, 5),
        ("0x", "expected hexadecimal digits after `0x`", 0, 2),
        ("0b", "expected binary digits after `0b`", 0, 2),
        ("0b12", "invalid suffix `2` on numeric literal (expected one of i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64)", 0, 4),
        ("1e5i32", "a floating-point literal cannot have an integer type suffix", 0, 6),
        ("0x1.8", "a hexadecimal floating-point literal needs a `p` exponent (as in `0x1.8p3`)", 0, 5),
        ("340282366920938463463374607431768211456", "integer literal is too large", 0, 39),
        ("`f", "malformed backtick operator (expected a name between backticks, as in `` `f` ``)", 0, 2),
        ("a[:j:k:l]", "expected `,` or `]`, found `:`", 6, 7),
        ("1 2 )", "expected end of input, found `)`", 4, 5),
    ];
    for (src, msg, lo, hi) in exp_cases {
        assert_eq!(exp_err(src), (msg.to_string(), *lo, *hi), "input: {src:?}");
    }
    let (m, lo, hi) = exp_err("1i33");
    assert!(m.starts_with("invalid suffix `i33` on numeric literal"), "{m}");
    assert_eq!((lo, hi), (0, 4));

    let prog_cases: &[(&str, &str, u32, u32)] = &[
        ("def = 1", "expected name, found `=`", 4, 5),
        ("def f x y", "expected `=`, found end of input", 9, 9),
        ("def f x = ", "expected expression, found end of input", 9, 9),
        ("def f = let x = 1\ndef g = 2", "expected `in`, found `def`", 18, 21),
        ("def f = 1 +\n", "expected expression, found end of input", 11, 11),
        ("x = 1", "expected declaration, found `x`", 0, 1),
        ("type t =", "expected type, found end of input", 8, 8),
        ("type = i32", "expected type name, found `=`", 5, 6),
        ("def f [n = 1", "expected `]`, found `=`", 9, 10),
        ("def f x ) = 1", "expected `=`, found `)`", 8, 9),
        ("#[inline def f = 1", "expected `]`, found `def`", 9, 12),
        // A parse error before a lexical error is reported first ...
        ("def = $", "expected name, found `=`", 4, 5),
        // ... and a lexical error is reported when the parser reaches it.
        ("def f = 1 + $", "unexpected character `$`", 12, 13),
        ("def f = g 'λ' ¤", "unexpected character `¤`", 15, 17),
    ];
    for (src, msg, lo, hi) in prog_cases {
        assert_eq!(prog_err(src), (msg.to_string(), *lo, *hi), "input: {src:?}");
    }
}

/// The message is Futhark's; futmlir's "expected ..., found ..." is the
/// help.
#[test]
fn parse_errors_in_futhark_words() {
    let d = parse_program(0, "type foo = #foo | bar").unwrap_err();
    assert_eq!(d.message, "Unexpected token: 'bar'");
    assert_eq!(d.help.as_deref(), Some("expected constructor, found `bar`"));
    let d = parse_program(0, "def f = let x = 1").unwrap_err();
    assert_eq!(d.message, "Unexpected end of file");
    // Lexical errors keep their own message.
    let d = parse_program(0, "def f = 1 + $").unwrap_err();
    assert_eq!(d.message, "unexpected character `$`");
}

#[test]
fn diag_renders() {
    let mut sm = crate::span::SourceMap::default();
    let src = "def main = (1 +";
    let id = sm.add("t.fut", src);
    let d: Diag = parse_program(id, src).unwrap_err();
    assert_eq!(
        d.to_plain(&sm),
        "t.fut:1:16-16: error: Unexpected end of file\n  help: expected expression, found end of input"
    );
}

// ---- nesting limits -------------------------------------------------------

fn nested(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

/// The deepest accepted nesting fits in 1.25 MiB of stack, even in debug
/// builds (test threads get 2 MiB, main threads usually 8 MiB).
#[test]
fn nesting_depth() {
    std::thread::Builder::new()
        .stack_size(1280 * 1024)
        .spawn(nesting_depth_body)
        .unwrap()
        .join()
        .unwrap();
}

fn nesting_depth_body() {
    // (prefix, open, inner, close): prefix + open^n + inner + close^n.
    let exp_templates: &[(&str, &str, &str, &str)] = &[
        ("", "(", "1", ")"),
        ("", "[", "1", "]"),
        ("", "{x=", "1", "}"),
        ("", "f (", "1", ")"),
        ("", "a[", "1", "]"),
        ("", "- ", "1", ""),
        ("", "! ", "1", ""),
        ("", "\\x -> ", "1", ""),
        ("", "let x = ", "1", " in x"),
        ("", "if ", "c", " then 1 else 2"),
        ("", "#[a] ", "1", ""),
        ("", "loop x = ", "1", " for i < n do x"),
        ("", "match x case _ -> ", "1", ""),
        ("", "assert (", "1", ") 1"),
        ("", "a with [", "0", "] = 1"),
        ("", "(1, ", "1", ")"),
        ("", "(+ ", "1", ")"),
        ("", "(.x) (", "1", ")"),
        ("", "0..<(", "1", ")"),
        ("x : ", "[1]", "i32", ""),
        ("x : ", "* ", "i32", ""),
        ("x : ", "(", "i32", ")"),
        ("x : ", "{a:", "i32", "}"),
        ("x : ", "?[n].", "i32", ""),
        ("x : ", "(y: i32) -> ", "i32", ""),
        ("x : ", "t (", "i32", ")"),
        ("", "x : ", "i32", ""),
        ("", "x :> ", "i32", ""),
        ("", "1 ** ", "1", ""),
        ("", "1 <| ", "1", ""),
        ("x : ", "i32 -> ", "i32", ""),
    ];
    // Flat chains that are parsed iteratively need no limit.
    let iterative = ["x : ", "x :> ", "1 ** ", "1 <| ", "i32 -> ", "(y: i32) -> "];
    let deep = MAX_DEPTH as usize * 5;
    for (prefix, open, inner, close) in exp_templates {
        let build = |n: usize| format!("{prefix}{}", nested(open, inner, close, n));
        // The deepest nesting that parses: at least half the limit (some
        // constructs count twice).
        let (mut lo, mut hi) = (1, MAX_DEPTH as usize + 1);
        while lo + 1 < hi {
            let mid = (lo + hi) / 2;
            if parse_exp(0, &build(mid)).is_ok() {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        assert!(
            lo >= MAX_DEPTH as usize / 2 - 2,
            "{prefix}{open}...{close}: only {lo} levels"
        );

        match parse_exp(0, &build(deep)) {
            Ok(_) if iterative.contains(open) => {}
            Ok(_) => panic!("{prefix}{open}...{close} at depth {deep} parsed"),
            Err(d) => assert_eq!(d.message, "nesting too deep", "{prefix}{open}...{close}"),
        }
    }
    // Patterns.
    for (open, close) in [("(", ")"), ("{a=", "}"), ("(x, ", ")"), ("(", ": i32)"), ("(#c ", ")")] {
        for src in [
            "def f {} = 1",
            "def f = \\{} -> 1",
            "def f = let {} = 1 in 1",
            "def f = match 1 case {} -> 1",
        ] {
            let ok = src.replace("{}", &nested(open, "x", close, MAX_DEPTH as usize * 3 / 4));
            prog(&ok);
            let bad = src.replace("{}", &nested(open, "x", close, deep));
            assert_eq!(prog_err(&bad).0, "nesting too deep", "{bad}");
        }
    }
    let src = format!("{}def x = 1", "local ".repeat(deep));
    assert_eq!(prog_err(&src).0, "nesting too deep");
    let src = format!("#[{}]\ndef x = 1", nested("a(", "b", ")", deep));
    assert_eq!(prog_err(&src).0, "nesting too deep");
    // Long chains are not nesting.
    let lets: String = (0..2000).map(|i| format!("let x{i} = {i}\n")).collect();
    prog(&format!("def f = {lets} in x0"));
    let ifs: String = (0..2000).map(|i| format!("if c{i} then {i} else ")).collect();
    prog(&format!("def f = {ifs} 0"));
    let sum: String = (0..5000).map(|i| format!("{i} + ")).collect();
    prog(&format!("def f = {sum} 0"));
    let app: String = (0..5000).map(|i| format!("{i} ")).collect();
    prog(&format!("def f = g {app}"));
}

// ---- the lexer ----------------------------------------------------------

#[test]
fn lexer_tokens() {
    let toks = tokenize(0, "x.0.1 (.1) 1.5 a..b 0..<n ..> ... :> -> = '^a '~b \\ ? #[ #c `f` |").unwrap();
    let kinds: Vec<String> = toks
        .iter()
        .map(|t| match &t.tok {
            Tok::Int { value, .. } => format!("int {value}"),
            Tok::Float { value, .. } => format!("float {value}"),
            k => format!("{k:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "Ident",
            "Dot",
            "int 0",
            "Dot",
            "int 1",
            "LParen",
            "Dot",
            "int 1",
            "RParen",
            "float 1.5",
            "Ident",
            "DotDot",
            "Ident",
            "int 0",
            "DotDotLt",
            "Ident",
            "DotDotGt",
            "DotDotDot",
            "ColonGt",
            "Arrow",
            "Equals",
            "Tick",
            "Op",
            "Ident",
            "Tick",
            "Tilde",
            "Ident",
            "Backslash",
            "Question",
            "HashBracket",
            "Constr",
            "Backtick",
            "Op",
            "Eof",
        ]
    );
    let toks = tokenize(0, "a  b(c)").unwrap();
    let spaces: Vec<bool> = toks.iter().map(|t| t.space_before).collect();
    assert_eq!(spaces, [true, true, false, false, false, true]);
    // End of input points after the last token, not after trailing space.
    let toks = tokenize(0, "a -- c\n\n").unwrap();
    assert_eq!((toks[1].lo, toks[1].hi), (1, 1));
}

// ---- fuzzing ------------------------------------------------------------

const SEEDS: &[&str] = &[
    "def main (xs: []i32) : i32 = reduce (+) 0 xs",
    "def f [n] 'a (xs: [n]a) (g: a -> a) : [n]a = map g xs |> map (\\x -> x)",
    "entry main (n: i64) = loop acc = 0 for i < n do acc + i * 2",
    "def g x = let (a, b) = (x, x + 1) let c = a * b in if c > 10 then c else -c",
    "def h (a: *[]f32) = let a[0] = 1.5f32 in a with [1:3] = [2, 3]",
    "type vec 'a [n] = [n]a\ntype^ fn = i32 -> i32\ndef r = {x = 1, y = 2.0}.x",
    "def s xs = xs[::-1] ++ xs[1:] |> i32.sum |> (`i32.max` 0)",
    "def t = match x case #some y -> y case #none -> 0 case _ -> 'c'",
    "import \"foo\"\nopen bar\nmodule M = { def x = 1 }\nlocal def y = 0x1Fu8 + 0b101u8",
    "#[inline] def z (r: {x: f32, y: f32}) = r with x = r.y ** 2 : f32",
    "def w = loop (x, y) = (0, 1) while x < 100 do (y, x + y)",
    "def v = assert (n > 0) (1..<n) :> [m]i64",
    "def u = (.x) r + (.0) p + (-) 1 2 + (1 -) 3 + (+ 2) 4 + (<+>) a b",
    "def q = \"str\\n\" -- comment\n-- | doc\ndef k = 1e-5f64 + 0x1.8p3",
    "def p = for_each (\\(a, b) : i32 -> a `f` b) (zip xs ys) |> length",
];

const POOL: &[&str] = &[
    "let", "in", "=", "(", ")", "[", "]", "{", "}", ",", ":", ":>", "..", "..<", "...", "->", "\\", "|>", "+", "-",
    "*", "!", "if", "then", "else", "loop", "for", "while", "do", "with", "match", "case", "#c", "#[a]", "'", "'a",
    "x", "1", "1.5", "\"s\"", "'c'", "def", "type", "entry", "local", "module", "open", "import", ".", "`f`", "?", "_",
    "0x1p3", "<", "|", "true", "assert", "#", "\"", "`", "~", "0x", "1i33", "'^", "λ", "--", "\n", " ", "x.0", "a[i]",
    "(+)",
];

/// Byte offsets of token boundaries (token starts and ends), or of
/// characters when the text does not lex.
fn cut_points(s: &str) -> Vec<(usize, usize)> {
    match tokenize(0, s) {
        Ok(toks) if toks.len() > 1 => toks[..toks.len() - 1]
            .iter()
            .map(|t| (t.lo as usize, t.hi as usize))
            .collect(),
        _ => s.char_indices().map(|(i, c)| (i, i + c.len_utf8())).collect(),
    }
}

fn mutate(rng: &mut Rng, s: &str) -> String {
    let cuts = cut_points(s);
    if cuts.is_empty() {
        return POOL[rng.index(POOL.len())].to_string();
    }
    let (lo, hi) = cuts[rng.index(cuts.len())];
    let pool = POOL[rng.index(POOL.len())];
    match rng.index(7) {
        0 => format!("{}{}", &s[..lo], &s[hi..]),
        1 => format!("{}{}{}", &s[..hi], &s[lo..hi], &s[hi..]),
        2 => format!("{}{pool} {}", &s[..lo], &s[lo..]),
        3 => format!("{}{pool}{}", &s[..lo], &s[hi..]),
        4 => {
            let byte = (rng.next_u64() & 0xff) as u8;
            let ins = String::from_utf8_lossy(&[byte]).into_owned();
            let at = s
                .char_indices()
                .map(|(i, _)| i)
                .nth(rng.index(s.chars().count()))
                .unwrap_or(0);
            format!("{}{ins}{}", &s[..at], &s[at..])
        }
        5 => s[..lo].to_string(),
        _ => {
            let (lo2, hi2) = cuts[rng.index(cuts.len())];
            if hi <= lo2 {
                format!("{}{}{}{}{}", &s[..lo], &s[lo2..hi2], &s[hi..lo2], &s[lo..hi], &s[hi2..])
            } else {
                s.to_string()
            }
        }
    }
}

fn check_diag(src: &str, r: Result<(), Diag>) {
    if let Err(d) = r {
        let (lo, hi) = (d.span.lo as usize, d.span.hi as usize);
        assert!(
            lo <= hi && hi <= src.len(),
            "bad span {lo}..{hi} for {src:?}: {}",
            d.message
        );
        assert!(
            src.is_char_boundary(lo) && src.is_char_boundary(hi),
            "span not on char boundary: {src:?}"
        );
        assert!(!d.message.is_empty());
    }
}

#[test]
fn fuzz_no_panics() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for seed in SEEDS {
        prog(seed);
    }
    for case in 0..20_000 {
        let mut s = SEEDS[case % SEEDS.len()].to_string();
        for _ in 0..1 + rng.index(3) {
            s = mutate(&mut rng, &s);
        }
        check_diag(&s, parse_program(0, &s).map(|_| ()));
        if case % 4 == 0 {
            check_diag(&s, parse_exp(0, &s).map(|_| ()));
            check_diag(&s, parse_type(0, &s).map(|_| ()));
            check_diag(&s, parse_type_scheme(0, &s).map(|_| ()));
        }
    }
}

/// A longer fuzz run, with a summary of the errors seen:
/// `FUZZ_N=1000000 FUZZ_SEED=7 cargo test --release -p futmlir-frontend fuzz_long -- --ignored --nocapture`.
#[test]
#[ignore = "long fuzz run, opt-in: FUZZ_N=... cargo test -- --ignored fuzz_long"]
fn fuzz_long() {
    let n: usize = std::env::var("FUZZ_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let mut rng = Rng::new(
        std::env::var("FUZZ_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(12345),
    );
    let (mut ok, mut msgs) = (0, std::collections::BTreeMap::<String, usize>::new());
    for case in 0..n {
        let mut s = SEEDS[case % SEEDS.len()].to_string();
        for _ in 0..1 + rng.index(6) {
            s = mutate(&mut rng, &s);
        }
        let r = std::panic::catch_unwind(|| parse_program(0, &s));
        match r {
            Err(_) => panic!("PANIC on {s:?}"),
            Ok(Ok(_)) => ok += 1,
            Ok(Err(d)) => {
                check_diag(&s, Err(d.clone()));
                let key: String = d.message.split(", found").next().unwrap().to_string();
                *msgs.entry(key).or_default() += 1;
            }
        }
        check_diag(&s, parse_exp(0, &s).map(|_| ()));
        check_diag(&s, parse_type_scheme(0, &s).map(|_| ()));
    }
    eprintln!("ok {ok} of {n}");
    for (m, c) in msgs {
        eprintln!("{c:8} {m}");
    }
}

#[test]
fn qualified_binary_operators() {
    let p = prog("def a = x M.+ y * z\ndef b = x M.N.** y M.N.** z\ndef c = f M.x (i32.+)\n");
    assert_eq!(e(&val(&p.decs[0]).body), "(M.+ x (* y z))");
    assert_eq!(e(&val(&p.decs[1]).body), "(M.N.** x (M.N.** y z))");
    assert_eq!(e(&val(&p.decs[2]).body), "(app f M.x i32.+)");
}

#[test]
fn parametric_module_types_and_lambdas() {
    let p = prog("module F (G: (P: S) -> T) = {}\nmodule H : S -> T = \\(P: S) : T -> { open P }\n");
    match &p.decs[0] {
        Dec::Module(m) => assert!(matches!(&m.params[0].sig.kind, SigExpKind::Arrow(Some(n), _, _) if &**n == "P")),
        d => panic!("{d:?}"),
    }
    match &p.decs[1] {
        Dec::Module(m) => {
            assert!(matches!(
                &m.sig.as_ref().map(|s| &s.kind),
                Some(SigExpKind::Arrow(None, _, _))
            ));
            assert!(matches!(&m.body.kind, ModExpKind::Lambda(ps, Some(_), _) if ps.len() == 1));
        }
        d => panic!("{d:?}"),
    }
}
