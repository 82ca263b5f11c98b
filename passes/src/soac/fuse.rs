//! `soac-fuse`: fusion of SOACs (thesis ch. 7), with the fusion algebra
//! in a rule file (`rewrite-rules/fusion.rules`, Note [Fusion terms]).
//!
//! The pass works block by block, innermost blocks first. In a block it
//! looks for pairs of SOACs of one outer size:
//!
//! - *vertical*: `b` reads arrays that `a` maps out (a producer and its
//!   consumer); the fused SOAC replaces `b`, and `a` goes away;
//! - *horizontal*: `b` comes after `a` and neither reads the other's
//!   results.
//!
//! The Rust side decides *whether a pair may fuse* (Note [Fusion
//! legality]) and *builds* the combinators of the answer; the rules decide
//! *what* the pair fuses into, so a rule file can add, remove or reorder
//! fusions without recompiling. Vertical sweeps run to a fixed point,
//! then horizontal ones, and again, within a bound on the rounds.
//!
//! **Note [Fusion legality].**
//! A pair fuses only when the fused SOAC, placed where `b` was, computes
//! the same as the two did:
//!
//! 1. Both have the same outer size (the same SSA value).
//! 2. Vertical: `b` uses `a`'s results only as arrays it maps over, and
//!    only arrays `a` maps out or scans (not reduced values). A SOAC over
//!    a scan's result needs whole prefixes: the pair is asked as
//!    `after-scan`, which only a sequential stream answers (Note [Fusion
//!    terms]).
//! 3. Every other use of `a`'s results comes after `b` (so the fused SOAC,
//!    which also produces them, is defined before those uses): `a`'s work
//!    is never duplicated.
//! 4. Nothing between `a` and `b` consumes (updates in place, scatters
//!    into, passes to a loop or call that may consume) an array `a` reads
//!    or one it aliases: moving `a` down to `b` must not make it read a
//!    consumed array. (A fused `scatter` or `hist` reading its own
//!    destination: 6.)
//! 5. Horizontal: nothing between `a` and `b`, nor `b`, uses `a`'s results.
//! 6. A fused `scatter` or `hist` would consume more than its parts did
//!    when `a` reads the destination `b` writes in place (the fused lambda
//!    would read what it overwrites). Then `b` writes into a copy of the
//!    destination, made just before it (option `copy`, on by default; off,
//!    such pairs do not fuse).
//! 7. Horizontal fusion of two scatters gives one scatter writing into
//!    the destinations of both (Futhark's scatter-scatter fusion). It
//!    needs neither to read what the other writes: the fused lambda would
//!    read an array that is overwritten in the same parallel step.
//!
//! **Note [Post-lambda fusion].**
//! A map over the results of a scan needs no whole prefixes when it only
//! reads element `i` of each: it runs after the scan on each row, as the
//! *post-lambda* of Futhark's `screma(pre; scans; post)`, our
//! `soac.screma`. So a map `b` reading what a scanomap (or scan) `a`
//! scans or maps out is asked as `after`/`after-scan` in the vertical
//! sweep, and the rules answer `(screma oa la lb)`: `a`'s operator and
//! pre-lambda, `b`'s lambda as the post-lambda. The post-lambda yields
//! `a`'s results that others still read, then `b`'s. Arrays `b` maps
//! over that `a` does not produce go through the pre-lambda unchanged
//! (extra inputs, passed on as pre-mapped values), so that the
//! post-lambda sees their rows. A screma fuses further with a map after
//! it (`(compose lb pa)`: the post-lambdas one after the other) and with
//! a map before it (`(compose lb la)` as the pre-lambda, the map's
//! arrays that others read passed on to the post-lambda). Streams are
//! cheaper than nothing but dearer than a screma: a map after a scan
//! becomes a screma, not a sequential stream. Kernel extraction splits
//! a screma back into a scan and a map (`soac-to-segop`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use egg::{EGraph, Extractor, Id, RecExpr, SymbolLang};
use futmlir_dialects::ir::{
    AttrKind, BlockId, Builder, Context, Diagnostic, Dim, InsertPoint, OpId, RegionId, Scalar, Type, TypeKind, Value,
    ValueMap,
};

use super::analysis::{alias_roots, ancestor_in, block_alive, blocks_inner_first, consumed, reads, users_in, SOAC_OPS};
use crate::egraph::fusion::{FusionCost, QUESTION_COST};
use crate::egraph::ruleset::{Limits, Rules};
use crate::egraph::RuleBook;
use crate::pass::{Level, OptionKind, OptionSpec, Options, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "soac-fuse",
    description:
        "Fuse SOACs vertically (producer into consumer) and horizontally, with the fusion rules of the rule files",
    options: &[
        OptionSpec {
            name: "rules",
            kind: OptionKind::String,
            default: "",
            help: "fusion rule sets to run, `set:iterations` separated by `+` (empty: the fusion files' schedules)",
        },
        OptionSpec {
            name: "horizontal",
            kind: OptionKind::Bool,
            default: "true",
            help: "also fuse independent SOACs of one size",
        },
        OptionSpec {
            name: "copy",
            kind: OptionKind::Bool,
            default: "true",
            help: "fuse a scatter or hist with a producer that reads its destination, writing into a copy of it",
        },
        OptionSpec {
            name: "max-rounds",
            kind: OptionKind::UInt,
            default: "8",
            help: "at most this many rounds of vertical and horizontal sweeps",
        },
        OptionSpec {
            name: "node-limit",
            kind: OptionKind::UInt,
            default: "1000",
            help: "stop a rule set when a question's e-graph has this many nodes",
        },
        OptionSpec {
            name: "stats",
            kind: OptionKind::Bool,
            default: "false",
            help:
                "print SOACs before and after, the rules that fired, the largest e-graph and the stop reason to stderr",
        },
    ],
    reads: &[Level::Soac],
    writes: None,
    create: &|o: &Options, rules| {
        Box::new(Fuse {
            rules: rules.clone(),
            copies: o.bool("copy"),
            sets: o.string("rules").to_string(),
            horizontal: o.bool("horizontal"),
            max_rounds: o.uint("max-rounds") as usize,
            node_limit: o.uint("node-limit") as usize,
            stats: o.bool("stats"),
        })
    },
};

struct Fuse {
    rules: Arc<RuleBook>,
    copies: bool,
    sets: String,
    horizontal: bool,
    max_rounds: usize,
    node_limit: usize,
    stats: bool,
}

/// What the pass did, for `--stats`.
#[derive(Default)]
struct Stats {
    fired: Vec<(String, usize)>,
    questions: usize,
    unanswered: usize,
    peak_nodes: usize,
    rounds: usize,
    stop: String,
    /// Destinations copied so that a scatter or hist could fuse.
    copies: usize,
}

impl Pass for Fuse {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        let fail = |ctx: &Context, msg: String| Diagnostic::error(ctx.location(op), msg);
        let book = self.rules.clone();
        let rules = book.fusion();
        let steps = crate::soac::rewrite::select_steps(rules, &self.sets, "soac-fuse: unknown fusion rule set")
            .map_err(|e| fail(ctx, e))?;
        let before = count_soacs(ctx, op);
        let mut f = Fuser {
            copies: self.copies,
            rules,
            steps: &steps,
            node_limit: self.node_limit,
            stats: Stats::default(),
        };
        f.stats.stop = format!("round limit ({})", self.max_rounds);
        for round in 0..self.max_rounds {
            f.stats.rounds = round + 1;
            let mut changed = false;
            // Streams only after the parallel forms had their chance: a
            // map into a scan makes one scanomap, not a stream of two.
            for phase in [Phase::Vertical, Phase::Streams, Phase::Horizontal] {
                if phase == Phase::Horizontal && !self.horizontal {
                    continue;
                }
                for b in blocks_inner_first(ctx, op) {
                    if block_alive(ctx, b) {
                        changed |= f
                            .fuse_block(ctx, b, phase)
                            .map_err(|e| fail(ctx, format!("soac-fuse: {e}")))?;
                    }
                }
            }
            if !changed {
                f.stats.stop = "fixed point".into();
                break;
            }
        }
        if self.stats {
            let after = count_soacs(ctx, op);
            let fired: Vec<String> = f.stats.fired.iter().map(|(r, n)| format!("{r} {n}")).collect();
            eprintln!(
                "soac-fuse: SOACs {before} -> {after}; rules fired: {}; {} questions ({} not fusible); \
                 {} destinations copied; largest e-graph {} nodes; {} rounds, stopped at {}",
                if fired.is_empty() {
                    "none".to_string()
                } else {
                    fired.join(", ")
                },
                f.stats.questions,
                f.stats.unanswered,
                f.stats.copies,
                f.stats.peak_nodes,
                f.stats.rounds,
                f.stats.stop
            );
        }
        Ok(())
    }
}

