//! The orderings `futmlir explore` tries: which pipelines, and how an
//! ordering of the moved passes goes into the base pipeline (Note
//! [Orderings in the pipeline]).

use futmlir_frontend::values::Rng;
use futmlir_passes::pipeline::Element;
use futmlir_passes::Pipeline;

/// The most orderings `--orderings=all` builds: each is a compile and
/// `-r N` runs of every dataset, so more is hours (720 = 6!).
pub const MAX_ORDERINGS: usize = 720;

// Note [Orderings in the pipeline]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `--passes=a,b,c` names the passes that move; the rest of the base
// pipeline (the target's default, or `--pass-pipeline`) stays as it is.
// Every top-level occurrence of a named pass is removed from the base
// pipeline, whatever its options, and the ordering is inserted where the
// first removed occurrence was. A named pass without `{options}` runs
// with the options of its first occurrence in the base pipeline (so
// `soac-unstream` keeps `nested=true`), or its defaults if it has none
// there; `a{k=v}` runs with those. A pass may be named twice
// (`soac-simplify,soac-fuse,soac-simplify`): orderings that come out the
// same are tried once.
//
// An ordering is a permutation of the named passes; with `--subsets`,
// any subset of them in any order, the empty one included (the base
// pipeline without any of them). `--orderings=all` enumerates them in
// lexicographic order of the passes' places in `--passes`, the given
// order first; `random:N` draws N distinct ones with `--seed` (each a
// random permutation; with `--subsets` of a random subset). The default
// pipeline itself is always the first row, `default`, so that every
// ordering has something to be compared with.
//
// An ordering can put a pass where its level is not (`soac-to-segop`
// after a segop pass): `Pipeline::check_levels` finds it before anything
// runs, and the row says `invalid (level)`; it is a result, not an
// error.

/// Which orderings to try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orderings {
    All,
    Random(usize),
}

impl std::str::FromStr for Orderings {
    type Err = String;
    fn from_str(s: &str) -> Result<Orderings, String> {
        if s == "all" {
            return Ok(Orderings::All);
        }
        match s.strip_prefix("random:").map(str::parse::<usize>) {
            Some(Ok(n)) if n > 0 => Ok(Orderings::Random(n)),
            _ => Err(format!("`{s}` is not `all` or `random:N` with N > 0")),
        }
    }
}

/// The passes of `--passes` (`spec`), each with the options it runs with
/// (Note [Orderings in the pipeline]); `Err`: the rendered error, with a
/// caret under an unknown pass.
pub fn moved_passes(spec: &str, base: &Pipeline) -> Result<Vec<Element>, String> {
    let parsed = Pipeline::parse(spec).map_err(|e| format!("{:?}", e.to_report(spec)))?;
    if parsed.elements.is_empty() {
        return Err("error: --passes names no pass".to_string());
    }
    parsed
        .elements
        .into_iter()
        .map(|e| match e {
            Element::Pass { info, options, span } => {
                let given = spec[span.0 + span.1..].trim_start().starts_with('{');
                let first = base.elements.iter().find_map(|b| match b {
                    Element::Pass {
                        info: i, options: o, ..
                    } if i.name == info.name => Some(o.clone()),
                    _ => None,
                });
                let options = match first {
                    Some(o) if !given => o,
                    _ => options,
                };
                Ok(Element::Pass { info, options, span })
            }
            Element::Nested { anchor, .. } => Err(format!(
                "error: --passes names passes, not nested pipelines (`{anchor}(...)`)"
            )),
        })
        .collect()
}

/// The name of a pass element (none for a nested pipeline).
fn pass_name(e: &Element) -> Option<&'static str> {
    match e {
        Element::Pass { info, .. } => Some(info.name),
        Element::Nested { .. } => None,
    }
}

/// `base` with `ordering` in place of the moved passes (`moved`; Note
/// [Orderings in the pipeline]).
pub fn splice(base: &Pipeline, moved: &[Element], ordering: &[usize]) -> Pipeline {
    let is_moved = |e: &Element| pass_name(e).is_some_and(|n| moved.iter().any(|m| pass_name(m) == Some(n)));
    let at = base.elements.iter().position(is_moved).unwrap_or(base.elements.len());
    let mut elements: Vec<Element> = base.elements[..at].iter().filter(|e| !is_moved(e)).cloned().collect();
    elements.extend(ordering.iter().map(|&i| moved[i].clone()));
    elements.extend(base.elements[at..].iter().filter(|e| !is_moved(e)).cloned());
    Pipeline { elements }
}

