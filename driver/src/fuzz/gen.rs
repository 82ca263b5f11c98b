//! The program generator of `futmlir fuzz`: random Futhark programs that
//! are well-typed by construction. See Note [Generating from types].

use futmlir_frontend::values::{PrimType, Rng};

// Note [Generating from types]
// The generator never writes an expression and then asks its type: it is
// asked for an expression *of* a type and picks one of the forms that can
// have it (a literal, a variable in scope, an operator, a SOAC whose result
// is that type, a `let`, `if` or `loop` around a smaller request). So every
// program is well-typed when the generator is right; one the interpreter
// rejects is a generator bug (or a type checker bug), reported apart.
//
// Sizes are the hard part of Futhark's types. An array's dimension is a
// size parameter of the entry point (`n`, `m`, in scope as `i64`s), a
// constant, or a size no type can name (`filter`'s result, a slice, a
// concatenation: `Dim::Fresh`). A requested type never has a fresh size:
// such arrays are only bound by `let` and consumed by forms whose result
// has no size of theirs (`reduce`, `length`, indexing), so the generator
// never has to build an array of an unnameable size. Two arrays meet (in
// `map2`, an `if`, a loop's body) only when their types are equal. A loop
// parameter's sizes are fresh in its body, as the checker sees them.
//
// Programs stay free of undefined behaviour, so any disagreement between
// backends is a bug: indices are taken modulo the length (and guarded
// against empty arrays), integer divisors are odd (`b | 1`), integer
// exponents lie in 0..7, `scatter`'s indices are distinct (those out of
// bounds are ignored, as the reference says), and reductions use an
// associative operator with its neutral element.

/// A dimension of an array type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    /// A size parameter of the entry point (`n`).
    Name(&'static str),
    Const(i64),
    /// A size no type can name (see Note [Generating from types]).
    Fresh(u32),
}

impl Dim {
    fn text(&self) -> String {
        match self {
            Dim::Name(n) => n.to_string(),
            Dim::Const(k) => k.to_string(),
            Dim::Fresh(_) => String::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Prim(PrimType),
    Array(PrimType, Vec<Dim>),
}

impl Ty {
    pub fn elem(&self) -> PrimType {
        match self {
            Ty::Prim(p) | Ty::Array(p, _) => *p,
        }
    }
    fn rank(&self) -> usize {
        match self {
            Ty::Prim(_) => 0,
            Ty::Array(_, ds) => ds.len(),
        }
    }
    /// The type of a row (`[n][m]t` → `[m]t`).
    fn row(&self) -> Ty {
        match self {
            Ty::Array(p, ds) if ds.len() > 1 => Ty::Array(*p, ds[1..].to_vec()),
            t => Ty::Prim(t.elem()),
        }
    }
    /// `[d]` followed by this type.
    fn array_of(&self, d: Dim) -> Ty {
        match self {
            Ty::Prim(p) => Ty::Array(*p, vec![d]),
            Ty::Array(p, ds) => Ty::Array(*p, std::iter::once(d).chain(ds.iter().cloned()).collect()),
        }
    }
    pub fn has_fresh(&self) -> bool {
        matches!(self, Ty::Array(_, ds) if ds.iter().any(|d| matches!(d, Dim::Fresh(_))))
    }
    /// The type as a parameter annotation (`[n][2]i32`).
    pub fn text(&self) -> String {
        match self {
            Ty::Prim(p) => p.name().to_string(),
            Ty::Array(p, ds) => {
                let dims: String = ds.iter().map(|d| format!("[{}]", d.text())).collect();
                format!("{dims}{}", p.name())
            }
        }
    }
}

/// A generated expression: text with typed holes, each a subexpression
/// the shrinker may replace (See Note [Shrinking] in `shrink`).
#[derive(Clone, Debug)]
pub struct Node {
    pub ty: Ty,
    pub parts: Vec<Part>,
}

#[derive(Clone, Debug)]
pub enum Part {
    Text(String),
    Kid(Node),
}

impl Node {
    fn text(ty: Ty, s: impl Into<String>) -> Node {
        Node {
            ty,
            parts: vec![Part::Text(s.into())],
        }
    }
    pub fn is_leaf(&self) -> bool {
        !self.parts.iter().any(|p| matches!(p, Part::Kid(_)))
    }
    pub fn write(&self, out: &mut String) {
        for p in &self.parts {
            match p {
                Part::Text(s) => out.push_str(s),
                Part::Kid(k) => k.write(out),
            }
        }
    }
}

/// Builds a node from text pieces and kids, in order.
struct Parts(Vec<Part>);

impl Parts {
    fn new() -> Parts {
        Parts(Vec::new())
    }
    fn t(mut self, s: impl Into<String>) -> Parts {
        self.0.push(Part::Text(s.into()));
        self
    }
    fn k(mut self, n: Node) -> Parts {
        self.0.push(Part::Kid(n));
        self
    }
    fn node(self, ty: Ty) -> Node {
        Node { ty, parts: self.0 }
    }
}

/// A parameter of an entry point.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: Ty,
}

/// One entry point: `entry NAME [sizes] (params) = (results)`.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub sizes: Vec<&'static str>,
    pub params: Vec<Param>,
    pub results: Vec<Node>,
}

