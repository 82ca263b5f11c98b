//! `soac-rewrite`: run rule sets of the rule files (Note [Rule files]) on
//! the scalar code of every block.
//!
//! Each block's pure scalar ops (`soac.binop`, `unop`, `cmpop`, `select`,
//! `constant`) become one e-graph whose leaves are the values the block
//! gets from elsewhere (block arguments, results of other ops, values of
//! enclosing blocks). After the schedule runs, every scalar value that is
//! used outside the scalar code (by a SOAC, a terminator, an op in a nested
//! region) is replaced by the smallest term of its e-class, built right
//! before its old definition, if that term is smaller than the old one.
//! The old ops that lose their last use are erased. Shared subterms are
//! built once per block, so no computation is duplicated.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use egg::{CostFunction, EGraph, Extractor, Id, Language, RecExpr, SymbolLang};
use futmlir_dialects::ir::{AttrKind, Builder, Context, Diagnostic, OpId, Scalar, Type, Value};

use crate::egraph::fold::ConstFold;
use crate::egraph::ruleset::{Limits, StepReport};
use crate::egraph::terms::{literal, value_leaf, Literal};
use crate::egraph::RuleBook;
use crate::pass::{Level, OptionKind, OptionSpec, Options, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "soac-rewrite",
    description: "Rewrite soac scalar code with egg rule sets from rule files (rewrite-rules/*.rules, --rules FILE)",
    options: &[
        OptionSpec {
            name: "rules",
            kind: OptionKind::String,
            default: "",
            help: "rule sets to run, `set:iterations` separated by `+` (empty: the schedules of all loaded files)",
        },
        OptionSpec {
            name: "node-limit",
            kind: OptionKind::UInt,
            default: "10000",
            help: "stop a rule set when its e-graph has this many nodes",
        },
        OptionSpec {
            name: "time-limit-ms",
            kind: OptionKind::UInt,
            default: "1000",
            help: "stop a rule set after this many milliseconds",
        },
        OptionSpec {
            name: "stats",
            kind: OptionKind::Bool,
            default: "false",
            help: "print what each block's run did (rule sets, iterations, e-graph size, stop reason) to stderr",
        },
    ],
    reads: &[Level::Soac, Level::Segop],
    writes: None,
    create: &|o: &Options, rules| {
        Box::new(Rewrite {
            rules: rules.clone(),
            sets: o.string("rules").to_string(),
            limits: Limits {
                nodes: o.uint("node-limit") as usize,
                time: Duration::from_millis(o.uint("time-limit-ms")),
            },
            stats: o.bool("stats"),
        })
    },
};

struct Rewrite {
    rules: Arc<RuleBook>,
    sets: String,
    limits: Limits,
    stats: bool,
}

impl Pass for Rewrite {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        let fail = |ctx: &Context, msg: String| Diagnostic::error(ctx.location(op), msg);
        let rules = self.rules.scalar();
        let steps = select_steps(rules, &self.sets, "soac-rewrite: unknown rule set").map_err(|e| fail(ctx, e))?;
        let mut blocks = Vec::new();
        ctx.walk(op, &mut |o| {
            for &r in ctx.regions(o) {
                blocks.extend_from_slice(ctx.blocks(r));
            }
        });
        let (mut rewritten, mut runs) = (0, 0);
        for b in blocks {
            let Some(mut term) = BlockTerms::build(ctx, b) else {
                continue;
            };
            let (g, reports) = rules.run_steps(std::mem::take(&mut term.egraph), &steps, self.limits);
            term.egraph = g;
            runs += 1;
            rewritten += term.rewrite(ctx).map_err(|e| fail(ctx, format!("soac-rewrite: {e}")))?;
            if self.stats {
                eprintln!(
                    "soac-rewrite: block of {} scalar ops: {}",
                    term.ops.len(),
                    describe(&reports)
                );
            }
        }
        if self.stats {
            eprintln!("soac-rewrite: {runs} blocks, {rewritten} values replaced");
        }
        Ok(())
    }
}

fn describe(reports: &[StepReport]) -> String {
    let parts: Vec<String> = reports
        .iter()
        .map(|r| {
            format!(
                "{} ({} iterations, {} nodes, {} classes, {})",
                r.set, r.iterations, r.nodes, r.classes, r.stop
            )
        })
        .collect();
    parts.join("; ")
}

