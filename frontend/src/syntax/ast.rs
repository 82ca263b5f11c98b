//! The abstract syntax tree of a Futhark program, as the parser produces it.
//!
//! The type checker fills in the slots marked *filled by the checker*
//! (`Exp::ty`, `Var::res`, literal types) in place, so later stages (the
//! interpreter, internalisation) read one tree.

use std::rc::Rc;

use crate::span::Span;
use crate::types::{PrimType, Type};

/// An identifier or operator name as written (`x`, `map`, `+`, `<+>`).
pub type Name = Rc<str>;

/// The name of the local function a size binder `let [n] p = e in body`
/// becomes (Note [Size binders] in `parser/exp.rs`); no program can write
/// it.
pub const SIZE_BINDER: &str = "(let [size])";

/// A possibly qualified name: `x`, `i32.sum`, `f32.sqrt`, `M.N.x`.
#[derive(Clone, Debug, PartialEq)]
pub struct QualName {
    pub quals: Vec<Name>,
    pub name: Name,
}

impl QualName {
    pub fn unqual(name: Name) -> QualName {
        QualName {
            quals: Vec::new(),
            name,
        }
    }
}

impl std::fmt::Display for QualName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for q in &self.quals {
            write!(f, "{q}.")?;
        }
        write!(f, "{}", self.name)
    }
}

/// `#[name]` or `#[name(args...)]` before a declaration or expression.
#[derive(Clone, Debug)]
pub struct Attr {
    pub name: Name,
    pub args: Vec<Attr>,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub decs: Vec<Dec>,
}

#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Dec {
    /// `def`, `let` (at top level) or `entry`.
    Val(ValBind),
    /// `type t 'a [n] = ...` (also `type^`, `type~`).
    Type(TypeBind),
    /// `local dec`: visible in this file only.
    Local(Box<Dec>, Span),
    /// `module m (p: s) : s' = e` (a functor when it has parameters).
    Module(ModBind),
    /// `module type s = ...`
    ModType(SigBind),
    /// `open e`
    Open(ModExp, Span),
    /// `import "path"` (the path without `.fut`, relative to the file).
    Import(Rc<str>, Span),
    /// Made by module elaboration (`crate::modules`), never by the
    /// parser: the checks of one signature ascription or functor argument.
    Seal(Seal),
    /// Made by module elaboration: a declaration that is type checked but
    /// never run (a functor's body checked at its parameters' types).
    CheckOnly(Box<Dec>),
}

/// `module name params : sig = body`.
#[derive(Clone, Debug)]
pub struct ModBind {
    pub name: Name,
    pub name_span: Span,
    pub params: Vec<ModParam>,
    pub sig: Option<SigExp>,
    pub body: ModExp,
    pub span: Span,
}

