fn main() {
    println!("{}", futmlir_lowering::versions());
}
