//! The default pipelines, spelled out top to bottom. Each is pipeline text
//! (`futmlir opt --pass-pipeline=...` takes the same), so a researcher can
//! copy one, reorder it and run it.

/// The soac level, after internalisation:
///
/// 1. `soac-inline` first: the internaliser makes a `soac.func` of every
///    first-order function it calls; inlining them (thesis 5.1) gives the
///    later passes whole entry points to simplify and (later) fuse across
///    calls.
/// 2. `soac-rewrite`: the rule files' schedules (simplification with
///    constant folding) on the inlined code, where arguments became
///    constants and identities show.
/// 3. `ir-cse` after the rewrites, which make equal terms out of unequal
///    ones (`x*1` and `x`).
/// 4. `ir-dce`: the rewrites and CSE leave dead ops behind (a dead use
///    of a SOAC's result would keep it from fusing).
/// 5. `soac-fuse`: vertical and horizontal fusion with the fusion rules
///    (thesis ch. 7), on code with no calls and no dead ops.
/// 6. `ir-cse` and `ir-dce` again: fused lambdas repeat constants and
///    may compute values only the other SOAC used.
pub const SOAC: &str = "soac-inline,soac-rewrite,ir-cse,ir-dce,soac-fuse,ir-cse,ir-dce";

#[cfg(test)]
mod tests {
    use crate::Pipeline;

    #[test]
    fn the_default_pipelines_parse() {
        let p = Pipeline::parse(super::SOAC).expect("the soac pipeline parses");
        assert_eq!(p.to_string().matches("soac-").count(), 3);
    }
}
