//! Internalisation: a checked program to the `soac` dialect — first-order,
//! monomorphic, tuple-free, with explicit sizes (thesis section 5.2,
//! Figure 26).
//!
//! - [`values`]: how source values are represented (Note [Flattened
//!   values]), scopes, instantiation of type parameters.
//! - `emit`: building IR: constants, scalar operations, run-time checks,
//!   sizes and coercions.
//! - `exp`: expressions, patterns, function application and inlining.
//! - `soacs`: the built-in functions: SOACs, array operations, the numeric
//!   modules, and `jvp2` as a `soac.jvp` (its function a region, for
//!   `soac-jvp`).
//! - `sums`: sum types: their layout (Note [Sum types]), constructors,
//!   `match`.
//! - `interface`: what an entry point's flattened parameters and results
//!   are to the outside world (Note [Entry point interfaces]): the
//!   attribute `interface` that the program descriptor carries to the
//!   runtime.
//!
//! **Note [Functions].**
//! Every entry point becomes a `soac.func` (with the unit attribute
//! `entry`). A top-level function that is first-order and monomorphic
//! (size parameters allowed) becomes a `soac.func` of its own the first
//! time it is called, and each call a `soac.apply` (a recursive function's
//! call of itself too; `soac-inline` keeps those, and those under
//! `#[noinline]`: Note [Calls kept as calls]). Its parameters are its
//! size parameters first (one `i64` per size name, and one per anonymous
//! `[]` size, in order of appearance), then the flattened parameters,
//! whose types name those sizes. Everything else — polymorphic and
//! higher-order functions (all of the prelude's `|>`, `foldl`, `all`, ...),
//! local functions, lambdas, sections, partial applications — is a static
//! function value ([`values::V::Fun`]) inlined where it is applied, with its
//! type parameters instantiated from the types at the call site. A lambda
//! given to a SOAC becomes the SOAC op's region.
//!
//! **Note [Run-time checks].**
//! The checker compares sizes only at run time (see `check`), so the
//! internaliser emits the checks: `soac.assert` with "index out of bounds"
//! before indexing, slicing and updates (unless the index is known to be
//! in range: a constant, a `for` loop counter below the size, a row of
//! `iota` of the size) and not inside `#[unsafe]`; "division by zero" for
//! integer division; a size check wherever two sizes must agree (`zip`,
//! the arrays of a `map`, `:>`, the arguments of a function with size
//! parameters), followed by a reshape that gives the value the agreed size;
//! "negative size" where the program gives a size (`iota n`, `replicate n
//! x`, `tabulate`, `hist`), unless it is a constant that is not negative.
//! Each assert's message ends with the source location.
//!
//! **Note [Dropped built-ins].**
//! `trace x` internalises to `x`: the reference interpreter prints `x`
//! (`futmlir run`, on stderr), but the soac level has no output channel,
//! so a compiled program does not trace (Futhark's compilers ignore
//! `trace` too). `opaque x` is `x` as well; it only matters to
//! optimisations, which will have to respect it when they arrive.
//!
//! A top-level constant (`def table = ...`) is computed once per function
//! that uses it, at the end of the function's entry block as it is when
//! first needed (which comes before every op still being built), as
//! Futhark computes constants once.

mod arrays;
mod emit;
mod exp;
mod interface;
mod soacs;
mod sums;
pub mod values;

use std::collections::HashSet;
use std::rc::Rc;

use futmlir_dialects::ir::{
    Attr, AttrKind, BlockId, Context, Dim, FastBuild, FastMap, Location, OpId, Scalar, SourceId, TypeKind, Value,
};

use crate::check::Checked;
use crate::diag::Diag;
use crate::span::{SourceMap, Span};
use crate::syntax::ast::{Dec, ExpKind, GlobalId, Name, Pat, PatKind, Resolved, TypeParam, ValBind};
use crate::types::Size;
pub(crate) use emit::int_bits;
use values::{structure, Env, Scope};

/// Internalise a checked program into a new `builtin.module` of `soac`
/// functions (see the module documentation). The program's source files
/// are registered with `ctx` so that op locations render. A construct the
/// internaliser does not handle yet gives a diagnostic "internalisation of
/// X is not supported yet" at its span.
pub fn internalise(checked: &Checked, sm: &SourceMap, ctx: &mut Context) -> Result<OpId, Diag> {
    internalise_with(checked, sm, ctx, Options::default())
}

