//! The type checker: name resolution, type inference with unification,
//! defaulting of literals, (in `patterns`) exhaustiveness and redundancy
//! of `match`, and (in [`consume`]) the alias and uniqueness analysis of
//! thesis section 5.3.
//!
//! After a successful check, the trees in [`Checked::programs`] satisfy:
//! 1. every `Exp::ty` and `Pat::ty` is `Some`, with no `Type::Var` left
//!    (unconstrained literals defaulted: integers to `i32`, floats to `f64`);
//!    inside a polymorphic function a type may be `Type::Param`;
//! 2. every `Var::res` (also in `BinOp::op`, `OpSection::op`,
//!    `RecordField::Implicit`) is `Some`;
//! 3. `r.x.y` written as a name chain on a value is rewritten to `Project`;
//!    a qualified name left as `Var` is a builtin (`i32.sum`);
//! 4. a literal's type is `Exp::ty` (an integer literal may have a float
//!    type: `let x: f32 = 1`);
//! 5. `loop x for ...` (no initial value) has its `init` filled in with the
//!    variable `x`.
//!
//! 6. types hold no `Size::Infer`, not even inside a `Size::Expr` or a
//!    `Size::Term`'s holes: every size is a constant, a name, arithmetic
//!    on those, a term (Note [Size terms] in `types`) whose holes are
//!    such sizes, or `Size::Unknown` (trees and schemes alike);
//! 7. a use of `unflatten` or `split` has a type whose implicit sizes
//!    (`builtins::implicit_sizes`) are not `Unknown`;
//! 8. every `match` is exhaustive and has no unreachable case; every other
//!    pattern (`let`, parameters, loops) matches every value of its type
//!    (Note [Pattern matching]).
//!
//! Note [Static size checking]: array types carry sizes and unification
//! compares them, in the spirit of Futhark's size types but conservatively:
//! the checker must never reject a program that Futhark accepts, so where
//! it is unsure it is lenient, and the interpreter checks shapes at run
//! time.
//!
//! A size (`types::Size`) is
//! * rigid: a constant `[3]`, or a name `[n]`: a size parameter, or an
//!   `i64` parameter or variable named in an annotation or passed for a
//!   named parameter (`iota n`, `replicate 3 x`, `def f (n: i64): [n]t`);
//! * `Infer`: a size variable, from instantiating a size parameter (`map`'s
//!   `[n]`); unification binds it, so `map f (xs: [n]a)` is `[n]b`;
//! * `Unknown`: not tracked; it agrees with every size and binds nothing;
//! * `Term`: any other size expression of literals, names, operators and
//!   calls (`[n/2]`, `[plus a b]`, a constant `[k]`), kept as written with
//!   its local names as holes (Note [Size terms] in `types`). Two terms of
//!   the same expression unify hole by hole; a term agrees with every size
//!   of another form, as `Unknown` does, but is evaluated at run time;
//! * `Expr`: `+`, `-` or `*` on sizes: `xs ++ ys` is `[n+m]`, `flatten` of
//!   `[n][m]` is `[n*m]`, and a size written `[n*m]` in a type or passed
//!   for a named parameter (`iota (n*m)`) is that expression. Futhark
//!   compares size expressions syntactically, so `n+m` never equals a name
//!   or a constant: an `Expr` disagrees with rigid sizes. We compare them
//!   with their constants folded (`[2+3]` is `[5]`, `+ 0` and `* 1` are
//!   dropped), and two expressions as polynomials: `n+m` and `m+n` agree
//!   (to stay on the safe side), `n-1` and `m-1` do not (nor would they
//!   in Futhark).
//!
//! Size parameters inside an expression are bound by matching: the
//! parameter of `unflatten [n][m] 't (xs: [n*m]t): [n][m]t` is, once
//! instantiated, `[?n*?m]t`, and unifying it with `[k*l]t` binds `?n` to
//! `k` and `?m` to `l` (operand by operand, so `n*m*l` is `(n*m)*l`). An
//! expression with an unbound size variable agrees with no rigid size and
//! no expression of another form; Futhark rejects those calls too. Where
//! such a parameter meets its argument in an application, the argument's
//! size must have the parameter's form (or be a size variable): a plain
//! `[k]`, or an `Unknown` size, is an error that says what was expected
//! and suggests a coercion `xs :> [n*m]t` (which is checked at run time).
//! The exception is an `Unknown` size written in such a coercion
//! (`xs :> [opaque 1*b]t`): Futhark tracks that expression and we do not,
//! so it agrees and binds nothing; the size variables are then bound by
//! the context or stay `Unknown`, and the built-in derives one unknown
//! size from the argument at run time (Note [Sizes derived from the
//! argument] in `builtins`).
//! `++`/`concat` keep the type `[n]t -> [m]t -> []t` (so `reduce (++)`
//! stays lenient) and give `[n+m]` only where applied to two arrays whose
//! sizes are tracked (names, constants or size variables: an inferred
//! parameter size is one).
//!
//! Two rigid sizes agree when they are the same constant or the same name;
//! two size parameters, a name and a constant, or two constants that differ
//! are an error: "expected type `[n]i32`, found `[m]i32`".
//!
//! `Unknown` stands where Futhark has an existential size or a size
//! expression we do not model: `filter`, `partition`, slices other than
//! those of Note [Existential sizes] (in `sizes`), `[]` (except in a
//! `def`'s parameters: Note [Anonymous parameter sizes]) and size
//! expressions that are neither arithmetic nor terms (`[length xs]`, an
//! index) in annotations, `?[k].` types, a computed argument for a named
//! parameter that is neither (`iota (length xs)`). Ranges and `if`s
//! make rigid existential sizes where Futhark does (Note [Existential
//! sizes]). And where Futhark gives an existential instead of an error:
//! * the branches of an `if` are unified ignoring sizes; where their sizes
//!   differ and one is not known, the `if` has `Unknown`;
//! * a loop parameter's size that the body changes gives the loop's
//!   result a fresh existential size (Note [Loop-variant sizes] in
//!   `sizes`); an annotated `[]` one stays `Unknown`;
//! * `e :> t` compares everything but the sizes (checked at run time);
//! * a record update `r with f = v` may change the field's sizes;
//! * a type that leaves the scope of an `i64` name it mentions (the body of
//!   a `let`, a lambda's result with a non-name parameter pattern, the
//!   scheme of a `def`) has `Unknown` for it. A function value's result
//!   size named after its parameter (`(n: i64) -> [n]t`), where the
//!   function is passed rather than applied, is a rigid existential (Note
//!   [Dependent function types] in `dependent`).
//!
//! Generalisation: a `def` or a local function generalises the size
//! variables of its parameter types that nothing in scope mentions into
//! size parameters (`def add xs ys = map2 (+) xs ys` is size-polymorphic,
//! and `add` of an `[n]` and an `[m]` array is an error). A function value
//! bound by `let` forgets its own size variables instead: it is not
//! generalised, but not fixed by its first use either. Size variables
//! unbound at the end of a declaration, and size expressions with one in
//! them, become `Unknown` in its tree and scheme, except those a `def`
//! generalises over, which its tree names (Note [Anonymous parameter
//! sizes in the body]). While it is checked, the body of a function
//! does not know the sizes it is generalised over, and a use of
//! `unflatten` or `split` there whose sizes depend on them (`def f xs =
//! unflatten (flatten xs)`, `let f ys = unflatten ys in ...`) is an error
//! (invariant 7: the interpreters take those sizes from the type); Futhark
//! accepts it. Declaring the size parameters (`def f [n][m] (xs:
//! [n][m]t)`) makes it work.
//!
//! Left to run time (the interpreter reports with the source location):
//! whatever involves an `Unknown` size: `zip`/`map2` of a filtered array
//! with another array, `:>` coercions (`xs :> [n*m]t` evaluates `n*m`),
//! results declared `[n+m]`, loop
//! results, `length`-computed sizes, entry-point arguments against their
//! declared sizes. Futhark rejects some of these statically (its
//! existential sizes are rigid: `zip (filter p xs) ys` is an error there);
//! we accept them and check at run time.
//!
//! Note [Liftedness]: Futhark removes higher-order functions by
//! defunctionalisation, which needs to know statically which function a
//! value is. So a function value cannot be an array element, the result
//! of an `if` or a `match` (which function depends on a run-time value),
//! a `loop` parameter, or an operand of `==`. Type parameters carry the
//! same restrictions by their liftedness (`syntax::ast::Liftedness`):
//! `'a` (unlifted) stands for no function type and no size-lifted or
//! lifted type parameter; `'~a` (size-lifted) for no function type and no
//! lifted type parameter (its sizes may be anonymous, so it is no array
//! element either); `'^a` (lifted) for anything, so its values obey the
//! restrictions of functions. Each restriction is a limit
//! (`unify::LiftLimit`) on a type: checked on the parts known, passed on
//! as a constraint to the type variables still unknown (instantiating
//! `replicate`'s unlifted `'t` gives a limited variable, and binding it to
//! `i32 -> i32` is an error naming the parameter). A type parameter that
//! a `def` infers is lifted unless a limit reached its variable (`def eq
//! x = x == x` has a size-lifted one). An abstract type of a module is
//! lifted when the type behind it has functions (Futhark goes by the
//! `type^` of its specification; a functor's parameter's abstract types
//! count as unlifted). Futhark's other half of size-liftedness, that an unlifted
//! `'a` stands for no type with an anonymous size, is not checked: sizes
//! the checker does not track are `Unknown` and agree with everything.

use std::rc::Rc;

use futmlir_dialects::ir::FastMap;

use crate::diag::Diag;
use crate::span::{FileId, SourceMap, Span};
use crate::syntax::ast::*;
use crate::syntax::parser;
use crate::types::{PrimType, Size, SizeVar, TyVar, Type, ABSTRACT_MARK};

pub mod builtins;
mod consume;
pub mod context_sizes;
mod dependent;
mod exp;
mod inaccessible;
mod patterns;
mod seal;
mod shadow;
pub(crate) mod sizes;
mod terms;
mod unify;
mod warnings;
pub(crate) mod zonk;

#[cfg(test)]
mod tests;

use unify::{LiftLimit, LiftSite, Subst};

/// The prelude's source text.
pub const PRELUDE: &str = include_str!("../../prelude/prelude.fut");

/// A checked compilation: the prelude (program 0) and the user's program
/// (program 1), and the entry points of the user's program.
pub struct Checked {
    pub programs: Vec<Program>,
    pub entries: Vec<Entry>,
    /// The warnings about the user's files, once each, in source order
    /// (Note [Warnings] in `diag`).
    pub warnings: Vec<Diag>,
}