fn count_soacs(ctx: &Context, op: OpId) -> usize {
    let mut n = 0;
    ctx.walk(op, &mut |o| n += SOAC_OPS.contains(&ctx.op_name(o)) as usize);
    n
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Map,
    Redomap,
    Scanomap,
    Hist,
    Scatter,
    /// Made by fusion (an answer to `after-scan`), then fused further:
    /// its accumulators stand where other SOACs have an operator.
    StreamSeq,
    /// A parallel stream: chunks processed independently, their
    /// accumulators combined by its operator.
    StreamPar,
    /// A scanomap with a post-lambda (Note [Post-lambda fusion]): all its
    /// results are the post-lambda's, row by row.
    Screma,
}

impl Kind {
    fn form(self) -> &'static str {
        match self {
            Kind::Map => "map",
            Kind::Redomap => "redomap",
            Kind::Scanomap => "scanomap",
            Kind::Hist => "hist",
            Kind::Scatter => "scatter",
            Kind::StreamSeq => "stream_seq",
            Kind::StreamPar => "stream_par",
            Kind::Screma => "screma",
        }
    }
}

/// A SOAC in the uniform shape fusion works on: a lambda from rows of
/// `inputs` to its yields (the first `k` combined by `operator`, for
/// redomap and scanomap), and what each result is.
#[derive(Clone, Debug)]
struct Soac {
    op: OpId,
    kind: Kind,
    width: Value,
    /// The arrays mapped over, one lambda parameter each.
    inputs: Vec<Value>,
    /// `None`: the identity (reduce and scan).
    lambda: Option<RegionId>,
    /// A screma's post-lambda, reduction operator and its neutral
    /// elements (`nes` are its scans').
    post: Option<RegionId>,
    red_operator: Option<RegionId>,
    red_nes: Vec<Value>,
    operator: Option<RegionId>,
    nes: Vec<Value>,
    /// Reduced or scanned values (redomap, scanomap); the rest of the
    /// lambda's yields are mapped out (map, redomap, scanomap).
    k: usize,
    /// hist: `w` and the destinations; scatter: the destinations.
    hist_width: Option<Value>,
    dests: Vec<Value>,
    commutative: bool,
}

impl Soac {
    fn of(ctx: &Context, op: OpId) -> Option<Soac> {
        let ops = ctx.operands(op);
        let regions = ctx.regions(op);
        let n = *ops.first()?;
        let commutative = ctx.attr(op, "commutative").is_some();
        let base = |kind, inputs: &[Value]| Soac {
            op,
            kind,
            width: n,
            inputs: inputs.to_vec(),
            lambda: None,
            post: None,
            red_operator: None,
            red_nes: Vec::new(),
            operator: None,
            nes: Vec::new(),
            k: 0,
            hist_width: None,
            dests: Vec::new(),
            commutative,
        };
        let s = match ctx.op_name(op) {
            "soac.map" => Soac {
                lambda: Some(regions[0]),
                ..base(Kind::Map, &ops[1..])
            },
            name @ ("soac.reduce" | "soac.scan" | "soac.redomap" | "soac.scanomap") => {
                // The operator takes two values of each of the k combined.
                let k = ctx.block_args(ctx.blocks(regions[0])[0]).len() / 2;
                let kind = if matches!(name, "soac.reduce" | "soac.redomap") {
                    Kind::Redomap
                } else {
                    Kind::Scanomap
                };
                Soac {
                    operator: Some(regions[0]),
                    // reduce and scan: the identity.
                    lambda: regions.get(1).copied(),
                    nes: ops[1..1 + k].to_vec(),
                    k,
                    ..base(kind, &ops[1 + k..])
                }
            }
            "soac.screma" => {
                let k = ctx.block_args(ctx.blocks(regions[0])[0]).len() / 2;
                let r = ctx.block_args(ctx.blocks(regions[1])[0]).len() / 2;
                Soac {
                    operator: Some(regions[0]),
                    red_operator: Some(regions[1]),
                    lambda: Some(regions[2]),
                    post: Some(regions[3]),
                    nes: ops.get(1..1 + k)?.to_vec(),
                    red_nes: ops.get(1 + k..1 + k + r)?.to_vec(),
                    k,
                    ..base(Kind::Screma, ops.get(1 + k + r..)?)
                }
            }
            "soac.hist" => {
                let k = ctx.num_results(op);
                Soac {
                    operator: Some(regions[0]),
                    lambda: Some(regions[1]),
                    hist_width: Some(ops[1]),
                    dests: ops[2..2 + k].to_vec(),
                    nes: ops[2 + k..2 + 2 * k].to_vec(),
                    k,
                    ..base(Kind::Hist, &ops[2 + 2 * k..])
                }
            }
            "soac.stream_seq" => {
                let k = match ctx.attr(op, "num_accs").map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::Int { bits, .. }) => usize::try_from(*bits).ok()?,
                    _ => return None,
                };
                Soac {
                    lambda: Some(regions[0]),
                    nes: ops.get(1..1 + k)?.to_vec(),
                    k,
                    ..base(Kind::StreamSeq, ops.get(1 + k..)?)
                }
            }
            "soac.stream_par" => {
                let k = ctx.block_args(ctx.blocks(regions[0])[0]).len() / 2;
                Soac {
                    operator: Some(regions[0]),
                    lambda: Some(regions[1]),
                    nes: ops.get(1..1 + k)?.to_vec(),
                    k,
                    ..base(Kind::StreamPar, ops.get(1 + k..)?)
                }
            }
            "soac.scatter" => {
                let k = ctx.num_results(op);
                let m = ops.len() - 1 - k;
                Soac {
                    lambda: Some(regions[0]),
                    dests: ops[1 + m..].to_vec(),
                    ..base(Kind::Scatter, &ops[1..1 + m])
                }
            }
            _ => return None,
        };
        Some(s)
    }

    /// The results whose values are mapped out, one per yield after `k`
    /// (none for hist and scatter, whose results are their destinations).
    fn mapped(&self, ctx: &Context) -> Vec<Value> {
        match self.kind {
            Kind::Map | Kind::Redomap | Kind::Scanomap | Kind::StreamSeq | Kind::StreamPar => {
                ctx.results(self.op).skip(self.k).collect()
            }
            Kind::Screma => ctx.results(self.op).skip(self.red_nes.len()).collect(),
            Kind::Hist | Kind::Scatter => Vec::new(),
        }
    }

    /// The results combined by the operator: reduced or scanned (a
    /// stream's final accumulators).
    fn combined(&self, ctx: &Context) -> Vec<Value> {
        match self.kind {
            Kind::Redomap | Kind::Scanomap | Kind::StreamSeq | Kind::StreamPar => {
                ctx.results(self.op).take(self.k).collect()
            }
            Kind::Screma => ctx.results(self.op).take(self.red_nes.len()).collect(),
            _ => Vec::new(),
        }
    }

    /// The form of this SOAC in fusion terms, with leaves `l`/`o`.
    fn term(&self, l: &str, o: &str) -> String {
        let lam = if self.lambda.is_some() { l } else { "id" };
        match self.kind {
            Kind::Map | Kind::Scatter => format!("({} {lam})", self.kind.form()),
            Kind::Screma => format!("(screma {o} {lam} p{})", &l[1..]),
            _ => format!("({} {o} {lam})", self.kind.form()),
        }
    }
}

/// The sweeps of a round: producers into consumers, the same with pairs
/// only a stream fuses, then independent SOACs side by side.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Vertical,
    Streams,
    Horizontal,
}

struct Fuser<'r> {
    /// Whether a scatter or hist may fuse with a producer reading its
    /// destination, by writing into a copy.
    copies: bool,
    rules: &'r Rules<()>,
    steps: &'r [(String, usize)],
    node_limit: usize,
    stats: Stats,
}

