//! `futmlir-check DIR [-v]`: runs the cases of a bundle that `futmlir test
//! --backend=cuda --bundle DIR` wrote (see `driver/src/bundle.rs` and
//! this crate's library, which does the work). Prints one line per
//! failing case (every case with `-v`), then `N passed, N failed, N
//! skipped`; exits 1 if a case failed, 2 if the bundle cannot be read.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let Some(dir) = args.iter().find(|a| !a.starts_with('-')) else {
        eprintln!("usage: futmlir-check DIR [-v]");
        return ExitCode::from(2);
    };
    match futmlir_checker::check_bundle(Path::new(dir), verbose, &mut std::io::stdout().lock()) {
        Ok(sum) if sum.failed > 0 => ExitCode::FAILURE,
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