/// An entry point: `entry f ...` in the main file, or `def main`.
pub struct Entry {
    pub name: Name,
    pub id: GlobalId,
    /// Parameter types, one per parameter pattern.
    pub params: Vec<Type>,
    /// The return type; a tuple returns several values.
    pub ret: Type,
}

/// A polymorphic type: type parameters and size parameters are
/// instantiated afresh at each use.
#[derive(Debug)]
pub struct Scheme {
    /// Type parameters with their liftedness (Note [Liftedness]).
    pub type_params: Vec<(Name, Liftedness)>,
    pub size_params: Vec<Name>,
    pub ty: Type,
    /// A `def`'s type with each existential size of its result (a size
    /// named after a local of the body, `Unknown` in `ty`) named by one of
    /// `existentials`; instantiation makes each a fresh existential (See
    /// Note [Existential results]). `None` where the result has none.
    pub existential_ty: Option<(Type, Vec<Name>)>,
}

/// A type abbreviation `type t 'a [n] = ...`.
struct TypeAbbr {
    params: Vec<TypeParam>,
    /// As declared (`type~`): a size-lifted abbreviation is no array
    /// element even where its definition has known sizes.
    liftedness: Liftedness,
    ty: Type,
}

/// Parse and check `file` (already added to `sm`) together with the
/// prelude. Errors are returned in source order; the first is the most
/// useful.
pub fn check_file(sm: &mut SourceMap, file: FileId) -> Result<Checked, Vec<Diag>> {
    check_file_entries(sm, file, &[])
}

/// [`check_file`], with the top-level functions named in `extra_entries`
/// entry points too (`futmlir build --entry-point`).
pub fn check_file_entries(sm: &mut SourceMap, file: FileId, extra_entries: &[String]) -> Result<Checked, Vec<Diag>> {
    let prelude_file = sm.add("<prelude>", PRELUDE);
    let prelude = elaborated_prelude(sm, prelude_file).map_err(|d| vec![d])?;
    let program = parser::parse_program(file, sm.text(file)).map_err(|d| vec![d])?;
    let (checked, mut warnings) = crate::diag::collect_warnings(|| {
        let decs = crate::modules::elaborate_program(sm, &prelude, file, program).map_err(|d| vec![d])?;
        let programs = vec![
            Program {
                decs: prune_prelude(&prelude.decs, &decs),
            },
            Program { decs },
        ];
        let checked = check_programs_entries(programs, extra_entries)?;
        warnings::lint(&checked, sm);
        Ok::<_, Vec<Diag>>(checked)
    });
    let mut checked = checked?;
    warnings.retain(|d| d.span.file != prelude_file);
    warnings.sort_by_key(|d| (d.span.file, d.span.lo, d.span.hi));
    warnings.dedup_by(|a, b| a.span == b.span && a.message == b.message);
    checked.warnings = warnings;
    Ok(checked)
}

thread_local! {
    /// The elaborated prelude and the file it was parsed as (Note [Lazy
    /// prelude]).
    static PRELUDE_CACHE: std::cell::RefCell<Option<(FileId, Rc<crate::modules::ElaboratedPrelude>)>> =
        const { std::cell::RefCell::new(None) };
}

/// The prelude, parsed as `prelude_file` and elaborated: once per thread
/// and file number (`futmlir test` checks many programs, each with a
/// source map that numbers the prelude alike).
fn elaborated_prelude(sm: &mut SourceMap, prelude_file: FileId) -> Result<Rc<crate::modules::ElaboratedPrelude>, Diag> {
    if let Some((f, p)) = PRELUDE_CACHE.with(|c| c.borrow().clone()) {
        if f == prelude_file {
            return Ok(p);
        }
    }
    let prelude = parser::parse_program(prelude_file, PRELUDE)?;
    let p = Rc::new(crate::modules::elaborate_prelude(sm, prelude)?);
    PRELUDE_CACHE.with(|c| *c.borrow_mut() = Some((prelude_file, p.clone())));
    Ok(p)
}

/// Note [Lazy prelude]: the prelude has some 300 declarations (each
/// numeric module's derived members among them), and most programs use a
/// few. So only the prelude's values the program can reach are checked
/// and kept: the names the program's declarations mention (every
/// variable and operator, and the targets of its sealings), and then the
/// names those prelude declarations mention. The reach is by name and
/// errs towards keeping (a local that shadows a prelude name keeps it).
/// The prelude's type declarations stay (few and cheap), its sealings and
/// check-only functor bodies go: they check the prelude against itself,
/// which `check_programs` on the whole prelude does once, in the unit
/// tests (`check::tests::the_whole_prelude_checks`).
pub(crate) fn prune_prelude(prelude: &[Dec], program: &[Dec]) -> Vec<Dec> {
    use std::collections::HashSet;
    let mut used: HashSet<Name> = HashSet::new();
    let mut work: Vec<&Dec> = program.iter().collect();
    let mut exps: Vec<&Exp> = Vec::new();
    while let Some(d) = work.pop() {
        match d {
            Dec::Val(vb) => exps.push(&vb.body),
            Dec::Seal(seal) => {
                for it in &seal.items {
                    if let SealItem::Val { target, .. } = it {
                        used.insert(target.clone());
                    }
                }
            }
            Dec::CheckOnly(d) | Dec::Local(d, _) => work.push(d),
            _ => {}
        }
    }
    let index: FastMap<Name, usize> = prelude
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match d {
            Dec::Val(vb) => Some((vb.name.clone(), i)),
            _ => None,
        })
        .collect();
    // A sealed module's values go by aliases, bound by its `Seal`
    // declaration (`module i32: integral with t = i32 = ...`).
    let mut aliases: FastMap<Name, (usize, Name)> = FastMap::default();
    for (i, d) in prelude.iter().enumerate() {
        if let Dec::Seal(seal) = d {
            for it in &seal.items {
                if let SealItem::Val {
                    target, alias: Some(a), ..
                } = it
                {
                    aliases.insert(a.clone(), (i, target.clone()));
                }
            }
        }
    }
    let mut keep = vec![false; prelude.len()];
    loop {
        while let Some(e) = exps.pop() {
            match &e.kind {
                ExpKind::Var(v) => {
                    used.insert(v.name.to_string().into());
                }
                ExpKind::BinOp { op, .. } | ExpKind::OpSection { op, .. } => {
                    used.insert(op.name.to_string().into());
                }
                _ => {}
            }
            crate::syntax::visit::children(e, &mut |c| exps.push(c));
        }
        let mut more = false;
        let names: Vec<Name> = used.drain().collect();
        for n in names {
            // An alias reaches its `Seal` and the definition behind it.
            let n = match aliases.get(&n) {
                Some((i, target)) => {
                    keep[*i] = true;
                    target.clone()
                }
                None => n,
            };
            if let Some(&i) = index.get(&n) {
                if !keep[i] {
                    keep[i] = true;
                    more = true;
                    if let Dec::Val(vb) = &prelude[i] {
                        exps.push(&vb.body);
                    }
                }
            }
        }
        if !more {
            break;
        }
    }
    prelude
        .iter()
        .zip(keep)
        .filter(|(d, k)| match d {
            Dec::Val(_) | Dec::Seal(_) => *k,
            Dec::Type(_) => true,
            _ => false,
        })
        .map(|(d, _)| d.clone())
        .collect()
}

/// Check already-parsed programs; the last is the user's (its entry
/// points are the ones listed).
pub fn check_programs(programs: Vec<Program>) -> Result<Checked, Vec<Diag>> {
    check_programs_entries(programs, &[])
}

fn check_programs_entries(mut programs: Vec<Program>, extra_entries: &[String]) -> Result<Checked, Vec<Diag>> {
    let mut ck = Checker::new();
    let last = programs.len() - 1;
    let mut entries = Vec::new();
    for (pi, prog) in programs.iter_mut().enumerate() {
        for (di, dec) in prog.decs.iter_mut().enumerate() {
            let id = GlobalId {
                program: pi as u32,
                dec: di as u32,
            };
            if let Err(d) = ck.check_dec(dec, id, pi == last, &mut entries) {
                ck.errors.push(d);
            }
        }
    }
    // `def main` is an entry point unless one is already called `main`.
    if !entries.iter().any(|e: &Entry| &*e.name == "main") {
        if let Some((id, scheme)) = ck.lookup_global("main") {
            if id.program as usize == last {
                if let Dec::Val(vb) = &programs[last].decs[id.dec as usize] {
                    if let Some(e) = ck.entry_for(vb, id, &scheme) {
                        entries.push(e);
                    }
                }
            }
        }
    }
    for name in extra_entries {
        if entries.iter().any(|e: &Entry| &*e.name == name.as_str()) {
            continue;
        }
        let found = ck.lookup_global(name).filter(|(id, _)| id.program as usize == last);
        let entry = found.and_then(|(id, scheme)| match &programs[last].decs[id.dec as usize] {
            Dec::Val(vb) => ck.entry_for(vb, id, &scheme),
            _ => None,
        });
        // One that is not found is the caller's to report (it has no
        // place in the program); one that cannot be an entry point got
        // its error from `entry_for`.
        entries.extend(entry);
    }
    // An accumulator lives inside its stream only (Note [Accumulators] in
    // `builtins`): no entry point takes or returns one.
    for e in &entries {
        if e.params.iter().chain([&e.ret]).any(contains_acc) {
            let span = match &programs[e.id.program as usize].decs[e.id.dec as usize] {
                Dec::Val(vb) => vb.name_span,
                _ => Span::default(),
            };
            ck.errors.push(Diag::new(
                span,
                format!(
                    "entry point `{}` takes or returns an accumulator (`intrinsics.acc`), which exists only inside `scatter_stream` and `hist_stream`",
                    e.name
                ),
            ));
        }
    }
    // A functor's body is checked once on its own and again at each
    // application (`crate::modules`): report each error once.
    let mut seen = std::collections::HashSet::new();
    ck.errors
        .retain(|d| seen.insert((d.span.file, d.span.lo, d.span.hi, d.message.clone())));
    if ck.errors.is_empty() {
        let mut checked = Checked {
            programs,
            entries,
            warnings: Vec::new(),
        };
        ck.concretise(&mut checked);
        Ok(checked)
    } else {
        Err(ck.errors)
    }
}

/// A local binding in scope.
#[derive(Clone)]
pub(crate) struct Local {
    pub name: Name,
    pub ty: Type,
    /// A polymorphic local function: instantiated at each use.
    pub scheme: Option<Rc<Scheme>>,
}

