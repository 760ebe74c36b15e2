//! What the user can do about an error, in the command line's words. The library's errors say
//! what went wrong and keep their causes; only this layer knows the flags, settings and commands
//! that answer them (uv's hints), so a library message never names a flag.

use super::CliError;
use skill_agent::eval::EvalError;
use skill_agent::eval::impact::ImpactError;
use skill_agent::provider::ModelError;
use skill_archive::install::InstallError;
use skill_archive::pack::PackError;
use skill_archive::select::SelectError;
use skill_archive::signature::{CheckFileError, SignatureError};
use skill_registry::client::ClientError;
use skill_registry::install::RegistryInstallError;
use skill_registry::publish::PublishError;
use skill_registry::store::StoreError;

/// The hint printed under `error`, if the command line has one.
pub(crate) fn of(error: &CliError) -> Option<String> {
    use skill_registry::mirror::MirrorError;
    match error {
        CliError::Install(e) | CliError::RegistryInstall(RegistryInstallError::Install(e)) => {
            install(e)
        }
        CliError::Shared(crate::shared_install::SharedError::Install(e)) => install(e),
        CliError::RegistryInstall(e) => registry_install(e),
        CliError::Pack(e) => pack(e),
        CliError::Plugin(skill_archive::plugin::PluginError::NoOwner) => {
            Some("name the marketplace's owner with --owner".to_owned())
        }
        CliError::Plugin(skill_archive::plugin::PluginError::Pack(e)) => pack(e),
        CliError::Signature(e)
        | CliError::SignedArchive(CheckFileError::Signature(e))
        | CliError::Shared(crate::shared_install::SharedError::Signature(e)) => signature(e),
        CliError::Client(e) | CliError::Mirror(MirrorError::Source(e)) => client(e),
        CliError::Publish(e) => publish(e),
        CliError::Agent(skill_agent::AgentError::Model(e)) => model(e),
        CliError::Agent(skill_agent::AgentError::Install(e)) => install(e),
        CliError::Review { source, .. } => review(source),
        CliError::Baseline(skill_lint::baseline::BaselineError::Read { path, .. }) => Some(
            format!("create it with `skill lint --write-baseline {}`", path.display()),
        ),
        CliError::Baseline(skill_lint::baseline::BaselineError::Version { .. }) => {
            Some("write it again with --write-baseline".to_owned())
        }
        CliError::Eval(EvalError::NoTriggers(_)) => Some(
            "write one with queries that should and should not trigger the skill (see `skill eval --help`)"
                .to_owned(),
        ),
        CliError::Impact(e) => impact(e),
        CliError::Store(e) => store(e),
        _ => None,
    }
}

fn store(error: &StoreError) -> Option<String> {
    match error {
        StoreError::NoUser(handle) => {
            Some(format!("create it with `skill registry user add {handle}`"))
        }
        StoreError::NoToken { handle, .. } => {
            Some(format!("`skill registry token list {handle}` lists them"))
        }
        _ => None,
    }
}

fn install(error: &InstallError) -> Option<String> {
    match error {
        InstallError::AlreadyInstalled(_) => Some("pass --force to replace it".to_owned()),
        InstallError::Risky { .. } => {
            Some("read each finding; `skill install --allow-risky` installs anyway".to_owned())
        }
        InstallError::Select(e) => select(e),
        _ => None,
    }
}

fn registry_install(error: &RegistryInstallError) -> Option<String> {
    match error {
        RegistryInstallError::Client(e) => client(e),
        RegistryInstallError::Signature(e) => signature(e),
        RegistryInstallError::OtherRegistry { origin, .. } => {
            Some(format!("pass --registry {origin} to update it there"))
        }
        _ => None,
    }
}

fn pack(error: &PackError) -> Option<String> {
    match error {
        PackError::OutputInside { .. } => {
            Some("write the archive elsewhere with -o PATH".to_owned())
        }
        PackError::Select(e) => select(e),
        _ => None,
    }
}

fn select(error: &SelectError) -> Option<String> {
    matches!(error, SelectError::Symlink { .. }).then(|| {
        "pass --follow-symlinks to pack the link's target, if it is inside the skill".to_owned()
    })
}

fn signature(error: &SignatureError) -> Option<String> {
    match error {
        SignatureError::Untrusted { .. } => Some(
            "trust the key with --trust KEY.pub or [trust] keys in skill.toml, if you know whose it is"
                .to_owned(),
        ),
        SignatureError::Unsigned(_) => Some(
            "signatures are required by --require-signature or [trust] require in skill.toml"
                .to_owned(),
        ),
        _ => None,
    }
}

fn client(error: &ClientError) -> Option<String> {
    match error {
        ClientError::Network { .. } => Some(
            "check the URL (--registry, `skill config show`) and that the registry is running"
                .to_owned(),
        ),
        ClientError::Http { status, .. } => match status {
            401 => Some("log in again: skill login --token TOKEN".to_owned()),
            429 => Some("try again in a minute".to_owned()),
            500..=599 => {
                Some("try again later; if it goes on, tell the registry's operator".to_owned())
            }
            _ => None,
        },
        ClientError::Invalid { .. } => None,
    }
}

fn publish(error: &PublishError) -> Option<String> {
    match error {
        PublishError::NotASkill(_) => {
            Some("name the skill's folder: skill publish path/to/skill".to_owned())
        }
        PublishError::NotSemver(_) => Some("choose the number with --version".to_owned()),
        PublishError::Risky(_) => Some(risky_publish()),
        PublishError::Pack(e) => pack(e),
        PublishError::Client(e) => client(e),
        PublishError::Read(_) => None,
    }
}

/// The hint under a publish the security scan refused.
pub(crate) fn risky_publish() -> String {
    "fix them; if one is intended, allow it with <!-- skill: allow SK9NN reason --> (the registry then holds the version for review)".to_owned()
}

fn model(error: &ModelError) -> Option<String> {
    match error {
        ModelError::Network { .. } => {
            Some("check --base-url and the *_BASE_URL env vars".to_owned())
        }
        ModelError::MissingKey { .. } => {
            Some("export it, or pass --base-url for a server that needs no key".to_owned())
        }
        _ => None,
    }
}

fn review(error: &skill_agent::review::ReviewError) -> Option<String> {
    match error {
        skill_agent::review::ReviewError::Model(e) => model(e),
        skill_agent::review::ReviewError::Answer { .. } => None,
    }
}

fn impact(error: &ImpactError) -> Option<String> {
    match error {
        ImpactError::NoEvals(_) => Some(
            "write one with the tasks the skill should help with (see `skill eval --help`)"
                .to_owned(),
        ),
        ImpactError::InsideSkill { .. } => {
            Some("write iterations outside it with --workspace DIR".to_owned())
        }
        ImpactError::Baseline(_) => {
            Some("--baseline takes a skill's folder or a git revision of it".to_owned())
        }
        ImpactError::AuthoredEvals { skill, .. } => Some(format!(
            "record them with `skill eval --impact {} --mode record`",
            skill_agent::r#try::shell_path(skill)
        )),
        _ => None,
    }
}
