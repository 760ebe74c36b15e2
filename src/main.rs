use clap::Parser;
use skill::cli::{Cli, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            anstream::eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