pub(crate) struct Checker {
    pub subst: Subst,
    pub locals: Vec<Local>,
    globals: FastMap<Name, (GlobalId, Rc<Scheme>)>,
    builtins: FastMap<String, Rc<Scheme>>,
    /// Names a sealed module gives built-ins (`M.i32` of `module M: S =
    /// i32`): the built-in and the specification's type scheme.
    builtin_aliases: FastMap<Name, (Name, Rc<Scheme>)>,
    types: FastMap<Name, Rc<TypeAbbr>>,
    /// The types behind abstract types (Note [Abstract types]).
    /// Each with its type parameters and its size parameters.
    abstract_types: FastMap<Name, (Vec<Name>, Vec<Name>, Type)>,
    /// The top-level definitions whose types were decided by defaulting
    /// (`def add a b = a + b` is `i32 -> i32 -> i32`): where each
    /// defaulted variable came from and its type. A type error that uses
    /// one says so (Note [Defaulting]).
    pub(crate) defaulted: FastMap<Name, Vec<(Span, PrimType)>>,
    pub errors: Vec<Diag>,
    fresh_names: u32,
    /// Whether `[]` is a fresh size variable rather than an unknown size
    /// (Note [Anonymous parameter sizes]).
    pub anonymous_inferred: bool,
    /// The top-level functions whose result aliases none of their
    /// parameters (a fresh value, as if its type were unique), found by
    /// the uniqueness checker (`consume`).
    pub fresh_results: std::collections::HashSet<Name>,
    /// The top-level functions whose result is a tuple or record whose
    /// components alias their parameters: the number of parameters, and
    /// per component the indices of the parameters it aliases (Note
    /// [Component aliases]).
    result_parts: FastMap<Name, (usize, consume::AliasTree)>,
    /// The top-level functions whose result aliases top-level constants:
    /// the number of parameters and the constants (Note [Global aliases]).
    result_globals: FastMap<Name, (usize, Vec<Name>)>,
    /// The values of module types whose parameters are declared unique
    /// where their types cannot say so (Note [Unique abstract types] in
    /// `consume`).
    unique_spec_params: FastMap<Name, Vec<bool>>,
    /// The top-level function being checked, in scope of its own body
    /// (Note [Recursive functions]).
    pub(crate) recursive: Option<RecursiveDef>,
    /// The size variables instantiating a size parameter that no
    /// parameter of its function witnesses (See Note [Context sizes of a
    /// let-bound function value] in `context_sizes`).
    pub(crate) context_size_vars: std::collections::HashSet<SizeVar>,
    /// Whether a size naming a top-level constant is that name rather
    /// than unknown (See Note [Sizes from constants in type
    /// specifications] in `seal`).
    pub(crate) constant_sizes_named: bool,
}

/// A top-level function as its own body sees it: monomorphic in its type
/// parameters, polymorphic in its explicit size parameters.
pub(crate) struct RecursiveDef {
    pub name: Name,
    pub id: GlobalId,
    pub scheme: Rc<Scheme>,
    pub used: bool,
}

impl Checker {
    fn new() -> Checker {
        let mut ck = Checker {
            subst: Subst::default(),
            locals: Vec::new(),
            globals: FastMap::default(),
            builtins: FastMap::default(),
            builtin_aliases: FastMap::default(),
            types: FastMap::default(),
            abstract_types: FastMap::default(),
            defaulted: FastMap::default(),
            errors: Vec::new(),
            fresh_names: 0,
            anonymous_inferred: false,
            fresh_results: Default::default(),
            result_parts: Default::default(),
            result_globals: Default::default(),
            unique_spec_params: Default::default(),
            recursive: None,
            context_size_vars: Default::default(),
            constant_sizes_named: false,
        };
        ck.load_builtins();
        ck
    }

    fn load_builtins(&mut self) {
        let add = |ck: &mut Checker, name: String, sig: &str| match parser::parse_type_scheme(0, sig) {
            Ok((tps, te)) => {
                let s = ck.scheme_from_sig(&tps, &te);
                ck.builtins.insert(name, Rc::new(s));
            }
            Err(d) => panic!("built-in `{name}` has a malformed signature `{sig}`: {}", d.message),
        };
        // The abstract type `intrinsics.acc 't` (Note [Accumulators] in
        // `builtins`), named `acc` while the signatures are read.
        let t: Name = "t".into();
        let acc = Rc::new(TypeAbbr {
            params: vec![TypeParam::Type {
                name: t.clone(),
                liftedness: Liftedness::Unlifted,
                span: Span::default(),
            }],
            liftedness: Liftedness::SizeLifted,
            ty: acc_type(Type::Param(t.clone())),
        });
        self.abstract_types
            .insert(builtins::ACC_TYPE.into(), (vec![t.clone()], Vec::new(), Type::Param(t)));
        self.types.insert("acc".into(), acc.clone());
        for (n, s) in builtins::GENERAL {
            add(self, n.to_string(), s);
        }
        self.types.remove("acc");
        self.types.insert(builtins::ACC_TYPE.into(), acc);
        for t in PrimType::ALL {
            for (n, s) in builtins::numeric_module(t) {
                add(self, format!("{}.{n}", t.name()), &s);
            }
        }
    }

    /// A scheme from a parsed built-in signature (no checks needed: the
    /// table is ours).
    fn scheme_from_sig(&mut self, tps: &[TypeParam], te: &TypeExp) -> Scheme {
        let saved = std::mem::take(&mut self.subst.rigid);
        let mark = self.locals.len();
        let (mut type_params, mut size_params) = (Vec::new(), Vec::new());
        for tp in tps {
            match tp {
                TypeParam::Size { name, .. } => {
                    size_params.push(name.clone());
                    self.locals.push(Local {
                        name: name.clone(),
                        ty: Type::Prim(PrimType::I64),
                        scheme: None,
                    });
                }
                TypeParam::Type { name, liftedness, .. } => {
                    type_params.push((name.clone(), *liftedness));
                    self.subst.rigid.push((name.clone(), *liftedness));
                }
            }
        }
        let ty = self
            .type_of(te)
            .unwrap_or_else(|d| panic!("built-in signature: {}", d.message));
        self.locals.truncate(mark);
        self.subst.rigid = saved;
        Scheme {
            type_params,
            size_params,
            ty,
            existential_ty: None,
        }
    }

    pub fn fresh_name(&mut self, base: &str) -> Name {
        self.fresh_names += 1;
        format!("{base}{}", self.fresh_names).into()
    }

    /// Instantiate the scheme of `of`, used at `span`: type parameters
    /// become fresh type variables (limited by their liftedness), size
    /// parameters fresh size variables.
    pub fn instantiate(&mut self, s: &Scheme, of: &Name, span: Span) -> Type {
        let t = self.instantiate_params(s, of, span);
        let Some((_, names)) = &s.existential_ty else {
            return t;
        };
        // See Note [Existential results].
        let fresh: Vec<(&Name, Size)> = names
            .iter()
            .map(|n| {
                (
                    n,
                    self.fresh_existential(format!("the unknown size of a result of \"{of}\"")),
                )
            })
            .collect();
        unify::map_sizes(&t, &mut |n| match fresh.iter().find(|(m, _)| *m == n) {
            Some((_, d)) => d.clone(),
            None => Size::Var(n.clone()),
        })
    }

    fn instantiate_params(&mut self, s: &Scheme, of: &Name, span: Span) -> Type {
        let ty = s.existential_ty.as_ref().map_or(&s.ty, |(t, _)| t);
        if s.type_params.is_empty() && s.size_params.is_empty() {
            return ty.clone();
        }
        let vars: Vec<(&Name, Type)> = s
            .type_params
            .iter()
            .map(|(n, l)| {
                let lift = (*l < Liftedness::Lifted).then(|| LiftLimit {
                    level: *l,
                    site: LiftSite::TypeParam {
                        param: n.clone(),
                        of: of.clone(),
                    },
                    span,
                });
                let v = self.subst.fresh_constrained(unify::Constraint {
                    lift,
                    ..Default::default()
                });
                (n, v)
            })
            .collect();
        let sizes: Vec<(&Name, Size)> = s
            .size_params
            .iter()
            .map(|n| (n, self.subst.fresh_size_for(Some(n.clone()))))
            .collect();
        for (n, d) in &sizes {
            if let Size::Infer(v) = d {
                if !context_sizes::witnessed_by_params(&s.ty, n) {
                    self.context_size_vars.insert(*v);
                }
            }
        }
        unify::instantiate_params(
            ty,
            &|n| vars.iter().find(|(m, _)| *m == n).map(|(_, t)| t.clone()),
            &|n| match sizes.iter().find(|(m, _)| *m == n) {
                Some((_, d)) => d.clone(),
                None => Size::Var(n.clone()),
            },
        )
    }

    /// The unbound size variables of `types` that no local in scope
    /// mentions, each with a fresh size-parameter name (which no source
    /// name can equal). Build the scheme with [`Checker::scheme_type`],
    /// then [`Checker::forget_sizes`] them.
    pub(crate) fn generalise_sizes(&mut self, types: &[&Type]) -> Vec<(SizeVar, Name)> {
        let mut vars = Vec::new();
        for t in types {
            self.subst.unbound_size_vars(t, &mut vars);
        }
        if vars.is_empty() {
            return Vec::new();
        }
        let mut env = Vec::new();
        for l in &self.locals {
            self.subst.unbound_size_vars(&l.ty, &mut env);
        }
        vars.retain(|v| !env.contains(v));
        vars.into_iter().map(|v| (v, self.fresh_name("?n"))).collect()
    }

    /// The resolved type with the generalised size variables `gen` as
    /// their names (for a scheme); `fin`: also as after checking (no size
    /// variables or size expressions left).
    pub(crate) fn scheme_type(&mut self, t: &Type, gen: &[(SizeVar, Name)], fin: bool) -> Type {
        let named = unify::map_dims(&self.subst.resolve(t), &mut |d| match d {
            Size::Infer(v) => match gen.iter().find(|(w, _)| w == v) {
                Some((_, n)) => Size::Var(n.clone()),
                None => d.clone(),
            },
            d => d.clone(),
        });
        if fin {
            self.subst.resolve_final(&named)
        } else {
            named
        }
    }

    /// Bind generalised (or forgotten) size variables to `Unknown`: the
    /// body, which never sees the size parameter, keeps no size for them,
    /// and a use elsewhere (out of scope) is not constrained by them.
    pub(crate) fn forget_sizes(&mut self, gen: &[(SizeVar, Name)]) {
        for (v, _) in gen {
            self.subst.set_size(*v, Size::Unknown);
        }
    }