impl Fuser<'_> {
    /// One sweep over block `b`; whether anything fused.
    fn fuse_block(&mut self, ctx: &mut Context, b: BlockId, phase: Phase) -> Result<bool, String> {
        let horizontal = phase == Phase::Horizontal;
        let mut changed = false;
        let mut order: Vec<OpId> = ctx.block_ops(b).collect();
        let mut pos: HashMap<OpId, usize> = order.iter().enumerate().map(|(i, &o)| (o, i)).collect();
        // For horizontal fusion: each SOAC with the position of the first
        // use of its results (sorted so that the last comes first), and
        // those whose first use is after the current consumer (Note
        // [Fusion legality], 5), by position. A sweep line keeps the
        // search linear in chains.
        let mut pending: Vec<(usize, usize, OpId)> = Vec::new();
        if horizontal {
            for (p, &o) in order.iter().enumerate() {
                if !SOAC_OPS.contains(&ctx.op_name(o)) {
                    continue;
                }
                let first = ctx
                    .results(o)
                    .flat_map(|r| users_in(ctx, b, r))
                    .map(|u| u.and_then(|u| pos.get(&u).copied()).unwrap_or(0))
                    .min()
                    .unwrap_or(usize::MAX);
                pending.push((first, p, o));
            }
            pending.sort();
        }
        let mut active: BTreeMap<usize, OpId> = BTreeMap::new();
        // A stream's chunk lambda scans its chunk and adds the carry with a
        // map: fusing those through a stream again would never end.
        let in_stream = ctx
            .block_parent(b)
            .and_then(|r| ctx.region_parent(r))
            .is_some_and(|o| ctx.op_name(o) == "soac.stream_seq");
        // Consumers from the last to the first, so that chains fuse into
        // the last SOAC in one sweep.
        let mut i = order.len();
        while i > 0 {
            i -= 1;
            let bop = order[i];
            if !ctx.is_alive(bop) {
                continue;
            }
            let Some(bs) = Soac::of(ctx, bop) else { continue };
            let candidates: Vec<OpId> = if horizontal {
                // The SOACs before `b` whose results are all used after it.
                while let Some(&(first, pa, o)) = pending.last() {
                    if first <= i {
                        break;
                    }
                    active.insert(pa, o);
                    pending.pop();
                }
                active
                    .range(..i)
                    .rev()
                    .map(|(_, &o)| o)
                    .filter(|&o| ctx.is_alive(o))
                    .collect()
            } else {
                // The SOACs of this block whose results `b` reads.
                let mut ps: Vec<OpId> = bs
                    .inputs
                    .iter()
                    .filter_map(|&v| ctx.defining_op(v))
                    .filter(|&d| ctx.parent_block(d) == Some(b) && ctx.is_alive(d))
                    .collect();
                ps.sort_by_key(|p| std::cmp::Reverse(pos.get(p).copied().unwrap_or(0)));
                ps.dedup();
                ps
            };
            for aop in candidates {
                let Some(a) = Soac::of(ctx, aop) else { continue };
                let question = if horizontal {
                    self.horizontal_ok(ctx, b, &pos, &a, &bs)
                        .then(|| format!("(beside {} {})", a.term("la", "oa"), bs.term("lb", "ob")))
                } else {
                    self.vertical_ok(ctx, b, &pos, &a, &bs)
                        // A map after a scan: its post-lambda (Note
                        // [Post-lambda fusion]), in the vertical sweep.
                        .filter(|&(_, scanned)| {
                            !scanned || (!in_stream && (phase == Phase::Streams || bs.kind == Kind::Map))
                        })
                        .map(|(shared, scanned)| {
                            format!(
                                "({} {} {} {})",
                                if scanned { "after-scan" } else { "after" },
                                bs.term("lb", "ob"),
                                a.term("la", "oa"),
                                if shared { "shared" } else { "exclusive" }
                            )
                        })
                };
                let Some(q) = question else { continue };
                let Some(form) = self.ask(&q)? else { continue };
                let mut bs = bs.clone();
                if !horizontal && self.reads_destination(ctx, &a, &bs) {
                    write_into_copies(ctx, &mut bs);
                    self.stats.copies += bs.dests.len();
                }
                let fused = build(ctx, &a, &bs, &form)?;
                active.remove(&pos[&aop]);
                pos.insert(fused, pos[&bop]);
                order[i] = fused;
                changed = true;
                // Go on with the fused SOAC as the consumer.
                i += 1;
                break;
            }
        }
        Ok(changed)
    }

    /// Run the fusion rules on a question; the single SOAC form it
    /// rewrites to, if any.
    fn ask(&mut self, question: &str) -> Result<Option<RecExpr<SymbolLang>>, String> {
        let expr: RecExpr<SymbolLang> = question.parse().map_err(|e| format!("{e}"))?;
        let mut g: EGraph<SymbolLang, ()> = EGraph::default();
        let root = g.add_expr(&expr);
        self.stats.questions += 1;
        let limits = Limits {
            nodes: self.node_limit,
            time: Duration::from_millis(200),
        };
        let (g, reports) = self.rules.run_steps(g, self.steps, limits);
        for (name, n) in reports.into_iter().flat_map(|r| r.applied) {
            match self.stats.fired.iter_mut().find(|(r, _)| *r == name) {
                Some(e) => e.1 += n,
                None => self.stats.fired.push((name, n)),
            }
        }
        self.stats.peak_nodes = self.stats.peak_nodes.max(g.total_number_of_nodes());
        let root: Id = g.find(root);
        let (cost, best) = Extractor::new(&g, FusionCost).find_best(root);
        if cost >= QUESTION_COST {
            self.stats.unanswered += 1;
            return Ok(None);
        }
        Ok(Some(best))
    }

    /// Note [Fusion legality] for `b` reading what `a` maps out (or, for
    /// a scanomap, scans); `Some` with whether `a`'s results have other
    /// uses (after `b`) and whether `b` reads scanned arrays.
    fn vertical_ok(
        &self,
        ctx: &Context,
        b: BlockId,
        pos: &HashMap<OpId, usize>,
        a: &Soac,
        bs: &Soac,
    ) -> Option<(bool, bool)> {
        let producer = matches!(
            a.kind,
            Kind::Map | Kind::Redomap | Kind::Scanomap | Kind::StreamSeq | Kind::StreamPar | Kind::Screma
        );
        if a.width != bs.width || !producer {
            return None;
        }
        let mapped: HashSet<Value> = a.mapped(ctx).into_iter().collect();
        let (pa, pb) = (pos.get(&a.op)?, pos.get(&bs.op)?);
        if pa >= pb {
            return None;
        }
        let scanned_by_a: HashSet<Value> = match a.kind {
            Kind::Scanomap => a.combined(ctx).into_iter().collect(),
            _ => HashSet::new(),
        };
        let (mut shared, mut scanned) = (false, false);
        for r in ctx.results(a.op) {
            for u in ctx.uses(r) {
                if ancestor_in(ctx, b, u.op) == Some(bs.op) {
                    // Only as an array `b` maps over, and only a mapped
                    // one or (asked as `after-scan`) a scanned one.
                    let is_input = u.op == bs.op && bs.inputs.contains(&r) && !operand_elsewhere(ctx, bs, r);
                    scanned |= scanned_by_a.contains(&r);
                    if !is_input || !(mapped.contains(&r) || scanned_by_a.contains(&r)) {
                        return None;
                    }
                }
            }
            for user in users_in(ctx, b, r) {
                match user {
                    Some(o) if o == bs.op => {}
                    Some(o) if pos.get(&o).is_some_and(|p| p > pb) => shared = true,
                    _ => return None,
                }
            }
        }
        if !self.no_consumption_between(ctx, b, a, bs) {
            return None;
        }
        Some((shared, scanned))
    }

    /// Whether the fused SOAC would read what `b` writes in place (a
    /// scatter or hist into an array `a` reads): then `b` must write into
    /// a copy (Note [Fusion legality], 6).
    fn reads_destination(&self, ctx: &Context, a: &Soac, bs: &Soac) -> bool {
        let mut roots = HashSet::new();
        for v in reads(ctx, a.op, false) {
            alias_roots(ctx, v, &mut roots);
        }
        let mut dest_roots = HashSet::new();
        for &d in &bs.dests {
            alias_roots(ctx, d, &mut dest_roots);
        }
        !dest_roots.is_disjoint(&roots)
    }

    /// Note [Fusion legality] for two SOACs neither of which reads the
    /// other's results.
    fn horizontal_ok(&self, ctx: &Context, b: BlockId, pos: &HashMap<OpId, usize>, a: &Soac, bs: &Soac) -> bool {
        let pure = |s: &Soac| matches!(s.kind, Kind::Map | Kind::Redomap | Kind::Scanomap);
        // Two scatters write side by side (Note [Fusion legality], 7).
        let scatters = a.kind == Kind::Scatter && bs.kind == Kind::Scatter;
        // A reduction joins a screma's (Note [Post-lambda fusion]).
        let screma = matches!(
            (a.kind, bs.kind),
            (Kind::Screma, Kind::Redomap) | (Kind::Redomap, Kind::Screma)
        );
        if a.width != bs.width || !(scatters || screma || pure(a) && pure(bs)) {
            return false;
        }
        if scatters && (self.reads_destination(ctx, a, bs) || self.reads_destination(ctx, bs, a)) {
            return false;
        }
        let (Some(pa), Some(pb)) = (pos.get(&a.op), pos.get(&bs.op)) else {
            return false;
        };
        if pa >= pb {
            return false;
        }
        let after_b = ctx.results(a.op).all(|r| {
            users_in(ctx, b, r)
                .into_iter()
                .all(|u| u.and_then(|o| pos.get(&o)).is_some_and(|p| p > pb))
        });
        after_b && self.no_consumption_between(ctx, b, a, bs)
    }

    /// Nothing from `a` up to `b` consumes what `a` reads or what aliases
    /// it; nor does `b`, unless `copies` lets it write into a copy.
    fn no_consumption_between(&self, ctx: &Context, b: BlockId, a: &Soac, bs: &Soac) -> bool {
        let mut roots = HashSet::new();
        for v in reads(ctx, a.op, false) {
            alias_roots(ctx, v, &mut roots);
        }
        let mut o = ctx.next_op(a.op);
        while let Some(op) = o {
            if ctx.parent_block(op) != Some(b) {
                return false;
            }
            if op == bs.op {
                break;
            }
            if consumed(ctx, op).iter().any(|v| roots.contains(v)) {
                return false;
            }
            o = ctx.next_op(op);
        }
        self.copies || !self.reads_destination(ctx, a, bs)
    }
}

