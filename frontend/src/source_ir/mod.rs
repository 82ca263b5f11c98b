//! Emission of the `source` dialect: a checked program as IR that keeps
//! the program as written — tuples, records, lambdas, higher-order and
//! polymorphic functions — with every type the checker inferred.
//!
//! - [`types`]: the IR type of a source type (Note [Source sizes]), type
//!   variables, the existential types of signatures.
//! - `exp`: expressions, patterns, control flow, lambdas and local
//!   functions.
//! - `apply`: application — of top-level, prelude and built-in functions
//!   and of function values — partial application, and the built-ins that
//!   are scalar ops or SOAC calls.
//! - `arrays`: array literals, ranges, indexing and slicing, in-place
//!   updates, size coercions.
//!
//! **Note [Source functions].**
//! Every top-level `def` and `entry` of the user's program becomes a
//! `source.func` named after it (entry points keep their names; another
//! definition gets a suffix `_1`, `_2`, ... when an earlier one or a
//! function of the prelude has its name). Its inputs are its size
//! parameters `[n]`, one `i64` each, in order, then one value for each
//! parameter pattern, whose type names the sizes bound before it
//! (`^bb0(%n: i64, %xs: [%n]f32)`); it returns one value (a tuple where
//! the source returns several). `function_type` has `?` for every size an
//! SSA value names. An entry point has the unit attribute `entry`; a
//! polymorphic function lists its type parameters in `type_params` and
//! spells them `!source.tyvar<"a">` (Note [Type variables] in the
//! dialect). A top-level constant is a function without inputs.
//!
//! A call `f a b` of such a function is `source.apply {callee = @f}` with
//! the size arguments first: each is read from the argument whose
//! parameter type first mentions the size — the value or constant its
//! type names, or `source.size`. The prelude's functions and the built-ins
//! are not emitted; a call names them (`@length`, `@"|>"`,
//! `@"f32.atan2"`) with the arguments as written (no size arguments). Built-ins that are one
//! scalar op (`+`, `f32.sqrt`; [`crate::check::builtins::scalar_op`])
//! become that op, the SOACs (`map`, `reduce`, `scatter`, ...)
//! `source.soac_call`, the numeric constants `source.constant`.
//!
//! **Note [Function values].**
//! A source function type `a -> b -> c` is the IR function type
//! `(a, b) -> c`: arrows are uncurried as far as they go, so one source
//! type has one IR spelling however the function was written. A lambda
//! `\x -> \y -> e` takes both arguments (applying its body to the second);
//! an application with fewer arguments than the callee takes — a partial
//! application, a section, a function named without arguments (`map f
//! xs`) — is a `source.lambda` that takes the rest and makes the call; an
//! application with more applies the result to the rest. A local function
//! is a `source.lambda`; its size parameters are read from its arguments
//! with `source.size`. A polymorphic local function is emitted at each
//! use, instantiated at the types of that use, since an IR value has one
//! type.
//!
//! **Note [Source sizes].**
//! A size in a type names the SSA value of the size parameter or `i64`
//! variable the checker's type names, where that name is in scope, and is
//! `?` otherwise. The checker is lenient about sizes (see `check`), so the
//! emitter gives structural ops the types their operands imply (a
//! projection has the type of the component, a slice the lengths it is
//! given) and, where the verifier compares types exactly — the initial
//! values, parameters and yields of a loop, a record field replaced by a
//! value of other sizes — makes a differing size `?` with `source.coerce`.
//! No run-time checks are emitted: the ops' meaning includes their
//! failures (an index out of bounds, a coercion to a size that disagrees,
//! a division by zero), which a lowering to `soac` makes explicit.

mod apply;
mod arrays;
mod exp;
pub mod types;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use futmlir_dialects::ir::{
    Attr, AttrKind, BlockId, Context, Location, OpId, RegionId, Scalar, SourceId, Type as IrType, TypeKind, Value,
};

use crate::check::{builtins, Checked};
use crate::diag::Diag;
use crate::internalise::values::TSubst;
use crate::span::{SourceMap, Span};
use crate::syntax::ast::{Dec, Exp, GlobalId, Name, Pat, TypeParam, ValBind};
use crate::types::Type;

pub(crate) use apply::Callee;

/// Emit a checked program as a new `builtin.module` of `source.func`s,
/// one per top-level definition of the user's program (see the module
/// documentation). The program's source files are registered with `ctx`
/// so that op locations render. A construct the emitter does not handle
/// yet gives a diagnostic "emission of X as source IR is not supported
/// yet" at its span.
pub fn emit_source(checked: &Checked, sm: &SourceMap, ctx: &mut Context) -> Result<OpId, Diag> {
    Emitter::new(checked, sm, ctx).run()
}

