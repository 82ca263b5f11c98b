//! Semantic types of the source language, as the checker computes them.

use std::fmt;
use std::rc::Rc;

use crate::check::builtins::ACC_TYPE;
use crate::syntax::ast::Name;

pub use futmlir_values::PrimType;

/// An array dimension.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Size {
    /// A known constant `[3]`.
    Const(i64),
    /// A size variable in scope (`[n]`: a size parameter, an `i64` variable,
    /// or an existential introduced by the checker).
    Var(Name),
    /// A size the checker does not track (the result of a filter, a slice,
    /// `[]` in an annotation, an existential). It agrees with every size
    /// statically; the interpreter checks shapes at run time.
    Unknown,
    /// A size unification variable of the checker (a size parameter of an
    /// instantiated function): bound by unification. Never left in a
    /// checked program (see Note [Static size checking] in `check`).
    Infer(SizeVar),
    /// Arithmetic on sizes: `n+m` (the size of `xs ++ ys`), `n*m` (of
    /// `flatten`), `n-k`, as written in a type (`[n*m]t`) or given for a
    /// named parameter (`iota (n*m)`). Its operands are never `Unknown`
    /// ([`Size::binary`] makes the whole `Unknown` instead). See Note
    /// [Static size checking] in `check` for how it compares.
    Expr(Rc<SizeExpr>),
    /// A size expression the checker does not model as arithmetic (a call
    /// `plus a b`, `i64.i32 n`, `/`, a top-level constant `nbs`), kept as
    /// written with its free local names as holes. See Note [Size terms].
    Term(Rc<SizeTerm>),
}

// Note [Size terms]
// Futhark allows any `i64` expression that consumes nothing as a size,
// and compares sizes syntactically: `bitset [(n - 1) / nbs + 1]` matches
// `bitset [(5 - 1) / nbs + 1]` with `n` = 5. The checker models `+ - *`
// on names and constants as `Size::Expr` (with the polynomial
// comparison of Note [Static size checking] in `check`); any other
// expression whose free local names are integers is a `Size::Term`: the
// checked expression, its text with the free names replaced by holes
// (`(#0 - 1) / nbs + 1`: its `key`), and the size each hole stands for.
// Holes are sizes like any other: instantiating `n` with a size variable
// and unifying binds it, so two terms with the same key unify hole by
// hole. A term agrees with every size of another form (as `Unknown`
// does; Futhark would reject some of those): the checker must not
// reject what Futhark accepts. A size parameter that appears only in a
// hole is a context size (Note [Size parameters from the context] in
// `check::context_sizes`): a call reads it off the use's type.
//
// Evaluating a term (the interpreters and the internaliser: coercions,
// entry-point shapes, `unflatten`'s sizes, a constant's size) evaluates
// its expression with each hole bound to the value of its size; a hole
// whose size has no value (not tracked) leaves the term without one. The
// expression outlives the checked program inside types that are copied
// freely (`Size` is cloned everywhere), and the evaluators need it for
// the program's lifetime, so it is allocated once per written size and
// never freed (`SizeTerm::new`): a few nodes per size expression in the
// source.

/// A size expression kept as written. See Note [Size terms].
#[derive(Clone, Debug)]
pub struct SizeTerm {
    /// The checked expression; its holes are the local names in `holes`.
    pub exp: &'static crate::syntax::ast::Exp,
    /// The expression's text with the holes numbered and top-level names
    /// written as the definitions they resolve to (`#0 / {0.3}`): terms
    /// with the same key are the same expression of their holes.
    pub key: Rc<str>,
    /// The expression as written, holes numbered (`#0 / nbs`).
    pub shown: Rc<str>,
    /// Each hole's name in `exp` and the size it stands for.
    pub holes: Vec<(Name, Size)>,
    /// The holes' names, for the program's lifetime as `exp` is.
    pub names: &'static [Name],
}

