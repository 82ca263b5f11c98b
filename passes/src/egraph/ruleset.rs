//! Rule files compiled into egg rewrites, and the schedule that runs them.
//!
//! [`compile`] checks what the parser cannot: that every operator is one of
//! the term language's (with its arity), that every condition names a
//! [`Predicate`] the Rust side defines (with its arity), that the right
//! side of a rule uses only variables its left side binds, and that the
//! schedule names rule sets that exist. [`Rules::run`] runs the schedule on
//! an e-graph within [`Limits`] and says why each step stopped.

use std::collections::HashMap;
use std::time::Duration;

use egg::{
    Analysis, Condition as EggCondition, EGraph, Id, Pattern, Rewrite, Runner, StopReason, Subst, SymbolLang, Var,
};

use super::rules::{RuleError, RuleFile, Sexp};

/// The operators of a term language: name → arity (`None`: any number of
/// children), and which atoms a rule may name as leaves (literals; not the
/// values of the IR being rewritten).
pub struct TermLanguage {
    pub ops: HashMap<String, Option<usize>>,
    pub is_leaf: fn(&str) -> bool,
}

/// A condition a rule can name: `if (nonzero ?x)`. `check` gets the
/// e-classes bound to the arguments.
pub struct Predicate<N: Analysis<SymbolLang>> {
    pub name: &'static str,
    pub arity: usize,
    pub doc: &'static str,
    pub check: fn(&EGraph<SymbolLang, N>, &[Id]) -> bool,
}

/// Bounds on one run of a schedule step.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub nodes: usize,
    pub time: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            nodes: 100_000,
            time: Duration::from_secs(5),
        }
    }
}

/// Compiled rule sets and the schedule.
pub struct Rules<N: Analysis<SymbolLang>> {
    pub sets: Vec<(String, Vec<Rewrite<SymbolLang, N>>)>,
    pub schedule: Vec<(String, usize)>,
}

/// What one schedule step did.
#[derive(Clone, Debug)]
pub struct StepReport {
    pub set: String,
    pub iterations: usize,
    pub stop: String,
    pub nodes: usize,
    pub classes: usize,
    /// How often each rule fired, by name, in order of first firing.
    pub applied: Vec<(String, usize)>,
}

impl<N: Analysis<SymbolLang> + Clone + Default + 'static> Rules<N> {
    /// Add the sets and schedule of another file (a user's `--rules`). A
    /// set of the same name as an existing one is an error at its name.
    pub fn extend(&mut self, other: Rules<N>) -> Result<(), String> {
        for (name, rws) in other.sets {
            if self.sets.iter().any(|(n, _)| *n == name) {
                return Err(format!("rule set `{name}` is already defined"));
            }
            self.sets.push((name, rws));
        }
        self.schedule.extend(other.schedule);
        Ok(())
    }

    pub fn set(&self, name: &str) -> Option<&[Rewrite<SymbolLang, N>]> {
        self.sets.iter().find(|(n, _)| n == name).map(|(_, r)| r.as_slice())
    }

    /// Run `steps` (rule set, iterations) in order on `egraph`.
    pub fn run_steps(
        &self,
        mut egraph: EGraph<SymbolLang, N>,
        steps: &[(String, usize)],
        limits: Limits,
    ) -> (EGraph<SymbolLang, N>, Vec<StepReport>) {
        let mut reports = Vec::new();
        for (set, iters) in steps {
            let Some(rws) = self.set(set) else { continue };
            let runner = Runner::default()
                .with_egraph(egraph)
                .with_iter_limit(*iters)
                .with_node_limit(limits.nodes)
                .with_time_limit(limits.time)
                .run(rws);
            reports.push(StepReport {
                set: set.clone(),
                iterations: runner.iterations.len(),
                stop: describe(runner.stop_reason.as_ref()),
                nodes: runner.egraph.total_number_of_nodes(),
                classes: runner.egraph.number_of_classes(),
                applied: applied(&runner.iterations),
            });
            egraph = runner.egraph;
        }
        (egraph, reports)
    }

    /// Run the file's schedule.
    pub fn run(&self, egraph: EGraph<SymbolLang, N>, limits: Limits) -> (EGraph<SymbolLang, N>, Vec<StepReport>) {
        self.run_steps(egraph, &self.schedule, limits)
    }
}