/// The steps a pass option names (`arith:8+logic:4`), or the loaded
/// files' schedules when it names none; a set that is not loaded is an
/// error starting with `unknown` and listing the loaded ones.
pub(crate) fn select_steps<N: egg::Analysis<egg::SymbolLang> + Clone + Default + 'static>(
    rules: &crate::egraph::ruleset::Rules<N>,
    sets: &str,
    unknown: &str,
) -> Result<Vec<(String, usize)>, String> {
    let steps = if sets.is_empty() {
        rules.schedule.clone()
    } else {
        parse_steps(sets)?
    };
    for (set, _) in &steps {
        if rules.set(set).is_none() {
            let known: Vec<&str> = rules.sets.iter().map(|(n, _)| n.as_str()).collect();
            return Err(format!("{unknown} `{set}` (loaded: {})", known.join(", ")));
        }
    }
    Ok(steps)
}

/// `arith:8+logic:4` (a set without `:N` runs 8 iterations).
fn parse_steps(text: &str) -> Result<Vec<(String, usize)>, String> {
    text.split('+')
        .map(|s| match s.split_once(':') {
            Some((n, i)) => i
                .parse()
                .map(|i| (n.to_string(), i))
                .map_err(|_| format!("soac-rewrite: expected an iteration count after `{n}:`, found `{i}`")),
            None => Ok((s.to_string(), 8)),
        })
        .collect()
}

/// The cost of a term: the sum of its nodes' costs (Note [Scalar cost]).
/// Note [Scalar cost], with each operator's cost looked up once per
/// extraction (the extractor asks for every node many times).
#[derive(Default)]
struct ScalarCost {
    known: HashMap<egg::Symbol, usize>,
}

impl CostFunction<SymbolLang> for ScalarCost {
    type Cost = usize;
    fn cost<C: FnMut(Id) -> usize>(&mut self, enode: &SymbolLang, mut costs: C) -> usize {
        let own = *self.known.entry(enode.op).or_insert_with(|| op_cost(enode.op.as_str()));
        enode.children.iter().fold(own, |c, &id| c.saturating_add(costs(id)))
    }
}

/// **Note [Scalar cost].**
/// Every node costs at least 1 (leaves too, so that of two terms that do
/// the same work the smaller wins), multiplication 2, division and the
/// transcendental functions 8: a rule that trades a multiplication for an
/// addition is an improvement, one that trades an addition for an
/// addition is not, and ties keep the code as it was.
fn op_cost(op: &str) -> usize {
    use futmlir_dialects::soac::verify::UNOP_KINDS;
    match op {
        "mul" | "mul_hi" => 2,
        "div" | "mod" | "rem" | "pow" | "atan2" | "hypot" => 8,
        "neg" | "not" | "abs" | "signum" | "floor" | "ceil" | "round" | "popc" | "clz" => 1,
        // The math functions (sqrt, exp, log, sin, ...).
        k if UNOP_KINDS.contains(&k) => 8,
        _ => 1,
    }
}

/// The scalar ops of one block as an e-graph.
struct BlockTerms {
    egraph: EGraph<SymbolLang, ConstFold>,
    /// Scalar ops in block order, with the e-class of their result.
    ops: Vec<(OpId, Id)>,
    /// The value behind each leaf `vN`.
    leaves: Vec<Value>,
    /// The original term of each scalar value, for comparing sizes.
    original: HashMap<Value, (Id, usize)>,
}

fn scalar_kind(ctx: &Context, op: OpId) -> Option<String> {
    match ctx.op_name(op) {
        "soac.binop" | "soac.unop" | "soac.cmpop" => match ctx.attr(op, "kind").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::String(s)) => Some(ctx.str(*s).to_string()),
            _ => None,
        },
        "soac.select" => Some("select".into()),
        "soac.constant" => literal_text(ctx, op),
        _ => None,
    }
}