impl SizeTerm {
    /// A term of the checked expression `exp`, which lives as long as the
    /// program (See Note [Size terms]).
    pub fn new(exp: crate::syntax::ast::Exp, key: Rc<str>, shown: Rc<str>, holes: Vec<(Name, Size)>) -> SizeTerm {
        let names: Vec<Name> = holes.iter().map(|(n, _)| n.clone()).collect();
        SizeTerm {
            exp: Box::leak(Box::new(exp)),
            key,
            shown,
            holes,
            names: Box::leak(names.into_boxed_slice()),
        }
    }

    /// The term with its holes standing for `holes`.
    pub fn with_holes(&self, holes: Vec<(Name, Size)>) -> Size {
        if holes.iter().any(|(_, d)| *d == Size::Unknown) {
            return Size::Unknown;
        }
        Size::Term(Rc::new(SizeTerm {
            exp: self.exp,
            key: self.key.clone(),
            shown: self.shown.clone(),
            holes,
            names: self.names,
        }))
    }

    /// The text with the holes written out (`(n - 1) / nbs + 1`).
    pub fn text(&self) -> String {
        let mut out = self.shown.to_string();
        // Highest first, so `#1` is not replaced inside `#10`.
        for (i, (_, d)) in self.holes.iter().enumerate().rev() {
            let t = match d {
                Size::Expr(_) => format!("({})", d.spaced_text()),
                _ => d.spaced_text(),
            };
            out = out.replace(&format!("#{i}"), &t);
        }
        out
    }
}

impl PartialEq for SizeTerm {
    fn eq(&self, other: &SizeTerm) -> bool {
        self.key == other.key && self.holes.iter().map(|(_, d)| d).eq(other.holes.iter().map(|(_, d)| d))
    }
}

impl Eq for SizeTerm {}

impl std::hash::Hash for SizeTerm {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
        for (_, d) in &self.holes {
            d.hash(state);
        }
    }
}

/// `lhs op rhs`, a size computed from two others.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SizeExpr {
    pub op: SizeOp,
    pub lhs: Size,
    pub rhs: Size,
}

/// The arithmetic of size expressions (Futhark allows any `i64`
/// expression in a size; these are the ones the checker models).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SizeOp {
    Add,
    Sub,
    Mul,
}

impl SizeOp {
    pub fn from_name(op: &str) -> Option<SizeOp> {
        match op {
            "+" => Some(SizeOp::Add),
            "-" => Some(SizeOp::Sub),
            "*" => Some(SizeOp::Mul),
            _ => None,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            SizeOp::Add => "+",
            SizeOp::Sub => "-",
            SizeOp::Mul => "*",
        }
    }

    /// The operation on values; `None` on overflow.
    pub fn apply(self, a: i64, b: i64) -> Option<i64> {
        match self {
            SizeOp::Add => a.checked_add(b),
            SizeOp::Sub => a.checked_sub(b),
            SizeOp::Mul => a.checked_mul(b),
        }
    }

    fn precedence(self) -> u8 {
        match self {
            SizeOp::Add | SizeOp::Sub => 1,
            SizeOp::Mul => 2,
        }
    }
}

/// Identifier of a size unification variable of the checker.
pub type SizeVar = u32;

impl Size {
    /// `a op b`, or `Unknown` when an operand is unknown (arithmetic on a
    /// size that is not tracked is not tracked either).
    pub fn binary(op: SizeOp, a: Size, b: Size) -> Size {
        if a == Size::Unknown || b == Size::Unknown {
            return Size::Unknown;
        }
        Size::Expr(Rc::new(SizeExpr { op, lhs: a, rhs: b }))
    }

    /// The size with every operand that is not an expression (a constant,
    /// a name, a size variable, `Unknown`) replaced by `f` of it.
    pub fn map_leaves(&self, f: &mut dyn FnMut(&Size) -> Size) -> Size {
        match self {
            Size::Expr(e) => {
                let l = e.lhs.map_leaves(f);
                let r = e.rhs.map_leaves(f);
                Size::binary(e.op, l, r)
            }
            // A term's holes are its operands (Note [Size terms]).
            Size::Term(t) => t.with_holes(t.holes.iter().map(|(n, d)| (n.clone(), d.map_leaves(f))).collect()),
            d => f(d),
        }
    }