/// The number of orderings of `n` passes: n! permutations, or with
/// `subsets` the sum over k of n!/(n-k)! (saturating).
pub fn count(n: usize, subsets: bool) -> usize {
    let mut total: usize = 1; // the empty subset, or 0! = 1
    let mut falling: usize = 1;
    for k in 1..=n {
        falling = falling.saturating_mul(n + 1 - k);
        if subsets || k == n {
            total = if subsets {
                total.saturating_add(falling)
            } else {
                falling
            };
        }
    }
    total
}

/// Every ordering (indices into the moved passes), in lexicographic
/// order; with `subsets`, of every subset, shortest first.
pub fn all(n: usize, subsets: bool) -> Vec<Vec<usize>> {
    fn extend(prefix: &mut Vec<usize>, n: usize, len: usize, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == len {
            out.push(prefix.clone());
            return;
        }
        for i in 0..n {
            if !prefix.contains(&i) {
                prefix.push(i);
                extend(prefix, n, len, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    let lens = if subsets { 0..=n } else { n..=n };
    for len in lens {
        extend(&mut Vec::new(), n, len, &mut out);
    }
    out
}

/// Up to `want` distinct random orderings drawn with `seed` (fewer only
/// when the space is smaller).
pub fn random(n: usize, subsets: bool, want: usize, seed: u64) -> Vec<Vec<usize>> {
    let want = want.min(count(n, subsets));
    let mut rng = Rng::new(seed);
    let mut out: Vec<Vec<usize>> = Vec::new();
    // Enough tries that a space barely larger than `want` still fills.
    for _ in 0..want.saturating_mul(1000).max(1000) {
        if out.len() == want {
            break;
        }
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            p.swap(i, rng.index(i + 1));
        }
        if subsets {
            p.truncate(rng.index(n + 1));
        }
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `p` as text, against `expected` with every option spelled out.
    fn same(p: &Pipeline, expected: &str) {
        let expected = Pipeline::parse(expected).map(|e| e.to_string());
        assert_eq!(Ok(p.to_string()), expected.map_err(|e| e.message));
    }

    #[test]
    fn orderings_parse() {
        assert_eq!("all".parse(), Ok(Orderings::All));
        assert_eq!("random:7".parse(), Ok(Orderings::Random(7)));
        for bad in ["random:0", "random:x", "some"] {
            assert!(bad.parse::<Orderings>().is_err(), "{bad}");
        }
    }

    #[test]
    fn counts_and_enumeration_agree() {
        for n in 0..5 {
            for subsets in [false, true] {
                let all = all(n, subsets);
                assert_eq!(all.len(), count(n, subsets), "n={n} subsets={subsets}");
                let mut dedup = all.clone();
                dedup.sort();
                dedup.dedup();
                assert_eq!(dedup.len(), all.len());
            }
        }
        assert_eq!(count(3, false), 6);
        assert_eq!(count(3, true), 1 + 3 + 6 + 6);
        assert_eq!(all(2, true), vec![vec![], vec![0], vec![1], vec![0, 1], vec![1, 0]]);
        assert_eq!(count(30, false), usize::MAX);
    }

    #[test]
    fn random_orderings_are_distinct_and_seeded() {
        let a = random(4, false, 10, 1);
        assert_eq!(a.len(), 10);
        assert!(a.iter().all(|p| p.len() == 4));
        assert_eq!(a, random(4, false, 10, 1));
        assert_ne!(a, random(4, false, 10, 2));
        // Asking for more than there are gives all of them.
        assert_eq!(random(2, false, 10, 1).len(), 2);
        assert_eq!(random(2, true, 10, 1).len(), 5);
    }

    #[test]
    fn splice_removes_every_occurrence_and_inserts_at_the_first() {
        futmlir_codegen::register_passes();
        let base =
            Pipeline::parse("soac-inline,soac-simplify,soac-fuse,soac-simplify,soac-unstream{nested=true},ir-dce")
                .unwrap();
        let moved = moved_passes("soac-fuse,soac-unstream", &base).unwrap();
        same(
            &splice(&base, &moved, &[1, 0]),
            "soac-inline,soac-simplify,soac-unstream{nested=true},soac-fuse,soac-simplify,ir-dce",
        );
        same(
            &splice(&base, &moved, &[]),
            "soac-inline,soac-simplify,soac-simplify,ir-dce",
        );
        let moved = moved_passes("soac-simplify,soac-unstream{nested=false}", &base).unwrap();
        same(
            &splice(&base, &moved, &[0, 1]),
            "soac-inline,soac-simplify,soac-unstream{nested=false},soac-fuse,ir-dce",
        );
        let error = |spec: &str| moved_passes(spec, &base).err().unwrap_or_default();
        let e = error("soac-fusee");
        assert!(e.contains("unknown pass 'soac-fusee'"), "{e}");
        assert!(error("").contains("names no pass"));
        assert!(error("builtin.module(ir-dce)").contains("not nested pipelines"));
    }
}
