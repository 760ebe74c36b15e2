//! A database left open to everyone: a function that runs shell commands on the server
//! (`COPY … FROM PROGRAM`) with its owner's rights and that every database user may call
//! (`disable-security`).

use super::Finding;
use super::pattern::Pattern;
use super::text::{Text, excerpt};
use crate::rulebook::DISABLE_SECURITY;
use skill_model::Span;
use std::sync::LazyLock;

/// A command run on the database server by PostgreSQL's `COPY`.
static FROM_PROGRAM: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?i)(?-u:\b)(?:from|to)[[:space:]]+program(?-u:\b)")
        .expect("a valid program pattern")
});

/// A function run with its owner's rights.
static DEFINER: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?i)(?-u:\b)security[[:space:]]+definer(?-u:\b)")
        .expect("a valid definer pattern")
});

/// A function every database user may call.
static PUBLIC_EXECUTE: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?i)(?-u:\b)grant[[:space:]]+(?:execute|all)(?-u:\b)[^;]*(?-u:\b)to[[:space:]]+public(?-u:\b)")
        .expect("a valid grant pattern")
});

/// Flags a `COPY … FROM PROGRAM` inside an owner's-rights function that PUBLIC may execute:
/// every user of the database, however little they were granted, runs commands on its server.
pub(crate) fn check_database(text: &Text, out: &mut Vec<Finding>) {
    // One search for the rare word first: few files mention a program at all.
    if !(text.text.contains("PROGRAM") || text.text.contains("program"))
        || !DEFINER.is_match(text.text)
        || !PUBLIC_EXECUTE.is_match(text.text)
    {
        return;
    }
    for m in FROM_PROGRAM.find_iter(text.text) {
        let line = text.line_at(m.start());
        out.push(text.finding(
            &DISABLE_SECURITY,
            Span::new(m.start(), m.end()),
            format!(
                "lets every database user run commands on the server: a `SECURITY DEFINER` \
                 function runs `COPY … PROGRAM` and PUBLIC may execute it: `{}`",
                excerpt(&text.text[line])
            ),
            "the function runs with its owner's rights (a superuser's, to run a program), so \
             anyone who can connect, however little they were granted, gets a shell on the \
             database server",
            "read what monitoring needs from views and grant them to one role; never wrap \
             `COPY … PROGRAM` in a function others may call",
        ));
    }
}

/// Compiles the patterns of this file now (see [`super::preload`]).
pub(super) fn compile() {
    for pattern in [&FROM_PROGRAM, &DEFINER, &PUBLIC_EXECUTE] {
        LazyLock::force(pattern);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<&'static str> {
        super::super::codes_of("sql/001.sql", text, &[check_database])
    }

    #[test]
    fn a_shell_on_the_server_for_every_database_user() {
        let sql = "CREATE FUNCTION m.run(c text) RETURNS SETOF text\nLANGUAGE plpgsql SECURITY DEFINER AS $f$\nBEGIN\n  EXECUTE format('COPY t FROM PROGRAM %L', c);\nEND $f$;\nGRANT EXECUTE ON FUNCTION m.run(text) TO PUBLIC;\n";
        assert_eq!(codes(sql), ["SK906"]);
        let one_role = sql.replace("TO PUBLIC", "TO ops_admin");
        assert!(codes(&one_role).is_empty());
        let report = "SELECT proname FROM pg_proc WHERE prosecdef; -- SECURITY DEFINER functions\n-- COPY ... FROM PROGRAM needs pg_execute_server_program\nGRANT SELECT ON ALL TABLES IN SCHEMA r TO PUBLIC;\n";
        assert!(codes(report).is_empty());
    }
}
