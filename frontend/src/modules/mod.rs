//! The module system, elaborated away before type checking.
//!
//! [`elaborate`] takes the parsed prelude and program, loads the files
//! they `import`, and gives back two flat programs (the prelude and the
//! user's, imports included) of plain `def` and `type` declarations: every
//! structure's declarations are emitted once under a qualified name
//! (`M.f`, `M.N.t`), every functor application emits a fresh copy of the
//! functor's body under the name of the module it defines, and every name
//! in an expression or type is rewritten to the flat name it denotes
//! ([`rename`]). `open`, `local` and `import` only change which names are
//! in scope (a file's `import`s are not visible to the files importing
//! it). Flat names contain dots, which source names cannot, so they never
//! clash with the user's: an imported file's names are qualified by the
//! file's name (`util.square`), the main file's top-level names stay as
//! written, and a name defined twice gets a `#k` suffix. The prelude
//! builds the numeric modules (`i32`, `f32`, ...) from structures of
//! built-ins only it can name (Note [Intrinsic modules]).
//!
//! Note [Sealing]: where a module meets a signature (`module M : S = ...`,
//! or a functor's argument), [`sig`] checks what needs no types (that
//! every type, value and module the signature asks for exists, with the
//! right number of type parameters) and emits a [`Seal`] declaration for
//! the rest, which the checker verifies (`check::seal`): each value's type
//! against its spec, each type the signature defines against the module's.
//! An ascription also hides: outside, the module has only what the
//! signature lists, and its abstract types are new opaque types (Note
//! [Abstract types] in `check::seal`). A functor's argument is not sealed:
//! each application's copy of the body sees the argument's types as they
//! are. So that the body relies on nothing its parameters' module types do
//! not say, it is also elaborated once where the functor is defined, with
//! stand-ins for the parameters (`sig::assume`: abstract types opaque,
//! values assumed at their specs' types), and that copy is only checked
//! (`Dec::CheckOnly`). A functor given for a parameter of functor type is
//! checked the same way: applied to a stand-in, its result must match.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use futmlir_dialects::ir::FastMap;

use crate::check::builtins;
use crate::diag::Diag;
use crate::span::{FileId, SourceMap, Span};
use crate::syntax::ast::*;
use crate::syntax::parser;
use crate::types::PrimType;

mod rename;
mod sig;
#[cfg(test)]
mod tests;

pub(crate) use sig::Sig;

/// What a name in a module scope stands for.
#[derive(Clone, Default)]
pub(crate) struct Env {
    pub vals: FastMap<Name, ValEnt>,
    pub types: FastMap<Name, TypeEnt>,
    pub mods: FastMap<Name, Module>,
    pub sigs: FastMap<Name, Rc<Sig>>,
}

impl Env {
    /// Add everything of `other`, shadowing.
    fn extend(&mut self, other: &Env) {
        for (k, v) in &other.vals {
            self.vals.insert(k.clone(), v.clone());
        }
        for (k, v) in &other.types {
            self.types.insert(k.clone(), v.clone());
        }
        for (k, v) in &other.mods {
            self.mods.insert(k.clone(), v.clone());
        }
        for (k, v) in &other.sigs {
            self.sigs.insert(k.clone(), v.clone());
        }
    }
}

#[derive(Clone)]
pub(crate) struct ValEnt {
    /// The name of the flat declaration.
    pub flat: Name,
    pub span: Span,
    /// A member of a built-in module (Note [Intrinsic modules]).
    pub builtin: bool,
}

#[derive(Clone)]
pub(crate) struct TypeEnt {
    pub flat: Name,
    pub params: Vec<TypeParam>,
    pub span: Span,
    /// The liftedness it is declared with (`type`, `type~`, `type^`).
    pub liftedness: Liftedness,
}

#[derive(Clone)]
pub(crate) enum Module {
    Struct(Rc<Env>),
    Functor(Rc<Functor>),
}