/// `(p: s)`: a functor parameter.
#[derive(Clone, Debug)]
pub struct ModParam {
    pub name: Name,
    pub sig: SigExp,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ModExp {
    pub kind: ModExpKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ModExpKind {
    /// `{ decs }`
    Struct(Vec<Dec>),
    /// `m`, `m.n`
    Var(QualName),
    /// `f a`, `f (a)`, `f {...}`
    Apply(Box<ModExp>, Box<ModExp>),
    /// `(e : s)`
    Ascript(Box<ModExp>, SigExp),
    /// `import "path"`
    Import(Rc<str>),
    /// `\(p: s) ... [: s'] -> e`: an anonymous parametric module.
    Lambda(Vec<ModParam>, Option<SigExp>, Box<ModExp>),
}

/// `module type name = sig`.
#[derive(Clone, Debug)]
pub struct SigBind {
    pub name: Name,
    pub name_span: Span,
    pub sig: SigExp,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct SigExp {
    pub kind: SigExpKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum SigExpKind {
    /// `{ specs }`
    Specs(Vec<Spec>),
    /// `s`, `m.s`
    Var(QualName),
    /// `s with t 'a = ty`
    With(Box<SigExp>, QualName, Vec<TypeParam>, TypeExp),
    /// `(p: s) -> t` or `s -> t`: the module type of a parametric module.
    Arrow(Option<Name>, Box<SigExp>, Box<SigExp>),
}

#[derive(Clone, Debug)]
pub enum Spec {
    /// `val f 'a [n] : t`
    Val {
        name: Name,
        name_span: Span,
        type_params: Vec<TypeParam>,
        ty: TypeExp,
        span: Span,
    },
    /// `type t 'a [n]`, `type t = ty` (also `type^`, `type~`)
    Type {
        name: Name,
        name_span: Span,
        params: Vec<TypeParam>,
        liftedness: Liftedness,
        def: Option<TypeExp>,
        span: Span,
    },
    /// `module m : s`
    Module {
        name: Name,
        name_span: Span,
        sig: SigExp,
        span: Span,
    },
    /// `include s`
    Include(SigExp, Span),
}

/// What the checker verifies where a module meets a signature (an
/// ascription `m : s` or a functor argument), in order. See Note [Sealing]
/// in `crate::modules`.
#[derive(Clone, Debug)]
pub struct Seal {
    pub items: Vec<SealItem>,
}

#[derive(Clone, Debug)]
pub enum SealItem {
    /// An abstract type of the signature: `name` is opaque from here on;
    /// `def` (under `params`) is the module's type behind it.
    Abstract {
        name: Name,
        params: Vec<TypeParam>,
        def: TypeExp,
        /// The liftedness the signature declares (`type`, `type~`,
        /// `type^`).
        liftedness: Liftedness,
    },
    /// A type the signature defines (`type t = i32`): the module's `have`
    /// must equal `want`.
    TypeEq {
        name: Name,
        params: Vec<TypeParam>,
        have: TypeExp,
        want: TypeExp,
        have_span: Span,
        spec_span: Span,
    },
    /// `val name: ty` of a functor parameter, checked at its spec: `name`
    /// has the type `ty` (no definition; only check-only code uses it).
    Assume {
        name: Name,
        type_params: Vec<TypeParam>,
        ty: TypeExp,
    },
    /// `val name: ty`: the module's definition `target` must have the type
    /// `concrete` (the spec with the module's own types); `alias`, when
    /// given, becomes a name for `target` at the type `sealed` (the spec
    /// with the abstract types).
    Val {
        name: Name,
        target: Name,
        alias: Option<Name>,
        type_params: Vec<TypeParam>,
        concrete: TypeExp,
        sealed: TypeExp,
        have_span: Span,
        spec_span: Span,
    },
}

#[derive(Clone, Debug)]
pub struct ValBind {
    pub entry: bool,
    pub name: Name,
    pub name_span: Span,
    pub type_params: Vec<TypeParam>,
    pub params: Vec<Pat>,
    /// Return type annotation `: t`.
    pub ret: Option<TypeExp>,
    pub body: Exp,
    pub attrs: Vec<Attr>,
    /// The whole declaration.
    pub span: Span,
    /// The body calls the function itself (set by the checker; see
    /// Note [Recursive functions]).
    pub recursive: bool,
}

#[derive(Clone, Debug)]
pub struct TypeBind {
    pub name: Name,
    pub name_span: Span,
    pub params: Vec<TypeParam>,
    pub liftedness: Liftedness,
    pub def: TypeExp,
    pub span: Span,
}

/// `type` (no functions, sizes known), `type~` (sizes may be unknown),
/// `type^` (may contain functions). Ordered from the most to the least
/// restricted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Liftedness {
    Unlifted,
    SizeLifted,
    Lifted,
}

#[derive(Clone, Debug)]
pub enum TypeParam {
    /// `[n]`
    Size { name: Name, span: Span },
    /// `'a`, `'~a`, `'^a`
    Type {
        name: Name,
        liftedness: Liftedness,
        span: Span,
    },
}

/// `[n]`, `'a`, `'~a`, `'^a`, as written.
impl std::fmt::Display for TypeParam {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypeParam::Size { name, .. } => write!(f, "[{name}]"),
            TypeParam::Type { name, liftedness, .. } => {
                let mark = match liftedness {
                    Liftedness::Unlifted => "",
                    Liftedness::SizeLifted => "~",
                    Liftedness::Lifted => "^",
                };
                write!(f, "'{mark}{name}")
            }
        }
    }
}

/// A declaration's parameters as written after its name (` [n] 'a`).
pub fn show_type_params(ps: &[TypeParam]) -> String {
    ps.iter().map(|p| format!(" {p}")).collect()
}

impl TypeParam {
    pub fn name(&self) -> &Name {
        match self {
            TypeParam::Size { name, .. } | TypeParam::Type { name, .. } => name,
        }
    }
    pub fn span(&self) -> Span {
        match self {
            TypeParam::Size { span, .. } | TypeParam::Type { span, .. } => *span,
        }
    }
}

/// A type as written.
#[derive(Clone, Debug)]
pub struct TypeExp {
    pub kind: TypeExpKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TypeExpKind {
    /// `i32`, `t`, `m.t`
    Var(QualName),
    /// `(a, b)`; `()` is the empty tuple.
    Tuple(Vec<TypeExp>),
    /// `{x: f32, y: f32}`
    Record(Vec<(Name, Span, TypeExp)>),
    /// `[n]t`, `[]t`, `[3]t`
    Array(SizeExp, Box<TypeExp>),
    /// `*t`
    Unique(Box<TypeExp>),
    /// `t -> u` or `(x: t) -> u` (the name may appear in sizes of `u`).
    Arrow(Option<Name>, Box<TypeExp>, Box<TypeExp>),
    /// Application of a type abbreviation: `vec [n] f32`, `pair i32 bool`.
    Apply(Box<TypeExp>, Vec<TypeArgExp>),
    /// `?[n][m].[n][m]i32`
    Existential(Vec<(Name, Span)>, Box<TypeExp>),
    /// `#red | #green i32`: a sum type.
    Sum(Vec<(Name, Vec<TypeExp>)>),
}

#[derive(Clone, Debug)]
pub enum TypeArgExp {
    /// `[n]`, `[3]`, `[]`
    Size(SizeExp, Span),
    Type(TypeExp),
}

/// What stands between the brackets of an array type.
#[derive(Clone, Debug)]
pub enum SizeExp {
    /// `[]`: any size (an existential the checker invents).
    Any,
    /// `[n]` or `[m.n]`
    Name(QualName, Span),
    /// `[3]` (also `[3i64]`)
    Const(i64, Span),
    /// `[n + m]`: a size computed from others. The checker does not track
    /// its value statically; it is checked at run time where it matters.
    Exp(Box<Exp>, Span),
}

/// A pattern: function parameters, `let` bindings, loop parameters, lambda
/// parameters.
#[derive(Clone, Debug)]
pub struct Pat {
    pub kind: PatKind,
    pub span: Span,
    /// The type of the whole pattern (filled by the checker).
    pub ty: Option<Type>,
}

#[derive(Clone, Debug)]
pub enum PatKind {
    /// `x`
    Id(Name),
    /// `_`
    Wildcard,
    /// `(p1, p2)`; `()` is the empty tuple.
    Tuple(Vec<Pat>),
    /// `{x, y = p}` (a field without `= p` binds the field's name).
    Record(Vec<(Name, Span, Pat)>),
    /// `(p: t)`
    Ascribe(Box<Pat>, TypeExp),
    /// A literal: `1`, `-1`, `2.5f32`, `true`, `'a'` (refutable: only
    /// `match` cases may have one, see `check::patterns`).
    Lit { lit: Literal, negated: bool },
    /// `#c p1 p2`: a constructor of a sum type with patterns for its
    /// payload.
    Constr(Name, Vec<Pat>),
}

/// A literal as written; the checker decides the type of unsuffixed ones.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// Integer literal; `suffix` is the type suffix if written (`1i64`).
    /// The magnitude is kept as u128 so `0xffffffffffffffffu64` and
    /// `-128i8` (negation applied by the checker) both fit.
    Int {
        value: u128,
        suffix: Option<PrimType>,
    },
    /// Float literal (decimal or hex float); suffix `f16`/`f32`/`f64`.
    Float {
        value: f64,
        suffix: Option<PrimType>,
    },
    Bool(bool),
    /// `'a'` is an integer literal in Futhark; strings `"abc"` are arrays of
    /// u8.
    String(Vec<u8>),
}

#[derive(Clone, Debug)]
pub struct Exp {
    pub kind: ExpKind,
    pub span: Span,
    /// The type of the expression (filled by the checker, unification
    /// variables resolved).
    pub ty: Option<Type>,
}

impl Exp {
    pub fn new(kind: ExpKind, span: Span) -> Exp {
        Exp { kind, span, ty: None }
    }