/// How to internalise.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// `futmlir build --safe`: `#[unsafe]` is ignored, so every safety
    /// check stays.
    pub safe: bool,
}

/// [`internalise`] with `options`.
pub fn internalise_with(checked: &Checked, sm: &SourceMap, ctx: &mut Context, options: Options) -> Result<OpId, Diag> {
    let mut i = Internaliser::new(checked, sm, ctx);
    i.safe = options.safe;
    i.run()
}

pub(crate) type DResult<T> = Result<T, Diag>;

/// "internalisation of X is not supported yet" at `span`.
pub(crate) fn unsupported(span: Span, what: &str) -> Diag {
    Diag::new(span, format!("internalisation of {what} is not supported yet"))
}

/// A problem in the checked tree that the checker's invariants rule out.
pub(crate) fn internal(span: Span, what: &str) -> Diag {
    Diag::new(span, format!("internal error in internalisation: {what}"))
}

pub(crate) struct Internaliser<'a, 'c> {
    pub checked: &'a Checked,
    pub sm: &'a SourceMap,
    pub ctx: &'c mut Context,
    /// The context's source of each file of `sm`.
    sources: Vec<SourceId>,
    /// Where new ops go.
    pub block: BlockId,
    module_block: BlockId,
    /// The location of new ops, and the span it comes from.
    pub loc: Location,
    pub span: Span,
    /// The `soac.func` symbol of each first-order function, and what it
    /// is known to return, once internalised.
    /// By function and specialisation (empty for a function that is not
    /// specialised: Note [Specialised recursive functions]).
    funcs: FastMap<(GlobalId, String), Rc<str>>,
    compiled: FastMap<(GlobalId, String), Rc<ResultSizes>>,
    entries: HashSet<GlobalId>,
    symbols: HashSet<String>,
    /// Pairs (index, size) where the index is known to lie in `0..size`.
    pub facts: HashSet<(Value, Value), FastBuild>,
    /// Inside `#[unsafe]`: no bounds checks.
    pub unsafe_: bool,
    /// `#[unsafe]` is ignored ([`Options::safe`]).
    pub safe: bool,
    /// The next loop internalised carries `#[unroll]` (an `unroll`
    /// attribute on its `soac.loop`, for `soac-simplify`).
    pub unroll_next: bool,
    /// The prelude's file.
    prelude: Option<crate::span::FileId>,
    /// The entry block of the function being internalised, and the
    /// top-level constants computed there (once per function).
    pub entry_block: BlockId,
    pub constants: FastMap<GlobalId, values::V<'a>>,
    /// The `soac.constant` already made in a block, by value: a later
    /// constant with the same value in the same block reuses it. Blocks
    /// are only appended to while internalising, so the cached op stays
    /// before every later use.
    pub literals: FastMap<(BlockId, Attr), Value>,
    /// The arity of each built-in applied so far.
    arities: FastMap<Name, Option<usize>>,
    /// Sizes of a call site's types, under fresh names the callee's
    /// scope cannot shadow (See Note [Sizes pinned at a call]).
    pub pinned: FastMap<Name, Value>,
    /// The spans of applications under `#[noinline]`: their calls keep
    /// a `noinline` attribute (Note [Calls kept as calls]).
    pub noinline: HashSet<Span>,
    /// The recursive functions whose body is being internalised: a call
    /// of one of them from its own body is a call of the `soac.func`
    /// being made (Note [Recursive functions] in check).
    in_progress: HashSet<(GlobalId, String)>,
}

/// What a dimension of a function's result is known to be: the value of
/// its parameter with this index, a constant, or unknown.
#[derive(Copy, Clone, Debug)]
pub(crate) enum ResDim {
    Arg(usize),
    Const(u64),
    Unknown,
}

/// For each result of a function, what its dimensions are known to be.
pub(crate) type ResultSizes = Vec<Vec<ResDim>>;