    /// Whether the size is or has a term (Note [Size terms]).
    pub fn any_term(&self) -> bool {
        match self {
            Size::Term(_) => true,
            Size::Expr(e) => e.lhs.any_term() || e.rhs.any_term(),
            _ => false,
        }
    }

    /// Whether `f` holds for an operand that is not an expression.
    pub fn any_leaf(&self, f: &mut dyn FnMut(&Size) -> bool) -> bool {
        match self {
            Size::Expr(e) => e.lhs.any_leaf(f) || e.rhs.any_leaf(f),
            Size::Term(t) => t.holes.iter().any(|(_, d)| d.any_leaf(f)),
            d => f(d),
        }
    }

    /// The value of the size, given the values of the names in it; `None`
    /// when a name has none, the size is not tracked, or the arithmetic
    /// overflows, or the size is a term (which needs an evaluator: Note
    /// [Size terms]).
    pub fn eval(&self, var: &mut dyn FnMut(&Name) -> Option<i64>) -> Option<i64> {
        match self {
            Size::Const(c) => Some(*c),
            Size::Var(n) => var(n),
            Size::Expr(e) => {
                let a = e.lhs.eval(var)?;
                let b = e.rhs.eval(var)?;
                e.op.apply(a, b)
            }
            Size::Unknown | Size::Infer(_) | Size::Term(_) => None,
        }
    }

    /// The size with its constant parts folded: `2+3` is `5`, `n+0` and
    /// `n*1` are `n`, `n*0` is `0`. For comparing sizes, not for building
    /// them: `split` must see the `2+3` of `xs :> [2+3]t`.
    pub fn folded(&self) -> Size {
        let e = match self {
            Size::Expr(e) => e,
            Size::Term(t) => return t.with_holes(t.holes.iter().map(|(n, d)| (n.clone(), d.folded())).collect()),
            _ => return self.clone(),
        };
        let (a, b) = (e.lhs.folded(), e.rhs.folded());
        match (e.op, &a, &b) {
            (op, Size::Const(x), Size::Const(y)) => match op.apply(*x, *y) {
                Some(c) => Size::Const(c),
                None => Size::binary(op, a, b),
            },
            (SizeOp::Add | SizeOp::Sub, _, Size::Const(0)) | (SizeOp::Mul, _, Size::Const(1)) => a,
            (SizeOp::Add, Size::Const(0), _) | (SizeOp::Mul, Size::Const(1), _) => b,
            (SizeOp::Mul, Size::Const(0), _) | (SizeOp::Mul, _, Size::Const(0)) => Size::Const(0),
            (op, _, _) => Size::binary(op, a, b),
        }
    }

    /// The size as written inside brackets (`n*m` for `[n*m]`; `?` for a
    /// size variable, nothing for `Unknown`).
    pub fn text(&self) -> String {
        let mut s = String::new();
        self.write_expr(&mut s, 0);
        s
    }

    /// The size as Futhark writes it in messages: operators between
    /// spaces (`n + 1`).
    pub fn spaced_text(&self) -> String {
        let mut s = String::new();
        self.write_expr_sep(&mut s, 0, " ");
        s
    }

    fn write_expr(&self, out: &mut String, outer: u8) {
        self.write_expr_sep(out, outer, "")
    }

    fn write_expr_sep(&self, out: &mut String, outer: u8, sep: &str) {
        match self {
            Size::Const(n) => out.push_str(&n.to_string()),
            Size::Var(v) => out.push_str(v),
            Size::Unknown => {}
            Size::Infer(_) => out.push('?'),
            // Terms are written as Futhark writes them, spaced and
            // parenthesised where they are operands.
            Size::Term(t) if outer > 0 => {
                out.push('(');
                out.push_str(&t.text());
                out.push(')');
            }
            Size::Term(t) => out.push_str(&t.text()),
            Size::Expr(e) => {
                let p = e.op.precedence();
                if p < outer {
                    out.push('(');
                }
                e.lhs.write_expr_sep(out, p, sep);
                out.push_str(sep);
                out.push_str(e.op.symbol());
                out.push_str(sep);
                // The operators are left-associative: a right operand of the
                // same precedence needs parentheses (`n-(m-k)`).
                e.rhs.write_expr_sep(out, p + 1, sep);
                if p < outer {
                    out.push(')');
                }
            }
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.text())
    }
}