    /// The value of an integer literal expression (`3`, `-1`).
    pub fn as_const_int(&self) -> Option<i64> {
        match &self.kind {
            ExpKind::Lit(Literal::Int { value, .. }) => Some(*value as i64),
            ExpKind::Neg(x) => x.as_const_int().map(i64::wrapping_neg),
            _ => None,
        }
    }
}

/// What a name refers to (filled by the checker).
#[derive(Clone, Debug, PartialEq)]
pub enum Resolved {
    /// A variable bound by a pattern inside the current top-level
    /// declaration.
    Local,
    /// The top-level declaration with this index in `Program::decs` of the
    /// given file's program (see [`crate::check::Checked`]).
    Global(GlobalId),
    /// A built-in function or constant, by its canonical name (`+`,
    /// `i32.sum`, `__map`, ...).
    Builtin(Name),
}

/// A top-level value definition: file (program index) and declaration index.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GlobalId {
    pub program: u32,
    pub dec: u32,
}

#[derive(Clone, Debug)]
pub struct Var {
    pub name: QualName,
    pub res: Option<Resolved>,
}

/// The large parts of the rarer forms (the pattern of a `let` or `loop`,
/// a loop's form, type annotations) are boxed: every node of a tree has
/// the size of the largest form, and the passes walk every node.
#[derive(Clone, Debug)]
pub enum ExpKind {
    Lit(Literal),
    /// A name, maybe qualified (`x`, `i32.sum`). The parser also produces
    /// this for `r.x.y` chains; the checker turns those into `Project`.
    Var(Var),
    /// `-x` (prefix minus, parsed as `neg x`) and `!x`.
    Neg(Box<Exp>),
    Not(Box<Exp>),
    /// `a op b`, also backtick infix `` a `f` b `` (op is then `f`).
    BinOp {
        op: Var,
        op_span: Span,
        lhs: Box<Exp>,
        rhs: Box<Exp>,
    },
    /// `(+)`, `(+ 1)` (right section: `\x -> x + 1`), `(1 -)` (left
    /// section: `\y -> 1 - y`), `` (`f` x) ``.
    OpSection {
        op: Var,
        op_span: Span,
        left: Option<Box<Exp>>,
        right: Option<Box<Exp>>,
    },
    /// `(.x)` and `(.0.y)`: a projection section.
    ProjectSection(Vec<Name>),
    /// `???`: a typed hole, of whatever type its context wants; evaluating
    /// it is a run-time error.
    Hole,
    /// `f a b c` (one node for the whole spine).
    Apply(Box<Exp>, Vec<Exp>),
    /// `\p1 p2 : t -> e`
    Lambda {
        params: Vec<Pat>,
        ret: Option<Box<TypeExp>>,
        body: Box<Exp>,
    },
    /// `(a, b)`; `()` is the empty tuple (unit).
    Tuple(Vec<Exp>),
    /// `{x = 1, y}` (a field without `= e` takes the variable of that name).
    Record(Vec<RecordField>),
    /// `[a, b, c]`
    ArrayLit(Vec<Exp>),
    /// `a..b`, `a..<b`, `a..>b`, `a..b...c` (stride given by second `b`:
    /// `start..second...end`).
    Range {
        start: Box<Exp>,
        second: Option<Box<Exp>>,
        end: Box<Exp>,
        kind: RangeEnd,
    },
    /// `e.x`, `e.0` on a non-name expression.
    Project(Box<Exp>, Name),
    /// `a[i, j:k:s, :]`
    Index(Box<Exp>, Vec<DimIndex>),
    /// `e :> t` (size coercion) and `e : t` (ascription).
    Coerce(Box<Exp>, Box<TypeExp>),
    Ascript(Box<Exp>, Box<TypeExp>),
    If {
        cond: Box<Exp>,
        then: Box<Exp>,
        els: Box<Exp>,
    },
    /// `let p = e in body`; `let f x y = e in body` is `LetFun`.
    Let {
        pat: Box<Pat>,
        value: Box<Exp>,
        body: Box<Exp>,
    },
    /// `let f [n] 'a (x: t) : r = e in body`
    LetFun {
        name: Name,
        name_span: Span,
        type_params: Vec<TypeParam>,
        params: Vec<Pat>,
        ret: Option<Box<TypeExp>>,
        value: Box<Exp>,
        body: Box<Exp>,
    },
    /// `let x[i] = v in body` (sugar for `let x = x with [i] = v in body`).
    LetWith {
        name: Name,
        name_span: Span,
        index: Vec<DimIndex>,
        value: Box<Exp>,
        body: Box<Exp>,
    },
    /// `e with [i, j] = v`
    Update {
        array: Box<Exp>,
        index: Vec<DimIndex>,
        value: Box<Exp>,
    },
    /// `r with x.y = v`
    RecordUpdate {
        record: Box<Exp>,
        path: Vec<Name>,
        value: Box<Exp>,
    },
    /// `loop pat = init for i < n do body` etc. `init` is `None` for
    /// `loop x do` (the initial value is the variable of the same name).
    Loop {
        pat: Box<Pat>,
        init: Option<Box<Exp>>,
        form: Box<LoopForm>,
        body: Box<Exp>,
    },
    /// `assert cond e`
    Assert(Box<Exp>, Box<Exp>),
    /// `#[attr] e`
    Attr(Attr, Box<Exp>),
    /// `#c e1 e2`: a sum type constructor applied to its payload.
    Constr(Name, Vec<Exp>),
    /// `match e case p -> e ...`
    Match(Box<Exp>, Vec<(Pat, Exp)>),
    /// `m.(e)`: `e` with the module `m` opened. Module elaboration
    /// replaces it by `e`, so the checker never sees one.
    OpenIn(Vec<Name>, Box<Exp>),
}

#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum RecordField {
    /// `x = e`
    Explicit(Name, Span, Exp),
    /// `x` (shorthand for `x = x`)
    Implicit(Name, Span, Option<Resolved>),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RangeEnd {
    /// `a..b` (inclusive)
    Inclusive,
    /// `a..<b`
    UpToExclusive,
    /// `a..>b`
    DownToExclusive,
}

#[derive(Clone, Debug)]
pub enum LoopForm {
    /// `for i < n`
    For(Name, Span, Box<Exp>),
    /// `for p in xs`
    ForIn(Pat, Box<Exp>),
    /// `while cond`
    While(Box<Exp>),
}

#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum DimIndex {
    /// `i`
    Fix(Exp),
    /// `i:j:s`, each part optional (`:`, `i:`, `:j`, `::s`, `::-1`).
    Slice {
        start: Option<Exp>,
        end: Option<Exp>,
        stride: Option<Exp>,
    },
}
