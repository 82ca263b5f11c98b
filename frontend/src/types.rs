//! Semantic types of the source language, as the checker computes them.

use std::fmt;
use std::rc::Rc;

use crate::syntax::ast::Name;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum PrimType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F16,
    F32,
    F64,
    Bool,
}

impl PrimType {
    pub const ALL: [PrimType; 12] = [
        PrimType::I8,
        PrimType::I16,
        PrimType::I32,
        PrimType::I64,
        PrimType::U8,
        PrimType::U16,
        PrimType::U32,
        PrimType::U64,
        PrimType::F16,
        PrimType::F32,
        PrimType::F64,
        PrimType::Bool,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PrimType::I8 => "i8",
            PrimType::I16 => "i16",
            PrimType::I32 => "i32",
            PrimType::I64 => "i64",
            PrimType::U8 => "u8",
            PrimType::U16 => "u16",
            PrimType::U32 => "u32",
            PrimType::U64 => "u64",
            PrimType::F16 => "f16",
            PrimType::F32 => "f32",
            PrimType::F64 => "f64",
            PrimType::Bool => "bool",
        }
    }

    pub fn from_name(s: &str) -> Option<PrimType> {
        PrimType::ALL.into_iter().find(|p| p.name() == s)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, PrimType::I8 | PrimType::I16 | PrimType::I32 | PrimType::I64)
    }
    pub fn is_unsigned(self) -> bool {
        matches!(self, PrimType::U8 | PrimType::U16 | PrimType::U32 | PrimType::U64)
    }
    pub fn is_int(self) -> bool {
        self.is_signed() || self.is_unsigned()
    }
    pub fn is_float(self) -> bool {
        matches!(self, PrimType::F16 | PrimType::F32 | PrimType::F64)
    }
    pub fn is_numeric(self) -> bool {
        self != PrimType::Bool
    }
    /// Width in bits (bool: 8, as in the binary value format).
    pub fn bits(self) -> u32 {
        match self {
            PrimType::I8 | PrimType::U8 | PrimType::Bool => 8,
            PrimType::I16 | PrimType::U16 | PrimType::F16 => 16,
            PrimType::I32 | PrimType::U32 | PrimType::F32 => 32,
            PrimType::I64 | PrimType::U64 | PrimType::F64 => 64,
        }
    }
}

impl fmt::Display for PrimType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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
    /// A size given by arithmetic on other sizes that the checker does not
    /// model (`n+m`, the size of `xs ++ ys`), with its text for messages.
    /// It never equals a single name or constant, but may equal another
    /// such expression. Never left in a checked program.
    Expr(Rc<str>),
}

/// Identifier of a size unification variable of the checker.
pub type SizeVar = u32;

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Size::Const(n) => write!(f, "[{n}]"),
            Size::Var(v) => write!(f, "[{v}]"),
            Size::Unknown => write!(f, "[]"),
            Size::Infer(_) => write!(f, "[?]"),
            Size::Expr(e) => write!(f, "[{e}]"),
        }
    }
}

/// Identifier of a unification variable of the checker.
pub type TyVar = u32;

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
        matches!(self, Type::Array { unique: true, .. })
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
            Type::Param(n) => write!(f, "{n}"),
            Type::Var(v) => write!(f, "'t{v}"),
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