    /// The local `name` denotes: by its own name, or by the name it had in
    /// the source (Note [Shadowed size names] in `shadow`).
    pub fn lookup_local(&self, name: &str) -> Option<&Local> {
        self.locals
            .iter()
            .rev()
            .find(|l| &*l.name == name || shadow::source_name(&l.name) == name)
    }

    pub fn lookup_global(&self, name: &str) -> Option<(GlobalId, Rc<Scheme>)> {
        self.globals.get(name).cloned()
    }

    pub fn lookup_builtin(&self, name: &str) -> Option<Rc<Scheme>> {
        self.builtins.get(name).cloned()
    }

    /// The built-in a sealed module's name stands for, and its scheme there.
    pub fn lookup_builtin_alias(&self, name: &str) -> Option<(Name, Rc<Scheme>)> {
        self.builtin_aliases.get(name).cloned()
    }

    pub fn add_builtin_alias(&mut self, alias: Name, target: Name, scheme: Scheme) {
        self.builtin_aliases.insert(alias, (target, Rc::new(scheme)));
    }

    /// Names in scope, for "did you mean" hints.
    pub fn close_name(&self, name: &str) -> Option<String> {
        let cands = self
            .locals
            .iter()
            .map(|l| l.name.to_string())
            // Not the names module elaboration makes up for functor
            // arguments, sealed implementations and checked-only copies.
            .chain(
                self.globals
                    .keys()
                    .filter(|k| !k.contains(['(', '#']) && !k.contains(".impl.") && !k.contains(".arg."))
                    .map(|k| k.to_string()),
            )
            .chain(self.builtins.keys().filter(|k| !k.contains('.')).cloned());
        let mut best: Option<(usize, String)> = None;
        for c in cands {
            let d = futmlir_dialects::ir::parse::edit_distance(name, &c);
            if d <= 2.max(name.len() / 3) && d > 0 && best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                best = Some((d, c));
            }
        }
        best.map(|(_, c)| c)
    }

    // ---- Type expressions -------------------------------------------------

    /// The type a type expression denotes. Size names must be in scope as
    /// `i64` variables (size parameters, parameters, existentials).
    pub fn type_of(&mut self, te: &TypeExp) -> Result<Type, Diag> {
        match &te.kind {
            TypeExpKind::Var(qn) => self.named_type(qn, &[], te.span),
            TypeExpKind::Apply(head, args) => match &head.kind {
                TypeExpKind::Var(qn) => self.named_type(qn, args, te.span),
                _ => Err(Diag::new(head.span, "expected a type name to apply to arguments")),
            },
            TypeExpKind::Tuple(ts) => {
                let ts = ts.iter().map(|t| self.type_of(t)).collect::<Result<Vec<_>, _>>()?;
                Ok(if ts.len() == 1 {
                    ts.into_iter().next().unwrap()
                } else {
                    Type::Tuple(ts)
                })
            }
            TypeExpKind::Record(fs) => {
                let mut out: Vec<(Name, Type)> = Vec::new();
                for (n, s, t) in fs {
                    if out.iter().any(|(m, _)| m == n) {
                        return Err(Diag::new(
                            *s,
                            format!("field `{n}` is defined twice (previously defined in this record)"),
                        ));
                    }
                    out.push((n.clone(), self.type_of(t)?));
                }
                Ok(record_type(out))
            }
            TypeExpKind::Array(size, elem) => {
                if let Some((name, l)) = self.declared_lifted(elem) {
                    return Err(Diag::new(
                        te.span,
                        format!(
                            "Cannot create array with elements of {} type \"{name}\" (might cause irregular array).",
                            unify::lift_word(l)
                        ),
                    ));
                }
                let e = self.type_of(elem)?;
                if let Some(c) = self.subst.lift_culprit(&e, Liftedness::Unlifted) {
                    let l = LiftLimit {
                        level: Liftedness::Unlifted,
                        site: LiftSite::ArrayElem,
                        span: te.span,
                    };
                    return Err(Diag::new(te.span, l.message(&e.to_string(), &c)));
                }
                let d = self.size_of(size)?;
                Ok(e.array_of(d))
            }
            // `*(a, b)` is `(*a, *b)`: the parameter as a whole consumes.
            TypeExpKind::Unique(t) => {
                let inner = self.type_of(t)?;
                if no_arrays(&inner) {
                    crate::diag::warn(Diag::new(
                        te.span,
                        format!("A uniqueness annotation on the type `{inner}`, which has no arrays, has no effect."),
                    ));
                }
                Ok(unique_arrays(inner))
            }
            TypeExpKind::Arrow(name, a, b) => self.arrow_type(name, a, b),
            TypeExpKind::Existential(names, t) => {
                sizes::check_existential(names, t)?;
                let mark = self.locals.len();
                for (n, _) in names {
                    self.locals.push(Local {
                        name: n.clone(),
                        ty: Type::Prim(PrimType::I64),
                        scheme: None,
                    });
                }
                let r = self.type_of(t);
                self.locals.truncate(mark);
                let r = r?;
                Ok(unify::map_sizes(&r, &mut |n| {
                    if names.iter().any(|(m, _)| m == n) {
                        Size::Unknown
                    } else {
                        Size::Var(n.clone())
                    }
                }))
            }
            TypeExpKind::Sum(cs) => {
                // Futhark stores a sum type's tag in one byte.
                if cs.len() > MAX_CONSTRUCTORS {
                    return Err(Diag::new(
                        te.span,
                        format!(
                            "Sum types may have at most {MAX_CONSTRUCTORS} constructors; this one has {}",
                            cs.len()
                        ),
                    ));
                }
                let mut out: Vec<(Name, Vec<Type>)> = Vec::new();
                for (c, ts) in cs {
                    if out.iter().any(|(m, _)| m == c) {
                        return Err(Diag::new(
                            te.span,
                            format!("the constructor `#{c}` appears twice in the sum type"),
                        ));
                    }
                    let ts = ts.iter().map(|t| self.type_of(t)).collect::<Result<Vec<_>, _>>()?;
                    out.push((c.clone(), ts));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(Type::Sum(out))
            }
        }
    }

    /// `(name: a) -> b`: `name` is in scope in `b`.
    fn arrow_type(&mut self, name: &Option<Name>, a: &TypeExp, b: &TypeExp) -> Result<Type, Diag> {
        let pa = self.type_of(a)?;
        let mark = self.locals.len();
        if let Some(n) = name {
            self.locals.push(Local {
                name: n.clone(),
                ty: pa.clone(),
                scheme: None,
            });
        }
        // See Note [Anonymous parameter sizes]: a function's result may
        // have an existential size, here `Unknown`; a curried function's
        // next parameter is a parameter still.
        let saved = self.anonymous_inferred;
        self.anonymous_inferred = saved && matches!(b.kind, TypeExpKind::Arrow(..));
        let rb = self.type_of(b);
        self.anonymous_inferred = saved;
        self.locals.truncate(mark);
        Ok(Type::Arrow {
            param_name: name.clone(),
            param: Rc::new(pa),
            ret: Rc::new(rb?),
        })
    }

    /// The scheme of the top-level definition or built-in that `qn` names
    /// (not a local).
    fn scheme_of_name(&self, qn: &QualName) -> Option<Rc<Scheme>> {
        if qn.quals.is_empty() {
            if let Some((_, s)) = self.lookup_global(&qn.name) {
                return Some(s);
            }
        }
        self.lookup_builtin(&qn.to_string())
    }

    /// Whether `qn` names a top-level constant of type `i64` (or a
    /// built-in one, `i64.highest`).
    fn is_size_constant(&self, qn: &QualName) -> bool {
        self.scheme_of_name(qn)
            .is_some_and(|s| s.ty == Type::Prim(PrimType::I64) && s.size_params.is_empty())
    }

    /// Whether `qn` names a top-level or built-in function.
    fn is_function_name(&self, qn: &QualName) -> bool {
        self.scheme_of_name(qn)
            .is_some_and(|s| matches!(s.ty, Type::Arrow { .. }))
    }

    /// A size expression is evaluated where the type is used, maybe many
    /// times: it may not consume (reference, "In-place updates"), so no
    /// argument in it may be passed for a unique parameter.
    fn size_exp_consumes_nothing(&self, f: &Exp, args: &[Exp]) -> Result<(), Diag> {
        let ExpKind::Var(v) = &f.kind else { return Ok(()) };
        if v.name.quals.is_empty() && self.lookup_local(&v.name.name).is_some() {
            return Ok(());
        }
        let Some(scheme) = self.scheme_of_name(&v.name) else {
            return Ok(());
        };
        let mut t = &scheme.ty;
        for a in args {
            let Type::Arrow { param, ret, .. } = t else { break };
            if consume::contains_unique(param) {
                let what = match &a.kind {
                    ExpKind::Var(x) => format!("\"{}\"", x.name),
                    _ => "this argument".to_string(),
                };
                return Err(Diag::new(
                    a.span,
                    format!(
                        "Consuming {what}, which is not consumable: it is in a size expression, which may not consume"
                    ),
                )
                .help(format!(
                    "`{}` consumes this parameter; size expressions are evaluated where the type is used",
                    v.name
                )));
            }
            t = ret;
        }
        Ok(())
    }

    // Note [Sizes from constants]
    // A size may name a top-level constant (`def n = 19i64`, `[n]f32`, in
    // a module `[r]t` with `def r = i64.i32 P.r`), or be an expression
    // over constants. Futhark tracks such a size as the constant's name;
    // here it is a size term (Note [Size terms] in `types`): it agrees
    // with every size of another form statically, and its value is
    // computed where a shape must have it, so a coercion `xs :> [n]t` and
    // an entry point's parameter `[n]t` are checked at run time (an
    // ill-sized use is reported when it runs, not when it is compiled:
    // docs/futhark-missing.md).

    fn size_of(&mut self, s: &SizeExp) -> Result<Size, Diag> {
        Ok(match s {
            // See Note [Anonymous parameter sizes].
            SizeExp::Any if self.anonymous_inferred => self.subst.fresh_size_for(None),
            SizeExp::Any => Size::Unknown,
            SizeExp::Const(n, _) => Size::Const(*n),
            SizeExp::Exp(e, _) => {
                // Every name in it must be a size in scope; arithmetic on
                // them is modelled (Note [Static size checking]), anything
                // else is `Unknown`.
                let mut e = (**e).clone();
                let mut unknown = None;
                let mut locals = Vec::new();
                zonk::walk_exp(
                    &mut e,
                    &mut |x| {
                        if let ExpKind::Apply(f, args) = &x.kind {
                            self.size_exp_consumes_nothing(f, args)?;
                        }
                        if let ExpKind::Var(v) = &x.kind {
                            let local = v.name.quals.is_empty() && self.lookup_local(&v.name.name).is_some();
                            if local {
                                locals.push((v.name.name.clone(), x.span));
                            }
                            // A constant or a call (`[opaque n]`, `[length
                            // xs]`) is a term (Note [Sizes from constants]).
                            let term = !local && (self.is_size_constant(&v.name) || self.is_function_name(&v.name));
                            if unknown.is_none() && !local && !term {
                                unknown = Some((v.name.to_string(), x.span));
                            }
                        }
                        Ok(())
                    },
                    &mut |_| {},
                )?;
                if let Some((n, s)) = unknown {
                    return Err(Diag::new(s, format!("unknown size `{n}`")));
                }
                // Terms first: a parameter in one may have another type
                // (`[i64.i32 n]`).
                let size = self.size_of_exp(&e);
                // A parameter used in a size (`def g n m (_: [n+m]t)`) is
                // an `i64`, as where it is the whole size.
                for (n, span) in locals {
                    if let Some(l) = self.lookup_local(&n) {
                        let t = self.subst.resolve(&l.ty);
                        if let Type::Var(_) = t {
                            self.subst.unify(&t, &Type::Prim(PrimType::I64), span)?;
                        }
                    }
                }
                size
            }
            SizeExp::Name(qn, span) if self.lookup_local(&qn.name).is_none() && self.is_size_constant(qn) => {
                if self.constant_sizes_named && qn.quals.is_empty() {
                    // See Note [Sizes from constants in type specifications]
                    // in `seal`.
                    return Ok(Size::Var(qn.name.clone()));
                }
                // See Note [Sizes from constants].
                let var = Var {
                    name: qn.clone(),
                    res: None,
                };
                self.size_term(&Exp::new(ExpKind::Var(var), *span))
            }
            SizeExp::Name(qn, span) => {
                if !qn.quals.is_empty() {
                    return Err(Diag::new(*span, format!("unknown size `{qn}`")));
                }
                match self.lookup_local(&qn.name) {
                    Some(l) => {
                        // The local's own name: See Note [Shadowed size names].
                        let name = l.name.clone();
                        let t = self.subst.resolve(&l.ty);
                        if let Type::Var(_) = t {
                            // A parameter used as a size (`def f (n) : [n]t`)
                            // is an `i64`.
                            self.subst.unify(&t, &Type::Prim(PrimType::I64), *span)?;
                        } else if t != Type::Prim(PrimType::I64) {
                            return Err(Diag::new(*span, format!("expected a size of type `i64`, found `{t}`")));
                        }
                        Size::Var(name)
                    }
                    None => {
                        return Err(Diag::new(*span, format!("unknown size `{}`", qn.name))
                            .help("declare it as a size parameter, e.g. `def f [n] (xs: [n]i32)`"))
                    }
                }
            }
        })
    }

    /// The abbreviation `te` names, where it was declared `type~`. (One
    /// declared `type^` is caught by its functions, if it has any: module
    /// elaboration declares a specification's transparent types `type^`.)
    fn declared_lifted(&self, te: &TypeExp) -> Option<(Name, Liftedness)> {
        let qn = match &te.kind {
            TypeExpKind::Var(qn) => qn,
            TypeExpKind::Apply(head, _) => match &head.kind {
                TypeExpKind::Var(qn) => qn,
                _ => return None,
            },
            TypeExpKind::Unique(t) => return self.declared_lifted(t),
            _ => return None,
        };
        if !qn.quals.is_empty() {
            return None;
        }
        let abbr = self.types.get(&qn.name)?;
        (abbr.liftedness == Liftedness::SizeLifted).then(|| (qn.name.clone(), abbr.liftedness))
    }

    fn named_type(&mut self, qn: &QualName, args: &[TypeArgExp], span: Span) -> Result<Type, Diag> {
        if qn.quals.is_empty() {
            if let Some(p) = PrimType::from_name(&qn.name) {
                if !args.is_empty() {
                    return Err(Diag::new(span, format!("type `{p}` takes no arguments")));
                }
                return Ok(Type::Prim(p));
            }
            if self.subst.rigid.iter().any(|(n, _)| *n == qn.name) {
                if !args.is_empty() {
                    return Err(Diag::new(
                        span,
                        format!("type parameter `{}` takes no arguments", qn.name),
                    ));
                }
                return Ok(Type::Param(qn.name.clone()));
            }
            if let Some(abbr) = self.types.get(&qn.name).cloned() {
                return self.expand_abbr(&qn.name, &abbr, args, span);
            }
        }
        Err(Diag::new(span, format!("Unknown type \"{qn}\"")))
    }

    fn expand_abbr(&mut self, name: &Name, abbr: &TypeAbbr, args: &[TypeArgExp], span: Span) -> Result<Type, Diag> {
        if abbr.params.len() != args.len() {
            return Err(Diag::new(
                span,
                format!(
                    "type `{name}` expects {} argument(s), found {}",
                    abbr.params.len(),
                    args.len()
                ),
            ));
        }
        let mut types: Vec<(Name, Type)> = Vec::new();
        let mut sizes: Vec<(Name, Size)> = Vec::new();
        for (p, a) in abbr.params.iter().zip(args) {
            match (p, a) {
                (TypeParam::Size { name, .. }, TypeArgExp::Size(s, _)) => sizes.push((name.clone(), self.size_of(s)?)),
                (
                    TypeParam::Type {
                        name: pn, liftedness, ..
                    },
                    TypeArgExp::Type(t),
                ) => {
                    let at = self.type_of(t)?;
                    if let Some(c) = self.subst.lift_culprit(&at, *liftedness) {
                        let l = LiftLimit {
                            level: *liftedness,
                            site: LiftSite::TypeParam {
                                param: pn.clone(),
                                of: name.clone(),
                            },
                            span: t.span,
                        };
                        return Err(Diag::new(t.span, l.message(&at.to_string(), &c)));
                    }
                    types.push((pn.clone(), at))
                }
                (TypeParam::Size { name: pn, .. }, TypeArgExp::Type(t)) => {
                    return Err(Diag::new(
                        t.span,
                        format!("expected a size argument `[..]` for `{pn}`, found a type"),
                    ))
                }
                (TypeParam::Type { name: pn, .. }, TypeArgExp::Size(_, s)) => {
                    return Err(Diag::new(
                        *s,
                        format!("expected a type argument for `{pn}`, found a size"),
                    ))
                }
            }
        }
        let t = unify::subst_params(&abbr.ty, &|n| {
            types.iter().find(|(m, _)| m == n).map(|(_, t)| t.clone())
        });
        Ok(unify::map_sizes(&t, &mut |n| {
            sizes
                .iter()
                .find(|(m, _)| m == n)
                .map(|(_, s)| s.clone())
                .unwrap_or_else(|| Size::Var(n.clone()))
        }))
    }

    // ---- Declarations -------------------------------------------------------

    fn check_dec(&mut self, dec: &mut Dec, id: GlobalId, user: bool, entries: &mut Vec<Entry>) -> Result<(), Diag> {
        match dec {
            Dec::Val(vb) => {
                let original = vb.clone();
                let mut scheme = self.check_valbind(vb, id)?;
                let extra = arity(&scheme.ty).saturating_sub(vb.params.len());
                if extra > 0 {
                    // See Note [Point-free definitions].
                    *vb = eta_expand(original, extra);
                    scheme = self.check_valbind(vb, id)?;
                }
                let scheme = Rc::new(scheme);
                self.globals.insert(vb.name.clone(), (id, scheme.clone()));
                if vb.entry {
                    if !user {
                        return Err(Diag::new(
                            vb.name_span,
                            "entry points are only allowed in the main program",
                        ));
                    }
                    if let Some(e) = self.entry_for(vb, id, &scheme) {
                        entries.push(e);
                    }
                }
                Ok(())
            }
            Dec::Type(tb) => {
                self.check_abbr_sizes(tb)?;
                let saved = std::mem::take(&mut self.subst.rigid);
                let mark = self.locals.len();
                for p in &tb.params {
                    match p {
                        TypeParam::Size { name, .. } => self.locals.push(Local {
                            name: name.clone(),
                            ty: Type::Prim(PrimType::I64),
                            scheme: None,
                        }),
                        TypeParam::Type { name, liftedness, .. } => self.subst.rigid.push((name.clone(), *liftedness)),
                    }
                }
                let t = self.type_of(&tb.def);
                self.locals.truncate(mark);
                // Checked with the parameters in scope: `type t '^a = a`
                // must be declared `type^`.
                let culprit = t.as_ref().ok().and_then(|t| self.subst.lift_culprit(t, tb.liftedness));
                self.subst.rigid = saved;
                let t = t?;
                if let Some(c) = culprit {
                    let (what, decl) = match c {
                        unify::LiftCulprit::Function => ("a function".to_string(), "type^"),
                        unify::LiftCulprit::Param(n, l) => (
                            format!("the {} type parameter `{n}`", unify::lift_word(l)),
                            if l == Liftedness::SizeLifted { "type~" } else { "type^" },
                        ),
                    };
                    return Err(Diag::new(
                        tb.span,
                        format!(
                            "Non-lifted type abbreviations may not contain functions: type `{}` contains {what}; declare it with `{decl}`",
                            tb.name
                        ),
                    ));
                }
                self.types.insert(
                    tb.name.clone(),
                    Rc::new(TypeAbbr {
                        params: tb.params.clone(),
                        liftedness: tb.liftedness,
                        ty: t,
                    }),
                );
                Ok(())
            }
            Dec::Local(d, _) => self.check_dec(d, id, user, entries),
            Dec::Seal(seal) => self.check_seal(seal, id),
            Dec::CheckOnly(d) => self.check_dec(d, id, false, entries),
            // Module elaboration (`crate::modules`) leaves none of these.
            Dec::Module(m) => Err(Diag::new(m.span, "a module declaration left after elaboration")),
            Dec::ModType(m) => Err(Diag::new(m.span, "a module type left after elaboration")),
            Dec::Open(_, s) | Dec::Import(_, s) => Err(Diag::new(*s, "a module declaration left after elaboration")),
        }
    }

    fn entry_for(&mut self, vb: &ValBind, id: GlobalId, scheme: &Scheme) -> Option<Entry> {
        let mut params = Vec::new();
        let mut ret = scheme.ty.clone();
        for _ in &vb.params {
            match ret {
                Type::Arrow { param, ret: r, .. } => {
                    params.push((*param).clone());
                    ret = (*r).clone();
                }
                _ => return None,
            }
        }
        for (p, t) in vb.params.iter().zip(&params) {
            // Futhark's wording (error index `higher-order-entry`,
            // `polymorphic-entry`); a lifted abstract type may hide a
            // function.
            let higher_order = t.has_function() || self.subst.lift_culprit(t, Liftedness::SizeLifted).is_some();
            if higher_order || contains_param(t) {
                let what = if higher_order {
                    "Entry point functions may not be higher-order"
                } else {
                    "Entry point functions may not be polymorphic"
                };
                self.errors
                    .push(Diag::new(p.span, format!("{what}: a parameter has type `{t}`")));
                return None;
            }
        }
        // A size only the result has would be chosen by the caller, which
        // for an entry point is outside the program.
        for tp in &vb.type_params {
            if let TypeParam::Size { name, span } = tp {
                if !params.iter().any(|t| unify::mentions_size(t, name)) {
                    self.errors.push(
                        Diag::new(
                            *span,
                            "Entry point functions must not be size-polymorphic in their return type.",
                        )
                        .help(format!("make `{name}` an ordinary parameter: `({name}: i64)`")),
                    );
                    return None;
                }
            }
        }
        if !vb.type_params.iter().all(|tp| matches!(tp, TypeParam::Size { .. })) {
            self.errors.push(Diag::new(
                vb.name_span,
                "Entry point functions may not be polymorphic: they cannot have type parameters",
            ));
            return None;
        }
        Some(Entry {
            name: vb.name.clone(),
            id,
            params,
            ret,
        })
    }

    /// Check a `def` and return its (generalised) type scheme.
    fn check_valbind(&mut self, vb: &mut ValBind, id: GlobalId) -> Result<Scheme, Diag> {
        check_redefinable(&vb.name, vb.name_span)?;
        self.locals.clear();
        self.subst.rigid.clear();
        let mut size_params = Vec::new();
        let mut type_params = Vec::new();
        for tp in &vb.type_params {
            match tp {
                TypeParam::Size { name, .. } => {
                    size_params.push(name.clone());
                    self.locals.push(Local {
                        name: name.clone(),
                        ty: Type::Prim(PrimType::I64),
                        scheme: None,
                    });
                }
                TypeParam::Type { name, liftedness, .. } => {
                    type_params.push((name.clone(), *liftedness));
                    self.subst.rigid.push((name.clone(), *liftedness));
                }
            }
        }
        let rec = (!vb.params.is_empty()).then(|| (vb.name.clone(), id, size_params.clone()));
        let checked = self.check_function_rec(&mut vb.params, vb.ret.as_ref(), &mut vb.body, true, rec);
        let used = self.recursive.take().is_some_and(|r| r.used);
        let (param_types, ret) = checked?;
        self.check_inaccessible_sizes(&vb.params, &param_types, vb.ret.as_ref())?;
        vb.recursive = used;
        if used {
            check_recursion(self, vb, &ret)?;
        }
        // A size parameter may also be one of the result's sizes (`def mat
        // [m][n] (v: t) : [m][n]t`): a call's context gives its value.
        let mut sized = param_types.clone();
        sized.push(ret.clone());
        self.check_sizes_bound(&vb.type_params, &sized)?;
        // A value binding's size parameters are given by its uses' types;
        // a size it makes up itself (`filter`) would differ per use.
        if vb.params.is_empty() && !size_params.is_empty() {
            let t = self.subst.resolve(&ret);
            if !matches!(t, Type::Arrow { .. }) && has_unknown_size(&t) {
                return Err(Diag::new(
                    vb.body.span,
                    format!(
                        "\"{}\" is a size-polymorphic value binding, whose type may not have an unknown size: `{t}`.",
                        vb.name
                    ),
                )
                .help("make it a function (a parameter `()`), or give the size a name of the size parameters"));
            }
        }
        let own: Vec<&Type> = param_types.iter().chain(std::iter::once(&ret)).collect();
        self.check_ambiguous_size_binders(&mut vb.body, &own)?;
        // Defaulting and generalisation. See Note [Defaulting].
        let mut open = Vec::new();
        for t in param_types.iter().chain(std::iter::once(&ret)) {
            self.subst.unbound_vars(t, &mut open);
        }
        let overloaded: Vec<(TyVar, Span)> = open
            .iter()
            .filter_map(|v| self.subst.constraint(*v).prims.map(|(_, s)| (*v, s)))
            .collect();
        let mut left = Vec::new();
        for t in param_types.iter().chain(std::iter::once(&ret)) {
            self.subst.default_vars(t, &mut left);
        }
        let defaulted: Vec<(Span, PrimType)> = overloaded
            .into_iter()
            .filter_map(|(v, s)| match self.subst.resolve(&Type::Var(v)) {
                Type::Prim(p) => Some((s, p)),
                _ => None,
            })
            .collect();
        if !defaulted.is_empty() {
            // An overloaded function (not a constant like `def n = 10`)
            // gets one type, which its uses may not expect: Futhark warns.
            if !vb.params.is_empty() || matches!(self.subst.resolve(&ret), Type::Arrow { .. }) {
                let mut types: Vec<String> = defaulted.iter().map(|(_, p)| p.to_string()).collect();
                types.sort();
                types.dedup();
                crate::diag::warn(Diag::new(
                    vb.name_span,
                    format!(
                        "The type of \"{}\" is ambiguous (overloaded), so it is defaulted to {}. Add type annotations to choose another.",
                        vb.name,
                        types.join(", ")
                    ),
                ));
            }
            self.defaulted.insert(vb.name.clone(), defaulted);
        }
        for v in left {
            if let Some(d) = self.subst.ambiguous_sum(v) {
                return Err(d);
            }
            // A variable that must be a record (`r.x`) could be many
            // record types (Futhark has no row polymorphism), and one
            // that must support equality cannot be a type parameter
            // (Note [Equality types]).
            let c = self.subst.constraint(v);
            if let Some((n, _, span)) = c.fields.first() {
                return Err(Diag::new(
                    *span,
                    format!("Type is ambiguous: a record with at least the field `{n}`"),
                )
                .help("add a type annotation that says which record type (e.g. `(r: {x: i32, y: f32})`)"));
            }
            if let Some(span) = c.equality {
                return Err(Diag::new(
                    span,
                    format!(
                        "Type is ambiguous: the operands' type does not support equality, as a type parameter of `{}` would not",
                        vb.name
                    ),
                )
                .help("add a type annotation that says which type is compared (e.g. `(x: i32)`)"));
            }
            // Futhark infers a lifted type parameter unless something
            // limits it (`==`, an array of it).
            let l = self
                .subst
                .constraint(v)
                .lift
                .as_ref()
                .map_or(Liftedness::Lifted, |l| l.level);
            let n = self.fresh_name("t");
            self.subst.set(v, Type::Param(n.clone()));
            type_params.push((n, l));
        }
        // Size variables of the parameters become size parameters (those
        // only in the result are existential: unknown).
        let gen = self.generalise_sizes(&param_types.iter().collect::<Vec<_>>());
        size_params.extend(gen.iter().map(|(_, n)| n.clone()));
        let scope: Vec<Name> = size_params
            .iter()
            .cloned()
            .chain(vb.params.iter().filter_map(param_name))
            .collect();
        // See Note [Existential results]: named before `resolve_final`
        // makes the body's existentials unknown.
        let mut existentials = Vec::new();
        let named_ret = if vb.params.is_empty() {
            None
        } else {
            let r = match self.declared_existential_result(vb.ret.as_ref()) {
                Some(d) => d,
                None => self.scheme_type(&ret, &gen, false),
            };
            let mut seen = Vec::new();
            let named = sizes::name_existential_results(&r, &scope, &mut existentials, &mut seen, &mut || {
                self.fresh_name("?r")
            });
            let dims: Vec<Size> = seen.into_iter().map(|(d, _)| d).collect();
            if let Some(d) = sizes::nonconstructive_result_size(&r, &scope, &dims) {
                let mut origins = Vec::new();
                d.any_leaf(&mut |l| {
                    if let Some(o) = self.subst.existential_origin(l) {
                        origins.push(format!("\"{}\" is {o}", l.text()));
                    }
                    false
                });
                let origins = if origins.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", origins.join("; "))
                };
                return Err(Diag::new(
                    vb.body.span,
                    format!(
                        "Cannot generalise the type of \"{}\": the size \"{}\" of a function parameter in its result is bound in its body and is the size of no array in the result{origins}",
                        vb.name,
                        d.spaced_text()
                    ),
                )
                .help("a caller could not know that size; bind it outside, or return an array of that size beside the function"));
            }
            Some(self.subst.resolve_final(&named))
        };
        let mut ty = self.scheme_type(&ret, &gen, true);
        let mut existential_ty = named_ret.filter(|_| !existentials.is_empty());
        for (p, pt) in vb.params.iter().zip(&param_types).rev() {
            let param = Rc::new(self.scheme_type(pt, &gen, true));
            ty = Type::Arrow {
                param_name: param_name(p),
                param: param.clone(),
                ret: Rc::new(ty),
            };
            existential_ty = existential_ty.map(|r| Type::Arrow {
                param_name: param_name(p),
                param,
                ret: Rc::new(r),
            });
        }
        // See Note [Anonymous parameter sizes in the body].
        let mut declared = Vec::new();
        for (p, t) in vb.params.iter().zip(&param_types) {
            if matches!(p.kind, PatKind::Ascribe(..)) {
                self.subst.unbound_size_vars(t, &mut declared);
            }
        }
        for (v, n) in &gen {
            if declared.contains(v) {
                self.subst.set_size(*v, Size::Var(n.clone()));
                vb.type_params.push(TypeParam::Size {
                    name: n.clone(),
                    span: vb.name_span,
                });
            } else {
                self.subst.set_size(*v, Size::Unknown);
            }
        }
        // A size named after a local of the body is existential outside.
        let existential_ty = existential_ty.map(|t| {
            let t = unify::map_sizes(&t, &mut |n| {
                if scope.contains(n) || existentials.contains(n) {
                    Size::Var(n.clone())
                } else {
                    Size::Unknown
                }
            });
            (t, existentials)
        });
        let ty = unify::map_sizes(&ty, &mut |n| {
            if scope.contains(n) {
                Size::Var(n.clone())
            } else {
                Size::Unknown
            }
        });
        zonk::zonk_valbind(self, vb)?;
        patterns::check_valbind(vb)?;
        consume::check_valbind(self, vb)?;
        Ok(Scheme {
            type_params,
            size_params,
            ty,
            existential_ty,
        })
    }

    /// A declared existential result type (`: ?[m].[m]i32`) with its
    /// existential sizes as names, which `Checker::type_of` makes
    /// `Unknown` (See Note [Existential results]); `None` where the result
    /// is not declared so, or its type cannot be formed here.
    fn declared_existential_result(&mut self, ret: Option<&TypeExp>) -> Option<Type> {
        let TypeExpKind::Existential(names, t) = &ret?.kind else {
            return None;
        };
        let mark = self.locals.len();
        for (n, _) in names {
            self.locals.push(Local {
                name: n.clone(),
                ty: Type::Prim(PrimType::I64),
                scheme: None,
            });
        }
        let r = self.type_of(t);
        self.locals.truncate(mark);
        r.ok()
    }

    /// Check parameters, return annotation and body; returns the parameter
    /// types and the return type (the annotation's, when given).
    /// Each size parameter must be the size of something in a parameter's
    /// type: that is where its value comes from.
    pub fn check_sizes_bound(&self, type_params: &[TypeParam], ptys: &[Type]) -> Result<(), Diag> {
        for tp in type_params {
            if let TypeParam::Size { name, span } = tp {
                if !ptys.iter().any(|t| unify::mentions_size(&self.subst.resolve(t), name)) {
                    return Err(Diag::new(
                        *span,
                        format!(
                            "Size [{name}] unused in pattern: `{name}` is the size of nothing in the parameters' or the result's types, so nothing gives its value"
                        ),
                    )
                    .help(format!("use it in a type annotation, e.g. `(xs: [{name}]i32)`")));
                }
            }
        }
        Ok(())
    }

    /// `top_level`: a `def`, whose parameters' anonymous sizes are
    /// inferred (Note [Anonymous parameter sizes]).
    pub fn check_function(
        &mut self,
        params: &mut [Pat],
        ret: Option<&TypeExp>,
        body: &mut Exp,
        top_level: bool,
    ) -> Result<(Vec<Type>, Type), Diag> {
        self.check_function_rec(params, ret, body, top_level, None)
    }

    /// `check_function`; with `rec` (the name, id and explicit size
    /// parameters of a top-level function), the body sees the function
    /// itself (Note [Recursive functions]).
    fn check_function_rec(
        &mut self,
        params: &mut [Pat],
        ret: Option<&TypeExp>,
        body: &mut Exp,
        top_level: bool,
        rec: Option<(Name, GlobalId, Vec<Name>)>,
    ) -> Result<(Vec<Type>, Type), Diag> {
        let mark = self.locals.len();
        let mut ptys = Vec::new();
        self.anonymous_inferred = top_level;
        let bound = self.bind_params(params, &mut ptys);
        self.anonymous_inferred = false;
        bound?;
        // See Note [Anonymous result sizes].
        let rt = match ret {
            Some(te) => {
                self.anonymous_inferred = top_level && !params.is_empty();
                let t = self.type_of(te);
                self.anonymous_inferred = false;
                Some(t?)
            }
            None => None,
        };
        let is_rec = rec.is_some();
        if let Some((name, id, size_params)) = rec {
            // A recursive call sees the result's anonymous sizes as
            // unknown, not as the sizes inferred for this body.
            let declared = match ret {
                Some(te) => Some(self.type_of(te)?),
                None => None,
            };
            let mut ty = declared.unwrap_or_else(|| self.subst.fresh());
            for (p, pt) in params.iter().zip(&ptys).rev() {
                ty = Type::Arrow {
                    param_name: param_name(p),
                    param: Rc::new(pt.clone()),
                    ret: Rc::new(ty),
                };
            }
            self.recursive = Some(RecursiveDef {
                name,
                id,
                scheme: Rc::new(Scheme {
                    type_params: Vec::new(),
                    size_params,
                    ty,
                    existential_ty: None,
                }),
                used: false,
            });
        }
        let r = match rt {
            Some(rt) => {
                let bt = self.check_exp(body)?;
                self.subst.unify_declared("Function body", &rt, &bt, body.span)?;
                rt
            }
            None => {
                let bt = self.check_exp(body)?;
                if let Some(RecursiveDef { scheme, .. }) = self.recursive.as_ref().filter(|_| is_rec) {
                    let mut want = &scheme.ty;
                    while let Type::Arrow { ret, .. } = want {
                        want = ret;
                    }
                    let want = want.clone();
                    self.subst.unify(&want, &bt, body.span)?;
                }
                bt
            }
        };
        // Names bound inside a parameter pattern (`(k, x)`) are not in scope
        // for the caller.
        let named: Vec<Name> = params.iter().filter_map(param_name).collect();
        let r = self.leave_scope(r, mark, Some(&named));
        self.locals.truncate(mark);
        Ok((ptys, r))
    }

    /// Bind the parameter patterns of a function; their types go to `ptys`.
    fn bind_params(&mut self, params: &mut [Pat], ptys: &mut Vec<Type>) -> Result<(), Diag> {
        for p in params.iter_mut() {
            let t = self.pat_type(p)?;
            self.bind_pat(p, &t)?;
            ptys.push(t);
        }
        Ok(())
    }

    // ---- Patterns -----------------------------------------------------------

    /// The type a pattern expects (fresh variables where not annotated).
    pub fn pat_type(&mut self, p: &Pat) -> Result<Type, Diag> {
        Ok(match &p.kind {
            PatKind::Id(_) | PatKind::Wildcard => self.subst.fresh(),
            PatKind::Tuple(ps) => {
                let ts = ps.iter().map(|p| self.pat_type(p)).collect::<Result<Vec<_>, _>>()?;
                if ts.len() == 1 {
                    ts.into_iter().next().unwrap()
                } else {
                    Type::Tuple(ts)
                }
            }
            PatKind::Record(fs) => {
                let mut out = Vec::new();
                for (n, _, p) in fs {
                    out.push((n.clone(), self.pat_type(p)?));
                }
                record_type(out)
            }
            PatKind::Ascribe(_, te) => {
                // Names bound earlier in the same parameter list may appear
                // in sizes; they are in scope already.
                self.type_of(te)?
            }
            PatKind::Lit { lit, negated } => self.literal_pat_type(lit, *negated, p.span)?,
            PatKind::Constr(c, ps) => {
                let ts = ps.iter().map(|p| self.pat_type(p)).collect::<Result<Vec<_>, _>>()?;
                self.subst.fresh_constrained(unify::Constraint {
                    constrs: vec![(c.clone(), ts, p.span)],
                    ..Default::default()
                })
            }
        })
    }

    /// The type of a literal pattern (a string is not one).
    fn literal_pat_type(&mut self, lit: &Literal, negated: bool, span: Span) -> Result<Type, Diag> {
        match lit {
            Literal::String(_) => Err(Diag::new(span, "string literals are not allowed in patterns")),
            Literal::Bool(_) if negated => Err(Diag::new(span, "expected a numeric literal after `-`")),
            _ => Ok(self.literal_type(lit, span)),
        }
    }

    /// Bind the names of a pattern matched against a value of type `t`.
    pub fn bind_pat(&mut self, p: &mut Pat, t: &Type) -> Result<(), Diag> {
        p.ty = Some(t.clone());
        match &mut p.kind {
            PatKind::Id(n) => {
                *n = self.binder_name(n);
                self.locals.push(Local {
                    name: n.clone(),
                    ty: t.clone(),
                    scheme: None,
                });
                Ok(())
            }
            PatKind::Wildcard => Ok(()),
            PatKind::Tuple(ps) if ps.len() == 1 => self.bind_pat(&mut ps[0], t),
            PatKind::Tuple(ps) => {
                let sh = self.subst.shallow(t);
                let elems = match sh {
                    Type::Tuple(ts) if ts.len() == ps.len() => ts,
                    _ => {
                        let fresh: Vec<Type> = ps.iter().map(|_| self.subst.fresh()).collect();
                        let tt = Type::Tuple(fresh.clone());
                        self.subst.unify(&tt, t, p.span).map_err(|_| {
                            Diag::new(
                                p.span,
                                format!(
                                    "expected a pattern of type `{}`, found a tuple pattern with {} elements",
                                    self.subst.show(t),
                                    ps.len()
                                ),
                            )
                        })?;
                        fresh
                    }
                };
                for (q, et) in ps.iter_mut().zip(elems) {
                    self.bind_pat(q, &et)?;
                }
                Ok(())
            }
            PatKind::Record(fs) => {
                let mut seen: Vec<Name> = Vec::new();
                for (n, s, q) in fs.iter_mut() {
                    if seen.contains(n) {
                        return Err(Diag::new(*s, format!("field `{n}` appears twice in the pattern")));
                    }
                    seen.push(n.clone());
                    let ft = self.subst.fresh();
                    self.subst.require_field(t, n, &ft, *s)?;
                    self.bind_pat(q, &ft)?;
                }
                if let Type::Record(have) = self.subst.shallow(t) {
                    if have.len() != fs.len() {
                        return Err(Diag::new(
                            p.span,
                            format!("the pattern does not mention every field of `{}`", self.subst.show(t)),
                        ));
                    }
                }
                Ok(())
            }
            PatKind::Ascribe(q, te) => {
                let at = self.type_of(te)?;
                self.subst.unify(&at, t, p.span)?;
                // The annotation wins: it carries uniqueness and sizes.
                p.ty = Some(at.clone());
                self.bind_pat(q, &at)
            }
            PatKind::Lit { lit, negated } => {
                let lt = self.literal_pat_type(lit, *negated, p.span)?;
                self.subst.unify_explained(t, &lt, p.span, |s, help| {
                    Diag::new(
                        p.span,
                        format!(
                            "expected a pattern of type `{}`, found a literal of type `{}`",
                            s.show(t),
                            s.show(&lt)
                        ),
                    )
                    .help(help)
                })
            }
            PatKind::Constr(c, ps) => {
                let payload: Vec<Type> = ps.iter().map(|_| self.subst.fresh()).collect();
                self.subst.require_constr(t, c, &payload, p.span)?;
                for (q, pt) in ps.iter_mut().zip(&payload) {
                    self.bind_pat(q, pt)?;
                }
                Ok(())
            }
        }
    }
}

