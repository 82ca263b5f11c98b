//! `structure` blocks of `futmlir test`: the count of ops of each kind in a
//! program's IR part way through the pipeline `futmlir build` runs
//! (`futmlir_passes::pipelines::compile`; Note [Where structure blocks
//! count]).
//!
//! A block lists `NAME COUNT` (ops of that kind at any depth) or
//! `/OUTER/INNER COUNT` pairs (a path from the top). A name is a
//! soac op in CamelCase or as written (`Map`, `StreamSeq`, `soac.map`), or
//! one of the reference compiler's names: `Screma` (any of map, reduce,
//! scan, redomap, scanomap, screma, scatter: Futhark's IR has no scatter SOAC of
//! its own, a scatter is a `Screma` whose map results are written to the
//! indices it computes), `Stream` (stream_seq, stream_par), `WithAcc`
//! (scatter_stream, hist_stream: Futhark's accumulators), `DoLoop`,
//! `Match`, and `Manifest` (a `soac.copy` of a `soac.rearrange`: Futhark's
//! `manifest` is a copy of an array in a rearranged layout, which futmlir
//! writes as those two ops until the segop level's `manifest`). A path `/A/B` counts the `B` ops whose enclosing ops that
//! match a name of the path are exactly `A`, outermost first: `/Screma/Screma
//! 1` is one SOAC directly inside another (other ops, such as `if`, may sit
//! in between). Without the leading slash the path need not start at the
//! top: `SegRed/Apply 1` counts the applies whose nearest enclosing op of
//! the path is a segred. `structure` and `structure soac` name the soac level;
//! `structure gpu` (or `segop`) counts after kernel extraction (the CUDA
//! pipeline up to the segop level), where the names are segop ops
//! (`SegMap`, `SegRed`, `SegScan`, `SegHist`) as well as soac ones.

use std::path::Path;
use std::sync::Arc;

// Note [Where structure blocks count]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A `structure` (soac) block counts after the first stage of the default
// pipeline, `pipelines::SOAC`: inlining, simplification and fusion. That
// is where the reference compiler's own structure tests count (after its
// fusion), before the soac passes that only prepare kernel extraction
// (`soac-unstream` turns the streams the tests count into loops and
// maps), so it is earlier than `futmlir build --emit=soac`, which prints
// the soac IR at its last. A `structure gpu` block counts where `futmlir
// build --target=cuda --emit=segop` prints: the CUDA pipeline cut at the
// segop level.

use futmlir_dialects::ir::{Context, OpId};
use futmlir_frontend::testspec::Structure;
use futmlir_passes::egraph::RuleBook;
use futmlir_passes::{pipelines, Instrumentation, Level, PassManager, Pipeline};

/// The result of one block: `Ok(None)` when it holds, `Ok(Some(why))`
/// when it is skipped, `Err` with the mismatches.
pub fn check(path: &Path, s: &Structure) -> Result<Option<String>, String> {
    // Prefixes of the pipelines `futmlir build` runs (Note [Where
    // structure blocks count]).
    let pipeline = match s.backend.as_deref() {
        None | Some("soac") => Pipeline::parse(pipelines::SOAC).map_err(|e| e.message)?,
        Some("gpu" | "segop") => Pipeline::parse(&pipelines::compile(Some(pipelines::DEFAULT_CHIP), false))
            .map_err(|e| e.message)?
            .up_to_level(&[Level::Soac], Level::Segop)
            .ok_or("the CUDA pipeline never gives segop IR")?,
        Some(level) => {
            return Ok(Some(format!(
                "structure {level}: only the soac and gpu (segop) levels exist so far"
            )))
        }
    };
    let pipeline_text = pipeline.to_string();
    let expected = parse(&s.text)?;
    let (sm, checked) = crate::run::load_plain(path).map_err(|e| format!("compilation failed:\n{e}"))?;
    let mut ctx = futmlir_dialects::context();
    let module = futmlir_frontend::internalise::internalise(&checked, &sm, &mut ctx)
        .map_err(|d| format!("compilation failed:\n{}", d.to_plain(&sm)))?;
    let rules = RuleBook::load(None).map_err(|e| format!("{e:?}"))?;
    PassManager::new(pipeline, Instrumentation::default(), Arc::new(rules))
        .run(&mut ctx, module)
        .map_err(|ds| format!("the pipeline `{pipeline_text}` failed: {}", ds[0].message))?;
    let mut wrong = Vec::new();
    for c in &expected {
        let found = count(&ctx, module, c);
        if found != c.count {
            wrong.push(format!("expected {} {}, found {found}", c.count, show(c)));
        }
    }
    if wrong.is_empty() {
        Ok(None)
    } else {
        Err(format!("structure: {}", wrong.join("; ")))
    }
}

fn show(c: &Counted) -> String {
    let slash = if c.anchored { "/" } else { "" };
    format!("{slash}{}", c.path.join("/"))
}

/// What a block's line counts: the ops of kind `path.last()`, anywhere
/// (`anchored` false) or at that path from the top.
#[derive(Debug, PartialEq)]
struct Counted {
    path: Vec<String>,
    anchored: bool,
    count: usize,
}

/// `NAME COUNT` pairs; a name with slashes is a path.
fn parse(text: &str) -> Result<Vec<Counted>, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if !words.len().is_multiple_of(2) {
        return Err(format!(
            "malformed structure block: expected pairs of an op name and a count, found `{}`",
            text.trim()
        ));
    }
    words
        .chunks(2)
        .map(|w| {
            let n = w[1].parse::<usize>().map_err(|_| {
                format!(
                    "malformed structure block: expected a count after `{}`, found `{}`",
                    w[0], w[1]
                )
            })?;
            let path: Vec<String> = w[0].split('/').filter(|p| !p.is_empty()).map(str::to_string).collect();
            if path.is_empty() {
                return Err(format!("malformed structure block: `{}` names no op", w[0]));
            }
            Ok(Counted {
                anchored: w[0].starts_with('/'),
                path,
                count: n,
            })
        })
        .collect()
}

