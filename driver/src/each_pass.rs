//! `futmlir test --each-pass`: the program's cases run once per pass of
//! the compile pipeline, on the IR after that pass finished by the
//! conversions alone (Note [Checking each pass]).

use futmlir_passes::pipeline::Element;
use futmlir_passes::{pipelines, Level, Pipeline};

use crate::passflags::PassFlags;

// Note [Checking each pass]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// The soac passes are checked by the soac interpreter, before and after
// (driver/tests/soac_passes.rs), but an interpreter of values cannot
// check the passes that place arrays in memory: a block reused while it
// is still live gives the same values there. So every pass is checked
// by compiled runs instead. Position k of a pipeline of n passes (k = 0
// the internalised program, k = n the last pass at an IR level) is the
// IR after its first k passes, finished into an executable by the
// conversions from that IR's level and nothing else:
//
//   soac:        soac-inline and soac-unstream (with the pipeline's own
//                options, if it has them: streams that fusion made must
//                become parallel SOACs before kernel extraction),
//                soac-partition, soac-to-segop, then as segop
//   segop, mem:  segop-to-imp{target=T}, then as imp
//   imp:         the pipeline's own passes below imp (imp-to-mlir ...)
//
// Positions k-1 and k then differ in pass k alone (or in pass k and the
// conversions a level change skips, when pass k is a conversion), so a
// case that passes at k-1 and fails at k convicts pass k, and a pass
// whose mistakes a later pass hides or repairs is caught all the same.
// No optimisation runs in a finishing: a position must not pass because
// a later pass cleaned up after the one under test. (Leaving out
// `imp-carried-memory` leaks the blocks of loops, which is slower but
// right; the test cases are small.)
//
// On the CPU the cases run here; `--backend=cuda --bundle DIR` writes
// one bundle per position, `DIR/kNN-PASS`, for futmlir-check.

/// One position of [`positions`]: the passes run before it and the
/// pipeline that builds it.
pub(crate) struct Position {
    /// How many passes of the pipeline ran (0: none).
    pub index: usize,
    /// The last of them (`input` for none).
    pub pass: String,
    /// The level of the IR there.
    pub level: Level,
    /// The whole pipeline: the passes that ran and the finishing.
    pub pipeline: String,
}

impl Position {
    /// `k3 soac-fuse (soac)`.
    pub fn label(&self) -> String {
        format!("k{} {} ({})", self.index, self.pass, self.level.name())
    }

    /// The name of its bundle folder (`k03-soac-fuse`).
    pub fn folder(&self) -> String {
        format!("k{:02}-{}", self.index, self.pass)
    }
}