/// A `soac.constant` as a literal leaf (`3i32`, `0.5f64`, `true`).
fn literal_text(ctx: &Context, op: OpId) -> Option<String> {
    let a = ctx.attr(op, "value")?;
    match ctx.attr_kind(a) {
        AttrKind::Bool(b) => Some(b.to_string()),
        AttrKind::Int { bits, ty } => {
            let s = ctx.as_scalar(*ty)?;
            let v: i128 = if s.is_int() && s.futhark_name().starts_with('u') {
                (*bits as u64 & mask(s.bits())) as i128
            } else {
                *bits as i128
            };
            Some(format!("{v}{}", s.futhark_name()))
        }
        AttrKind::Float { bits, ty } => {
            let v = f64::from_bits(*bits);
            // Only values that print and parse back exactly become leaves.
            let s = ctx.as_scalar(*ty)?;
            v.is_finite().then(|| format!("{v:?}{}", s.futhark_name()))
        }
        _ => None,
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl BlockTerms {
    fn build(ctx: &Context, b: futmlir_dialects::ir::BlockId) -> Option<BlockTerms> {
        let mut t = BlockTerms {
            egraph: EGraph::default(),
            ops: Vec::new(),
            leaves: Vec::new(),
            original: HashMap::new(),
        };
        let mut ids: HashMap<Value, Id> = HashMap::new();
        for op in ctx.block_ops(b) {
            let Some(kind) = scalar_kind(ctx, op) else { continue };
            if ctx.num_results(op) != 1 {
                continue;
            }
            let mut children = Vec::new();
            let mut size = op_cost(&kind);
            for &v in ctx.operands(op) {
                let id = match ids.get(&v) {
                    Some(&id) => {
                        size += t.original.get(&v).map_or(1, |o| o.1);
                        id
                    }
                    None => {
                        size += 1;
                        // A constant of an enclosing block is its literal:
                        // rules and folding see through it.
                        let leaf = match ctx
                            .defining_op(v)
                            .filter(|&d| ctx.op_name(d) == "soac.constant")
                            .and_then(|d| literal_text(ctx, d))
                        {
                            Some(text) => t.egraph.add(SymbolLang::leaf(text)),
                            None => t.leaf(v),
                        };
                        ids.insert(v, leaf);
                        leaf
                    }
                };
                children.push(id);
            }
            let id = t.egraph.add(SymbolLang::new(kind, children));
            let r = ctx.result(op, 0);
            ids.insert(r, id);
            t.original.insert(r, (id, size));
            t.ops.push((op, id));
        }
        (!t.ops.is_empty()).then_some(t)
    }

    fn leaf(&mut self, v: Value) -> Id {
        self.leaves.push(v);
        self.egraph.add(SymbolLang::leaf(format!("v{}", self.leaves.len() - 1)))
    }

    /// Replace the uses outside the scalar code of each scalar value by
    /// the best term of its class when that is smaller; returns how many
    /// values were replaced. A term whose types do not agree (a user rule
    /// that changes a type) is an error naming the term.
    fn rewrite(&self, ctx: &mut Context) -> Result<usize, String> {
        let extractor = Extractor::new(&self.egraph, ScalarCost::default());
        let scalar_ops: HashSet<OpId> = self.ops.iter().map(|(o, _)| *o).collect();
        let mut built: HashMap<Id, Value> = HashMap::new();
        let mut replaced = 0;
        for &(op, id) in &self.ops {
            let r = ctx.result(op, 0);
            // Uses by other scalar ops of the block go with the e-graph;
            // uses elsewhere (including sizes in types, Note [Sizes in
            // types]) are the roots to rewrite.
            let outside = ctx.uses(r).iter().any(|u| !scalar_ops.contains(&u.op)) || !ctx.type_users(r).is_empty();
            // The cost first: building the term is linear in its size.
            if !outside || extractor.find_best_cost(id) >= self.original[&r].1 {
                continue;
            }
            let (_, best) = extractor.find_best(id);
            let v = self.build_term(ctx, op, &best, &mut built)?;
            if ctx.value_type(v) != ctx.value_type(r) {
                return Err(format!(
                    "the rules rewrote a value of type {} to `{best}` of type {}",
                    ctx.type_to_string(ctx.value_type(r)),
                    ctx.type_to_string(ctx.value_type(v))
                ));
            }
            // Every use, the block's scalar ops too: `v` is built before
            // `op`, so it dominates them.
            ctx.replace_all_uses(r, v);
            replaced += 1;
        }
        // Erase scalar ops left without uses, last first (their operands
        // may then lose their last use too).
        for &(op, _) in self.ops.iter().rev() {
            let r = ctx.result(op, 0);
            if ctx.is_alive(op) && !ctx.has_uses(r) && ctx.type_users(r).is_empty() {
                ctx.erase_op(op);
            }
        }
        Ok(replaced)
    }

    /// Build `term` before `at`, reusing what earlier terms of the block
    /// built for the same e-class (it dominates `at`: it was built before
    /// an earlier op of the block).
    fn build_term(
        &self,
        ctx: &mut Context,
        at: OpId,
        term: &RecExpr<SymbolLang>,
        built: &mut HashMap<Id, Value>,
    ) -> Result<Value, String> {
        let mut vals: Vec<Value> = Vec::with_capacity(term.as_ref().len());
        let mut classes: Vec<Id> = Vec::with_capacity(term.as_ref().len());
        for node in term.as_ref() {
            let class_node = SymbolLang::new(
                node.op,
                node.children().iter().map(|c| classes[usize::from(*c)]).collect(),
            );
            let class = self
                .egraph
                .lookup(class_node)
                .ok_or("an extracted node is not in the e-graph")?;
            let op = node.op.as_str();
            let v = match built.get(&class) {
                Some(&v) => v,
                None => {
                    let args: Vec<Value> = node.children().iter().map(|c| vals[usize::from(*c)]).collect();
                    let v = if let Some(i) = value_leaf(op) {
                        self.leaves[i as usize]
                    } else if let Some(l) = literal(op) {
                        constant(ctx, at, l)?
                    } else {
                        scalar_op(ctx, at, op, &args)?
                    };
                    built.insert(class, v);
                    v
                }
            };
            vals.push(v);
            classes.push(class);
        }
        vals.last().copied().ok_or_else(|| "an empty term".to_string())
    }
}

fn constant(ctx: &mut Context, at: OpId, l: Literal) -> Result<Value, String> {
    let (attr, ty) = match l {
        Literal::Bool(b) => {
            let t = ctx.scalar(Scalar::Bool);
            (ctx.intern_attr(AttrKind::Bool(b)), t)
        }
        Literal::Int(v, s) => {
            let t = ctx.scalar(scalar_named(s)?);
            (ctx.intern_attr(AttrKind::Int { bits: v as i64, ty: t }), t)
        }
        Literal::Float(v, s) => {
            let t = ctx.scalar(scalar_named(s)?);
            (
                ctx.intern_attr(AttrKind::Float {
                    bits: v.to_bits(),
                    ty: t,
                }),
                t,
            )
        }
    };
    let op = Builder::before(ctx, at).op("soac.constant", &[], &[ty], &[("value", attr)], Vec::new());
    Ok(ctx.result(op, 0))
}

fn scalar_named(s: &str) -> Result<Scalar, String> {
    crate::egraph::fold::scalar_named(s).ok_or_else(|| format!("no scalar type `{s}`"))
}

/// A scalar op of kind `kind` on `args`, whose types must agree as the op
/// requires (a user rule may pair values of different types).
fn scalar_op(ctx: &mut Context, at: OpId, kind: &str, args: &[Value]) -> Result<Value, String> {
    use futmlir_dialects::soac::verify::{BINOP_KINDS, CMPOP_KINDS, UNOP_KINDS};
    let bool_t = ctx.scalar(Scalar::Bool);
    let ty = |i: usize| ctx.value_type(args[i]);
    let (name, result, agree): (&str, Type, bool) = match args.len() {
        3 if kind == "select" => ("soac.select", ty(1), ty(0) == bool_t && ty(1) == ty(2)),
        2 if BINOP_KINDS.contains(&kind) => ("soac.binop", ty(0), ty(0) == ty(1)),
        2 if CMPOP_KINDS.contains(&kind) => ("soac.cmpop", bool_t, ty(0) == ty(1)),
        1 if UNOP_KINDS.contains(&kind) => ("soac.unop", ty(0), true),
        n => return Err(format!("`{kind}` with {n} operands has no soac form")),
    };
    if !agree {
        let tys: Vec<String> = args.iter().map(|a| ctx.type_to_string(ctx.value_type(*a))).collect();
        return Err(format!(
            "the rules built `{kind}` on operands of types {}",
            tys.join(", ")
        ));
    }
    let attrs = if name == "soac.select" {
        Vec::new()
    } else {
        vec![("kind", ctx.string_attr(kind))]
    };
    let op = Builder::before(ctx, at).op(name, args, &[result], &attrs, Vec::new());
    Ok(ctx.result(op, 0))
}