fn applied(its: &[egg::Iteration<()>]) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for it in its {
        for (name, n) in &it.applied {
            match out.iter_mut().find(|(r, _)| r == name.as_str()) {
                Some(e) => e.1 += n,
                None => out.push((name.to_string(), *n)),
            }
        }
    }
    out
}

fn describe(r: Option<&StopReason>) -> String {
    match r {
        Some(StopReason::Saturated) => "saturated".into(),
        Some(StopReason::IterationLimit(n)) => format!("iteration limit ({n})"),
        Some(StopReason::NodeLimit(n)) => format!("node limit ({n})"),
        Some(StopReason::TimeLimit(s)) => format!("time limit ({s} s)"),
        Some(StopReason::Other(s)) => s.clone(),
        None => "not run".into(),
    }
}

/// A named predicate as an egg condition.
struct PredicateCondition<N: Analysis<SymbolLang>> {
    check: fn(&EGraph<SymbolLang, N>, &[Id]) -> bool,
    vars: Vec<Var>,
}

impl<N: Analysis<SymbolLang>> EggCondition<SymbolLang, N> for PredicateCondition<N> {
    fn check(&self, egraph: &mut EGraph<SymbolLang, N>, _eclass: Id, subst: &Subst) -> bool {
        let ids: Vec<Id> = self.vars.iter().map(|v| subst[*v]).collect();
        (self.check)(egraph, &ids)
    }

    fn vars(&self) -> Vec<Var> {
        self.vars.clone()
    }
}

/// Check `file` against the term language and predicates and build its
/// rewrites. A bidirectional rule `r` becomes `r` and `r-rev`.
pub fn compile<N: Analysis<SymbolLang> + 'static>(
    file: &RuleFile,
    lang: &TermLanguage,
    preds: &[Predicate<N>],
) -> Result<Rules<N>, RuleError> {
    let mut sets = Vec::new();
    for set in &file.sets {
        let mut rws = Vec::new();
        for r in &set.rules {
            check_term(&r.lhs, lang)?;
            check_term(&r.rhs, lang)?;
            let lvars = r.lhs.vars();
            let rvars = r.rhs.vars();
            for (v, at) in &rvars {
                if !lvars.iter().any(|(l, _)| l == v) {
                    return Err(RuleError::new(
                        format!("the variable `{v}` is not bound by the left side of rule `{}`", r.name),
                        *at,
                        v.len(),
                    ));
                }
            }
            if r.bidirectional {
                for (v, at) in &lvars {
                    if !rvars.iter().any(|(x, _)| x == v) {
                        return Err(RuleError::new(
                            format!(
                                "rule `{}` is bidirectional, so its right side must bind `{v}` too",
                                r.name
                            ),
                            *at,
                            v.len(),
                        ));
                    }
                }
            }
            for side in [&r.lhs, &r.rhs].into_iter().take(if r.bidirectional { 2 } else { 1 }) {
                if let Sexp::Atom { text, at } = side {
                    if text.starts_with('?') {
                        return Err(RuleError::new(
                            "a rule cannot match a bare variable: the left side must be an operator application or a literal",
                            *at,
                            text.len(),
                        ));
                    }
                }
            }
            let mut conds = Vec::new();
            for c in &r.conditions {
                let Some(p) = preds.iter().find(|p| p.name == c.predicate) else {
                    let known: Vec<&str> = preds.iter().map(|p| p.name).collect();
                    return Err(RuleError::new(
                        format!("unknown predicate `{}` (known: {})", c.predicate, known.join(", ")),
                        c.at + 1,
                        c.predicate.len(),
                    ));
                };
                if p.arity != c.args.len() {
                    return Err(RuleError::new(
                        format!(
                            "predicate `{}` takes {} argument(s), found {}",
                            p.name,
                            p.arity,
                            c.args.len()
                        ),
                        c.at,
                        1,
                    ));
                }
                for a in &c.args {
                    if !lvars.iter().any(|(l, _)| l == a) {
                        return Err(RuleError::new(
                            format!(
                                "the condition uses `{a}`, which the left side of rule `{}` does not bind",
                                r.name
                            ),
                            c.at,
                            1,
                        ));
                    }
                }
                let vars = c
                    .args
                    .iter()
                    .map(|a| a.parse::<Var>().expect("`?name` parses as an egg variable"))
                    .collect();
                conds.push((p.check, vars));
            }
            let mut add = |name: String, from: &Sexp, to: &Sexp| -> Result<(), RuleError> {
                let lhs = pattern(from)?;
                let rhs = pattern(to)?;
                let rw = if conds.is_empty() {
                    Rewrite::new(name, lhs, rhs)
                } else {
                    let conditions = conds
                        .iter()
                        .map(|(check, vars)| PredicateCondition {
                            check: *check,
                            vars: Vec::clone(vars),
                        })
                        .collect();
                    Rewrite::new(name, lhs, Guarded { conditions, rhs })
                };
                rws.push(rw.map_err(|e| RuleError::new(e, r.at, 4))?);
                Ok(())
            };
            add(r.name.clone(), &r.lhs, &r.rhs)?;
            if r.bidirectional {
                add(format!("{}-rev", r.name), &r.rhs, &r.lhs)?;
            }
        }
        sets.push((set.name.clone(), rws));
    }
    let mut schedule = Vec::new();
    for s in &file.schedule {
        if !sets.iter().any(|(n, _)| *n == s.set) {
            return Err(RuleError::new(
                format!("the schedule names an unknown rule set `{}`", s.set),
                s.at,
                s.set.len(),
            ));
        }
        schedule.push((s.set.clone(), s.iters));
    }
    Ok(Rules { sets, schedule })
}