impl Entry {
    pub fn write(&self, out: &mut String) {
        out.push_str(&format!("entry {}", self.name));
        for s in &self.sizes {
            out.push_str(&format!(" [{s}]"));
        }
        for p in &self.params {
            out.push_str(&format!(" ({}: {})", p.name, p.ty.text()));
        }
        out.push_str(" =\n  ");
        if self.results.len() != 1 {
            out.push('(');
        }
        for (i, r) in self.results.iter().enumerate() {
            if i > 0 {
                out.push_str(",\n   ");
            }
            r.write(out);
        }
        if self.results.len() != 1 {
            out.push(')');
        }
        out.push('\n');
    }
}

/// A generated program: its entry points, in order.
#[derive(Clone, Debug)]
pub struct Program {
    /// Top-level functions the entry points call (not shrunk).
    pub helpers: Vec<Helper>,
    pub entries: Vec<Entry>,
}

/// `def NAME (xs: []P) (y: Q) : R = BODY`: a function whose array
/// parameter has an anonymous size.
#[derive(Clone, Debug)]
pub struct Helper {
    pub name: String,
    pub array_elem: PrimType,
    pub scalar: PrimType,
    pub result: PrimType,
    pub body: Node,
}

/// A polymorphic function every program has, for any type.
const PICK: &str = "def pick 't (c: bool) (x: t) (y: t) : t = if c then x else y\n";

impl Program {
    pub fn text(&self) -> String {
        let mut out = String::from(PICK);
        for h in &self.helpers {
            out.push_str(&format!(
                "def {} (xs: []{}) (y: {}) : {} =\n  ",
                h.name,
                h.array_elem.name(),
                h.scalar.name(),
                h.result.name()
            ));
            h.body.write(&mut out);
            out.push('\n');
        }
        for e in &self.entries {
            e.write(&mut out);
        }
        out
    }
}

pub struct Gen {
    pub rng: Rng,
    fresh: u32,
    /// The size parameters of the entry point being generated.
    sizes: Vec<&'static str>,
    /// The helpers generated so far: name, array element, scalar and
    /// result types.
    helpers: Vec<(String, PrimType, PrimType, PrimType)>,
}