/// The positions of the compile pipeline that `flags` and `gpu` give
/// (Note [Checking each pass]): one before every pass at an IR level and
/// one after the last of them. `shared_runtime`: the default pipeline
/// links the runtime's shared library (a bundle's executables).
pub(crate) fn positions(flags: &PassFlags, gpu: Option<&str>, shared_runtime: bool) -> Result<Vec<Position>, String> {
    let text = flags
        .pass_pipeline
        .clone()
        .unwrap_or_else(|| pipelines::compile(gpu, shared_runtime));
    let pipeline = Pipeline::parse(&text).map_err(|e| format!("{:?}", e.to_report(&text)))?;
    let target = if gpu.is_some() { "cuda" } else { "cpu" };
    let name = |e: &Element| match e {
        Element::Pass { info, .. } => info.name.to_string(),
        Element::Nested { anchor, .. } => anchor.clone(),
    };
    // The elements above imp and their levels; the rest is the finishing
    // below imp.
    let mut levels = vec![Level::Soac];
    let mut above = Vec::new();
    for e in &pipeline.elements {
        let one = Pipeline {
            elements: vec![e.clone()],
        };
        let after = one
            .check_levels(&levels)
            .map_err(|e| format!("{:?}", e.to_report(&text)))?;
        if !after.iter().all(|l| l.is_ir()) {
            break;
        }
        above.push((e.clone(), after.clone()));
        levels = after;
    }
    let below = Pipeline {
        elements: pipeline.elements[above.len()..].to_vec(),
    };
    if below.is_empty() {
        return Err("--each-pass needs a pipeline that goes down to an executable".to_string());
    }
    // The pipeline's own `soac-inline` and `soac-unstream` (with their
    // options), or the defaults.
    let own = |pass: &str| {
        pipeline
            .elements
            .iter()
            .find(|e| name(e) == pass)
            .map(|e| {
                Pipeline {
                    elements: vec![e.clone()],
                }
                .to_string()
            })
            .unwrap_or_else(|| pass.to_string())
    };
    let (inline, unstream) = (own("soac-inline"), own("soac-unstream"));
    let finishing = |level: Level| -> Result<String, String> {
        let to_imp = format!("segop-to-imp{{target={target}}},{below}");
        Ok(match level {
            Level::Soac => format!("{inline},{unstream},soac-partition,soac-to-segop,{to_imp}"),
            Level::Segop | Level::Mem => to_imp,
            Level::Imp => below.to_string(),
            l => return Err(format!("--each-pass cannot finish IR at the {} level", l.name())),
        })
    };
    let mut out = Vec::new();
    for k in 0..=above.len() {
        let level_set = if k == 0 { &vec![Level::Soac] } else { &above[k - 1].1 };
        let [level] = level_set[..] else {
            return Err(format!(
                "--each-pass: the IR after pass {k} may be at several levels ({})",
                level_set.iter().map(|l| l.name()).collect::<Vec<_>>().join(", ")
            ));
        };
        let done = Pipeline {
            elements: above[..k].iter().map(|(e, _)| e.clone()).collect(),
        };
        let rest = finishing(level)?;
        out.push(Position {
            index: k,
            pass: if k == 0 {
                "input".to_string()
            } else {
                name(&above[k - 1].0)
            },
            level,
            pipeline: if done.is_empty() {
                rest
            } else {
                format!("{done},{rest}")
            },
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(pipeline: Option<&str>) -> PassFlags {
        futmlir_codegen::register_passes();
        PassFlags {
            pass_pipeline: pipeline.map(str::to_string),
            ..PassFlags::default()
        }
    }

    #[test]
    fn every_pass_above_imp_is_a_position_finished_by_conversions() {
        let ps = positions(&flags(None), None, false).unwrap();
        let full = Pipeline::parse(&pipelines::compile(None, false)).unwrap();
        let above = full
            .elements
            .iter()
            .take_while(|e| !matches!(e, Element::Pass { info, .. } if info.below_imp()))
            .count();
        assert_eq!(ps.len(), above + 1);
        assert_eq!(ps[0].pass, "input");
        assert!(ps[0].pipeline.starts_with("soac-inline{"), "{}", ps[0].pipeline);
        assert!(
            ps[0]
                .pipeline
                .contains("soac-unstream{nested=true},soac-partition,soac-to-segop"),
            "{}",
            ps[0].pipeline
        );
        let last = ps.last().unwrap();
        assert_eq!((last.pass.as_str(), last.level), ("imp-free-early", Level::Imp));
        assert!(last.pipeline.ends_with("imp-free-early,imp-to-mlir{target=cpu},mlir-to-llvm{pipeline=\"builtin.module(arith-expand,convert-math-to-llvm,convert-math-to-libm,convert-scf-to-cf,convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)\"},llvm-to-object,object-to-exe{shared-runtime=false}"), "{}", last.pipeline);
        // Each position's pipeline passes the level check and its IR part
        // starts with the previous position's passes.
        for p in &ps {
            let pl = Pipeline::parse(&p.pipeline).unwrap();
            pl.check_levels(&[Level::Soac]).unwrap();
        }
        let reuse = ps.iter().find(|p| p.pass == "mem-reuse").unwrap();
        assert_eq!(reuse.level, Level::Mem);
        assert!(
            reuse
                .pipeline
                .contains("mem-reuse,segop-to-imp{target=cpu},imp-to-mlir"),
            "{}",
            reuse.pipeline
        );
        assert_eq!(reuse.folder(), format!("k{:02}-mem-reuse", reuse.index));
    }

    #[test]
    fn a_cuda_pipeline_finishes_for_cuda() {
        let ps = positions(&flags(None), Some("sm_90"), true).unwrap();
        let seg = ps.iter().find(|p| p.level == Level::Segop).unwrap();
        assert!(seg.pipeline.contains("segop-to-imp{target=cuda}"), "{}", seg.pipeline);
        assert!(seg.pipeline.contains("mlir-to-ptx{chip=sm_90}"), "{}", seg.pipeline);
        // A bundle's executables link the runtime's shared library.
        assert!(
            seg.pipeline.ends_with("object-to-exe{shared-runtime=true}"),
            "{}",
            seg.pipeline
        );
        // The GPU pipeline's own inlining options finish the soac level.
        assert!(
            ps[0]
                .pipeline
                .starts_with("soac-inline{remove-dead=true kernel-allocs=false}"),
            "{}",
            ps[0].pipeline
        );
    }

    #[test]
    fn a_pipeline_that_stops_above_the_executable_is_refused() {
        let e = positions(&flags(Some("soac-inline,soac-to-segop")), None, false)
            .err()
            .unwrap();
        assert!(e.contains("down to an executable"), "{e}");
    }
}