// Note [Names of stand-ins]
// Module elaboration gives what it makes to check a functor flat names no
// source program can write: the stand-in for a functor's parameter `X`
// is `F(X).` (`F(X).t`), the copy of a body checked once is `F(check).`,
// and the stand-in a functor given for a parameter of functor type is
// applied to is `M.(check).X.` (`crate::modules`). Messages name these as
// the user wrote them (`X.t`, `w`): a program's errors do not show the
// elaborator's names (issue1741).

/// The name a flat name stands for as the program writes it (Note
/// [Names of stand-ins]): what follows the last `(check).`, or the
/// parameter `X` of a last `(X).` followed by the rest.
pub fn user_name(flat: &str) -> std::borrow::Cow<'_, str> {
    let Some(close) = flat.rfind(").") else {
        return flat.into();
    };
    let Some(open) = flat[..close].rfind('(') else {
        return flat.into();
    };
    let (inner, rest) = (&flat[open + 1..close], &flat[close + 2..]);
    if inner == "check" {
        rest.into()
    } else {
        format!("{inner}.{rest}").into()
    }
}

/// Identifier of a unification variable of the checker.
pub type TyVar = u32;

/// The first character of the one constructor of the sum type that stands
/// for an abstract type with type parameters during checking (Note
/// [Abstract types] in `check::seal`).
pub const ABSTRACT_MARK: char = '%';

#[derive(Clone, PartialEq, Debug)]
pub enum Type {
    Prim(PrimType),
    /// `[d1]...[dk]elem` with `elem` not an array. `unique` is the `*`.
    Array {
        elem: Rc<Type>,
        shape: Vec<Size>,
        unique: bool,
    },
    /// Tuples of two or more elements, and `()` (zero elements).
    Tuple(Vec<Type>),
    /// Records, fields sorted by name.
    Record(Vec<(Name, Type)>),
    /// `(x: a) -> b`; the parameter name matters when `b` mentions it in a
    /// size.
    Arrow {
        param_name: Option<Name>,
        param: Rc<Type>,
        ret: Rc<Type>,
    },
    /// A type parameter of the enclosing polymorphic function (`'a`).
    Param(Name),
    /// A unification variable (only during checking).
    Var(TyVar),
    /// Sum types `#a i32 | #b`: constructors sorted by name, each with its
    /// payload types. Structural: two sum types are the same type when they
    /// have the same constructors with the same payloads.
    Sum(Vec<(Name, Vec<Type>)>),
}

impl Type {
    pub fn unit() -> Type {
        Type::Tuple(Vec::new())
    }
    pub fn prim(&self) -> Option<PrimType> {
        match self {
            Type::Prim(p) => Some(*p),
            _ => None,
        }
    }
    pub fn rank(&self) -> usize {
        match self {
            Type::Array { shape, .. } => shape.len(),
            _ => 0,
        }
    }
    /// `[d]self` (arrays of arrays stay one `Array` node).
    pub fn array_of(&self, d: Size) -> Type {
        match self {
            Type::Array { elem, shape, unique } => {
                let mut s = Vec::with_capacity(shape.len() + 1);
                s.push(d);
                s.extend(shape.iter().cloned());
                Type::Array {
                    elem: elem.clone(),
                    shape: s,
                    unique: *unique,
                }
            }
            t => Type::Array {
                elem: Rc::new(t.clone()),
                shape: vec![d],
                unique: false,
            },
        }
    }
    /// The type of one element (`[n][m]t` → `[m]t`); `None` if not an array.
    pub fn row(&self) -> Option<Type> {
        match self {
            Type::Array { elem, shape, .. } => Some(if shape.len() == 1 {
                (**elem).clone()
            } else {
                Type::Array {
                    elem: elem.clone(),
                    shape: shape[1..].to_vec(),
                    unique: false,
                }
            }),
            _ => None,
        }
    }
    pub fn is_unique(&self) -> bool {
        match self {
            Type::Array { unique, .. } => *unique,
            // `*acc t` (Note [Accumulators] in `check::builtins`).
            Type::Sum(cs) if self.is_acc() => cs[0].1.iter().any(Type::is_unique),
            _ => false,
        }
    }
    /// Whether this is the accumulator type `intrinsics.acc t`, an
    /// abstract type to the checker (Note [Accumulators] in
    /// `check::builtins`).
    pub fn is_acc(&self) -> bool {
        matches!(self, Type::Sum(cs) if matches!(&cs[..], [(c, _)] if c.strip_prefix(ABSTRACT_MARK) == Some(ACC_TYPE)))
    }
    /// Whether a function type occurs in the type (a "lifted" type).
    pub fn has_function(&self) -> bool {
        match self {
            Type::Arrow { .. } => true,
            Type::Array { elem, .. } => elem.has_function(),
            Type::Tuple(ts) => ts.iter().any(Type::has_function),
            Type::Record(fs) => fs.iter().any(|(_, t)| t.has_function()),
            Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(Type::has_function)),
            Type::Prim(_) | Type::Param(_) | Type::Var(_) => false,
        }
    }
}