/// Makes scatter or hist `b` write into fresh copies of its destinations,
/// made right before it (Note [Fusion legality], 6).
fn write_into_copies(ctx: &mut Context, b: &mut Soac) {
    let first = match b.kind {
        Kind::Hist => 2,
        _ => ctx.operands(b.op).len() - b.dests.len(),
    };
    for (i, &d) in b.dests.iter().enumerate() {
        let t = ctx.value_type(d);
        let c = Builder::before(ctx, b.op).op("soac.copy", &[d], &[t], &[], Vec::new());
        let c = ctx.result(c, 0);
        ctx.set_operand(b.op, first + i, c);
    }
    b.dests = ctx.operands(b.op)[first..first + b.dests.len()].to_vec();
}

/// Whether `b` uses `v` other than as an array it maps over (as a
/// neutral element, destination, size, or inside its lambdas).
fn operand_elsewhere(ctx: &Context, bs: &Soac, v: Value) -> bool {
    let as_input = bs.inputs.iter().filter(|&&x| x == v).count();
    let as_operand = ctx.operands(bs.op).iter().filter(|&&x| x == v).count();
    as_operand != as_input
        || ctx
            .uses(v)
            .iter()
            .any(|u| u.op != bs.op && ctx.is_ancestor(bs.op, u.op))
}

// ----- building the fused SOAC ---------------------------------------------

/// Which of the pair an operator or lambda leaf names.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Side {
    A,
    B,
}

/// The operators of a form's operator term, in order (`oa`, `ob`, pairs).
fn operator_sides(expr: &RecExpr<SymbolLang>, id: Id, out: &mut Vec<Side>) -> Result<(), String> {
    let node = &expr[id];
    match (node.op.as_str(), node.children.as_slice()) {
        ("oa", []) => out.push(Side::A),
        ("ob", []) => out.push(Side::B),
        ("pair", [x, y]) => {
            operator_sides(expr, *x, out)?;
            operator_sides(expr, *y, out)?;
        }
        (op, _) => return Err(format!("`{op}` where the fusion rules must give an operator")),
    }
    Ok(())
}

/// The lambdas a lambda term combines.
fn lambda_sides(expr: &RecExpr<SymbolLang>, id: Id, out: &mut Vec<Side>) -> Result<(), String> {
    let node = &expr[id];
    match (node.op.as_str(), node.children.as_slice()) {
        ("la", []) => out.push(Side::A),
        ("lb", []) => out.push(Side::B),
        ("id", []) => {}
        ("pair" | "compose", [x, y]) => {
            lambda_sides(expr, *x, out)?;
            lambda_sides(expr, *y, out)?;
        }
        (op, _) => return Err(format!("`{op}` where the fusion rules must give a lambda")),
    }
    Ok(())
}