pub(crate) type DResult<T> = Result<T, Diag>;

/// "emission of X as source IR is not supported yet" at `span`.
pub(crate) fn unsupported(span: Span, what: &str) -> Diag {
    Diag::new(span, format!("emission of {what} as source IR is not supported yet"))
}

/// A problem in the checked tree that the checker's invariants rule out.
pub(crate) fn internal(span: Span, what: &str) -> Diag {
    Diag::new(span, format!("internal error in source IR emission: {what}"))
}

/// What a name in scope stands for.
#[derive(Clone)]
pub(crate) enum Binding<'a> {
    Value(Value),
    /// A size parameter of a local function while its type is computed,
    /// before its value is read from the arguments: sizes naming it are
    /// unknown there.
    Unknown,
    /// A polymorphic local function, emitted at each use (Note [Function
    /// values]).
    PolyFun(Rc<LocalFun<'a>>),
}

/// A local function kept to be emitted where it is used.
pub(crate) struct LocalFun<'a> {
    pub params: &'a [Pat],
    pub size_params: Vec<Name>,
    pub body: &'a Exp,
    /// Its (polymorphic) type.
    pub ty: Type,
    /// The scope it was defined in.
    pub scope: Scope<'a>,
}

/// The names in scope (a persistent list, so local functions capture it
/// for free) and the instances of the type parameters of the polymorphic
/// local function being emitted.
#[derive(Clone, Default)]
pub(crate) struct Scope<'a> {
    vars: Option<Rc<ScopeNode<'a>>>,
    pub ts: Rc<TSubst>,
}

struct ScopeNode<'a> {
    name: Name,
    binding: Binding<'a>,
    next: Option<Rc<ScopeNode<'a>>>,
}

impl<'a> Scope<'a> {
    pub fn bind(&self, name: Name, binding: Binding<'a>) -> Scope<'a> {
        Scope {
            vars: Some(Rc::new(ScopeNode {
                name,
                binding,
                next: self.vars.clone(),
            })),
            ts: self.ts.clone(),
        }
    }

    pub fn lookup(&self, name: &str) -> Option<&Binding<'a>> {
        let mut cur = self.vars.as_ref();
        while let Some(n) = cur {
            if &*n.name == name {
                return Some(&n.binding);
            }
            cur = n.next.as_ref();
        }
        None
    }
}

pub(crate) struct Emitter<'a, 'c> {
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
    /// The `source.func` symbol of each top-level definition of the
    /// user's program (Note [Source functions]).
    symbols: HashMap<GlobalId, Rc<str>>,
    /// The type parameters of the top-level function being emitted.
    pub type_params: Vec<Name>,
}

impl<'a, 'c> Emitter<'a, 'c> {
    fn new(checked: &'a Checked, sm: &'a SourceMap, ctx: &'c mut Context) -> Self {
        let sources = sm.register_with(ctx);
        let r = ctx.create_region();
        let module_block = ctx.append_block(r, &[]);
        Emitter {
            checked,
            sm,
            ctx,
            sources,
            block: module_block,
            module_block,
            loc: Location::Unknown,
            span: Span::default(),
            symbols: HashMap::new(),
            type_params: Vec::new(),
        }
    }

    /// The index of the user's program in `checked.programs` (the last).
    fn user_program(&self) -> u32 {
        self.checked.programs.len().saturating_sub(1) as u32
    }

    fn run(mut self) -> DResult<OpId> {
        let module_region = self
            .ctx
            .block_parent(self.module_block)
            .expect("the module block was made in a region");
        let name = self.ctx.sym("builtin.module");
        let module = self
            .ctx
            .create_op(name, &[], &[], &[], vec![module_region], Location::Unknown);
        let defs = self.user_definitions();
        self.name_functions(&defs);
        for (id, vb) in defs {
            self.func(id, vb)?;
        }
        Ok(module)
    }

