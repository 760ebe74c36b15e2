use clap::Parser;
use skill::cli::Cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Like other Unix filters, stop quietly when the reader of our output goes away
    // (`skill summary | head`) instead of failing on a broken pipe.
    // SAFETY: restoring the default disposition of one signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    skill::cli::main(Cli::parse())
}