/// Build the SOAC `form` (the rules' answer) for the pair `a`, `b`,
/// before `b`; replace both by it and return it.
fn build(ctx: &mut Context, a: &Soac, b: &Soac, form: &RecExpr<SymbolLang>) -> Result<OpId, String> {
    let root = Id::from(form.as_ref().len() - 1);
    let node = form[root].clone();
    let kind = match node.op.as_str() {
        "map" => Kind::Map,
        "redomap" => Kind::Redomap,
        "scanomap" => Kind::Scanomap,
        "hist" => Kind::Hist,
        "scatter" => Kind::Scatter,
        "stream_seq" => Kind::StreamSeq,
        "stream_par" => Kind::StreamPar,
        "screma" => return build_screma(ctx, a, b, form),
        other => return Err(format!("the fusion rules answered `{other}`, which is not a SOAC form")),
    };
    if a.kind == Kind::Screma || b.kind == Kind::Screma {
        return Err(format!(
            "the fusion rules answered `{form}`, but a screma fuses only into a screma"
        ));
    }
    // The operators must be exactly those of the pair; the lambdas at most.
    let mut op_sides = Vec::new();
    if matches!(
        kind,
        Kind::Redomap | Kind::Scanomap | Kind::Hist | Kind::StreamSeq | Kind::StreamPar
    ) {
        operator_sides(form, node.children[0], &mut op_sides)?;
    }
    let mut lam_sides = Vec::new();
    lambda_sides(
        form,
        *node.children.last().expect("forms have a lambda"),
        &mut lam_sides,
    )?;
    let side = |s: Side| if s == Side::A { a } else { b };
    let has_op = |s: &Soac| s.operator.is_some() || s.kind == Kind::StreamSeq;
    let mut expected: Vec<Side> = [Side::A, Side::B].into_iter().filter(|&s| has_op(side(s))).collect();
    let mut got = op_sides.clone();
    got.sort_by_key(|s| *s as u8);
    expected.sort_by_key(|s| *s as u8);
    if got != expected || (kind == Kind::Hist && op_sides != [Side::B]) {
        return Err(format!(
            "the fusion rules answered `{form}`, which does not use each operator of the pair exactly once"
        ));
    }
    // Two scatters side by side (Note [Fusion legality], 7).
    let both_scatter = kind == Kind::Scatter && a.kind == Kind::Scatter;
    if (kind == Kind::Hist || kind == Kind::Scatter) && b.kind != kind {
        return Err(format!(
            "the fusion rules answered `{form}`, but only the second SOAC of the pair is a {}",
            kind.form()
        ));
    }
    if kind == Kind::StreamSeq {
        let streamable = |s: &Soac| matches!(s.kind, Kind::Map | Kind::Redomap | Kind::Scanomap | Kind::StreamSeq);
        if !streamable(a) || !streamable(b) || !op_sides.windows(2).all(|w| w[0] == Side::A && w[1] == Side::B) {
            return Err(format!(
                "the fusion rules answered `{form}`, but a stream fuses maps, reductions, scans and streams, \
                 with the first SOAC's operator first"
            ));
        }
        return build_stream(ctx, a, b, false);
    }
    if kind == Kind::StreamPar {
        // Chunks run independently: nothing may carry from one to the next.
        let parallel = |s: &Soac| matches!(s.kind, Kind::Map | Kind::Redomap | Kind::StreamPar);
        if !parallel(a) || !parallel(b) || !op_sides.windows(2).all(|w| w[0] == Side::A && w[1] == Side::B) {
            return Err(format!(
                "the fusion rules answered `{form}`, but a parallel stream fuses maps, reductions and parallel \
                 streams, with the first SOAC's operator first"
            ));
        }
        return build_stream(ctx, a, b, true);
    }
    let lam_ok = [Side::A, Side::B]
        .into_iter()
        .all(|s| side(s).lambda.is_none() || lam_sides.contains(&s));
    if !lam_ok {
        return Err(format!(
            "the fusion rules answered `{form}`, which drops a lambda of the pair"
        ));
    }

    // The inputs: a's, then b's that a does not produce, without repeats.
    let a_mapped = a.mapped(ctx);
    let mut inputs: Vec<Value> = Vec::new();
    for &v in a.inputs.iter().chain(&b.inputs) {
        if !a_mapped.contains(&v) && !inputs.contains(&v) {
            inputs.push(v);
        }
    }
    // a's results that must stay results: everything but the mapped
    // arrays only b reads.
    let kept_mapped: Vec<Value> = a_mapped
        .iter()
        .copied()
        .filter(|&r| ctx.uses(r).iter().any(|u| u.op != b.op) || !ctx.type_users(r).is_empty())
        .collect();
    if matches!(kind, Kind::Hist | Kind::Scatter) && (!kept_mapped.is_empty() || a.k > 0) {
        return Err(format!(
            "the fusion rules answered `{form}`, but a {} cannot also produce the first SOAC's results",
            kind.form()
        ));
    }

    // The lambda.
    let row_types: Vec<Type> = inputs
        .iter()
        .map(|&v| match a.inputs.iter().position(|&x| x == v) {
            Some(i) => param_type(ctx, a, i),
            None => param_type(
                ctx,
                b,
                b.inputs.iter().position(|&x| x == v).expect("an input of a or b"),
            ),
        })
        .collect();
    let lam = ctx.create_region();
    let blk = ctx.append_block(lam, &row_types);
    let params: Vec<Value> = ctx.block_args(blk).to_vec();
    let param_of = |v: Value| inputs.iter().position(|&x| x == v).map(|i| params[i]);
    let a_args: Vec<Value> = a
        .inputs
        .iter()
        .map(|&v| param_of(v).expect("a's inputs are inputs"))
        .collect();
    let a_yields = inline_lambda(ctx, a, &a_args, blk);
    let b_args: Vec<Value> = b
        .inputs
        .iter()
        .map(|&v| match a_mapped.iter().position(|&m| m == v) {
            Some(j) => a_yields[a.k + j],
            None => param_of(v).expect("b's other inputs are inputs"),
        })
        .collect();
    let b_yields = inline_lambda(ctx, b, &b_args, blk);
    let mut yields: Vec<Value> = Vec::new();
    let combined_of = |s: Side| -> &[Value] {
        if s == Side::A {
            &a_yields[..a.k]
        } else {
            &b_yields[..b.k]
        }
    };
    let mut result_types: Vec<Type> = Vec::new();
    let mut replaced: Vec<Value> = Vec::new();
    match kind {
        Kind::Scatter if both_scatter => {
            // k indices then k values each: the indices of both, then the
            // values of both, in the order of the destinations.
            let (ka, kb) = (scatter_pairs(ctx, a), scatter_pairs(ctx, b));
            yields.extend_from_slice(&a_yields[..ka]);
            yields.extend_from_slice(&b_yields[..kb]);
            yields.extend_from_slice(&a_yields[ka..]);
            yields.extend_from_slice(&b_yields[kb..]);
        }
        Kind::Hist | Kind::Scatter => yields.extend_from_slice(&b_yields),
        _ => {
            for &s in &op_sides {
                yields.extend_from_slice(combined_of(s));
                let combined = side(s).combined(ctx);
                result_types.extend(combined.iter().map(|&r| ctx.value_type(r)));
                replaced.extend(combined);
            }
            for (j, &r) in a_mapped.iter().enumerate() {
                if kept_mapped.contains(&r) {
                    yields.push(a_yields[a.k + j]);
                    result_types.push(ctx.value_type(r));
                    replaced.push(r);
                }
            }
            for (j, r) in b.mapped(ctx).into_iter().enumerate() {
                yields.push(b_yields[b.k + j]);
                result_types.push(ctx.value_type(r));
                replaced.push(r);
            }
        }
    }
    if matches!(kind, Kind::Hist | Kind::Scatter) {
        let written: &[&Soac] = if both_scatter { &[a, b] } else { &[b] };
        for s in written {
            result_types.extend(ctx.results(s.op).map(|r| ctx.value_type(r)));
            replaced.extend(ctx.results(s.op));
        }
    }
    Builder::at_end(ctx, blk).op("soac.yield", &yields, &[], &[], Vec::new());

    // The operator.
    let operator = match op_sides.as_slice() {
        [] => None,
        [s] => Some(clone_region(ctx, side(*s).operator.expect("checked above"))),
        [s, t] => Some(pair_operators(ctx, side(*s), side(*t))),
        _ => unreachable!("a pair has at most two operators"),
    };
    let nes: Vec<Value> = op_sides.iter().flat_map(|&s| side(s).nes.clone()).collect();
    let commutative = op_sides.iter().all(|&s| side(s).commutative);

    // A redomap or scanomap whose lambda only passes its rows on is a
    // reduce or scan again.
    let identity = yields == params && yields.len() == nes.len();
    let mut operands = vec![b.width];
    let (name, regions) = match kind {
        Kind::Map => ("soac.map", vec![lam]),
        Kind::Redomap | Kind::Scanomap => {
            operands.extend(&nes);
            let op = operator.expect("redomap and scanomap have operators");
            if identity {
                ctx.erase_region_contents(lam);
                (
                    if kind == Kind::Redomap {
                        "soac.reduce"
                    } else {
                        "soac.scan"
                    },
                    vec![op],
                )
            } else {
                (
                    if kind == Kind::Redomap {
                        "soac.redomap"
                    } else {
                        "soac.scanomap"
                    },
                    vec![op, lam],
                )
            }
        }
        Kind::Hist => {
            operands.push(b.hist_width.expect("a hist has a width"));
            operands.extend(&b.dests);
            operands.extend(&b.nes);
            ("soac.hist", vec![operator.expect("a hist has an operator"), lam])
        }
        Kind::Scatter => ("soac.scatter", vec![lam]),
        Kind::StreamSeq | Kind::StreamPar | Kind::Screma => {
            unreachable!("streams and scremas are built by build_stream and build_screma")
        }
    };
    operands.extend(&inputs);
    if both_scatter {
        operands.extend(&a.dests);
    }
    if kind == Kind::Scatter {
        operands.extend(&b.dests);
    }
    let mut attrs = if commutative && !op_sides.is_empty() {
        vec![("commutative", ctx.intern_attr(AttrKind::Unit))]
    } else {
        Vec::new()
    };
    if kind == Kind::Scatter {
        // The pairs per destination, in the order of the destinations.
        let mut ws = Vec::new();
        if both_scatter {
            ws.extend(futmlir_dialects::soac::scatter_writes(ctx, a.op));
        }
        ws.extend(futmlir_dialects::soac::scatter_writes(ctx, b.op));
        if ws.iter().any(|&w| w != 1) {
            let elems: Vec<_> = ws.iter().map(|&w| ctx.int_attr(w as i64, Scalar::I64)).collect();
            attrs.push(("num_writes", ctx.intern_attr(AttrKind::Array(elems))));
        }
    }
    let fused = Builder::before(ctx, b.op).op(name, &operands, &result_types, &attrs, regions);
    let new: Vec<Value> = ctx.results(fused).collect();
    for (old, new) in replaced.iter().zip(new) {
        ctx.replace_all_uses(*old, new);
    }
    ctx.erase_op(b.op);
    // a's results that nothing reads any more (reduced values nobody used
    // stay results of the fused op: they are cheap).
    for r in ctx.results(a.op).collect::<Vec<_>>() {
        if ctx.has_uses(r) || !ctx.type_users(r).is_empty() {
            return Err(format!("the first SOAC's result {r:?} is still in use after fusion"));
        }
    }
    ctx.erase_op(a.op);
    Ok(fused)
}

/// The number of (index, value) pairs scatter `s` writes per row.
fn scatter_pairs(ctx: &Context, s: &Soac) -> usize {
    futmlir_dialects::soac::scatter_writes(ctx, s.op).iter().sum()
}

/// The type of the lambda parameter of `s`'s `i`th input: one row of it.
/// (The identity lambda of reduce and scan gets the operator's.)
fn param_type(ctx: &Context, s: &Soac, i: usize) -> Type {
    let r = s.lambda.or(s.operator).expect("a SOAC has a lambda or an operator");
    ctx.value_type(ctx.block_args(ctx.blocks(r)[0])[i])
}

/// Clone the body of `s`'s lambda (the identity when it has none) into
/// the end of `blk` with its parameters bound to `args`; its yields.
fn inline_lambda(ctx: &mut Context, s: &Soac, args: &[Value], blk: BlockId) -> Vec<Value> {
    match s.lambda {
        Some(r) => inline_region(ctx, r, args, blk),
        None => args.to_vec(),
    }
}

/// The body of region `r` at the end of `blk`, its arguments bound to
/// `args`; its yields.
fn inline_region(ctx: &mut Context, r: RegionId, args: &[Value], blk: BlockId) -> Vec<Value> {
    let src = ctx.blocks(r)[0];
    ctx.inline_block(src, args, InsertPoint::End(blk))
}

fn clone_region(ctx: &mut Context, r: RegionId) -> RegionId {
    let nr = ctx.create_region();
    ctx.clone_region_into(r, nr, &mut ValueMap::default());
    nr
}

/// The operator on `s`'s values then `t`'s: arguments `(xs_s, xs_t, ys_s,
/// ys_t)`, the two operators side by side.
fn pair_operators(ctx: &mut Context, s: &Soac, t: &Soac) -> RegionId {
    pair_regions(
        ctx,
        s.operator.expect("has an operator"),
        t.operator.expect("has an operator"),
    )
}