/// The name of a parameter that later sizes may refer to: `(n: i64)`.
fn param_name(p: &Pat) -> Option<Name> {
    match &p.kind {
        PatKind::Id(n) => Some(n.clone()),
        PatKind::Ascribe(q, _) => param_name(q),
        _ => None,
    }
}

fn contains_param(t: &Type) -> bool {
    match t {
        Type::Param(_) | Type::Var(_) => true,
        Type::Prim(_) => false,
        Type::Array { elem, .. } => contains_param(elem),
        Type::Tuple(ts) => ts.iter().any(contains_param),
        Type::Record(fs) => fs.iter().any(|(_, t)| contains_param(t)),
        Type::Arrow { param, ret, .. } => contains_param(param) || contains_param(ret),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(contains_param)),
    }
}

/// A record type with fields sorted by name; `{0: a, 1: b}` is the tuple
/// `(a, b)`.
pub fn record_type(mut fs: Vec<(Name, Type)>) -> Type {
    let is_tuple = fs.len() > 1 && {
        let mut idx: Vec<usize> = fs.iter().filter_map(|(n, _)| n.parse().ok()).collect();
        idx.sort();
        idx.len() == fs.len() && idx.iter().enumerate().all(|(i, j)| i == *j)
    };
    if is_tuple {
        fs.sort_by_key(|(n, _)| n.parse::<usize>().unwrap_or(0));
        return Type::Tuple(fs.into_iter().map(|(_, t)| t).collect());
    }
    fs.sort_by(|a, b| a.0.cmp(&b.0));
    Type::Record(fs)
}