    /// The value definitions of the user's program, in order.
    fn user_definitions(&self) -> Vec<(GlobalId, &'a ValBind)> {
        let checked: &'a Checked = self.checked;
        let program = self.user_program();
        let Some(prog) = checked.programs.get(program as usize) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, dec) in prog.decs.iter().enumerate() {
            let mut d = dec;
            while let Dec::Local(inner, _) = d {
                d = inner;
            }
            if let Dec::Val(vb) = d {
                let id = GlobalId { program, dec: i as u32 };
                out.push((id, vb));
            }
        }
        out
    }

    /// The symbols of the user's definitions (Note [Source functions]).
    fn name_functions(&mut self, defs: &[(GlobalId, &'a ValBind)]) {
        let mut taken: HashSet<String> = self.checked.entries.iter().map(|e| e.name.to_string()).collect();
        // Calls name the prelude's functions and the built-ins: a
        // definition of the user's must not take their symbols.
        let mut outside: HashSet<String> = builtins::GENERAL.iter().map(|(n, _)| n.to_string()).collect();
        outside.extend(builtins::OPERATORS.iter().map(|n| n.to_string()));
        for prog in &self.checked.programs[..self.user_program() as usize] {
            for dec in &prog.decs {
                let mut d = dec;
                while let Dec::Local(inner, _) = d {
                    d = inner;
                }
                if let Dec::Val(vb) = d {
                    outside.insert(vb.name.to_string());
                }
            }
        }
        for &(id, vb) in defs {
            let name = match self.checked.entries.iter().find(|e| e.id == id) {
                Some(e) => e.name.to_string(),
                None => {
                    let base = vb.name.to_string();
                    let mut name = base.clone();
                    let mut k = 0;
                    while taken.contains(&name) || outside.contains(&name) {
                        k += 1;
                        name = format!("{base}_{k}");
                    }
                    taken.insert(name.clone());
                    name
                }
            };
            self.symbols.insert(id, name.into());
        }
    }

    /// The definition of a top-level name.
    pub fn valbind(&self, id: GlobalId) -> DResult<&'a ValBind> {
        let checked: &'a Checked = self.checked;
        let mut dec = checked
            .programs
            .get(id.program as usize)
            .and_then(|p| p.decs.get(id.dec as usize));
        while let Some(d) = dec {
            match d {
                Dec::Val(vb) => return Ok(vb),
                Dec::Local(inner, _) => dec = Some(inner),
                _ => break,
            }
        }
        Err(internal(self.span, "a name that is not a value definition"))
    }

    /// The symbol of a function of the user's program.
    pub fn symbol(&self, id: GlobalId) -> DResult<Rc<str>> {
        self.symbols
            .get(&id)
            .cloned()
            .ok_or_else(|| internal(self.span, "a function of the program without a symbol"))
    }

    /// Whether `id` is a definition of the user's program (emitted), not of
    /// the prelude.
    pub fn is_user(&self, id: GlobalId) -> bool {
        id.program == self.user_program()
    }

    // ----- locations -----------------------------------------------------

    fn location(&self, span: Span) -> Location {
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
    /// location is restored with [`Emitter::restore`].
    pub fn at(&mut self, span: Span) -> (Location, Span) {
        let saved = (self.loc, self.span);
        self.loc = self.location(span);
        self.span = span;
        saved
    }

    pub fn restore(&mut self, saved: (Location, Span)) {
        (self.loc, self.span) = saved;
    }

    // ----- building ops --------------------------------------------------

    /// Create an op at the end of the current block, at the current
    /// location.
    pub fn op(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[IrType],
        attrs: &[(&str, Attr)],
        regions: Vec<RegionId>,
    ) -> OpId {
        let name = self.ctx.sym(name);
        let attrs: Vec<_> = attrs.iter().map(|(k, a)| (self.ctx.sym(k), *a)).collect();
        let op = self.ctx.create_op(name, operands, results, &attrs, regions, self.loc);
        self.ctx.insert_op(self.block, None, op);
        op
    }

    /// An op with one result; returns it.
    pub fn op1(&mut self, name: &str, operands: &[Value], result: IrType, attrs: &[(&str, Attr)]) -> Value {
        let op = self.op(name, operands, &[result], attrs, Vec::new());
        self.ctx.result(op, 0)
    }

    pub fn value_type(&self, v: Value) -> IrType {
        self.ctx.value_type(v)
    }

    /// A region of one block without arguments.
    pub fn new_region(&mut self) -> (RegionId, BlockId) {
        let r = self.ctx.create_region();
        let b = self.ctx.append_block(r, &[]);
        (r, b)
    }

    /// Run `f` with new ops going to the end of block `b`.
    pub fn in_block<T>(&mut self, b: BlockId, f: impl FnOnce(&mut Self) -> DResult<T>) -> DResult<T> {
        let saved = std::mem::replace(&mut self.block, b);
        let r = f(self);
        self.block = saved;
        r
    }

    /// A region whose block takes arguments of types `args` and yields
    /// what `body` returns.
    pub fn region(
        &mut self,
        args: &[IrType],
        body: impl FnOnce(&mut Self, Vec<Value>) -> DResult<Vec<Value>>,
    ) -> DResult<RegionId> {
        let r = self.ctx.create_region();
        let b = self.ctx.append_block(r, args);
        let params = self.ctx.block_args(b).to_vec();
        self.in_block(b, |s| {
            let ys = body(s, params)?;
            s.op("source.yield", &ys, &[], &[], Vec::new());
            Ok(())
        })?;
        Ok(r)
    }

    pub fn const_i64(&mut self, v: i64) -> Value {
        let a = self.ctx.int_attr(v, Scalar::I64);
        let t = self.ctx.scalar(Scalar::I64);
        self.op1("source.constant", &[], t, &[("value", a)])
    }

    pub fn const_bool(&mut self, b: bool) -> Value {
        let a = self.ctx.intern_attr(AttrKind::Bool(b));
        let t = self.ctx.scalar(Scalar::Bool);
        self.op1("source.constant", &[], t, &[("value", a)])
    }

    /// `source.binop {kind}` on two values of one scalar type.
    pub fn binop(&mut self, kind: &str, a: Value, b: Value) -> Value {
        let t = self.value_type(a);
        let k = self.ctx.string_attr(kind);
        self.op1("source.binop", &[a, b], t, &[("kind", k)])
    }

    /// `source.cmpop {kind}` on two values of one scalar type.
    pub fn cmpop(&mut self, kind: &str, a: Value, b: Value) -> Value {
        let t = self.ctx.scalar(Scalar::Bool);
        let k = self.ctx.string_attr(kind);
        self.op1("source.cmpop", &[a, b], t, &[("kind", k)])
    }

    // ----- functions -----------------------------------------------------

    /// A top-level definition as a `source.func` (Note [Source functions]).
    fn func(&mut self, id: GlobalId, vb: &'a ValBind) -> DResult<()> {
        let saved = self.at(vb.span);
        self.type_params = function_type_params(vb);
        let (r, b) = self.new_region();
        let returned = self.in_block(b, |s| s.func_body(vb, b));
        let returned = match returned {
            Ok(v) => v,
            Err(d) => {
                self.restore(saved);
                return Err(d);
            }
        };
        let inputs: Vec<IrType> = self
            .ctx
            .block_args(b)
            .to_vec()
            .into_iter()
            .map(|a| {
                let t = self.value_type(a);
                self.existential(t)
            })
            .collect();
        let rt = self.value_type(returned);
        let results = vec![self.existential(rt)];
        let ft = self.ctx.intern_type(TypeKind::Function { inputs, results });
        let name = self.symbol(id)?;
        let mut attrs = vec![
            ("sym_name", self.ctx.string_attr(&name)),
            ("function_type", self.ctx.intern_attr(AttrKind::Type(ft))),
        ];
        if self.checked.entries.iter().any(|e| e.id == id) {
            attrs.push(("entry", self.ctx.intern_attr(AttrKind::Unit)));
        }
        if !self.type_params.is_empty() {
            let names = self.type_params.clone();
            let names = names.iter().map(|n| self.ctx.string_attr(n)).collect();
            attrs.push(("type_params", self.ctx.intern_attr(AttrKind::Array(names))));
        }
        let block = std::mem::replace(&mut self.block, self.module_block);
        self.op("source.func", &[], &[], &attrs, vec![r]);
        self.block = block;
        self.restore(saved);
        Ok(())
    }

    /// The inputs (arguments of block `b`) and body of a top-level
    /// function, ending in `source.return`; returns the returned value.
    fn func_body(&mut self, vb: &'a ValBind, b: BlockId) -> DResult<Value> {
        let mut sc = Scope::default();
        let i64t = self.ctx.scalar(Scalar::I64);
        for tp in &vb.type_params {
            if let TypeParam::Size { name, .. } = tp {
                let v = self.ctx.add_block_arg(b, i64t);
                sc = sc.bind(name.clone(), Binding::Value(v));
            }
        }
        for p in &vb.params {
            let pt =
                p.ty.as_ref()
                    .ok_or_else(|| internal(p.span, "a parameter without a type"))?;
            let t = self.ir_type(&sc, pt)?;
            let v = self.ctx.add_block_arg(b, t);
            sc = self.bind_pat(&sc, p, v)?;
        }
        let v = self.exp(&sc, &vb.body)?;
        self.op("source.return", &[v], &[], &[], Vec::new());
        Ok(v)
    }
}

/// The type parameters of a top-level function: those declared, then
/// those the checker invented for unconstrained types (they occur in the
/// types of the parameters or the body), in order.
fn function_type_params(vb: &ValBind) -> Vec<Name> {
    let mut out: Vec<Name> = vb
        .type_params
        .iter()
        .filter_map(|tp| match tp {
            TypeParam::Type { name, .. } => Some(name.clone()),
            TypeParam::Size { .. } => None,
        })
        .collect();
    for t in vb
        .params
        .iter()
        .filter_map(|p| p.ty.as_ref())
        .chain(vb.body.ty.as_ref())
    {
        types::type_params_of(t, &mut out);
    }
    out
}
