//! The shrinker of `futmlir fuzz`: reduces a program that shows a finding
//! to a smaller one that still shows it.

use super::gen::{Gen, Node, Part, Program};

// Note [Shrinking]
// A finding's program is reduced greedily, keeping each step after which
// the finding still shows (the same class: a mismatch stays a mismatch, a
// crash a crash). The steps: keep only the failing entry point, keep one
// of its results, then, for each subexpression from the root down,
// replace it by a literal of its type (a closed expression, so always in
// scope) or by one of its own subexpressions of the same type (which may
// name a variable the removed form bound: the interpreter then rejects
// the program and the step is not kept). Each try compiles the program,
// so a budget of tries bounds the time.

/// The path to a subexpression: the indices of the `Kid` parts taken.
type Path = Vec<usize>;

fn paths(n: &Node, here: &mut Path, out: &mut Vec<Path>) {
    out.push(here.clone());
    let mut k = 0;
    for p in &n.parts {
        if let Part::Kid(c) = p {
            here.push(k);
            paths(c, here, out);
            here.pop();
            k += 1;
        }
    }
}

fn at<'n>(n: &'n Node, path: &[usize]) -> Option<&'n Node> {
    let Some((&first, rest)) = path.split_first() else {
        return Some(n);
    };
    let kid = n
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Kid(c) => Some(c),
            Part::Text(_) => None,
        })
        .nth(first)?;
    at(kid, rest)
}

fn at_mut<'n>(n: &'n mut Node, path: &[usize]) -> Option<&'n mut Node> {
    let Some((&first, rest)) = path.split_first() else {
        return Some(n);
    };
    let kid = n
        .parts
        .iter_mut()
        .filter_map(|p| match p {
            Part::Kid(c) => Some(c),
            Part::Text(_) => None,
        })
        .nth(first)?;
    at_mut(kid, rest)
}

/// The descendants of `n` of its type (not `n` itself).
fn same_typed(n: &Node) -> Vec<Node> {
    let mut ps = Vec::new();
    paths(n, &mut Vec::new(), &mut ps);
    ps.iter()
        .skip(1)
        .filter_map(|p| at(n, p))
        .filter(|c| c.ty == n.ty)
        .cloned()
        .collect()
}

/// Reduces `prog` (whose entry `entry` shows the finding) while
/// `interesting` holds, in at most `budget` tries.
pub fn shrink(prog: &Program, entry: &str, budget: usize, interesting: &mut dyn FnMut(&Program) -> bool) -> Program {
    let mut best = prog.clone();
    let mut tries = 0;
    let mut attempt = |cand: Program, best: &mut Program, tries: &mut usize| -> bool {
        if *tries >= budget {
            return false;
        }
        *tries += 1;
        if interesting(&cand) {
            *best = cand;
            true
        } else {
            false
        }
    };
    // Only the failing entry point.
    if best.entries.len() > 1 {
        let mut cand = best.clone();
        cand.entries.retain(|e| e.name == entry);
        attempt(cand, &mut best, &mut tries);
    }
    // No helper functions.
    if !best.helpers.is_empty() {
        let mut cand = best.clone();
        cand.helpers.clear();
        attempt(cand, &mut best, &mut tries);
    }
    let Some(ei) = best.entries.iter().position(|e| e.name == entry) else {
        return best;
    };
    // One result.
    if best.entries[ei].results.len() > 1 {
        for r in 0..best.entries[ei].results.len() {
            let mut cand = best.clone();
            let keep = cand.entries[ei].results[r].clone();
            cand.entries[ei].results = vec![keep];
            if attempt(cand, &mut best, &mut tries) {
                break;
            }
        }
    }
    let mut lits = Gen::new(0);
    let mut progress = true;
    while progress && tries < budget {
        progress = false;
        for r in 0..best.entries[ei].results.len() {
            let mut ps = Vec::new();
            paths(&best.entries[ei].results[r], &mut Vec::new(), &mut ps);
            for p in ps {
                let Some(node) = at(&best.entries[ei].results[r], &p) else {
                    continue;
                };
                if node.is_leaf() {
                    continue;
                }
                let mut replacements = same_typed(node);
                replacements.sort_by_key(size);
                if !node.ty.has_fresh() {
                    replacements.insert(0, lits.leaf(&node.ty));
                }
                for rep in replacements {
                    let mut cand = best.clone();
                    if let Some(slot) = at_mut(&mut cand.entries[ei].results[r], &p) {
                        *slot = rep;
                    }
                    if attempt(cand, &mut best, &mut tries) {
                        progress = true;
                        break;
                    }
                }
                if progress || tries >= budget {
                    break;
                }
            }
            if progress || tries >= budget {
                break;
            }
        }
    }
    best
}

fn size(n: &Node) -> usize {
    let mut s = String::new();
    n.write(&mut s);
    s.len()
}
