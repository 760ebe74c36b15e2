//! `skill keygen NAME`: a minisign key pair for signing archives.

use super::CliError;
use skill_archive::signature::{Protection, keygen};
use std::path::PathBuf;
use std::process::ExitCode;

/// The variable a password for signing keys is read from, where no one can type one.
pub(crate) const PASSWORD_VAR: &str = "SKILL_SIGNING_PASSWORD";

/// Arguments of `skill keygen`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill keygen alice                  writes alice.key (secret, 0600) and alice.pub\n  skill keygen ci --no-password       an unencrypted key for CI\n  SKILL_SIGNING_PASSWORD=... skill keygen alice\n\nThe files are minisign's: `minisign -Vm x.skill -p alice.pub` checks what `skill pack --sign alice.key` signed."
)]
pub(crate) struct Args {
    /// The key pair's path without extension: NAME.key and NAME.pub are written.
    pub(crate) name: PathBuf,
    /// Do not encrypt the secret key (for CI).
    #[arg(long)]
    pub(crate) no_password: bool,
}

/// Writes the key pair and prints the key id and both paths.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let protection = if args.no_password {
        Protection::None
    } else {
        match std::env::var(PASSWORD_VAR) {
            Ok(password) if !password.is_empty() => Protection::Password(password),
            _ => Protection::Prompt,
        }
    };
    let id = keygen(&args.name, protection)?;
    println!("key id {id}");
    println!("secret key {}", args.name.with_extension("key").display());
    println!("public key {}", args.name.with_extension("pub").display());
    Ok(ExitCode::SUCCESS)
}

/// The password for an encrypted signing key: the variable, else `None` (asked for on the
/// terminal when the key needs one).
pub(crate) fn password() -> Option<String> {
    std::env::var(PASSWORD_VAR).ok().filter(|p| !p.is_empty())
}