/// A parametric module: its (remaining) parameters, result signature and
/// body, and the scope it was defined in (with the parameters applied so
/// far).
pub(crate) struct Functor {
    params: Vec<ModParam>,
    result: Option<SigExp>,
    body: ModExp,
    env: Env,
    /// A stand-in for a parameter of a functor type `(p: s) -> t` while
    /// its functor's body is checked: no body; applying it gives a
    /// stand-in for `t` (`sig::assume`).
    pub assumed: bool,
    /// The parametric module type (a stand-in, see `assumed`) this functor
    /// was sealed with by an ascription: its applications are sealed with
    /// the module type's result.
    pub sealed: Option<Rc<Functor>>,
}

/// Where declarations are being elaborated.
#[derive(Clone)]
struct Ctx {
    /// Prepended to the names of declarations (`M.`, `M.N.`).
    prefix: String,
    file: FileId,
    /// The prelude: names stay as written.
    keep: bool,
    /// The top level of the main file (entry points live there).
    top_main: bool,
    /// The top level of a file.
    top: bool,
}

/// Elaborate the prelude and the program in `file` (with the files it
/// imports) into two flat programs (see the module documentation).
pub fn elaborate(sm: &mut SourceMap, prelude: Program, file: FileId, program: Program) -> Result<Vec<Program>, Diag> {
    let p = elaborate_prelude(sm, prelude)?;
    let decs = elaborate_program(sm, &p, file, program)?;
    Ok(vec![Program { decs: p.decs.clone() }, Program { decs }])
}

/// The elaborated prelude: its flat declarations and what it exports.
/// It depends on nothing but the prelude's text, so it can be reused for
/// every program whose source map gives the prelude the same file.
pub struct ElaboratedPrelude {
    pub decs: Vec<Dec>,
    exports: Env,
}

/// Elaborate the prelude on its own.
pub fn elaborate_prelude(sm: &mut SourceMap, prelude: Program) -> Result<ElaboratedPrelude, Diag> {
    let mut el = Elab::new(sm, Env::default());
    let ctx = Ctx {
        prefix: String::new(),
        file: 0,
        keep: true,
        top_main: false,
        top: true,
    };
    // Note [Intrinsic modules]: in the prelude's scope only, not in its
    // exports.
    let mut scope = Env::default();
    scope
        .mods
        .insert(Rc::from(INTRINSICS), Module::Struct(Rc::new(intrinsic_modules())));
    let mut exports = Env::default();
    for d in prelude.decs {
        el.dec(d, &mut scope, Some(&mut exports), &ctx)?;
    }
    exports
        .mods
        .insert(Rc::from(INTRINSICS), Module::Struct(Rc::new(accumulator_module())));
    Ok(ElaboratedPrelude { decs: el.out, exports })
}

/// Elaborate the program in `file` (with the files it imports) in the
/// scope of the prelude `p`: its flat declarations.
pub fn elaborate_program(
    sm: &mut SourceMap,
    p: &ElaboratedPrelude,
    file: FileId,
    program: Program,
) -> Result<Vec<Dec>, Diag> {
    let mut el = Elab::new(sm, p.exports.clone());
    // The flat names of `intrinsics`' accumulator members are taken (an
    // imported `intrinsics.fut` defines its own `acc`, `scatter_stream`).
    el.used.insert(builtins::ACC_TYPE.into());
    for f in builtins::ACC_FUNCTIONS {
        el.used.insert(format!("{INTRINSICS}.{f}").into());
    }
    el.loading.push(file_key(&el.sm.file(file).name));
    el.file(program, file, true)?;
    Ok(el.out)
}

struct Elab<'s> {
    sm: &'s mut SourceMap,
    /// Flat names taken by the user's declarations.
    used: HashSet<Name>,
    /// The flat declarations so far.
    out: Vec<Dec>,
    /// The exports of each file imported so far.
    files: FastMap<PathBuf, Rc<Env>>,
    /// The files being elaborated (the main file first), for cycles.
    loading: Vec<PathBuf>,
    prelude: Env,
    /// Where the output of each functor body being checked only starts
    /// (outermost first): see Note [Imports in checked-only code].
    check_starts: Vec<usize>,
    /// The paths of the parametric-module specs being matched (innermost
    /// last): a functor given for `module Op: (X: s) -> t` is checked by
    /// matching modules against `s` and `t`, whose types the messages
    /// name by the spec's path (`Op.t`).
    spec_paths: Vec<String>,
}