/// Where a dimension of a function parameter gets its size (Note
/// [Functions]).
#[derive(Clone, Debug)]
pub(crate) enum Slot {
    Const(u64),
    /// The size parameter with this index.
    Size(usize),
    /// An `i64` parameter bound earlier (`(n: i64) (xs: [n]f32)`).
    Param(Name),
}

pub(crate) struct LeafSig {
    pub scalar: Scalar,
    pub dims: Vec<Slot>,
}

/// The calling convention of a first-order function.
pub(crate) struct Sig {
    /// The size parameters: their names (`None` for `[]`).
    pub sizes: Vec<Option<Name>>,
    /// The leaves of each parameter.
    pub params: Vec<Vec<LeafSig>>,
}

impl<'a, 'c> Internaliser<'a, 'c> {
    fn new(checked: &'a Checked, sm: &'a SourceMap, ctx: &'c mut Context) -> Self {
        let sources = sm.register_with(ctx);
        let r = ctx.create_region();
        let module_block = ctx.append_block(r, &[]);
        Internaliser {
            checked,
            sm,
            ctx,
            sources,
            block: module_block,
            module_block,
            loc: Location::Unknown,
            span: Span::default(),
            funcs: FastMap::default(),
            compiled: FastMap::default(),
            entries: HashSet::new(),
            symbols: HashSet::new(),
            facts: HashSet::default(),
            unsafe_: false,
            safe: false,
            unroll_next: false,
            prelude: sm
                .files()
                .iter()
                .position(|f| f.name == "<prelude>")
                .map(|i| i as crate::span::FileId),
            entry_block: module_block,
            constants: FastMap::default(),
            literals: FastMap::default(),
            arities: FastMap::default(),
            pinned: FastMap::default(),
            noinline: HashSet::default(),
            in_progress: HashSet::default(),
        }
    }

    fn run(mut self) -> DResult<OpId> {
        let module_region = self
            .ctx
            .block_parent(self.module_block)
            .expect("the module block is in a region");
        let name = self.ctx.sym("builtin.module");
        let module = self
            .ctx
            .create_op(name, &[], &[], &[], vec![module_region], Location::Unknown);
        for e in &self.checked.entries {
            self.symbols.insert(e.name.to_string());
            self.funcs.insert((e.id, String::new()), e.name.to_string().into());
            self.entries.insert(e.id);
        }
        // Callees before callers, in declaration order (a function only
        // calls earlier ones, or itself: Note [Recursive functions] in
        // check): internalising a function then never recurses into
        // another, however long the chain of calls.
        for id in self.reachable() {
            if !self.entries.contains(&id) && self.first_order(id).is_some() {
                self.func(id)?;
            }
        }
        for e in &self.checked.entries {
            self.func(e.id)?;
        }
        Ok(module)
    }

    /// The top-level functions reachable from the entry points, in
    /// declaration order.
    fn reachable(&self) -> Vec<GlobalId> {
        let mut seen: HashSet<GlobalId> = self.checked.entries.iter().map(|e| e.id).collect();
        let mut work: Vec<GlobalId> = seen.iter().copied().collect();
        // One walk stack for all functions (it is empty after each walk).
        let mut stack = Vec::new();
        while let Some(id) = work.pop() {
            let mut found = Vec::new();
            stack.push(&self.valbind(id).body);
            while let Some(e) = stack.pop() {
                let res = match &e.kind {
                    ExpKind::Var(v) => v.res.as_ref(),
                    ExpKind::BinOp { op, .. } | ExpKind::OpSection { op, .. } => op.res.as_ref(),
                    _ => None,
                };
                if let Some(Resolved::Global(g)) = res {
                    found.push(*g);
                }
                crate::syntax::visit::children(e, &mut |c| stack.push(c));
            }
            for g in found {
                if seen.insert(g) {
                    work.push(g);
                }
            }
        }
        let mut ids: Vec<GlobalId> = seen.into_iter().collect();
        ids.sort_by_key(|g| (g.program, g.dec));
        ids
    }

    pub fn location(&self, span: Span) -> Location {
        match self.sources.get(span.file as usize) {
            Some(&source) => Location::Span {
                source,
                start: span.lo,
                end: span.hi,
            },
            None => Location::Unknown,
        }
    }