/// A variable (or projection) in scope, with its type.
type Env = Vec<(String, Ty)>;

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng::new(seed),
            fresh: 0,
            sizes: Vec::new(),
            helpers: Vec::new(),
        }
    }

    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.rng.below(den) < num
    }

    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.rng.index(xs.len())].clone()
    }

    fn name(&mut self, base: &str) -> String {
        self.fresh += 1;
        // `_` keeps names apart from the parameters (`a0`) and the
        // types (`i8`).
        format!("{base}_{}", self.fresh)
    }

    pub fn prim(&mut self) -> PrimType {
        self.pick(&PrimType::ALL)
    }

    /// A dimension a requested type may have.
    fn dim(&mut self) -> Dim {
        if !self.sizes.is_empty() && self.chance(2, 3) {
            let s = self.pick(&self.sizes.clone());
            Dim::Name(s)
        } else {
            Dim::Const(self.rng.below(4) as i64)
        }
    }

    /// A random type of rank at most `max_rank`, without fresh sizes.
    pub fn ty(&mut self, max_rank: usize) -> Ty {
        let p = self.prim();
        let rank = self.rng.index(max_rank + 1);
        if rank == 0 {
            Ty::Prim(p)
        } else {
            Ty::Array(p, (0..rank).map(|_| self.dim()).collect())
        }
    }

    /// A random type, often one of a variable in scope (or its rows or
    /// elements), so that the variables get used.
    fn ty_near(&mut self, env: &Env, max_rank: usize) -> Ty {
        let known: Vec<Ty> = env.iter().map(|(_, t)| t.clone()).filter(|t| !t.has_fresh()).collect();
        if known.is_empty() || self.chance(1, 2) {
            return self.ty(max_rank);
        }
        let mut t = self.pick(&known);
        while t.rank() > max_rank || (t.rank() > 0 && self.chance(1, 3)) {
            t = t.row();
        }
        t
    }

    /// A literal of `p`, often an edge value.
    pub fn literal(&mut self, p: PrimType) -> String {
        let n = p.name();
        if p == PrimType::Bool {
            return if self.chance(1, 2) { "true" } else { "false" }.to_string();
        }
        if p.is_float() {
            return match self.rng.below(10) {
                0 => format!("{n}.nan"),
                1 => format!("{n}.inf"),
                2 => format!("(-{n}.inf)"),
                3 => format!("(-0.0{n})"),
                4 => format!("0.0{n}"),
                5 if p == PrimType::F16 => format!("6.0e4{n}"),
                5 => format!("1.0e30{n}"),
                _ => {
                    let x = (self.rng.int_in(-400, 400) as f64) / 8.0;
                    if x < 0.0 {
                        format!("({x:?}{n})")
                    } else {
                        format!("{x:?}{n}")
                    }
                }
            };
        }
        match self.rng.below(9) {
            0 => format!("{n}.lowest"),
            1 => format!("{n}.highest"),
            2 => format!("0{n}"),
            3 => format!("1{n}"),
            4 if p.is_signed() => format!("(-1{n})"),
            _ => format!("{}{n}", self.rng.below(20)),
        }
    }

    /// A closed expression of `ty` (no fresh sizes): a literal, or
    /// `replicate`s of one.
    pub fn leaf(&mut self, ty: &Ty) -> Node {
        match ty {
            Ty::Prim(p) => {
                let l = self.literal(*p);
                Node::text(ty.clone(), l)
            }
            Ty::Array(..) => {
                let mut s = self.literal(ty.elem());
                if let Ty::Array(_, ds) = ty {
                    for d in ds.iter().rev() {
                        s = format!("(replicate {} {s})", d.text());
                    }
                }
                Node::text(ty.clone(), s)
            }
        }
    }

    fn var(&mut self, ty: &Ty, env: &Env) -> Option<Node> {
        let vs: Vec<&String> = env.iter().filter(|(_, t)| t == ty).map(|(v, _)| v).collect();
        if vs.is_empty() {
            None
        } else {
            let v = vs[self.rng.index(vs.len())].clone();
            Some(Node::text(ty.clone(), v))
        }
    }

    /// An expression of `ty` with the variables of `env`, at most `depth`
    /// forms deep.
    pub fn exp(&mut self, ty: &Ty, env: &Env, depth: u32) -> Node {
        if depth == 0 || self.chance(1, 8) {
            if self.chance(2, 3) {
                if let Some(v) = self.var(ty, env) {
                    return v;
                }
            }
            return self.leaf(ty);
        }
        if self.chance(1, 6) {
            if let Some(v) = self.var(ty, env) {
                return v;
            }
        }
        let d = depth - 1;
        // Forms common to all types, then those of scalars or arrays; a
        // form that does not fit (None) makes us draw again.
        for _ in 0..8 {
            let r = self.rng.below(100);
            let made = if r < 8 {
                self.if_exp(ty, env, d)
            } else if r < 18 {
                self.let_exp(ty, env, d)
            } else if r < 22 {
                self.loop_exp(ty, env, d)
            } else if r < 26 {
                self.tuple_exp(ty, env, d)
            } else if r < 29 {
                let c = self.exp(&Ty::Prim(PrimType::Bool), env, d.min(2));
                let a = self.exp(ty, env, d);
                let b = self.exp(ty, env, d);
                Some(
                    Parts::new()
                        .t("(pick ")
                        .k(c)
                        .t(" ")
                        .k(a)
                        .t(" ")
                        .k(b)
                        .t(")")
                        .node(ty.clone()),
                )
            } else if matches!(ty, Ty::Prim(_)) {
                self.scalar_exp(ty.elem(), env, d)
            } else {
                self.array_exp(ty, env, d)
            };
            if let Some(n) = made {
                return n;
            }
        }
        self.var(ty, env).unwrap_or_else(|| self.leaf(ty))
    }

    fn if_exp(&mut self, ty: &Ty, env: &Env, d: u32) -> Option<Node> {
        let c = self.exp(&Ty::Prim(PrimType::Bool), env, d.min(2));
        let a = self.exp(ty, env, d);
        let b = self.exp(ty, env, d);
        Some(
            Parts::new()
                .t("(if ")
                .k(c)
                .t(" then ")
                .k(a)
                .t(" else ")
                .k(b)
                .t(")")
                .node(ty.clone()),
        )
    }

    fn let_exp(&mut self, ty: &Ty, env: &Env, d: u32) -> Option<Node> {
        let x = self.name("x");
        let (bound, bty) = if self.chance(1, 3) {
            self.fresh_array(env, d)?
        } else {
            let t = self.ty_near(env, 2);
            (self.exp(&t, env, d), t)
        };
        let mut env2 = env.clone();
        env2.push((x.clone(), bty));
        let body = self.exp(ty, &env2, d);
        Some(
            Parts::new()
                .t(format!("(let {x} = "))
                .k(bound)
                .t(" in ")
                .k(body)
                .t(")")
                .node(ty.clone()),
        )
    }

    /// An array of a size no type names (`filter`, a slice, `++`,
    /// `flatten`), with its type.
    fn fresh_array(&mut self, env: &Env, d: u32) -> Option<(Node, Ty)> {
        self.fresh += 1;
        let f = Dim::Fresh(self.fresh);
        let src_t = self.ty(2);
        let Ty::Array(p, ds) = &src_t else { return None };
        let src = self.exp(&src_t, env, d);
        let row = src_t.row();
        let out_t = row.array_of(f.clone());
        let node = match self.rng.below(4) {
            0 => {
                let x = self.name("y");
                let mut env2 = env.clone();
                env2.push((x.clone(), row.clone()));
                let pred = self.exp(&Ty::Prim(PrimType::Bool), &env2, d.min(2));
                Parts::new()
                    .t(format!("(filter (\\{x} -> "))
                    .k(pred)
                    .t(") ")
                    .k(src)
                    .t(")")
            }
            1 => {
                let v = self.name("s");
                let slice = self.pick(&[
                    format!("{v}[0:length {v} / 2]"),
                    format!("{v}[length {v} / 2:]"),
                    format!("{v}[::2]"),
                    format!("{v}[1:]"),
                ]);
                // `[1:]` of an empty array is out of bounds.
                let slice = if slice.ends_with("[1:]") {
                    format!("(if length {v} == 0 then {v}[0:0] else {slice})")
                } else {
                    slice
                };
                Parts::new().t(format!("(let {v} = ")).k(src).t(format!(" in {slice})"))
            }
            2 => {
                let mut other_t = src_t.clone();
                if let Ty::Array(_, ods) = &mut other_t {
                    ods[0] = self.dim();
                }
                let other = self.exp(&other_t, env, d);
                Parts::new().t("(").k(src).t(" ++ ").k(other).t(")")
            }
            _ => {
                if ds.len() < 2 {
                    return None;
                }
                let out = Ty::Array(*p, std::iter::once(f).chain(ds[2..].iter().cloned()).collect());
                return Some((Parts::new().t("(flatten ").k(src).t(")").node(out.clone()), out));
            }
        };
        Some((node.node(out_t.clone()), out_t))
    }

    fn loop_exp(&mut self, ty: &Ty, env: &Env, d: u32) -> Option<Node> {
        let acc = self.name("acc");
        let i = self.name("i");
        let init = self.exp(ty, env, d);
        let bound = if !self.sizes.is_empty() && self.chance(1, 2) {
            self.pick(&self.sizes.clone()).to_string()
        } else {
            self.rng.below(4).to_string()
        };
        // Inside the body, an array parameter's sizes are fresh (Note
        // [Loop-variant sizes] in the type checker): the body's result
        // keeps the loop invariant by having the initial value's sizes,
        // which the parameter's are not, as far as the checker knows.
        let acc_t = match ty {
            Ty::Array(p, ds) => Ty::Array(
                *p,
                ds.iter()
                    .map(|_| {
                        self.fresh += 1;
                        Dim::Fresh(self.fresh)
                    })
                    .collect(),
            ),
            t => t.clone(),
        };
        let mut env2 = env.clone();
        env2.push((acc.clone(), acc_t));
        env2.push((i.clone(), Ty::Prim(PrimType::I64)));
        let body = self.exp(ty, &env2, d.min(2));
        if self.chance(1, 3) {
            // A `while` loop with a counter beside the value.
            return Some(
                Parts::new()
                    .t(format!("(loop ({acc}, {i}) = ("))
                    .k(init)
                    .t(format!(", 0i64) while {i} < {bound} do ("))
                    .k(body)
                    .t(format!(", {i} + 1)).0"))
                    .node(ty.clone()),
            );
        }
        Some(
            Parts::new()
                .t(format!("(loop {acc} = "))
                .k(init)
                .t(format!(" for {i} < {bound} do "))
                .k(body)
                .t(")")
                .node(ty.clone()),
        )
    }

    /// A tuple or record bound by a pattern or projected.
    fn tuple_exp(&mut self, ty: &Ty, env: &Env, d: u32) -> Option<Node> {
        let other_t = self.ty(1);
        let a = self.exp(ty, env, d);
        let b = self.exp(&other_t, env, d);
        Some(
            match self.rng.below(3) {
                0 => Parts::new().t("(").k(a).t(", ").k(b).t(").0"),
                1 => Parts::new().t("{f = ").k(b).t(", g = ").k(a).t("}.g"),
                _ => {
                    let (x, y) = (self.name("p"), self.name("q"));
                    let mut env2 = env.clone();
                    env2.push((x.clone(), ty.clone()));
                    env2.push((y.clone(), other_t));
                    let body = self.exp(ty, &env2, d);
                    Parts::new()
                        .t(format!("(let ({x}, {y}) = ("))
                        .k(a)
                        .t(", ")
                        .k(b)
                        .t(") in ")
                        .k(body)
                        .t(")")
                }
            }
            .node(ty.clone()),
        )
    }

    /// An array that exists in `env` or can be made, of any type, for a
    /// form that consumes one (`reduce`, `length`, indexing): often one of
    /// a fresh size from `env`.
    fn any_array(&mut self, elem: Option<PrimType>, rank: Option<usize>, env: &Env, d: u32) -> Node {
        let vs: Vec<(String, Ty)> = env
            .iter()
            .filter(|(_, t)| t.rank() > 0 && elem.is_none_or(|p| t.elem() == p) && rank.is_none_or(|r| t.rank() == r))
            .cloned()
            .collect();
        if !vs.is_empty() && self.chance(1, 2) {
            let (v, t) = self.pick(&vs);
            return Node::text(t, v);
        }
        let p = elem.unwrap_or_else(|| self.prim());
        let r = rank.unwrap_or_else(|| 1 + self.rng.index(2));
        let t = Ty::Array(p, (0..r).map(|_| self.dim()).collect());
        self.exp(&t, env, d)
    }

    fn scalar_exp(&mut self, p: PrimType, env: &Env, d: u32) -> Option<Node> {
        let t = Ty::Prim(p);
        let r = self.rng.below(100);
        Some(if r < 30 {
            return self.binop(p, env, d);
        } else if r < 42 {
            return self.bool_exp(p, env, d);
        } else if r < 52 {
            // A conversion from any type.
            let from = self.prim();
            let x = self.exp(&Ty::Prim(from), env, d);
            if p == PrimType::Bool {
                let z = if from == PrimType::Bool {
                    "false".to_string()
                } else {
                    format!("0{}", from.name())
                };
                Parts::new().t("(").k(x).t(format!(" != {z})")).node(t)
            } else {
                Parts::new()
                    .t(format!("({}.{} ", p.name(), from.name()))
                    .k(x)
                    .t(")")
                    .node(t)
            }
        } else if r < 66 {
            // A reduction with an associative operator and its neutral
            // element.
            let xs = self.any_array(Some(p), Some(1), env, d);
            let (op, ne) = reduce_op(p, self.rng.below(4));
            Parts::new().t(format!("(reduce {op} {ne} ")).k(xs).t(")").node(t)
        } else if r < 78 {
            // Indexing, guarded and in bounds.
            let xs = self.any_array(Some(p), Some(1), env, d);
            let i = self.exp(&Ty::Prim(PrimType::I64), env, d.min(1));
            let v = self.name("v");
            let dflt = self.leaf(&t);
            Parts::new()
                .t(format!("(let {v} = "))
                .k(xs)
                .t(format!(" in if length {v} == 0 then "))
                .k(dflt)
                .t(format!(" else {v}[("))
                .k(i)
                .t(format!(") % length {v}])"))
                .node(t)
        } else if r < 84 && p == PrimType::I64 {
            let xs = self.any_array(None, None, env, d);
            Parts::new().t("(length ").k(xs).t(")").node(t)
        } else if r < 82 {
            // A reduction over pairs, one monoid per component.
            let q = self.prim();
            let k = self.dim();
            let xs = self.exp(&Ty::Array(p, vec![k.clone()]), env, d);
            let ys = self.exp(&Ty::Array(q, vec![k]), env, d);
            let ((op1, ne1), (op2, ne2)) = (reduce_op(p, self.rng.below(4)), reduce_op(q, self.rng.below(4)));
            let (a, b, c, e) = (self.name("a"), self.name("b"), self.name("c"), self.name("e"));
            Parts::new()
                .t(format!(
                    "(reduce (\\({a}, {b}) ({c}, {e}) -> ({op1} {a} {c}, {op2} {b} {e})) ({ne1}, {ne2}) (zip "
                ))
                .k(xs)
                .t(" ")
                .k(ys)
                .t(")).0")
                .node(t)
        } else if r < 88 {
            let hs: Vec<_> = self.helpers.iter().filter(|h| h.3 == p).cloned().collect();
            if hs.is_empty() {
                return None;
            }
            let (name, ae, sc, _) = self.pick(&hs);
            let xs = self.any_array(Some(ae), Some(1), env, d);
            let y = self.exp(&Ty::Prim(sc), env, d);
            Parts::new().t(format!("({name} ")).k(xs).t(" ").k(y).t(")").node(t)
        } else if r < 94 && p.is_numeric() {
            let f = self.pick(&["abs", "sgn", "neg"]);
            let x = self.exp(&t, env, d);
            Parts::new().t(format!("({}.{f} ", p.name())).k(x).t(")").node(t)
        } else {
            return None;
        })
    }

    fn binop(&mut self, p: PrimType, env: &Env, d: u32) -> Option<Node> {
        let t = Ty::Prim(p);
        let a = self.exp(&t, env, d);
        let b = self.exp(&t, env, d);
        let n = p.name();
        let node = if p == PrimType::Bool {
            let op = self.pick(&["&&", "||", "==", "!="]);
            Parts::new().t("(").k(a).t(format!(" {op} ")).k(b).t(")")
        } else if p.is_float() {
            match self.rng.below(7) {
                0..=3 => {
                    let op = self.pick(&["+", "-", "*", "/"]);
                    Parts::new().t("(").k(a).t(format!(" {op} ")).k(b).t(")")
                }
                4 => Parts::new().t("(").k(a).t(" ** ").k(b).t(")"),
                _ => {
                    let f = self.pick(&["min", "max"]);
                    Parts::new().t(format!("({n}.{f} ")).k(a).t(" ").k(b).t(")")
                }
            }
        } else {
            match self.rng.below(10) {
                0..=2 => {
                    let op = self.pick(&["+", "-", "*"]);
                    Parts::new().t("(").k(a).t(format!(" {op} ")).k(b).t(")")
                }
                3..=4 => {
                    // An odd divisor is never zero; -1 tests the overflow
                    // of `lowest / -1`.
                    let op = self.pick(&["/", "%", "//", "%%"]);
                    Parts::new()
                        .t("(")
                        .k(a)
                        .t(format!(" {op} ("))
                        .k(b)
                        .t(format!(" | 1{n}))"))
                }
                5 => Parts::new().t("(").k(a).t(" ** (").k(b).t(format!(" & 7{n}))")),
                6..=7 => {
                    let op = self.pick(&["&", "|", "^"]);
                    Parts::new().t("(").k(a).t(format!(" {op} ")).k(b).t(")")
                }
                _ => {
                    let f = self.pick(&["min", "max"]);
                    Parts::new().t(format!("({n}.{f} ")).k(a).t(" ").k(b).t(")")
                }
            }
        };
        Some(node.node(t))
    }

    /// A boolean from a comparison (or `!`); `None` for other types.
    fn bool_exp(&mut self, p: PrimType, env: &Env, d: u32) -> Option<Node> {
        if p != PrimType::Bool {
            return None;
        }
        let t = Ty::Prim(p);
        if self.chance(1, 5) {
            let x = self.exp(&t, env, d);
            return Some(Parts::new().t("(!").k(x).t(")").node(t));
        }
        let q = self.prim();
        let qt = Ty::Prim(q);
        let a = self.exp(&qt, env, d);
        let b = self.exp(&qt, env, d);
        let op = if q == PrimType::Bool {
            self.pick(&["==", "!="])
        } else {
            self.pick(&["<", "<=", ">", ">=", "==", "!="])
        };
        Some(Parts::new().t("(").k(a).t(format!(" {op} ")).k(b).t(")").node(t))
    }

    fn array_exp(&mut self, ty: &Ty, env: &Env, d: u32) -> Option<Node> {
        let Ty::Array(p, ds) = ty else { return None };
        let p = *p;
        let outer = ds[0].clone();
        let row = ty.row();
        let r = self.rng.below(100);
        let n = if r < 22 {
            // map over an array of another row type.
            let src_row = self.ty_near(env, 2usize.saturating_sub(ds.len() - 1));
            let src = self.exp(&src_row.array_of(outer), env, d);
            let x = self.name("x");
            let mut env2 = env.clone();
            env2.push((x.clone(), src_row));
            let body = self.exp(&row, &env2, d);
            Parts::new().t(format!("(map (\\{x} -> ")).k(body).t(") ").k(src).t(")")
        } else if r < 32 {
            let (ra, rb) = (self.ty_near(env, 1), self.ty_near(env, 1));
            let xs = self.exp(&ra.array_of(outer.clone()), env, d);
            let ys = self.exp(&rb.array_of(outer), env, d);
            let (x, y) = (self.name("x"), self.name("y"));
            let mut env2 = env.clone();
            env2.push((x.clone(), ra));
            env2.push((y.clone(), rb));
            let body = self.exp(&row, &env2, d);
            Parts::new()
                .t(format!("(map2 (\\{x} {y} -> "))
                .k(body)
                .t(") ")
                .k(xs)
                .t(" ")
                .k(ys)
                .t(")")
        } else if r < 40 {
            let x = self.exp(&row, env, d);
            Parts::new().t(format!("(replicate {} ", outer.text())).k(x).t(")")
        } else if r < 44 && ds.len() == 1 && p == PrimType::I64 {
            Parts::new().t(format!("(iota {})", outer.text()))
        } else if r < 52 && ds.len() == 1 {
            let xs = self.exp(ty, env, d);
            let (op, ne) = reduce_op(p, self.rng.below(4));
            Parts::new().t(format!("(scan {op} {ne} ")).k(xs).t(")")
        } else if r < 56 {
            let xs = self.exp(ty, env, d);
            Parts::new().t("(reverse ").k(xs).t(")")
        } else if r < 62 && ds.len() >= 2 {
            let mut src = ds.clone();
            src.swap(0, 1);
            let xs = self.exp(&Ty::Array(p, src), env, d);
            Parts::new().t("(transpose ").k(xs).t(")")
        } else if r < 72 {
            // An in-place update of a copy.
            let xs = self.exp(ty, env, d);
            let i = self.exp(&Ty::Prim(PrimType::I64), env, d.min(1));
            let v = self.exp(&row, env, d);
            let a = self.name("a");
            Parts::new()
                .t(format!("(let {a} = copy "))
                .k(xs)
                .t(format!(" in if length {a} == 0 then {a} else {a} with [("))
                .k(i)
                .t(format!(") % length {a}] = "))
                .k(v)
                .t(")")
        } else if r < 80 && ds.len() == 1 {
            // scatter with distinct indices, some out of bounds.
            let dest = self.exp(ty, env, d);
            let k = self.dim();
            let vs = self.exp(&Ty::Array(p, vec![k.clone()]), env, d);
            let (s, o) = (1 + self.rng.below(3), self.rng.int_in(-1, 1));
            Parts::new()
                .t("(scatter (copy ")
                .k(dest)
                .t(format!(") (map (\\j -> j * {s} + ({o})) (iota {})) ", k.text()))
                .k(vs)
                .t(")")
        } else if r < 90 && ds.len() == 1 {
            // hist / reduce_by_index, indices anywhere.
            let k = self.dim();
            let is = self.exp(&Ty::Array(PrimType::I64, vec![k.clone()]), env, d.min(2));
            let vs = self.exp(&Ty::Array(p, vec![k]), env, d);
            let (op, ne) = reduce_op(p, self.rng.below(4));
            if self.chance(1, 2) {
                Parts::new()
                    .t(format!("(hist {op} {ne} {} ", outer.text()))
                    .k(is)
                    .t(" ")
                    .k(vs)
                    .t(")")
            } else {
                let dest = self.exp(ty, env, d);
                Parts::new()
                    .t("(reduce_by_index (copy ")
                    .k(dest)
                    .t(format!(") {op} {ne} "))
                    .k(is)
                    .t(" ")
                    .k(vs)
                    .t(")")
            }
        } else if r < 93 && ds.len() <= 2 {
            // A reduction or scan whose operator works on arrays.
            let (op, ne) = reduce_op(p, self.rng.below(4));
            let inner = ds.last().cloned().unwrap_or(Dim::Const(0));
            let ne = format!("(replicate {} {ne})", inner.text());
            if ds.len() == 1 {
                let k = self.dim();
                let xss = self.exp(&Ty::Array(p, vec![k, outer]), env, d);
                Parts::new().t(format!("(reduce (map2 {op}) {ne} ")).k(xss).t(")")
            } else {
                let xss = self.exp(ty, env, d);
                Parts::new().t(format!("(scan (map2 {op}) {ne} ")).k(xss).t(")")
            }
        } else if r < 96 {
            // A map to pairs, unzipped.
            let other = self.ty(1);
            let src_row = self.ty_near(env, 1);
            let src = self.exp(&src_row.array_of(outer), env, d);
            let x = self.name("x");
            let mut env2 = env.clone();
            env2.push((x.clone(), src_row));
            let a = self.exp(&row, &env2, d);
            let b = self.exp(&other, &env2, d);
            let (first, second) = if self.chance(1, 2) { (a, b) } else { (b, a) };
            let which = if first.ty == row { 0 } else { 1 };
            Parts::new()
                .t(format!("(unzip (map (\\{x} -> ("))
                .k(first)
                .t(", ")
                .k(second)
                .t(")) ")
                .k(src)
                .t(format!(")).{which}"))
        } else {
            return None;
        };
        Some(n.node(ty.clone()))
    }

    /// A helper function (see [`Helper`]).
    pub fn helper(&mut self, name: String, depth: u32) -> Helper {
        let saved = std::mem::take(&mut self.sizes);
        let (array_elem, scalar, result) = (self.prim(), self.prim(), self.prim());
        self.fresh += 1;
        let env: Env = vec![
            ("xs".to_string(), Ty::Array(array_elem, vec![Dim::Fresh(self.fresh)])),
            ("y".to_string(), Ty::Prim(scalar)),
        ];
        let body = self.exp(&Ty::Prim(result), &env, depth);
        self.sizes = saved;
        self.helpers.push((name.clone(), array_elem, scalar, result));
        Helper {
            name,
            array_elem,
            scalar,
            result,
            body,
        }
    }

    /// An entry point named `name`.
    pub fn entry(&mut self, name: String, depth: u32) -> Entry {
        let all = ["n", "m"];
        self.sizes = all[..1 + self.rng.index(2)].to_vec();
        let nparams = 1 + self.rng.index(3);
        let mut params = Vec::new();
        for i in 0..nparams {
            params.push(Param {
                name: format!("a{i}"),
                ty: self.ty(3),
            });
        }
        // A size parameter must be used by a parameter's type.
        let used: Vec<&'static str> = all
            .iter()
            .copied()
            .filter(|s| {
                params
                    .iter()
                    .any(|p| matches!(&p.ty, Ty::Array(_, ds) if ds.contains(&Dim::Name(s))))
            })
            .collect();
        self.sizes = used.clone();
        let env: Env = params.iter().map(|p| (p.name.clone(), p.ty.clone())).collect();
        let nresults = 1 + self.rng.index(2);
        let mut results = Vec::new();
        for _ in 0..nresults {
            let t = self.ty_near(&env, 2);
            results.push(self.exp(&t, &env, depth));
        }
        Entry {
            name,
            sizes: used,
            params,
            results,
        }
    }

    /// The arguments of `entry` in the value text format, with sizes
    /// drawn for its size parameters (often 0 or 1).
    pub fn inputs(&mut self, entry: &Entry) -> Vec<String> {
        let vals: Vec<(&'static str, usize)> = entry
            .sizes
            .iter()
            .map(|s| (*s, self.pick(&[0usize, 1, 2, 3, 4, 5])))
            .collect();
        let size = |d: &Dim| match d {
            Dim::Name(s) => vals.iter().find(|(n, _)| n == s).map_or(0, |(_, v)| *v),
            Dim::Const(k) => *k as usize,
            Dim::Fresh(_) => 0,
        };
        entry
            .params
            .iter()
            .map(|p| match &p.ty {
                Ty::Prim(t) => self.value_literal(*t),
                Ty::Array(t, ds) => {
                    let shape: Vec<usize> = ds.iter().map(size).collect();
                    self.array_value(*t, &shape)
                }
            })
            .collect()
    }

    fn value_literal(&mut self, p: PrimType) -> String {
        // The value format writes no parentheses and no named constants
        // but `nan` and `inf`.
        let n = p.name();
        let l = self.literal(p);
        let l = l.trim_start_matches('(').trim_end_matches(')').to_string();
        if l.ends_with(".lowest") || l.ends_with(".highest") {
            let (lo, hi) = int_bounds(p);
            return format!("{}{n}", if l.ends_with(".lowest") { lo } else { hi });
        }
        if l == format!("-{n}.inf") {
            return format!("-{n}.inf");
        }
        l
    }

    fn array_value(&mut self, p: PrimType, shape: &[usize]) -> String {
        if shape.contains(&0) {
            let dims: String = shape.iter().map(|d| format!("[{d}]")).collect();
            return format!("empty({dims}{})", p.name());
        }
        if shape.is_empty() {
            return self.value_literal(p);
        }
        let rows: Vec<String> = (0..shape[0]).map(|_| self.array_value(p, &shape[1..])).collect();
        format!("[{}]", rows.join(", "))
    }
}

/// The smallest and largest value of an integer type.
fn int_bounds(p: PrimType) -> (i128, i128) {
    let bits = p.bits();
    if p.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// An associative and commutative operator on `p` with its neutral
/// element (`which` picks one).
fn reduce_op(p: PrimType, which: u64) -> (String, String) {
    let n = p.name();
    if p == PrimType::Bool {
        return if which.is_multiple_of(2) {
            ("(&&)".into(), "true".into())
        } else {
            ("(||)".into(), "false".into())
        };
    }
    let zero = if p.is_float() {
        format!("0.0{n}")
    } else {
        format!("0{n}")
    };
    let one = if p.is_float() {
        format!("1.0{n}")
    } else {
        format!("1{n}")
    };
    match which {
        0 => ("(+)".into(), zero),
        1 => ("(*)".into(), one),
        2 => (format!("{n}.max"), format!("{n}.lowest")),
        _ => (format!("{n}.min"), format!("{n}.highest")),
    }
}
