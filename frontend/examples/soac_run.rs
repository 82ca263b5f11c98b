//! Run an entry point of a program on the soac interpreter
//! (`futmlir_dialects::interp`, over the internalised IR), reading the
//! arguments from stdin:
//! `cargo run -p futmlir-frontend --example soac_run FILE [ENTRY] < INPUT`.
//! It lives here rather than beside the interpreter because it needs the
//! frontend to check and internalise the program.
use std::io::Read;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("a .fut file");
    let entry = args.next().unwrap_or_else(|| "main".into());
    let text = std::fs::read_to_string(&path).expect("readable");
    let mut sm = futmlir_frontend::span::SourceMap::default();
    let file = sm.add(path.clone(), text);
    let checked = match futmlir_frontend::check::check_file(&mut sm, file) {
        Ok(c) => c,
        Err(ds) => {
            for d in ds {
                eprintln!("{}", d.to_plain(&sm));
            }
            std::process::exit(1);
        }
    };
    let mut ctx = futmlir_dialects::context();
    let module = match futmlir_frontend::internalise::internalise(&checked, &sm, &mut ctx) {
        Ok(m) => m,
        Err(d) => {
            eprintln!("{}", d.to_plain(&sm));
            std::process::exit(1);
        }
    };
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("readable stdin");
    let values = futmlir_frontend::values::read_values(&input).unwrap_or_else(|e| {
        eprintln!("bad input: {e}");
        std::process::exit(1);
    });
    match futmlir_dialects::interp::run_func(&ctx, module, &entry, values) {
        Ok(vs) => print!("{}", futmlir_frontend::values::values_to_text(&vs)),
        Err(e) => {
            eprintln!("{}", e.render());
            std::process::exit(1);
        }
    }
}
