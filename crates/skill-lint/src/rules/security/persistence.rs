//! Persistence: making something run again later without being asked: crontab edits, launchd
//! agents, systemd user units, shell start-up file edits, login items, Windows autostart keys
//! and scheduled tasks, and added SSH keys (`persistence`, a warning: a backup tool that says it
//! installs a cron job is legitimate).

use super::Finding;
use super::pattern::Pattern;
use super::text::{Text, excerpt, family};
use crate::rulebook::PERSISTENCE;
use skill_model::Span;
use std::sync::LazyLock;

/// Each way of persisting, with what it does.
static WAYS: LazyLock<Vec<(Pattern, &'static str)>> = LazyLock::new(|| {
    [
        (r"\|[[:space:]]*crontab[[:space:]]+-(?:[[:space:]]|$)|(?-u:\b)crontab[[:space:]]+(?:-u[[:space:]]+\S+[[:space:]]+)?(?:-e(?-u:\b)|[[:word:].~$/-]*[./][[:word:].~$/-]+)|(?:>>?|(?-u:\b)tee(?-u:\b)[^\n|]*)[[:space:]]*/(?:etc/cron[[:word:]./-]*|var/spool/cron\S*)", "installs a cron job"),
        (r"(?i)(?:(?-u:\b)(?:cp|mv|ln|install|tee|ditto)(?-u:\b)[^\n|;&]*|>>?[[:space:]]*)['\x22]?(?:~|\$HOME|\$\{HOME\}|/)[^[:space:]'\x22]*Library/Launch(?:Agents|Daemons)/|(?-u:\b)launchctl[[:space:]]+(?:load|bootstrap|enable|submit)(?-u:\b)", "installs a launchd job"),
        (r"(?:(?-u:\b)(?:cp|mv|ln|install|tee)(?-u:\b)[^\n|;&]*|>>?[[:space:]]*)['\x22]?(?:~|\$HOME|\$\{HOME\})?/?[^[:space:]'\x22]*\.config/systemd/user/|(?-u:\b)systemctl[[:space:]]+--user[[:space:]]+enable(?-u:\b)|(?-u:\b)loginctl[[:space:]]+enable-linger(?-u:\b)", "installs a systemd user service"),
        (r"(?:>>|(?-u:\b)tee[[:space:]]+-a(?-u:\b)[^\n|]*|(?-u:\b)sed[[:space:]]+-i(?-u:\b)[^\n|]*)[[:space:]]*['\x22]?(?:~|\$HOME|\$\{HOME\})/\.(?:bashrc|bash_profile|bash_login|zshrc|zprofile|zshenv|profile|config/fish/config\.fish)(?-u:\b)", "edits a shell start-up file"),
        (r"(?i)(?-u:\b)make[[:space:]]+(?:new[[:space:]]+)?login[[:space:]]+item(?-u:\b)|(?-u:\b)SMLoginItemSetEnabled(?-u:\b)|(?-u:\b)LSSharedFileList", "adds a login item"),
        (r"(?i)\\CurrentVersion\\Run(?:Once)?(?-u:\b)|(?-u:\b)schtasks(?:\.exe)?[[:space:]]+/create(?-u:\b)|(?-u:\b)Register-ScheduledTask(?-u:\b)|\\Start Menu\\Programs\\Startup(?-u:\b)|(?-u:\b)shell:startup(?-u:\b)", "adds a Windows autostart entry"),
        (r"(?:>>|(?-u:\b)tee[[:space:]]+-a(?-u:\b)[^\n|]*)[[:space:]]*['\x22]?(?:~|\$HOME|\$\{HOME\})?/?\.ssh/authorized_keys(?-u:\b)", "adds a key that may log in to this machine"),
    ]
    .into_iter()
    .map(|(p, what)| (Pattern::new(p).expect("a valid persistence pattern"), what))
    .collect()
});

/// `echo 'export X=1' >> ~/.zshrc` and aliases set configuration, they start nothing.
static SETTING: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r#"^[[:space:]]*(?:echo|printf)[[:space:]]+(?:-e[[:space:]]+)?['"]?[[:space:]]*(?:export[[:space:]]+[[:word:]]+=|alias[[:space:]]|[A-Za-z_][[:word:]]*=)"#)
        .expect("a valid setting pattern")
});

/// Ways a skill makes something start again on its own.
pub(crate) fn check_persistence(text: &Text, out: &mut Vec<Finding>) {
    if !text.triggered(family::PERSIST) {
        return;
    }
    let mut lines_seen = Vec::new();
    for (re, what) in WAYS.iter() {
        for m in text.find_on_lines(family::PERSIST, re) {
            let line = text.line_at(m.start);
            let line_text = &text.text[line.clone()];
            if lines_seen.contains(&line.start)
                || (*what == "edits a shell start-up file" && SETTING.is_match(line_text))
            {
                continue;
            }
            lines_seen.push(line.start);
            out.push(text.finding(
                &PERSISTENCE,
                Span::new(m.start, m.end),
                format!("{what}: `{}`", excerpt(line_text)),
                "what is installed keeps running after the task is done and the skill is gone, \
                 out of the user's sight; malware uses the same places to survive a reboot",
                "do the work while the user is there; if the skill is a scheduler or a backup \
                 tool, say in the description what it installs and how to remove it, and allow \
                 the finding with that reason",
            ));
        }
    }
}

/// Compiles the patterns of this file now (see [`super::preload`]).
pub(super) fn compile() {
    LazyLock::force(&WAYS);
    LazyLock::force(&SETTING);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str) -> usize {
        let t = Text::new("scripts/setup.sh", text);
        let mut out = Vec::new();
        check_persistence(&t, &mut out);
        out.len()
    }

    #[test]
    fn ways_to_persist() {
        assert_eq!(count("(crontab -l; echo '* * * * * x') | crontab -\n"), 1);
        assert_eq!(count("crontab mycron.txt\n"), 1);
        assert_eq!(
            count(
                "cp x.plist ~/Library/LaunchAgents/\nlaunchctl load ~/Library/LaunchAgents/x.plist\n"
            ),
            2
        );
        assert_eq!(count("systemctl --user enable x.service\n"), 1);
        assert_eq!(count("echo 'source x' >> ~/.zshrc\n"), 1);
        assert_eq!(count("echo 'export PATH=$HOME/bin:$PATH' >> ~/.zshrc\n"), 0);
        assert_eq!(
            count(
                "launchctl unload ~/Library/LaunchAgents/x.plist\nrm ~/Library/LaunchAgents/x.plist\n"
            ),
            0
        );
        assert_eq!(count("echo ssh-ed25519 AAA >> ~/.ssh/authorized_keys\n"), 1);
        assert_eq!(count("schtasks /create /tn x /tr y\n"), 1);
        assert_eq!(
            count("crontab -l\nsource ~/.bashrc\nAdd it to your crontab entries.\n"),
            0
        );
    }
}