/// Operators `rs` and `rt` side by side (see [`pair_operators`]).
fn pair_regions(ctx: &mut Context, rs: RegionId, rt: RegionId) -> RegionId {
    let (bs, bt) = (ctx.blocks(rs)[0], ctx.blocks(rt)[0]);
    let (ps, pt) = (ctx.block_args(bs).to_vec(), ctx.block_args(bt).to_vec());
    let (ks, kt) = (ps.len() / 2, pt.len() / 2);
    let order: Vec<Value> = ps[..ks]
        .iter()
        .chain(&pt[..kt])
        .chain(&ps[ks..])
        .chain(&pt[kt..])
        .copied()
        .collect();
    let tys: Vec<Type> = order.iter().map(|&v| ctx.value_type(v)).collect();
    let r = ctx.create_region();
    let blk = ctx.append_block(r, &tys);
    let args = ctx.block_args(blk).to_vec();
    let arg = |v: Value| args[order.iter().position(|&x| x == v).expect("an operator parameter")];
    let s_args: Vec<Value> = ps.iter().map(|&p| arg(p)).collect();
    let t_args: Vec<Value> = pt.iter().map(|&p| arg(p)).collect();
    let mut ys = inline_region(ctx, rs, &s_args, blk);
    ys.extend(inline_region(ctx, rt, &t_args, blk));
    Builder::at_end(ctx, blk).op("soac.yield", &ys, &[], &[], Vec::new());
    r
}

// ----- post-lambdas ------------------------------------------------------------

/// Builds the `soac.screma` of Note [Post-lambda fusion] for the pair:
/// map `b` after scanomap, scan or screma `a` (into the post-lambda),
/// screma `b` after map `a` (into the pre-lambda), or a screma and a
/// reduction side by side (the reduction joins the screma's). Replaces
/// both by it.
fn build_screma(ctx: &mut Context, a: &Soac, b: &Soac, form: &RecExpr<SymbolLang>) -> Result<OpId, String> {
    let into_post = b.kind == Kind::Map && matches!(a.kind, Kind::Scanomap | Kind::Screma);
    let into_pre = a.kind == Kind::Map && b.kind == Kind::Screma;
    let beside = matches!(
        (a.kind, b.kind),
        (Kind::Screma, Kind::Redomap) | (Kind::Redomap, Kind::Screma)
    );
    fn lam<'l>(s: &Soac, l: &'l str) -> &'l str {
        if s.lambda.is_some() {
            l
        } else {
            "id"
        }
    }
    let expected = if into_post {
        let post = if a.post.is_some() { "(compose lb pa)" } else { "lb" };
        format!("(screma oa {} {post})", lam(a, "la"))
    } else if into_pre {
        "(screma ob (compose lb la) pb)".to_string()
    } else if beside && a.kind == Kind::Screma {
        format!("(screma (pair oa ob) (pair la {}) pa)", lam(b, "lb"))
    } else if beside {
        format!("(screma (pair oa ob) (pair {} lb) pb)", lam(a, "la"))
    } else {
        return Err(format!(
            "the fusion rules answered `{form}`, but a screma fuses a map after a scan or a screma, \
             a map before a screma, or a reduction beside one"
        ));
    };
    if form.to_string() != expected {
        return Err(format!(
            "the fusion rules answered `{form}`, but this pair fuses into `{expected}`"
        ));
    }
    let a_results: Vec<Value> = ctx.results(a.op).collect();
    if beside
        && a_results
            .iter()
            .any(|&r| ctx.uses(r).iter().any(|u| ancestor_or_self(ctx, b.op, u.op)))
    {
        return Err(format!(
            "the fusion rules answered `{form}` for a SOAC reading the other's results"
        ));
    }
    // The scan side, whose scans the screma takes.
    let s = if into_post || beside && a.kind == Kind::Screma {
        a
    } else {
        b
    };
    // The inputs: a's, then b's that a does not produce.
    let mut inputs: Vec<Value> = Vec::new();
    for &v in a.inputs.iter().chain(&b.inputs) {
        if !a_results.contains(&v) && !inputs.contains(&v) {
            inputs.push(v);
        }
    }
    let row_types: Vec<Type> = inputs
        .iter()
        .map(|&v| match a.inputs.iter().position(|&x| x == v) {
            Some(i) => param_type(ctx, a, i),
            None => param_type(
                ctx,
                b,
                b.inputs.iter().position(|&x| x == v).expect("an input of a or b"),
            ),
        })
        .collect();
    let pre = ctx.create_region();
    let pre_blk = ctx.append_block(pre, &row_types);
    let params: Vec<Value> = ctx.block_args(pre_blk).to_vec();
    let param_of = |v: Value| inputs.iter().position(|&x| x == v).map(|i| params[i]);
    let args_of = |x: &Soac| -> Vec<Value> {
        x.inputs
            .iter()
            .map(|&v| param_of(v).expect("the SOAC's inputs are inputs"))
            .collect()
    };
    let k = s.nes.len();
    // The pre-lambda's yields: scanned, reduced, then the rest, which
    // (and the scanned) the post-lambda takes.
    let scanned: Vec<Value>;
    let mut reduced: Vec<Value>;
    let mut rest: Vec<Value>;
    // The screma's results besides the reduced values, in order, with
    // the values the post-lambda yields for them (filled in below).
    let mut replaced: Vec<Value> = Vec::new();
    let mut red_results: Vec<Value>;
    // Values of the post-lambda's arguments, by position in `rest`, to
    // yield after the post-lambda's own (arrays passed through).
    let mut passed: Vec<usize> = Vec::new();
    let s_pre = |ctx: &mut Context, args: &[Value]| -> (Vec<Value>, Vec<Value>, Vec<Value>) {
        let ys = inline_lambda(ctx, s, args, pre_blk);
        let r = s.red_nes.len();
        (ys[..k].to_vec(), ys[k..k + r].to_vec(), ys[k + r..].to_vec())
    };
    // a's results with rows (all of a scanomap's; a screma's mapped), and
    // which of them something besides b reads.
    let a_rowed: Vec<Value> = match a.kind {
        Kind::Scanomap => a_results.clone(),
        _ => a.mapped(ctx),
    };
    let kept: Vec<usize> = (0..a_rowed.len())
        .filter(|&i| {
            let r = a_rowed[i];
            ctx.uses(r).iter().any(|u| u.op != b.op) || !ctx.type_users(r).is_empty()
        })
        .collect();
    let post = ctx.create_region();
    let post_yields: Vec<Value>;
    if into_post {
        let (sc, rd, other) = s_pre(ctx, &args_of(a));
        // b's arrays that a does not produce (a may read them too),
        // passed through the pre-lambda.
        let mut extra: Vec<Value> = Vec::new();
        for &v in &b.inputs {
            if !a_results.contains(&v) && !extra.contains(&v) {
                extra.push(v);
            }
        }
        let l = other.len();
        scanned = sc;
        reduced = rd;
        rest = other;
        rest.extend(extra.iter().map(|&v| param_of(v).expect("an input")));
        let post_blk = post_block(ctx, post, &scanned, &rest);
        let post_args: Vec<Value> = ctx.block_args(post_blk).to_vec();
        // a's rows: its post-lambda's yields, or what it scans and maps.
        let a_rows = match a.post {
            Some(r) => inline_region(ctx, r, &post_args[..k + l], post_blk),
            None => post_args[..k + l].to_vec(),
        };
        let mut b_args: Vec<Value> = Vec::new();
        for &v in &b.inputs {
            let arg = match a_rowed.iter().position(|&r| r == v) {
                Some(j) => a_rows[j],
                None => match extra.iter().position(|&x| x == v) {
                    Some(e) => post_args[k + l + e],
                    None => return Err("the map reads a reduced value of the screma it fuses into".into()),
                },
            };
            b_args.push(arg);
        }
        let b_yields = inline_lambda(ctx, b, &b_args, post_blk);
        let mut yields: Vec<Value> = kept.iter().map(|&j| a_rows[j]).collect();
        yields.extend(b_yields);
        // A scanomap's combined results are its scans, which have rows.
        red_results = if a.kind == Kind::Screma {
            a.combined(ctx)
        } else {
            Vec::new()
        };
        replaced.extend(kept.iter().map(|&j| a_rowed[j]));
        replaced.extend(ctx.results(b.op));
        post_yields = yields;
    } else if into_pre {
        // a's lambda, then b's pre-lambda on its rows; a's values that
        // others read passed on to the post-lambda.
        let a_yields = inline_lambda(ctx, a, &args_of(a), pre_blk);
        let b_args: Vec<Value> = b
            .inputs
            .iter()
            .map(|&v| match a_results.iter().position(|&r| r == v) {
                Some(j) => a_yields[j],
                None => param_of(v).expect("b's other inputs are inputs"),
            })
            .collect();
        let (sc, rd, other) = s_pre(ctx, &b_args);
        let l = other.len();
        scanned = sc;
        reduced = rd;
        rest = other;
        rest.extend(kept.iter().map(|&j| a_yields[j]));
        passed.extend(l..rest.len());
        red_results = b.combined(ctx);
        replaced.extend(b.mapped(ctx));
        replaced.extend(kept.iter().map(|&j| a_results[j]));
        post_yields = Vec::new();
    } else {
        // Side by side: the screma's pre-lambda and the reduction's
        // lambda; the reduction's mapped-out values passed on.
        let r = if a.kind == Kind::Screma { b } else { a };
        let (sc, rd, other) = s_pre(ctx, &args_of(s));
        let r_yields = inline_lambda(ctx, r, &args_of(r), pre_blk);
        let l = other.len();
        scanned = sc;
        reduced = rd;
        rest = other;
        // Reductions in the order of the operator pair, a's first.
        if a.kind == Kind::Screma {
            reduced.extend_from_slice(&r_yields[..r.k]);
            red_results = a.combined(ctx);
            red_results.extend(r.combined(ctx));
        } else {
            let mut both = r_yields[..r.k].to_vec();
            both.extend(reduced);
            reduced = both;
            red_results = r.combined(ctx);
            red_results.extend(s.combined(ctx));
        }
        rest.extend_from_slice(&r_yields[r.k..]);
        passed.extend(l..rest.len());
        replaced.extend(s.mapped(ctx));
        replaced.extend(r.mapped(ctx));
        post_yields = Vec::new();
    }
    let mut pre_yields = scanned.clone();
    pre_yields.extend(&reduced);
    pre_yields.extend(&rest);
    Builder::at_end(ctx, pre_blk).op("soac.yield", &pre_yields, &[], &[], Vec::new());
    if !into_post {
        // The scan side's post-lambda, then the arrays passed through.
        let post_blk = post_block(ctx, post, &scanned, &rest);
        let post_args: Vec<Value> = ctx.block_args(post_blk).to_vec();
        let own = k + rest.len() - passed.len();
        let mut yields = inline_region(
            ctx,
            s.post.expect("a screma has a post-lambda"),
            &post_args[..own],
            post_blk,
        );
        yields.extend(passed.iter().map(|&i| post_args[k + i]));
        Builder::at_end(ctx, post_blk).op("soac.yield", &yields, &[], &[], Vec::new());
    } else {
        let post_blk = ctx.blocks(post)[0];
        Builder::at_end(ctx, post_blk).op("soac.yield", &post_yields, &[], &[], Vec::new());
    }
    // The operators: the scan side's scans; the reductions, paired.
    let scan_op = clone_region(ctx, s.operator.expect("a scan has an operator"));
    let s_red = s.red_operator;
    let (red_op, red_nes) = if beside {
        let r = if a.kind == Kind::Screma { b } else { a };
        let r_op = r.operator.expect("a reduction has an operator");
        let s_op = s_red.expect("a screma has a reduction operator");
        if a.kind == Kind::Screma {
            let mut nes = s.red_nes.clone();
            nes.extend(&r.nes);
            (pair_regions(ctx, s_op, r_op), nes)
        } else {
            let mut nes = r.nes.clone();
            nes.extend(&s.red_nes);
            (pair_regions(ctx, r_op, s_op), nes)
        }
    } else {
        match s_red {
            Some(op) => (clone_region(ctx, op), s.red_nes.clone()),
            None => {
                let op = ctx.create_region();
                let blk = ctx.append_block(op, &[]);
                Builder::at_end(ctx, blk).op("soac.yield", &[], &[], &[], Vec::new());
                (op, Vec::new())
            }
        }
    };
    let mut operands = vec![b.width];
    operands.extend(&s.nes);
    operands.extend(&red_nes);
    operands.extend(&inputs);
    let mut all_replaced = red_results;
    all_replaced.extend(replaced);
    let result_types: Vec<Type> = all_replaced.iter().map(|&r| ctx.value_type(r)).collect();
    let fused = Builder::before(ctx, b.op).op(
        "soac.screma",
        &operands,
        &result_types,
        &[],
        vec![scan_op, red_op, pre, post],
    );
    let new: Vec<Value> = ctx.results(fused).collect();
    for (old, new) in all_replaced.iter().zip(new) {
        ctx.replace_all_uses(*old, new);
    }
    ctx.erase_op(b.op);
    if a_results
        .iter()
        .any(|&r| ctx.has_uses(r) || !ctx.type_users(r).is_empty())
    {
        return Err("the first SOAC's results are still in use after fusing into a screma".into());
    }
    ctx.erase_op(a.op);
    Ok(fused)
}