/// A file's identity: its canonical path where it exists.
fn file_key(name: &str) -> PathBuf {
    let p = Path::new(name);
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

impl<'s> Elab<'s> {
    fn new(sm: &'s mut SourceMap, prelude: Env) -> Elab<'s> {
        Elab {
            sm,
            used: HashSet::default(),
            out: Vec::new(),
            files: FastMap::default(),
            loading: Vec::new(),
            check_starts: Vec::new(),
            spec_paths: Vec::new(),
            prelude,
        }
    }

    /// A fresh flat name `prefix + name` (`#k` added if taken).
    fn flat_name(&mut self, prefix: &str, name: &str, keep: bool) -> Name {
        let base = format!("{prefix}{name}");
        if keep || !self.used.contains(base.as_str()) {
            let n: Name = base.into();
            self.used.insert(n.clone());
            return n;
        }
        let mut k = 1;
        loop {
            let cand = format!("{base}#{k}");
            if !self.used.contains(cand.as_str()) {
                let n: Name = cand.into();
                self.used.insert(n.clone());
                return n;
            }
            k += 1;
        }
    }

    /// A whole file; gives its exports.
    fn file(&mut self, prog: Program, file: FileId, main: bool) -> Result<Rc<Env>, Diag> {
        // An imported file's names are qualified by the file's name, so
        // that only what a file imports itself is in scope there.
        let prefix = if main {
            String::new()
        } else {
            let name = self.sm.file(file).name.clone();
            let stem = Path::new(&name).file_stem().map(|s| s.to_string_lossy().into_owned());
            format!("{}.", stem.unwrap_or_default())
        };
        let ctx = Ctx {
            prefix,
            file,
            keep: false,
            top_main: main,
            top: true,
        };
        let mut scope = self.prelude.clone();
        let mut exports = Env::default();
        no_duplicate_decs(&prog.decs)?;
        for d in prog.decs {
            self.dec(d, &mut scope, Some(&mut exports), &ctx)?;
        }
        Ok(Rc::new(exports))
    }

    /// `import "path"` in `from`: the imported file's exports.
    fn import(&mut self, path: &str, span: Span, from: FileId) -> Result<Rc<Env>, Diag> {
        let from_name = self.sm.file(from).name.clone();
        let dir = Path::new(&from_name).parent().unwrap_or(Path::new(""));
        let full = dir.join(format!("{path}.fut"));
        let key = file_key(&full.to_string_lossy());
        if let Some(env) = self.files.get(&key) {
            return Ok(env.clone());
        }
        if let Some(i) = self.loading.iter().position(|k| *k == key) {
            let chain: Vec<String> = self.loading[i..]
                .iter()
                .chain(std::iter::once(&key))
                .map(|k| {
                    k.file_name()
                        .map_or_else(String::new, |f| f.to_string_lossy().into_owned())
                })
                .collect();
            return Err(Diag::new(span, format!("import cycle: {}", chain.join(" imports "))));
        }
        let text = std::fs::read_to_string(&full).map_err(|e| {
            let d = Diag::new(span, format!("unknown file `{}` in import: {e}", full.display()));
            if path.ends_with(".fut") {
                d.help("import paths are written without the `.fut` extension")
            } else {
                d
            }
        })?;
        let fid = self.sm.add(full.to_string_lossy().into_owned(), text);
        let prog = parser::parse_program(fid, self.sm.text(fid))?;
        self.loading.push(key.clone());
        let saved_out = std::mem::take(&mut self.out);
        let saved_starts = std::mem::take(&mut self.check_starts);
        let env = self.file(prog, fid, false);
        let emitted = std::mem::replace(&mut self.out, saved_out);
        self.check_starts = saved_starts;
        self.loading.pop();
        let env = env?;
        // See Note [Imports in checked-only code].
        match self.check_starts.first().copied() {
            Some(at) => {
                let n = emitted.len();
                self.out.splice(at..at, emitted);
                for s in &mut self.check_starts {
                    *s += n;
                }
            }
            None => self.out.extend(emitted),
        }
        self.files.insert(key, env.clone());
        Ok(env)
    }

    fn dec(&mut self, dec: Dec, scope: &mut Env, exports: Option<&mut Env>, ctx: &Ctx) -> Result<(), Diag> {
        match dec {
            Dec::Val(mut vb) => {
                if vb.entry && !ctx.top_main {
                    if !ctx.top {
                        return Err(Diag::new(
                            vb.name_span,
                            "entry points are only allowed at the top level of the main program",
                        ));
                    }
                    // An imported file's entry points are plain functions.
                    vb.entry = false;
                }
                let keep = ctx.keep || (ctx.top_main && (vb.entry || &*vb.name == "main"));
                let flat = self.flat_name(&ctx.prefix, &vb.name, keep);
                let ent = ValEnt {
                    flat: flat.clone(),
                    span: vb.name_span,
                    builtin: false,
                };
                rename::valbind(&mut vb, scope, &flat)?;
                let name = std::mem::replace(&mut vb.name, flat);
                self.out.push(Dec::Val(vb));
                if let Some(ex) = exports {
                    ex.vals.insert(name.clone(), ent.clone());
                }
                scope.vals.insert(name, ent);
            }
            Dec::Type(mut tb) => {
                no_duplicate_type_params(&tb.params)?;
                rename::typebind(&mut tb, scope)?;
                let flat = self.flat_name(&ctx.prefix, &tb.name, ctx.keep);
                let ent = TypeEnt {
                    flat: flat.clone(),
                    params: tb.params.clone(),
                    span: tb.name_span,
                    liftedness: tb.liftedness,
                };
                let name = std::mem::replace(&mut tb.name, flat);
                self.out.push(Dec::Type(tb));
                if let Some(ex) = exports {
                    ex.types.insert(name.clone(), ent.clone());
                }
                scope.types.insert(name, ent);
            }
            Dec::Local(d, _) => self.dec(*d, scope, None, ctx)?,
            Dec::Module(mb) => {
                let m = if mb.params.is_empty() {
                    let inner = match &mb.sig {
                        Some(_) => format!("{}{}.impl.", ctx.prefix, mb.name),
                        None => format!("{}{}.", ctx.prefix, mb.name),
                    };
                    let m = self.mod_exp(&mb.body, scope, &inner, ctx)?;
                    match &mb.sig {
                        Some(s) => {
                            let outer = format!("{}{}.", ctx.prefix, mb.name);
                            self.ascribe(m, s, scope, &outer, mb.body.span)?
                        }
                        None => m,
                    }
                } else {
                    let f = Functor {
                        params: mb.params,
                        result: mb.sig,
                        body: mb.body,
                        env: scope.clone(),
                        assumed: false,
                        sealed: None,
                    };
                    self.check_functor(&f, &format!("{}{}", ctx.prefix, mb.name), ctx)?;
                    Module::Functor(Rc::new(f))
                };
                if let Some(ex) = exports {
                    ex.mods.insert(mb.name.clone(), m.clone());
                }
                scope.mods.insert(mb.name, m);
            }
            Dec::ModType(sb) => {
                let s = sig::resolve(self, &sb.sig, scope)?;
                if let Some(ex) = exports {
                    ex.sigs.insert(sb.name.clone(), s.clone());
                }
                scope.sigs.insert(sb.name, s);
            }
            Dec::Open(me, span) => {
                let m = self.mod_exp(&me, scope, &ctx.prefix, ctx)?;
                let Module::Struct(env) = m else {
                    return Err(Diag::new(
                        span,
                        "expected a structure to open, found a parametric module",
                    ));
                };
                if let Some(ex) = exports {
                    ex.extend(&env);
                }
                scope.extend(&env);
            }
            Dec::Import(path, span) => {
                let env = self.import(&path, span, ctx.file)?;
                scope.extend(&env);
            }
            Dec::Seal(_) | Dec::CheckOnly(_) => self.out.push(dec),
        }
        Ok(())
    }

    /// A module expression; `prefix` names the declarations it emits.
    fn mod_exp(&mut self, me: &ModExp, scope: &Env, prefix: &str, ctx: &Ctx) -> Result<Module, Diag> {
        match &me.kind {
            ModExpKind::Struct(decs) => {
                let inner = Ctx {
                    prefix: prefix.to_string(),
                    file: me.span.file,
                    keep: false,
                    top_main: false,
                    top: false,
                };
                let mut sc = scope.clone();
                let mut ex = Env::default();
                no_duplicate_decs(decs)?;
                for d in decs {
                    self.dec(d.clone(), &mut sc, Some(&mut ex), &inner)?;
                }
                Ok(Module::Struct(Rc::new(ex)))
            }
            ModExpKind::Var(qn) => lookup_module(scope, qn, me.span),
            ModExpKind::Import(path) => Ok(Module::Struct(self.import(path, me.span, ctx.file)?)),
            ModExpKind::Lambda(params, result, body) => {
                let f = Functor {
                    params: params.clone(),
                    result: result.clone(),
                    body: (**body).clone(),
                    env: scope.clone(),
                    assumed: false,
                    sealed: None,
                };
                self.check_functor(&f, prefix.trim_end_matches('.'), ctx)?;
                Ok(Module::Functor(Rc::new(f)))
            }
            ModExpKind::Ascript(e, s) => {
                let m = self.mod_exp(e, scope, &format!("{prefix}impl."), ctx)?;
                self.ascribe(m, s, scope, prefix, e.span)
            }
            ModExpKind::Apply(f, a) => {
                let fm = self.mod_exp(f, scope, prefix, ctx)?;
                let am = self.mod_exp(a, scope, &format!("{prefix}arg."), ctx)?;
                self.apply(fm, am, f.span, a.span, prefix, ctx)
            }
        }
    }

    fn apply(
        &mut self,
        fm: Module,
        am: Module,
        fspan: Span,
        aspan: Span,
        prefix: &str,
        ctx: &Ctx,
    ) -> Result<Module, Diag> {
        let Module::Functor(fun) = fm else {
            return Err(Diag::new(
                fspan,
                "expected a parametric module to apply, found a structure",
            ));
        };
        let param = &fun.params[0];
        let psig = sig::resolve(self, &param.sig, &fun.env)?;
        let view = match (&psig.functor, am) {
            (None, Module::Struct(arg)) => Module::Struct(sig::matches(self, &arg, &psig, None, aspan, param.span)?),
            (Some(fsig), Module::Functor(arg)) => {
                self.check_functor_arg(&arg, fsig, aspan, param.span, prefix, ctx.file)?;
                Module::Functor(arg)
            }
            (None, Module::Functor(_)) => {
                return Err(Diag::new(
                    aspan,
                    "expected a structure as the argument of a parametric module, found a parametric module",
                )
                .note(param.span, "the parameter"))
            }
            (Some(_), Module::Struct(_)) => {
                return Err(
                    Diag::new(aspan, "expected a parametric module as the argument, found a structure")
                        .note(param.span, "the parameter"),
                )
            }
        };
        let mut env = fun.env.clone();
        env.mods.insert(param.name.clone(), view.clone());
        // The result of the parametric module type this functor was
        // sealed with, for this argument.
        let sealed_result = match &fun.sealed {
            Some(spec) => {
                let mut senv = spec.env.clone();
                senv.mods.insert(spec.params[0].name.clone(), view);
                match &spec.result {
                    Some(rs) => Some(sig::resolve(self, rs, &senv)?),
                    None => None,
                }
            }
            None => None,
        };
        if fun.params.len() > 1 {
            return Ok(Module::Functor(Rc::new(Functor {
                params: fun.params[1..].to_vec(),
                result: fun.result.clone(),
                body: fun.body.clone(),
                env,
                assumed: fun.assumed,
                sealed: sealed_result.and_then(|s| s.functor.clone()),
            })));
        }
        if fun.assumed {
            let Some(rs) = &fun.result else {
                return Err(Diag::new(fspan, "a parametric module type without a result"));
            };
            let rsig = sig::resolve(self, rs, &env)?;
            return sig::assume_module(self, &rsig, prefix);
        }
        let inner = if sealed_result.is_some() {
            format!("{prefix}impl.")
        } else {
            prefix.to_string()
        };
        let m = match &fun.result {
            None => self.mod_exp(&fun.body, &env, &inner, ctx)?,
            Some(rs) => {
                let body = self.mod_exp(&fun.body, &env, &format!("{inner}impl."), ctx)?;
                self.ascribe(body, rs, &env, &inner, fun.body.span)?
            }
        };
        match (sealed_result, m) {
            (Some(rsig), Module::Struct(e)) if rsig.functor.is_none() => Ok(Module::Struct(sig::matches(
                self,
                &e,
                &rsig,
                Some(prefix),
                fspan,
                fspan,
            )?)),
            (_, m) => Ok(m),
        }
    }

    /// Check a functor's body once with parameters that have just what
    /// their module types say (abstract types opaque), so that the body
    /// cannot rely on more than that. What this emits is only checked,
    /// never run ([`Dec::CheckOnly`]).
    fn check_functor(&mut self, f: &Functor, name: &str, ctx: &Ctx) -> Result<(), Diag> {
        self.check_starts.push(self.out.len());
        let r = (|| -> Result<(), Diag> {
            let mut env = f.env.clone();
            for p in &f.params {
                let psig = sig::resolve(self, &p.sig, &env)?;
                let view = sig::assume_module(self, &psig, &format!("{name}({}).", p.name))?;
                env.mods.insert(p.name.clone(), view);
            }
            let prefix = format!("{name}(check).");
            let body = self.mod_exp(&f.body, &env, &prefix, ctx)?;
            if let Some(rs) = &f.result {
                self.ascribe(body, rs, &env, &prefix, f.body.span)?;
            }
            Ok(())
        })();
        self.end_check_only();
        r
    }

    // Note [Imports in checked-only code]
    // A functor's body is elaborated once just to be checked, and what that
    // emits is wrapped in `Dec::CheckOnly` (never run). A file imported for
    // the first time inside such a body (`import` in a functor) is
    // elaborated there too, but its declarations are the file's, shared by
    // every later use: they go before the checked-only part of the output,
    // not into it (a real instance of the functor calls them).

    /// Wrap what was emitted since the innermost checked-only start.
    fn end_check_only(&mut self) {
        let start = self.check_starts.pop().unwrap_or(self.out.len());
        let emitted: Vec<Dec> = self.out.drain(start..).collect();
        self.out
            .extend(emitted.into_iter().map(|d| Dec::CheckOnly(Box::new(d))));
    }

    /// A functor given for a parameter of functor type `fsig`: applied
    /// (check-only) to a stand-in for `fsig`'s parameter, its result must
    /// match `fsig`'s result.
    pub(super) fn check_functor_arg(
        &mut self,
        arg: &Rc<Functor>,
        fsig: &Rc<Functor>,
        aspan: Span,
        pspan: Span,
        prefix: &str,
        file: FileId,
    ) -> Result<(), Diag> {
        let ctx = &Ctx {
            prefix: String::new(),
            file,
            keep: false,
            top_main: false,
            top: false,
        };
        self.check_starts.push(self.out.len());
        let r = (|| -> Result<(), Diag> {
            let p = &fsig.params[0];
            let ps = sig::resolve(self, &p.sig, &fsig.env)?;
            let dummy = sig::assume_module(self, &ps, &format!("{prefix}(check).{}.", p.name))?;
            let res = self.apply(
                Module::Functor(arg.clone()),
                dummy.clone(),
                aspan,
                aspan,
                &format!("{prefix}(check)."),
                ctx,
            )?;
            let mut env = fsig.env.clone();
            env.mods.insert(p.name.clone(), dummy);
            if let Some(rs) = &fsig.result {
                let rsig = sig::resolve(self, rs, &env)?;
                match (res, &rsig.functor) {
                    (Module::Struct(m), None) => {
                        sig::matches(self, &m, &rsig, None, aspan, pspan)?;
                    }
                    (Module::Functor(_), Some(_)) => {}
                    _ => {
                        return Err(Diag::new(
                            aspan,
                            "the parametric module does not match the parameter's module type",
                        )
                        .note(pspan, "the parameter"))
                    }
                }
            }
            Ok(())
        })();
        self.end_check_only();
        r
    }

    /// `m : s`: the sealed view of `m`.
    fn ascribe(&mut self, m: Module, s: &SigExp, scope: &Env, prefix: &str, mspan: Span) -> Result<Module, Diag> {
        let sig = sig::resolve(self, s, scope)?;
        match (m, &sig.functor) {
            (Module::Struct(env), None) => Ok(Module::Struct(sig::matches(
                self,
                &env,
                &sig,
                Some(prefix),
                mspan,
                s.span,
            )?)),
            (Module::Functor(f), Some(fsig)) => {
                self.check_functor_arg(&f, fsig, mspan, s.span, prefix, mspan.file)?;
                Ok(Module::Functor(Rc::new(Functor {
                    params: f.params.clone(),
                    result: f.result.clone(),
                    body: f.body.clone(),
                    env: f.env.clone(),
                    assumed: f.assumed,
                    sealed: Some(fsig.clone()),
                })))
            }
            (Module::Functor(_), None) => Err(Diag::new(
                mspan,
                "expected a structure for the module type, found a parametric module",
            )
            .note(s.span, "the module type")),
            (Module::Struct(_), Some(_)) => Err(Diag::new(
                mspan,
                "expected a parametric module for the parametric module type, found a structure",
            )
            .note(s.span, "the module type")),
        }
    }
}

/// Note [Intrinsic modules]: the scalar intrinsics of each primitive type
/// `T` (`check::builtins::numeric_module`: arithmetic, comparisons, bit
/// operations, math functions, conversions) form a structure
/// `intrinsics.T` whose values are the built-ins `T.f` and whose type `t`
/// is `T`. The prelude builds the numeric modules `i8` ... `f64` and
/// `bool` from them in Futhark (`prelude/prelude.fut`). That `intrinsics`
/// is in the prelude's scope only; programs see another, with only the
/// accumulators ([`accumulator_module`]), and a program's own
/// `intrinsics` is just another module. The
/// flat names of the intrinsics (`i32.+`) are those of the built-ins,
/// which the checker, the interpreter and the internaliser know by name.
const INTRINSICS: &str = "intrinsics";

/// The part of `intrinsics` that every program sees, as in Futhark: the
/// accumulators (Note [Accumulators] in `check::builtins`), the type
/// `acc` and the functions that make and write them.
fn accumulator_module() -> Env {
    let mut env = Env::default();
    for f in builtins::ACC_FUNCTIONS {
        env.vals.insert(
            Rc::from(*f),
            ValEnt {
                flat: format!("{INTRINSICS}.{f}").into(),
                span: Span::default(),
                builtin: true,
            },
        );
    }
    env.types.insert(
        Rc::from("acc"),
        TypeEnt {
            flat: builtins::ACC_TYPE.into(),
            params: vec![TypeParam::Type {
                name: "t".into(),
                liftedness: Liftedness::Unlifted,
                span: Span::default(),
            }],
            span: Span::default(),
            liftedness: Liftedness::SizeLifted,
        },
    );
    env
}

fn intrinsic_modules() -> Env {
    let mut env = Env::default();
    for t in PrimType::ALL {
        env.mods
            .insert(Rc::from(t.name()), Module::Struct(Rc::new(intrinsic_module(t))));
    }
    env
}

/// `intrinsics.T` for the primitive type `t`.
fn intrinsic_module(t: PrimType) -> Env {
    let mut env = Env::default();
    for (name, _) in builtins::numeric_module(t) {
        env.vals.insert(
            Rc::from(name.as_str()),
            ValEnt {
                flat: format!("{}.{name}", t.name()).into(),
                span: Span::default(),
                builtin: true,
            },
        );
    }
    let mut types = vec![("t", t)];
    if t.is_float() {
        // The unsigned type of `to_bits` and `from_bits`.
        types.push(("int_t", builtins::bits_type(t)));
    }
    for (name, p) in types {
        env.types.insert(
            Rc::from(name),
            TypeEnt {
                flat: Rc::from(p.name()),
                params: Vec::new(),
                span: Span::default(),
                liftedness: Liftedness::Unlifted,
            },
        );
    }
    env
}

/// The module a (qualified) name denotes.
/// One list of declarations (a file, a module body) defines each name of
/// a namespace once (Futhark's "Duplicate definition"): a later `def f`
/// does not shadow an earlier one of the same list.
fn no_duplicate_decs(decs: &[Dec]) -> Result<(), Diag> {
    let mut seen: FastMap<(&'static str, Name), Span> = FastMap::default();
    let mut stack: Vec<&Dec> = decs.iter().rev().collect();
    while let Some(d) = stack.pop() {
        let (space, name, span) = match d {
            Dec::Val(vb) => ("value", &vb.name, vb.name_span),
            Dec::Type(tb) => ("type", &tb.name, tb.name_span),
            Dec::Module(mb) => ("module", &mb.name, mb.name_span),
            Dec::ModType(sb) => ("module type", &sb.name, sb.name_span),
            Dec::Local(d, _) => {
                stack.push(d);
                continue;
            }
            Dec::Open(..) | Dec::Import(..) | Dec::Seal(_) | Dec::CheckOnly(_) => continue,
        };
        if let Some(prev) = seen.insert((space, name.clone()), span) {
            return Err(Diag::new(span, format!("Duplicate definition of {space} `{name}`"))
                .note(prev, "previously defined here"));
        }
    }
    Ok(())
}

/// The parameters of a type (`type t 'a 'b`, and its specifications) are
/// distinct.
pub(crate) fn no_duplicate_type_params(params: &[TypeParam]) -> Result<(), Diag> {
    for (i, p) in params.iter().enumerate() {
        if let Some(prev) = params[..i].iter().find(|q| q.name() == p.name()) {
            return Err(Diag::new(
                p.span(),
                format!("Type parameter `{}` previously defined in the same type", p.name()),
            )
            .note(prev.span(), "previously defined here"));
        }
    }
    Ok(())
}

pub(crate) fn lookup_module(scope: &Env, qn: &QualName, span: Span) -> Result<Module, Diag> {
    let mut cur: Option<Module> = None;
    for (i, part) in qn.quals.iter().chain(std::iter::once(&qn.name)).enumerate() {
        let found = match &cur {
            None => scope.mods.get(part).cloned(),
            Some(Module::Struct(env)) => env.mods.get(part).cloned(),
            Some(Module::Functor(_)) => {
                return Err(Diag::new(
                    span,
                    format!(
                        "expected a structure, found the parametric module `{}`",
                        qn.quals[..i].join(".")
                    ),
                ))
            }
        };
        match found {
            Some(m) => cur = Some(m),
            None => return Err(Diag::new(span, format!("unknown module `{qn}`"))),
        }
    }
    cur.ok_or_else(|| Diag::new(span, format!("unknown module `{qn}`")))
}

/// The structure a path of module names denotes (`M.N`).
pub(crate) fn lookup_struct(scope: &Env, path: &[Name], span: Span) -> Result<Rc<Env>, Diag> {
    let Some((last, quals)) = path.split_last() else {
        return Err(Diag::new(span, "expected a module name"));
    };
    let qn = QualName {
        quals: quals.to_vec(),
        name: last.clone(),
    };
    match lookup_module(scope, &qn, span)? {
        Module::Struct(env) => Ok(env),
        Module::Functor(_) => Err(Diag::new(
            span,
            format!("expected a structure, found the parametric module `{qn}`"),
        )),
    }
}
