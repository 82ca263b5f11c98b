//! The term language of fusion rules (Note [Fusion terms]).
//!
//! **Note [Fusion terms].**
//! `soac-fuse` asks the rules, for two SOACs `a` and `b` (`a` first in the
//! block) that the pass found may legally become one, what the one SOAC
//! is. It states the question as a term and the rules rewrite it; the
//! cheapest form the e-graph then holds is the answer, and no answer (only
//! the question itself) means the pair does not fuse.
//!
//! - A SOAC is a *form*: `(map L)`, `(redomap O L)`, `(scanomap O L)`,
//!   `(hist O L)`, `(scatter L)` or `(stream_seq O L)`, with `L` its lambda and `O` its
//!   operator. `soac.reduce` and `soac.scan` are `redomap`/`scanomap`
//!   whose lambda is `id`.
//! - The leaves: `la`, `lb` (the lambdas of `a` and `b`), `oa`, `ob` (their
//!   operators), `pa`, `pb` (the post-lambdas of screma), `id` (the
//!   identity lambda).
//! - `(screma O L P)`: a scanomap with post-lambda `P` run on each row of
//!   its scanned and mapped values (Note [Post-lambda fusion] in
//!   `soac-fuse`); a form costs 1, a `stream_seq` 2, so that a map after a
//!   scan becomes a screma rather than a stream.
//! - The questions: `(after B A S)`: `b` reads arrays that `a` maps out;
//!   `S` is `exclusive` when nothing else reads `a`'s results, `shared`
//!   when something after `b` does (the fused SOAC must then also produce
//!   them, so that nothing is computed twice). `(after-scan B A S)`: `b`
//!   reads arrays that `a` (a scanomap) scans, which no parallel form can
//!   fuse: `b` needs whole prefixes. `(beside A B)`: neither reads the
//!   other's results.
//! - `(stream_seq O L)` answers an `after-scan` (thesis 7.3.2, Fig. 55):
//!   a sequential stream over chunks whose accumulators are the scans'
//!   carries (and `b`'s reductions), whose chunk lambda scans the chunk
//!   with `a`, adds the carry, and runs `b` on it. Taking the whole input
//!   as one chunk (`soac-unstream`) gives back the parallel SOACs. A
//!   stream is also a form the pass asks about, `(stream_seq O L)` with
//!   `O` (`oa` or `ob`) standing for its accumulators, so that streams
//!   fuse further. `(stream_par O L)` is a parallel stream (`O` its
//!   operator combining chunks' accumulators); it fuses with maps,
//!   reductions and parallel streams (thesis 7.3, stream_par-stream_par).
//! - The combinators, which the pass builds: `(compose LB LA)` runs `la`
//!   then `lb` on what it produced; `(pair L1 L2)` runs both side by side;
//!   `(pair O1 O2)` reduces the values of `O1` then those of `O2`.
//!
//! So `(after (map lb) (map la) exclusive)`, rewritten by `map-map` to
//! `(map (compose lb la))`, is one map whose lambda is `a`'s then `b`'s.
//! The pass checks that a form it is given uses each operator once and
//! only combines `a`'s and `b`'s lambdas; a rule that loses or duplicates
//! an operator is an error naming the form.

use std::collections::HashMap;

use egg::SymbolLang;

use super::ruleset::{Predicate, TermLanguage};

/// The forms a fused SOAC may take, with their arities.
pub const FORMS: &[(&str, usize)] = &[
    ("map", 1),
    ("redomap", 2),
    ("scanomap", 2),
    ("hist", 2),
    ("scatter", 1),
    ("stream_seq", 2),
    ("stream_par", 2),
    ("screma", 3),
];

/// The leaves of fusion terms.
pub const LEAVES: &[&str] = &["la", "lb", "oa", "ob", "pa", "pb", "id", "shared", "exclusive"];

fn is_leaf(s: &str) -> bool {
    LEAVES.contains(&s)
}

/// The operators of fusion terms with their arities.
pub fn language() -> TermLanguage {
    let mut ops: HashMap<String, Option<usize>> = FORMS.iter().map(|(f, n)| (f.to_string(), Some(*n))).collect();
    for (op, n) in [
        ("after", 3),
        ("after-scan", 3),
        ("beside", 2),
        ("compose", 2),
        ("pair", 2),
    ] {
        ops.insert(op.to_string(), Some(n));
    }
    TermLanguage { ops, is_leaf }
}

/// Fusion rules need no Rust predicates: the pass decides legality before
/// it asks (Note [Fusion terms]).
pub fn predicates() -> Vec<Predicate<()>> {
    Vec::new()
}

/// The extraction cost of fusion terms: a question costs more than any
/// answer, a form 1, combinators and leaves nothing.
pub struct FusionCost;

/// What an unanswered question costs.
pub const QUESTION_COST: usize = 1_000;

impl egg::CostFunction<SymbolLang> for FusionCost {
    type Cost = usize;
    fn cost<C: FnMut(egg::Id) -> usize>(&mut self, enode: &SymbolLang, mut costs: C) -> usize {
        let own = match enode.op.as_str() {
            "after" | "after-scan" | "beside" => QUESTION_COST,
            // A sequential stream only where no parallel form fuses the
            // pair (Note [Post-lambda fusion]).
            "stream_seq" => 2,
            op if FORMS.iter().any(|(f, _)| *f == op) => 1,
            _ => 0,
        };
        enode.children.iter().fold(own, |c, &id| c.saturating_add(costs(id)))
    }
}