/// Whether the op named `op` (`soac.map`) is one that `name` names.
fn matches(name: &str, op: &str) -> bool {
    let Some(kind) = op.strip_prefix("soac.").or_else(|| op.strip_prefix("segop.")) else {
        return false;
    };
    if name == op {
        return true;
    }
    let norm = |s: &str| s.to_ascii_lowercase().replace('_', "");
    match norm(name).as_str() {
        "screma" => matches!(
            kind,
            "map" | "reduce" | "scan" | "redomap" | "scanomap" | "screma" | "scatter"
        ),
        "stream" => matches!(kind, "stream_seq" | "stream_par"),
        "withacc" => matches!(kind, "scatter_stream" | "hist_stream"),
        "doloop" => kind == "loop",
        "match" => kind == "if",
        n => n == norm(kind),
    }
}

/// Whether `name` names the op `o`: by its op name, or, for `Manifest`, a
/// copy of a rearranged array (see the module doc).
fn matches_op(ctx: &Context, name: &str, o: OpId) -> bool {
    let op = ctx.op_name(o);
    if matches(name, op) {
        return true;
    }
    name.eq_ignore_ascii_case("manifest")
        && op == "soac.copy"
        && ctx
            .defining_op(ctx.operand(o, 0))
            .is_some_and(|d| ctx.op_name(d) == "soac.rearrange")
}

/// Whether `o` is a parallel op (a SOAC or a segop): one always counts
/// in a path, so `/Apply` is a call outside every kernel and SOAC.
fn is_parallel(ctx: &Context, o: OpId) -> bool {
    let op = ctx.op_name(o);
    op.starts_with("segop.seg")
        || ["Screma", "Stream", "WithAcc", "hist", "filter", "partition"]
            .iter()
            .any(|n| matches(n, op))
}

/// The kernels (segops: `segmap`, `segred`, `segscan`, `seghist`) and the
/// SOACs (`Screma`s, streams, `hist`, `filter`, `partition`) in a
/// module, at any depth: what `futmlir explore` reports after kernel
/// extraction, where a SOAC left is one that runs sequentially (inside a
/// kernel, or on the host).
pub fn kernels_and_soacs(ctx: &Context, module: OpId) -> (usize, usize) {
    let (mut kernels, mut soacs) = (0, 0);
    ctx.walk(module, &mut |o| {
        if ctx.op_name(o).starts_with("segop.seg") {
            kernels += 1;
        } else if is_parallel(ctx, o) {
            soacs += 1;
        }
    });
    (kernels, soacs)
}

/// The ops matching the last name of the path; for an anchored path, only
/// those whose enclosing ops that match a name of the path are the rest of
/// it, outermost first; for an unanchored one, those whose innermost such
/// enclosing ops are the rest of it.
fn count(ctx: &Context, module: OpId, c: &Counted) -> usize {
    let path = &c.path;
    let (last, outer) = path.split_last().expect("parse gives non-empty paths");
    let mut n = 0;
    ctx.walk(module, &mut |o| {
        if !matches_op(ctx, last, o) {
            return;
        }
        if !c.anchored && outer.is_empty() {
            n += 1;
            return;
        }
        let mut chain = Vec::new();
        let mut cur = ctx.parent_op(o);
        while let Some(p) = cur {
            if path.iter().any(|name| matches_op(ctx, name, p)) || is_parallel(ctx, p) {
                chain.push(p);
            }
            cur = ctx.parent_op(p);
        }
        chain.reverse();
        // An anchored path names the whole chain; an unanchored one its
        // innermost ops (`SegRed/Apply`: an apply whose nearest enclosing
        // op of the path is a segred).
        let tail = if c.anchored {
            &chain[..]
        } else {
            &chain[chain.len().saturating_sub(outer.len())..]
        };
        if tail.len() == outer.len() && tail.iter().zip(outer).all(|(&p, name)| matches_op(ctx, name, p)) {
            n += 1;
        }
    });
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_ops_in_both_spellings() {
        assert!(matches("Screma", "soac.redomap"));
        assert!(matches("Map", "soac.map"));
        assert!(matches("StreamSeq", "soac.stream_seq"));
        assert!(matches("Stream", "soac.stream_par"));
        assert!(matches("soac.map", "soac.map"));
        assert!(matches("BinOp", "soac.binop"));
        assert!(matches("DoLoop", "soac.loop"));
        assert!(!matches("Map", "soac.reduce"));
        assert!(matches("Screma", "soac.scatter"));
        assert!(!matches("Screma", "soac.hist"));
    }

    #[test]
    fn blocks_parse_into_paths_and_counts() {
        let names = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            parse("Screma 1 /Screma/Map 2").unwrap(),
            vec![
                Counted {
                    path: names(&["Screma"]),
                    anchored: false,
                    count: 1
                },
                Counted {
                    path: names(&["Screma", "Map"]),
                    anchored: true,
                    count: 2
                }
            ]
        );
        assert!(parse("Screma").unwrap_err().contains("pairs"));
        assert!(parse("Screma one")
            .unwrap_err()
            .contains("expected a count after `Screma`"));
        assert!(parse("/ 1").unwrap_err().contains("names no op"));
    }
}