    /// Make `span` the location of the ops created until the returned
    /// location is restored with [`Internaliser::restore`].
    /// Code inlined from the prelude keeps the location of its call site.
    pub fn at(&mut self, span: Span) -> (Location, Span) {
        let saved = (self.loc, self.span);
        if Some(span.file) != self.prelude || self.loc == Location::Unknown {
            self.loc = self.location(span);
            self.span = span;
        }
        saved
    }
    pub fn restore(&mut self, saved: (Location, Span)) {
        (self.loc, self.span) = saved;
    }

    /// `file:line:col` of the current span, for assert messages.
    pub fn where_(&self) -> String {
        if (self.span.file as usize) < self.sm.files().len() {
            self.sm.describe(self.span)
        } else {
            "<unknown>".into()
        }
    }

    pub fn valbind(&self, id: GlobalId) -> &'a ValBind {
        let checked: &'a Checked = self.checked;
        let mut dec = &checked.programs[id.program as usize].decs[id.dec as usize];
        loop {
            match dec {
                Dec::Val(vb) => return vb,
                Dec::Local(d, _) => dec = d,
                _ => panic!("global {id:?} is not a value declaration"),
            }
        }
    }

    /// Whether a top-level function is compiled to a `soac.func` (Note
    /// [Functions]); its calling convention if so.
    pub fn first_order(&self, id: GlobalId) -> Option<Sig> {
        let vb = self.valbind(id);
        if vb.params.is_empty()
            || vb.type_params.iter().any(|tp| matches!(tp, TypeParam::Type { .. }))
            || vb.attrs.iter().any(|a| &*a.name == "inline")
        {
            return None;
        }
        let ok =
            |t: &Option<crate::types::Type>| t.as_ref().is_some_and(|t| !t.has_function() && !values::has_param(t));
        if !vb.params.iter().all(|p| ok(&p.ty)) || !ok(&vb.body.ty) {
            return None;
        }
        self.signature(vb).ok()
    }

    /// The calling convention of a first-order function (Note
    /// [Functions]).
    pub fn signature(&self, vb: &ValBind) -> DResult<Sig> {
        self.signature_fixing(vb, &[])
    }

    /// [`Self::signature`] of a specialisation where the parameters
    /// `fixed` marks are not passed (Note [Specialised recursive
    /// functions]): they have no leaves.
    pub fn signature_fixing(&self, vb: &ValBind, fixed: &[bool]) -> DResult<Sig> {
        let mut sig = Sig {
            sizes: Vec::new(),
            params: Vec::new(),
        };
        let mut bound: Vec<Name> = Vec::new();
        for (k, p) in vb.params.iter().enumerate() {
            if fixed.get(k).copied().unwrap_or(false) {
                sig.params.push(Vec::new());
                continue;
            }
            let t = values::declared_type(p).ok_or_else(|| internal(p.span, "a parameter without a type"))?;
            let mut leaves = Vec::new();
            sig_leaves(&t, &[], &bound, &mut sig.sizes, &mut leaves).map_err(|w| unsupported(p.span, w))?;
            sig.params.push(leaves);
            pat_names(p, &mut bound);
        }
        for tp in &vb.type_params {
            if let TypeParam::Size { name, span } = tp {
                if !sig.sizes.iter().any(|m| m.as_ref() == Some(name)) {
                    return Err(unsupported(
                        *span,
                        &format!("a size parameter `{name}` that no parameter type mentions"),
                    ));
                }
            }
        }
        Ok(sig)
    }

    /// The `soac.func` of a first-order function, internalised the first
    /// time it is needed: its symbol, and for each dimension of each result
    /// what it is known to be.
    pub fn func(&mut self, id: GlobalId) -> DResult<(Rc<str>, Rc<ResultSizes>)> {
        self.func_fixing(id, None)
    }

    /// [`Self::func`], or with `spec`, the specialisation of a recursive
    /// higher-order function to the function arguments it gives (its key
    /// and the values of the parameters it fixes: Note [Specialised
    /// recursive functions]).
    pub fn func_fixing(
        &mut self,
        id: GlobalId,
        spec: Option<(String, Vec<Option<values::V<'a>>>)>,
    ) -> DResult<(Rc<str>, Rc<ResultSizes>)> {
        let key = (id, spec.as_ref().map(|(k, _)| k.clone()).unwrap_or_default());
        let name = match self.funcs.get(&key) {
            Some(s) => s.clone(),
            None => {
                let base = self.valbind(id).name.to_string();
                let mut name = base.clone();
                let mut k = 0;
                while self.symbols.contains(&name) {
                    k += 1;
                    name = format!("{base}_{k}");
                }
                self.symbols.insert(name.clone());
                let s: Rc<str> = name.into();
                self.funcs.insert(key.clone(), s.clone());
                s
            }
        };
        if let Some(r) = self.compiled.get(&key) {
            return Ok((name, r.clone()));
        }
        if self.in_progress.contains(&key) {
            // A recursive call: the result sizes are not known before the
            // body is, so the call's results get sizes of their own.
            let vb = self.valbind(id);
            let t = vb
                .body
                .ty
                .as_ref()
                .ok_or_else(|| internal(vb.span, "a body without a type"))?;
            let leaves =
                values::leaf_types(t).map_err(|w| unsupported(vb.span, &format!("functions returning {w}")))?;
            let r = leaves.iter().map(|l| vec![ResDim::Unknown; l.shape.len()]).collect();
            return Ok((name, Rc::new(r)));
        }
        let entry = self.entries.contains(&id) && spec.is_none();
        self.in_progress.insert(key.clone());
        let fixed = spec.map(|(_, f)| f).unwrap_or_default();
        let r = self.function(id, &name, entry, &fixed);
        self.in_progress.remove(&key);
        let r = Rc::new(r?);
        self.compiled.insert(key, r.clone());
        Ok((name, r))
    }

    /// Internalise a top-level function as a `soac.func` named `name`;
    /// returns what its results' sizes are known to be.
    fn function(
        &mut self,
        id: GlobalId,
        name: &str,
        entry: bool,
        fixed: &[Option<values::V<'a>>],
    ) -> DResult<ResultSizes> {
        let vb = self.valbind(id);
        let saved_block = self.block;
        let saved_facts = std::mem::take(&mut self.facts);
        let saved_unsafe = std::mem::replace(&mut self.unsafe_, false);
        let saved_loc = self.at(vb.span);
        let r = self.ctx.create_region();
        let b = self.ctx.append_block(r, &[]);
        self.block = b;
        let saved_entry = std::mem::replace(&mut self.entry_block, b);
        let saved_constants = std::mem::take(&mut self.constants);
        let result = self.function_body(vb, b, entry, fixed);
        self.block = saved_block;
        self.facts = saved_facts;
        self.unsafe_ = saved_unsafe;
        self.entry_block = saved_entry;
        self.constants = saved_constants;
        let (returned, num_sizes) = result?;
        // The sizes of the results that are parameters or constants.
        let params = self.ctx.block_args(b).to_vec();
        let mut known = Vec::new();
        let mut results = Vec::new();
        for v in returned {
            let dims: Vec<ResDim> = self
                .dims(v)
                .into_iter()
                .map(|d| match d {
                    Dim::Const(c) => ResDim::Const(c),
                    Dim::Value(x) => match (params.iter().position(|&p| p == x), self.int_value(x)) {
                        (Some(k), _) => ResDim::Arg(k),
                        (None, Some(c)) if c >= 0 => ResDim::Const(c as u64),
                        _ => ResDim::Unknown,
                    },
                    Dim::Unknown => ResDim::Unknown,
                })
                .collect();
            let shape = dims
                .iter()
                .map(|d| match d {
                    ResDim::Const(c) => Dim::Const(*c),
                    _ => Dim::Unknown,
                })
                .collect();
            let t = self.ctx.value_type(v);
            results.push(self.with_dims(t, shape));
            known.push(dims);
        }
        let inputs: Vec<_> = self
            .ctx
            .block_args(b)
            .to_vec()
            .into_iter()
            .map(|a| {
                let t = self.ctx.value_type(a);
                self.existential(t)
            })
            .collect();
        let ft = self.ctx.intern_type(TypeKind::Function { inputs, results });
        let name_attr = self.ctx.string_attr(name);
        let ft_attr = self.ctx.intern_attr(AttrKind::Type(ft));
        let mut attrs = vec![("sym_name", name_attr), ("function_type", ft_attr)];
        let vb = self.valbind(id);
        if vb.attrs.iter().any(|a| &*a.name == "noinline") {
            attrs.push(("noinline", self.ctx.intern_attr(AttrKind::Unit)));
        }
        if vb.recursive {
            attrs.push(("recursive", self.ctx.intern_attr(AttrKind::Unit)));
        }
        if entry {
            attrs.push(("entry", self.ctx.intern_attr(AttrKind::Unit)));
            // Note [Entry arguments]: the executable's runtime needs to know
            // which parameters are sizes it derives from the arguments.
            attrs.push(("size_params", self.ctx.int_attr(num_sizes as i64, Scalar::I64)));
            // How the flattened parameters and results group into the
            // values a user passes (Note [Entry point interfaces]).
            let text = interface::entry_interface(self.valbind(id))?;
            attrs.push(("interface", self.ctx.string_attr(&text)));
        }
        self.block = self.module_block;
        self.op("soac.func", &[], &[], &attrs, vec![r]);
        self.block = saved_block;
        self.restore(saved_loc);
        Ok(known)
    }

    /// The parameters (block arguments of `b`) and body of a function,
    /// ending in `soac.return`; returns the returned values and the number
    /// of size parameters (the first block arguments).
    fn function_body(
        &mut self,
        vb: &'a ValBind,
        b: BlockId,
        entry: bool,
        fixed: &[Option<values::V<'a>>],
    ) -> DResult<(Vec<Value>, usize)> {
        let is_fixed: Vec<bool> = fixed.iter().map(Option::is_some).collect();
        let sig = self.signature_fixing(vb, &is_fixed)?;
        let i64t = self.ctx.scalar(Scalar::I64);
        let mut env = Env::default();
        let mut sizes = Vec::new();
        for n in &sig.sizes {
            let v = self.ctx.add_block_arg(b, i64t);
            sizes.push(v);
            if let Some(n) = n {
                env = env.bind(n.clone(), values::V::Leaf(v));
            }
        }
        let mut scope = Scope { env, ts: Rc::default() };
        let mut declared = Vec::new();
        for (k, (p, leaves)) in vb.params.iter().zip(&sig.params).enumerate() {
            if let Some(Some(v)) = fixed.get(k) {
                scope = self.bind_pat(&scope, p, v.clone())?;
                continue;
            }
            let mut vals = Vec::new();
            for l in leaves {
                let mut dims = Vec::new();
                for s in &l.dims {
                    dims.push(match s {
                        Slot::Const(c) => Dim::Const(*c),
                        Slot::Size(i) => Dim::Value(sizes[*i]),
                        Slot::Param(n) => match scope.env.lookup(n).and_then(|v| v.as_leaf()) {
                            Some(v) => Dim::Value(v),
                            None => return Err(internal(p.span, &format!("size `{n}` is not an i64 parameter"))),
                        },
                    });
                }
                let t = self.array_type(l.scalar, dims);
                vals.push(self.ctx.add_block_arg(b, t));
            }
            let t = p.ty.as_ref().expect("signature checked the type");
            let v = structure(t, &mut vals.into_iter());
            scope = self.bind_pat(&scope, p, v.clone())?;
            declared.push((p, v));
        }
        if entry {
            for (k, (p, v)) in declared.into_iter().enumerate() {
                self.check_entry_sizes(&scope, p, &v, k + 1)?;
            }
        }
        let v = self.exp(&scope, &vb.body)?;
        let leaves = v
            .leaves()
            .ok_or_else(|| unsupported(vb.body.span, "functions that return functions"))?;
        self.op("soac.return", &leaves, &[], &[], vec![]);
        Ok((leaves, sizes.len()))
    }
}

impl<'a, 'c> Internaliser<'a, 'c> {
    /// Note [Entry arguments]: an entry point's parameter whose declared
    /// dimensions are expressions (`[x + 1]`) takes any size; the size is
    /// checked here, when the parameters are bound, against the value of
    /// the expression. A size term (`[three]`, `[n/2]`: Note [Sizes from
    /// constants] in `check`) is checked the same way.
    fn check_entry_sizes(&mut self, scope: &Scope<'a>, p: &'a Pat, v: &values::V<'a>, k: usize) -> DResult<()> {
        let Some(crate::types::Type::Array { shape, .. }) = values::declared_type(p) else {
            return Ok(());
        };
        let Some(leaf) = v.leaves().and_then(|ls| ls.first().copied()) else {
            return Ok(());
        };
        for (d, s) in shape.iter().enumerate() {
            if !matches!(s, Size::Expr(_) | Size::Term(_)) {
                continue;
            }
            let Some(want) = self.size_value(scope, s) else {
                continue;
            };
            let actual = self.size(leaf, d)?;
            let ok = self.cmpop("eq", actual, want);
            let msg = format!(
                "invalid size: argument {k} of the entry point has size {{0}} in dimension {}, but its type requires {{1}}",
                d + 1
            );
            self.assert_with(ok, &msg, &[actual, want]);
        }
        Ok(())
    }
}

/// The leaves of a parameter of type `t` under arrays whose dimensions
/// have the slots `outer`: the dimensions of one array are shared by all
/// the leaves of its elements (an array of tuples has one outer size).
fn sig_leaves(
    t: &crate::types::Type,
    outer: &[Slot],
    bound: &[Name],
    sizes: &mut Vec<Option<Name>>,
    out: &mut Vec<LeafSig>,
) -> Result<(), &'static str> {
    use crate::types::Type;
    match t {
        Type::Prim(p) => out.push(LeafSig {
            scalar: values::scalar(*p),
            dims: outer.to_vec(),
        }),
        Type::Array { elem, shape, .. } => {
            let mut dims = outer.to_vec();
            for s in shape {
                dims.push(match s {
                    Size::Const(c) => Slot::Const((*c).max(0) as u64),
                    Size::Var(n) if bound.contains(n) => Slot::Param(n.clone()),
                    Size::Var(n) => match sizes.iter().position(|m| m.as_ref() == Some(n)) {
                        Some(i) => Slot::Size(i),
                        None => {
                            sizes.push(Some(n.clone()));
                            Slot::Size(sizes.len() - 1)
                        }
                    },
                    Size::Unknown | Size::Infer(_) | Size::Expr(_) | Size::Term(_) => {
                        sizes.push(None);
                        Slot::Size(sizes.len() - 1)
                    }
                });
            }
            sig_leaves(elem, &dims, bound, sizes, out)?;
        }
        Type::Tuple(ts) => {
            for t in ts {
                sig_leaves(t, outer, bound, sizes, out)?;
            }
        }
        Type::Record(fs) => {
            for (_, t) in fs {
                sig_leaves(t, outer, bound, sizes, out)?;
            }
        }
        Type::Arrow { .. } => return Err("function-typed parameters"),
        Type::Param(_) | Type::Var(_) => return Err("parameters of a type that is not known here"),
        Type::Sum(cs) => {
            // The tag, then the slots, each dimension of a slot a size of
            // its own (Note [Sum types]).
            let layout = sums::SumLayout::of(cs)?;
            out.push(LeafSig {
                scalar: Scalar::I8,
                dims: outer.to_vec(),
            });
            for &(scalar, rank) in &layout.slots {
                let mut dims = outer.to_vec();
                for _ in 0..rank {
                    sizes.push(None);
                    dims.push(Slot::Size(sizes.len() - 1));
                }
                out.push(LeafSig { scalar, dims });
            }
        }
    }
    Ok(())
}

/// The names a pattern binds.
pub(crate) fn pat_names(p: &Pat, out: &mut Vec<Name>) {
    match &p.kind {
        PatKind::Id(n) => out.push(n.clone()),
        PatKind::Wildcard | PatKind::Lit { .. } => {}
        PatKind::Tuple(ps) | PatKind::Constr(_, ps) => ps.iter().for_each(|q| pat_names(q, out)),
        PatKind::Record(fs) => fs.iter().for_each(|(_, _, q)| pat_names(q, out)),
        PatKind::Ascribe(q, _) => pat_names(q, out),
    }
}
