fn main() -> std::process::ExitCode {
    sudoku_bench::main()
}
