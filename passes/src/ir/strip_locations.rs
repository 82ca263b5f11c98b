//! `ir-strip-locations`: replace every op's location by the unknown location.

use futmlir_dialects::ir::{Context, Diagnostic, Location, OpId};

use crate::pass::{Level, Options, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "ir-strip-locations",
    description: "Forget source locations (smaller dumps; diagnostics lose their spans)",
    options: &[],
    reads: Level::ALL,
    writes: None,
    create: &|_: &Options, _| Box::new(StripLocations),
};

struct StripLocations;

impl Pass for StripLocations {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        let mut all = vec![op];
        ctx.walk(op, &mut |o| all.push(o));
        for o in all {
            ctx.set_location(o, Location::Unknown);
        }
        Ok(())
    }
}