/// Whether `t` has an unknown or existential array size outside function
/// types (Note [Existential sizes]).
fn has_unknown_size(t: &Type) -> bool {
    match t {
        Type::Array { elem, shape, .. } => {
            shape.iter().any(|d| {
                d.any_leaf(&mut |l| matches!(l, Size::Unknown) || matches!(l, Size::Var(n) if n.starts_with('?')))
            }) || has_unknown_size(elem)
        }
        Type::Tuple(ts) => ts.iter().any(has_unknown_size),
        Type::Record(fs) => fs.iter().any(|(_, t)| has_unknown_size(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(has_unknown_size)),
        Type::Arrow { .. } | Type::Prim(_) | Type::Param(_) | Type::Var(_) => false,
    }
}

/// `t` with its arrays outside function types unique.
fn unique_arrays(t: Type) -> Type {
    match t {
        // `*acc t` is unique where `t` is (Note [Accumulators]).
        t if t.is_acc() => match t {
            Type::Sum(cs) => Type::Sum(
                cs.into_iter()
                    .map(|(c, ts)| (c, ts.into_iter().map(unique_arrays).collect()))
                    .collect(),
            ),
            t => t,
        },
        Type::Array { elem, shape, .. } => Type::Array {
            elem,
            shape,
            unique: true,
        },
        Type::Tuple(ts) => Type::Tuple(ts.into_iter().map(unique_arrays).collect()),
        Type::Record(fs) => Type::Record(fs.into_iter().map(|(n, t)| (n, unique_arrays(t))).collect()),
        t => t,
    }
}

/// Whether `t` is made of primitive values only, so that `*t` means
/// nothing (a type parameter or an abstract type may hide arrays).
fn no_arrays(t: &Type) -> bool {
    match t {
        Type::Prim(_) => true,
        Type::Tuple(ts) => !ts.is_empty() && ts.iter().all(no_arrays),
        Type::Record(fs) => !fs.is_empty() && fs.iter().all(|(_, t)| no_arrays(t)),
        _ => false,
    }
}

/// `intrinsics.acc t` (Note [Accumulators] in `builtins`).
fn acc_type(t: Type) -> Type {
    Type::Sum(vec![(format!("{ABSTRACT_MARK}{}", builtins::ACC_TYPE).into(), vec![t])])
}

/// Whether an accumulator type ([`acc_type`]) occurs in `t`.
fn contains_acc(t: &Type) -> bool {
    match t {
        Type::Sum(cs) => t.is_acc() || cs.iter().any(|(_, ts)| ts.iter().any(contains_acc)),
        Type::Array { elem, .. } => contains_acc(elem),
        Type::Tuple(ts) => ts.iter().any(contains_acc),
        Type::Record(fs) => fs.iter().any(|(_, t)| contains_acc(t)),
        Type::Arrow { param, ret, .. } => contains_acc(param) || contains_acc(ret),
        Type::Prim(_) | Type::Param(_) | Type::Var(_) => false,
    }
}

// Note [Point-free definitions]
// A top-level definition whose value is a function beyond its parameters
// (`entry main = map f`, `def h = f >-> g`, `def add x = \y -> x + y`) is
// checked twice: once as written, to learn how many arguments its type
// takes, then eta-expanded (`entry main eta%0 = (map f) eta%0`) and checked
// again, so that every top-level function takes all its arguments as
// parameters. Entry points then have parameters, and internalisation never
// meets a top-level function that returns a function. The return
// annotation, if any, moves onto the body it describes. (The names cannot
// clash with the program's: `%` is not a name character.)

/// How many arguments a type takes before its result is not a function.
fn arity(t: &Type) -> usize {
    match t {
        Type::Arrow { ret, .. } => 1 + arity(ret),
        _ => 0,
    }
}

// Note [Recursive functions]
//
// A top-level function with parameters is in scope of its own body (the
// renamer binds its name there, `check_function_rec` binds its type), as
// the language reference's "Recursive functions" says: no mutual
// recursion (a function sees only itself), and local functions are not
// recursive. The recursive uses see the function monomorphically in its
// type parameters but polymorphic in its explicit size parameters (size-
// polymorphic recursion: `sum (drop 1 xs)`). A function that uses itself
// is `ValBind::recursive` and obeys two more rules, which keep
// defunctionalisation possible: its result type is first-order, and each
// recursive call passes every higher-order parameter, unchanged (the very
// parameter name). The interpreter runs recursive functions; the
// compiled backends keep a recursive function's calls as calls (Note
// [Calls kept as calls] in soac-inline), a higher-order one specialised
// to its function arguments (Note [Specialised recursive functions] in
// internalise/exp.rs).

/// The rules of Note [Recursive functions] for a function `vb` that uses
/// itself, with result type `ret`.
fn check_recursion(ck: &Checker, vb: &ValBind, ret: &Type) -> Result<(), Diag> {
    if ck.subst.resolve(ret).has_function() {
        return Err(Diag::new(
            vb.name_span,
            format!(
                "Recursive function \"{}\" has a functional result type, so it is not first-order",
                vb.name
            ),
        )
        .help("make the result's parameters further parameters of the function"));
    }
    let higher: Vec<(usize, Option<Name>)> = vb
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.ty.as_ref().is_some_and(|t| ck.subst.resolve(t).has_function()))
        .map(|(k, p)| (k, param_name(p)))
        .collect();
    if higher.is_empty() {
        return Ok(());
    }
    let is_self = |e: &Exp| matches!(&e.kind, ExpKind::Var(v) if v.name.quals.is_empty() && v.name.name == vb.name);
    let mut stack = vec![&vb.body];
    while let Some(e) = stack.pop() {
        if let ExpKind::Apply(g, args) = &e.kind {
            if is_self(g) {
                for (k, name) in &higher {
                    let passed = match (args.get(*k).map(|a| &a.kind), name) {
                        (Some(ExpKind::Var(v)), Some(n)) => v.name.quals.is_empty() && v.name.name == *n,
                        _ => false,
                    };
                    if args.len() <= *k {
                        return Err(Diag::new(
                            e.span,
                            format!(
                                "Recursive call of \"{}\" without its higher-order parameter {}: a recursive function with a higher-order parameter must be applied to it",
                                vb.name,
                                k + 1
                            ),
                        ));
                    }
                    if !passed {
                        return Err(Diag::new(
                            args[*k].span,
                            format!(
                                "The higher-order argument {} of the recursive call of \"{}\" must be passed unchanged (the parameter itself)",
                                k + 1,
                                vb.name
                            ),
                        ));
                    }
                }
                stack.extend(args.iter());
                continue;
            }
        }
        if is_self(e) {
            return Err(Diag::new(
                e.span,
                format!(
                    "\"{}\" has a higher-order parameter, so its recursive uses must be applications to all its higher-order arguments",
                    vb.name
                ),
            ));
        }
        crate::syntax::visit::children(e, &mut |c| stack.push(c));
    }
    Ok(())
}

