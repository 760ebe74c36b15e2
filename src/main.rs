use clap::Parser;
use skill::cli::{Cli, print_error, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    // Like other Unix filters, stop quietly when the reader of our output goes away
    // (`skill summary | head`) instead of failing on a broken pipe.
    // SAFETY: restoring the default disposition of one signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            print_error(&error);
            ExitCode::from(2)
        }
    }
}