/// The post-lambda's block in `post`: arguments for the `scanned` values
/// and the `rest`, of their types.
fn post_block(ctx: &mut Context, post: RegionId, scanned: &[Value], rest: &[Value]) -> BlockId {
    let types: Vec<Type> = scanned.iter().chain(rest).map(|&v| ctx.value_type(v)).collect();
    ctx.append_block(post, &types)
}

/// Whether `op` is `anc` or inside it.
fn ancestor_or_self(ctx: &Context, anc: OpId, op: OpId) -> bool {
    op == anc || ctx.is_ancestor(anc, op)
}

// ----- fusing through a stream -----------------------------------------------

/// `t` with outer size `c` (the type of a chunk of an array of type `t`).
fn with_outer(ctx: &mut Context, t: Type, c: Value) -> Type {
    match ctx.type_kind(t).clone() {
        TypeKind::Array { elem, mut shape } => {
            shape[0] = Dim::Value(c);
            ctx.intern_type(TypeKind::Array { elem, shape })
        }
        _ => t,
    }
}

/// Runs `s` on one chunk of `c` rows at the end of `blk` (thesis Fig. 55):
/// a copy of `s` over the chunk (`chunk_of` gives the chunk of each of
/// `s`'s inputs), its operator's values carried on from `accs`. Returns
/// the new accumulators of a reduction (those of a scan are the last rows
/// of its arrays, [`last_rows`]) and, for each result of `s`, its value on
/// the chunk: a scanned array with the carry added, a chunk's reduction, a
/// mapped chunk.
fn on_chunk(
    ctx: &mut Context,
    blk: BlockId,
    s: &Soac,
    c: Value,
    accs: &[Value],
    chunk_of: &HashMap<Value, Value>,
) -> (Vec<Value>, Vec<Value>) {
    if matches!(s.kind, Kind::StreamSeq | Kind::StreamPar) {
        // A stream on a chunk is its chunk lambda.
        let mut args = vec![c];
        args.extend_from_slice(accs);
        args.extend(s.inputs.iter().map(|v| chunk_of[v]));
        let ys = inline_lambda(ctx, s, &args, blk);
        return (ys[..s.k].to_vec(), ys);
    }
    // Only the operands change: the lambdas may also read an input array
    // whole (as a free value), which must stay the whole array.
    let copy = ctx.clone_op(s.op, &mut ValueMap::default());
    Builder::at_end(ctx, blk).insert(copy);
    ctx.set_operand(copy, 0, c);
    let first_input = 1 + s.nes.len();
    for (i, v) in s.inputs.iter().enumerate() {
        ctx.set_operand(copy, first_input + i, chunk_of[v]);
    }
    let results: Vec<Value> = ctx.results(copy).collect();
    let arrays_from = if s.kind == Kind::Redomap { s.k } else { 0 };
    for &r in &results[arrays_from..] {
        let t = with_outer(ctx, ctx.value_type(r), c);
        ctx.set_value_type(r, t);
    }
    let mut vals = results.clone();
    let new_accs = match s.kind {
        Kind::Redomap => {
            let mut args = accs.to_vec();
            args.extend_from_slice(&results[..s.k]);
            inline_region(ctx, s.operator.expect("a redomap has an operator"), &args, blk)
        }
        Kind::Scanomap => {
            let carried = add_carry(ctx, blk, s, c, accs, &results[..s.k]);
            vals[..s.k].copy_from_slice(&carried);
            Vec::new()
        }
        _ => Vec::new(),
    };
    (new_accs, vals)
}

