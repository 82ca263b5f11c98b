//! The one registry of passes. Each pass lives in its own file under a
//! folder named after the dialect it works on.

use crate::pass::PassInfo;

/// Every pass futmlir has, in the order `--list-passes` shows them.
pub fn all_passes() -> &'static [PassInfo] {
    static PASSES: &[PassInfo] = &[
        crate::ir::cse::INFO,
        crate::ir::dce::INFO,
        crate::ir::op_stats::INFO,
        crate::ir::strip_locations::INFO,
        crate::soac::inline::INFO,
        crate::soac::rewrite::INFO,
        crate::soac::simplify::INFO,
        crate::soac::fuse::INFO,
        crate::soac::unstream::INFO,
    ];
    PASSES
}

pub fn lookup(name: &str) -> Option<&'static PassInfo> {
    all_passes().iter().find(|p| p.name == name)
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
