//! `skill login`, `skill logout`, `skill whoami`.

use super::CliError;
use skill_registry::client::Client;
use skill_registry::credentials::{self, Credentials};
use std::process::ExitCode;

/// Arguments of `skill login`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  skill login --token skl_... --registry http://127.0.0.1:8787")]
pub(crate) struct LoginArgs {
    /// An API token (create one with `skill registry token create`, or on ClawHub).
    #[arg(long)]
    pub(crate) token: String,
    /// The registry [default: $SKILL_REGISTRY, $CLAWHUB_REGISTRY, the last one logged in to, or ClawHub]
    #[arg(long)]
    pub(crate) registry: Option<String>,
}

/// Arguments of `skill whoami` and `skill logout`.
#[derive(Debug, clap::Args)]
pub(crate) struct RegistryArg {
    /// The registry [default: $SKILL_REGISTRY, $CLAWHUB_REGISTRY, the last one logged in to, or ClawHub]
    #[arg(long)]
    pub(crate) registry: Option<String>,
}

/// Checks the token with whoami, then stores it (mode 0600).
pub(crate) fn login(args: LoginArgs) -> Result<ExitCode, CliError> {
    let registry = super::registry_url(args.registry.as_deref());
    let handle = Client::new(&registry, Some(args.token.clone())).whoami()?;
    credentials::save(&Credentials {
        registry: Some(registry.clone()),
        token: Some(args.token),
    })?;
    println!("Logged in to {registry} as @{handle}");
    Ok(ExitCode::SUCCESS)
}

/// Forgets the stored token (it stays valid on the server).
pub(crate) fn logout(args: RegistryArg) -> Result<ExitCode, CliError> {
    let mut stored = credentials::load();
    // The stored token is for one registry; naming another one logs out of nothing.
    if let (Some(asked), Some(current)) = (&args.registry, &stored.registry)
        && asked.trim_end_matches('/') != current.trim_end_matches('/')
    {
        return Err(CliError::NotLoggedIn(
            asked.trim_end_matches('/').to_owned(),
        ));
    }
    let checked = match (&stored.token, &stored.registry) {
        (Some(token), Some(registry)) => Some((
            registry.clone(),
            Client::new(registry, Some(token.clone())).whoami(),
        )),
        _ => None,
    };
    stored.token = None;
    credentials::save(&stored)?;
    match checked {
        None => println!("Logged out (no token was stored)"),
        Some((registry, Ok(handle))) => println!(
            "Logged out of {registry} (@{handle}). The token still works: it is only gone from \
             this machine; if it may have leaked, have it revoked (skill registry token revoke)"
        ),
        Some((registry, Err(skill_registry::client::ClientError::Http { status: 401, .. }))) => {
            println!("Logged out of {registry}; the registry no longer accepted the token")
        }
        Some((registry, Err(e))) => {
            println!("Logged out of {registry}; the token could not be checked: {e}")
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the handle the token belongs to.
pub(crate) fn whoami(args: RegistryArg) -> Result<ExitCode, CliError> {
    let registry = super::registry_url(args.registry.as_deref());
    let token = credentials::token(&registry).ok_or(CliError::NotLoggedIn(registry.clone()))?;
    println!("@{}", Client::new(&registry, Some(token)).whoami()?);
    Ok(ExitCode::SUCCESS)
}