/// `vb` (as parsed, before checking) with `extra` more parameters, its
/// body applied to them.
fn eta_expand(mut vb: ValBind, extra: usize) -> ValBind {
    let span = vb.body.span;
    let mut body = vb.body;
    if let Some(ret) = vb.ret.take() {
        body = Exp::new(ExpKind::Ascript(Box::new(body), Box::new(ret)), span);
    }
    let names: Vec<Name> = (0..extra).map(|i| Name::from(format!("eta%{i}"))).collect();
    for n in &names {
        vb.params.push(Pat {
            kind: PatKind::Id(n.clone()),
            span,
            ty: None,
        });
    }
    let args = names
        .into_iter()
        .map(|n| {
            Exp::new(
                ExpKind::Var(Var {
                    name: QualName::unqual(n),
                    res: None,
                }),
                span,
            )
        })
        .collect();
    vb.body = Exp::new(ExpKind::Apply(Box::new(body), args), span);
    vb
}

// Note [Defaulting]
// ~~~~~~~~~~~~~~~~~
// A top-level definition whose type still has a variable that only an
// overloaded operator or literal constrains (`def add a b = a + b`: a
// numeric type) is not generalised over it: the variable defaults, to
// `i32` if it may be one, else `f64`, as in Futhark. The definition is
// then monomorphic, and a use at another type (`add 1.0 2.0`, or a
// module specification `f32 -> f32 -> f32`) is a type error whose cause
// is far from where it shows: `Checker::defaulted` keeps where each
// defaulted variable came from, and such an error gets a note "Default:
// ..." there (issue1153, issue1155).

