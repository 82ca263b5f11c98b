//! The one registry of passes. Each pass lives in its own file under a
//! folder named after the dialect it works on. Crates that build on this
//! one (the conversions of `futmlir-lowering`, a user's plugin) add their
//! passes with [`register`] before parsing pipelines.

use std::sync::RwLock;

use crate::pass::PassInfo;

/// The passes of this crate, in the order `--list-passes` shows them.
static BUILT_IN: &[PassInfo] = &[
    crate::ir::cse::INFO,
    crate::ir::dce::INFO,
    crate::ir::op_stats::INFO,
    crate::ir::strip_locations::INFO,
    crate::soac::inline::INFO,
    crate::soac::jvp::INFO,
    crate::soac::vjp::INFO,
    crate::soac::rewrite::INFO,
    crate::soac::simplify::INFO,
    crate::soac::fuse::INFO,
    crate::soac::unstream::INFO,
    crate::soac::partition::INFO,
    crate::segop::locality::INFO,
    crate::segop::tile::INFO,
    crate::segop::coalesce::INFO,
    crate::mem::reuse::INFO,
    crate::mem::short_circuit::INFO,
    crate::mem::expand::INFO,
    crate::imp::carried::INFO,
    crate::imp::free_early::INFO,
];

/// Passes other crates registered.
static REGISTERED: RwLock<Vec<&'static PassInfo>> = RwLock::new(Vec::new());

/// Adds `passes` to the registry (a pass whose name is already there is
/// not added again).
pub fn register(passes: &'static [PassInfo]) {
    let mut r = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    for p in passes {
        if lookup_in(BUILT_IN.iter().chain(r.iter().copied()), p.name).is_none() {
            r.push(p);
        }
    }
}

/// Every pass: this crate's, then the registered ones.
pub fn all_passes() -> Vec<&'static PassInfo> {
    let r = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    BUILT_IN.iter().chain(r.iter().copied()).collect()
}

fn lookup_in<'a>(mut ps: impl Iterator<Item = &'a PassInfo>, name: &str) -> Option<&'a PassInfo> {
    ps.find(|p| p.name == name)
}

pub fn lookup(name: &str) -> Option<&'static PassInfo> {
    lookup_in(all_passes().into_iter(), name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::Options;

    #[test]
    fn names_are_kebab_case_and_defaults_parse() {
        for p in all_passes() {
            assert!(
                p.name.split('-').count() >= 2,
                "{} must be prefixed by its dialect",
                p.name
            );
            assert!(p
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit()));
            let _ = Options::defaults(p.options);
        }
    }
}