/// `map (acc ⊕) scanned` over the chunk: the scanned chunk with the carry
/// of the chunks before it.
fn add_carry(ctx: &mut Context, blk: BlockId, s: &Soac, c: Value, accs: &[Value], scanned: &[Value]) -> Vec<Value> {
    let row_types: Vec<Type> = accs.iter().map(|&v| ctx.value_type(v)).collect();
    let lam = ctx.create_region();
    let lb = ctx.append_block(lam, &row_types);
    let mut args = accs.to_vec();
    args.extend_from_slice(ctx.block_args(lb));
    let ys = inline_region(ctx, s.operator.expect("a scanomap has an operator"), &args, lb);
    Builder::at_end(ctx, lb).op("soac.yield", &ys, &[], &[], Vec::new());
    let types: Vec<Type> = scanned.iter().map(|&v| ctx.value_type(v)).collect();
    let mut operands = vec![c];
    operands.extend_from_slice(scanned);
    let m = Builder::at_end(ctx, blk).op("soac.map", &operands, &types, &[], vec![lam]);
    ctx.results(m).collect()
}

/// The last rows of `arrays` (of `c` rows), or `accs` when the chunk is
/// empty: the carries into the next chunk.
fn last_rows(ctx: &mut Context, blk: BlockId, c: Value, arrays: &[Value], accs: &[Value]) -> Vec<Value> {
    let i64t = ctx.scalar(Scalar::I64);
    let (zero_a, one_a) = (ctx.int_attr(0, Scalar::I64), ctx.int_attr(1, Scalar::I64));
    let bool_t = ctx.scalar(Scalar::Bool);
    let mut b = Builder::at_end(ctx, blk);
    let zero = b.op("soac.constant", &[], &[i64t], &[("value", zero_a)], Vec::new());
    let zero = ctx.result(zero, 0);
    let kind = ctx.string_attr("gt");
    let nonempty = Builder::at_end(ctx, blk).op("soac.cmpop", &[c, zero], &[bool_t], &[("kind", kind)], Vec::new());
    let nonempty = ctx.result(nonempty, 0);
    let types: Vec<Type> = accs.iter().map(|&v| ctx.value_type(v)).collect();
    let then = ctx.create_region();
    let tb = ctx.append_block(then, &[]);
    let one = Builder::at_end(ctx, tb).op("soac.constant", &[], &[i64t], &[("value", one_a)], Vec::new());
    let one = ctx.result(one, 0);
    let sub = ctx.string_attr("sub");
    let last = Builder::at_end(ctx, tb).op("soac.binop", &[c, one], &[i64t], &[("kind", sub)], Vec::new());
    let last = ctx.result(last, 0);
    let mut rows = Vec::new();
    for (&x, &t) in arrays.iter().zip(&types) {
        let r = Builder::at_end(ctx, tb).op("soac.index", &[x, last], &[t], &[], Vec::new());
        rows.push(ctx.result(r, 0));
    }
    Builder::at_end(ctx, tb).op("soac.yield", &rows, &[], &[], Vec::new());
    let els = ctx.create_region();
    let eb = ctx.append_block(els, &[]);
    Builder::at_end(ctx, eb).op("soac.yield", accs, &[], &[], Vec::new());
    let iff = Builder::at_end(ctx, blk).op("soac.if", &[nonempty], &types, &[], vec![then, els]);
    ctx.results(iff).collect()
}

/// Builds the `soac.stream_seq` that fuses `b` with `a` when `b` reads
/// what `a` scans (Note [Fusion terms], thesis Fig. 55), or when either is
/// a stream already: accumulators `a`'s then `b`'s (carries of scans,
/// reductions, a stream's own); each chunk runs `a`, then `b` on `a`'s
/// values for the chunk. Replaces both by it. `par`: a `soac.stream_par`
/// (of two maps, reductions or parallel streams), whose operator combines
/// the chunks' accumulators, `a`'s then `b`'s.
fn build_stream(ctx: &mut Context, a: &Soac, b: &Soac, par: bool) -> Result<OpId, String> {
    let a_results: Vec<Value> = ctx.results(a.op).collect();
    let mut inputs: Vec<Value> = Vec::new();
    for &v in a.inputs.iter().chain(&b.inputs) {
        if !a_results.contains(&v) && !inputs.contains(&v) {
            inputs.push(v);
        }
    }
    let nes: Vec<Value> = a.nes.iter().chain(&b.nes).copied().collect();
    let i64t = ctx.scalar(Scalar::I64);
    let mut head = vec![i64t];
    head.extend(nes.iter().map(|&v| ctx.value_type(v)));
    let lam = ctx.create_region();
    let blk = ctx.append_block(lam, &head);
    let c = ctx.block_args(blk)[0];
    let accs: Vec<Value> = ctx.block_args(blk)[1..].to_vec();
    let mut chunk_of: HashMap<Value, Value> = HashMap::new();
    for &v in &inputs {
        let t = with_outer(ctx, ctx.value_type(v), c);
        let chunk = ctx.add_block_arg(blk, t);
        chunk_of.insert(v, chunk);
    }
    let (a_accs, b_accs) = accs.split_at(a.nes.len());
    let (mut a_accs, a_vals) = on_chunk(ctx, blk, a, c, a_accs, &chunk_of);
    for (&r, &v) in a_results.iter().zip(&a_vals) {
        chunk_of.insert(r, v);
    }
    let (mut b_accs, b_vals) = on_chunk(ctx, blk, b, c, b_accs, &chunk_of);
    // The carries of scans last, after every use of the scanned chunks
    // (so that `b` may fuse with the carry's map in the chunk lambda).
    if a.kind == Kind::Scanomap {
        a_accs = last_rows(ctx, blk, c, &a_vals[..a.k], &accs[..a.k]);
    }
    if b.kind == Kind::Scanomap {
        b_accs = last_rows(ctx, blk, c, &b_vals[..b.k], &accs[a.k..]);
    }

    // a's arrays that something besides b reads stay results; all of b's
    // arrays are results.
    let arrays_from = |s: &Soac| if s.kind == Kind::Scanomap { 0 } else { s.k };
    let (a_arrays_from, b_arrays_from) = (arrays_from(a), arrays_from(b));
    let kept: Vec<usize> = (a_arrays_from..a_results.len())
        .filter(|&i| {
            let r = a_results[i];
            ctx.uses(r).iter().any(|u| u.op != b.op) || !ctx.type_users(r).is_empty()
        })
        .collect();
    let mut yields: Vec<Value> = a_accs.iter().chain(&b_accs).copied().collect();
    let mut types: Vec<Type> = nes.iter().map(|&v| ctx.value_type(v)).collect();
    let mut replaced: Vec<Option<Value>> = Vec::new();
    // The accumulators: reductions stand for their SOAC's results; the
    // carries of scans are not needed after the stream.
    for s in [a, b] {
        let combined = s.combined(ctx);
        let carries = s.kind == Kind::Scanomap;
        replaced.extend((0..s.nes.len()).map(|j| (!carries).then(|| combined[j])));
    }
    for &i in &kept {
        yields.push(a_vals[i]);
        types.push(ctx.value_type(a_results[i]));
        replaced.push(Some(a_results[i]));
    }
    let b_results: Vec<Value> = ctx.results(b.op).collect();
    for i in b_arrays_from..b_results.len() {
        yields.push(b_vals[i]);
        types.push(ctx.value_type(b_results[i]));
        replaced.push(Some(b_results[i]));
    }
    Builder::at_end(ctx, blk).op("soac.yield", &yields, &[], &[], Vec::new());

    let mut operands = vec![b.width];
    operands.extend(&nes);
    operands.extend(&inputs);
    let fused = if par {
        let operator = match (a.operator, b.operator) {
            (Some(_), Some(_)) => pair_operators(ctx, a, b),
            (Some(r), None) | (None, Some(r)) => clone_region(ctx, r),
            (None, None) => {
                // Two maps: an operator on no values.
                let r = ctx.create_region();
                let ob = ctx.append_block(r, &[]);
                Builder::at_end(ctx, ob).op("soac.yield", &[], &[], &[], Vec::new());
                r
            }
        };
        Builder::before(ctx, b.op).op("soac.stream_par", &operands, &types, &[], vec![operator, lam])
    } else {
        let num_accs = ctx.int_attr(nes.len() as i64, Scalar::I64);
        let attrs = [("num_accs", num_accs)];
        Builder::before(ctx, b.op).op("soac.stream_seq", &operands, &types, &attrs, vec![lam])
    };
    let new: Vec<Value> = ctx.results(fused).collect();
    for (old, new) in replaced.iter().zip(new) {
        if let Some(old) = old {
            ctx.replace_all_uses(*old, new);
        }
    }
    ctx.erase_op(b.op);
    if a_results.iter().any(|&r| ctx.has_uses(r)) {
        return Err("the first SOAC's results are still in use after fusing through a stream".into());
    }
    ctx.erase_op(a.op);
    Ok(fused)
}