fn is_tuple_record(fs: &[(Name, Type)]) -> bool {
    !fs.is_empty() && fs.iter().enumerate().all(|(i, (n, _))| **n == *i.to_string())
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Prim(p) => write!(f, "{p}"),
            Type::Array { elem, shape, unique } => {
                if *unique {
                    write!(f, "*")?;
                }
                for d in shape {
                    write!(f, "{d}")?;
                }
                match **elem {
                    Type::Arrow { .. } | Type::Sum(_) => write!(f, "({elem})"),
                    _ => write!(f, "{elem}"),
                }
            }
            Type::Tuple(ts) => {
                write!(f, "(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, ")")
            }
            Type::Record(fs) if is_tuple_record(fs) => Type::Tuple(fs.iter().map(|(_, t)| t.clone()).collect()).fmt(f),
            Type::Record(fs) => {
                write!(f, "{{")?;
                for (i, (n, t)) in fs.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{n}: {t}")?;
                }
                write!(f, "}}")
            }
            Type::Arrow { param_name, param, ret } => {
                match (param_name, &**param) {
                    (Some(n), p) => write!(f, "({n}: {p})")?,
                    (None, p @ (Type::Arrow { .. } | Type::Sum(_))) => write!(f, "({p})")?,
                    (None, p) => write!(f, "{p}")?,
                }
                write!(f, " -> {ret}")
            }
            Type::Param(n) => write!(f, "{}", user_name(n)),
            Type::Var(v) => write!(f, "'t{v}"),
            Type::Sum(cs) if cs.len() == 1 && cs[0].0.starts_with(ABSTRACT_MARK) => {
                // An abstract type with type parameters (`check::seal`).
                write!(f, "{}", user_name(&cs[0].0[ABSTRACT_MARK.len_utf8()..]))?;
                for t in &cs[0].1 {
                    match t {
                        // A size argument's witness (`check::seal`).
                        Type::Array { elem, shape, .. } if shape.len() == 1 && **elem == Type::unit() => {
                            write!(f, " {}", shape[0])?
                        }
                        Type::Sum(_) | Type::Arrow { .. } => write!(f, " ({t})")?,
                        _ => write!(f, " {t}")?,
                    }
                }
                Ok(())
            }
            Type::Sum(cs) => {
                for (i, (c, ts)) in cs.iter().enumerate() {
                    if i > 0 {
                        write!(f, " | ")?;
                    }
                    write!(f, "#{c}")?;
                    for t in ts {
                        // A payload that is itself a sum or a function
                        // needs parentheses to read back.
                        match t {
                            Type::Sum(_) | Type::Arrow { .. } => write!(f, " ({t})")?,
                            _ => write!(f, " {t}")?,
                        }
                    }
                }
                Ok(())
            }
        }
    }
}
