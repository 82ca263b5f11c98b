//! Print the internalised IR of a program: `cargo run -p futmlir-frontend --example internalise FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("a .fut file");
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
    match futmlir_frontend::internalise::internalise(&checked, &sm, &mut ctx) {
        Ok(m) => {
            print!("{}", ctx.print_op(m, Default::default()));
            if let Err(ds) = ctx.verify(m) {
                for d in ds {
                    eprintln!("{}", d.to_plain(&ctx));
                }
            }
        }
        Err(d) => eprintln!("{}", d.to_plain(&sm)),
    }
}