/// The notes for an error that uses the top-level definition `name`, if
/// its type was defaulted (Note [Defaulting]).
pub(crate) fn default_notes(ck: &Checker, name: &str, mut d: Diag) -> Diag {
    if let Some(ds) = ck.defaulted.get(name) {
        for (span, p) in ds {
            d = d.note(
                *span,
                format!("Default: the type of `{name}` was ambiguous here, so it defaulted to `{p}`"),
            );
        }
        if d.help.as_deref().is_none_or(str::is_empty) {
            d = d.help(format!(
                "give `{name}`'s parameters type annotations to make it another type"
            ));
        }
    }
    d
}

/// The most constructors a sum type may have (its tag is one byte).
const MAX_CONSTRUCTORS: usize = 256;

/// `&&` and `||` short-circuit, which no function can: they may not be
/// defined (Futhark's "The || operator may not be redefined").
pub(crate) fn check_redefinable(name: &str, span: Span) -> Result<(), Diag> {
    let base = name.rsplit('.').next().unwrap_or(name);
    if base == "&&" || base == "||" {
        return Err(Diag::new(span, format!("The {base} operator may not be redefined."))
            .help("`&&` and `||` evaluate their right operand only when needed; a user-defined operator cannot, so use another name"));
    }
    Ok(())
}