/// A rule's right side guarded by all its conditions (egg's
/// `ConditionalApplier` takes one).
struct Guarded<N: Analysis<SymbolLang>> {
    conditions: Vec<PredicateCondition<N>>,
    rhs: Pattern<SymbolLang>,
}

impl<N: Analysis<SymbolLang>> egg::Applier<SymbolLang, N> for Guarded<N> {
    fn apply_one(
        &self,
        egraph: &mut EGraph<SymbolLang, N>,
        eclass: Id,
        subst: &Subst,
        searcher_ast: Option<&egg::PatternAst<SymbolLang>>,
        rule_name: egg::Symbol,
    ) -> Vec<Id> {
        if self.conditions.iter().all(|c| c.check(egraph, eclass, subst)) {
            self.rhs.apply_one(egraph, eclass, subst, searcher_ast, rule_name)
        } else {
            Vec::new()
        }
    }

    fn vars(&self) -> Vec<Var> {
        let mut vs = egg::Applier::<SymbolLang, N>::vars(&self.rhs);
        vs.extend(self.conditions.iter().flat_map(|c| c.vars.iter().copied()));
        vs
    }
}

fn pattern(e: &Sexp) -> Result<Pattern<SymbolLang>, RuleError> {
    e.to_string()
        .parse::<Pattern<SymbolLang>>()
        .map_err(|err| RuleError::new(format!("not a pattern: {err}"), e.offset(), 1))
}

/// Operators exist with their arity; atoms are variables, leaves or
/// nullary operators.
fn check_term(e: &Sexp, lang: &TermLanguage) -> Result<(), RuleError> {
    match e {
        Sexp::Atom { text, at } => {
            if text.starts_with('?') || (lang.is_leaf)(text) || lang.ops.get(text.as_str()) == Some(&Some(0)) {
                Ok(())
            } else {
                Err(RuleError::new(
                    format!("`{text}` is neither a pattern variable, a literal nor a nullary operator"),
                    *at,
                    text.len(),
                ))
            }
        }
        Sexp::List { items, at } => {
            let Some(Sexp::Atom { text: op, .. }) = items.first() else {
                unreachable!("the parser gives every list an operator name")
            };
            match lang.ops.get(op.as_str()) {
                None => {
                    let mut close: Vec<&str> = lang
                        .ops
                        .keys()
                        .filter(|k| k.starts_with(&op[..1.min(op.len())]))
                        .map(String::as_str)
                        .collect();
                    close.sort();
                    let hint = if close.is_empty() {
                        String::new()
                    } else {
                        format!(" (did you mean one of: {})", close.join(", "))
                    };
                    Err(RuleError::new(
                        format!("unknown operator `{op}`{hint}"),
                        at + 1,
                        op.len(),
                    ))
                }
                Some(Some(n)) if *n != items.len() - 1 => Err(RuleError::new(
                    format!("operator `{op}` takes {n} operand(s), found {}", items.len() - 1),
                    *at,
                    1,
                )),
                Some(_) => items[1..].iter().try_for_each(|x| check_term(x, lang)),
            }
        }
    }
}
