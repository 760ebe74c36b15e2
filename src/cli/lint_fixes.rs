//! What `skill lint` says about fixes: the ones it applied (`--fix`), the ones on offer
//! (`--show-fixes`, and a hint after the findings), and per-rule counts (`--statistics`).

use super::CliError;
use skill_lint::diagnostic::Fix;
use skill_lint::{LintRun, fix};
use std::io::Write;

/// Writes the fixed files and one line per fix on stderr (stdout stays the report); an unsafe
/// fix's line says what it changes for agents.
pub(crate) fn report(fixed: &[fix::FixedFile]) -> Result<(), CliError> {
    let mut err = anstream::stderr().lock();
    for file in fixed {
        fix::write(file)?;
        for applied in &file.applied {
            let at = applied
                .position
                .map(|p| format!(":{}", p.line))
                .unwrap_or_default();
            let consequence = applied
                .unsafe_because
                .as_ref()
                .map(|c| format!(" (unsafe: {c})"))
                .unwrap_or_default();
            writeln!(
                err,
                "fixed {}{at}: {}: {}{consequence}",
                file.path.display(),
                applied.slug,
                applied.message
            )?;
        }
    }
    Ok(())
}

/// The fixes the findings offer, each once, with the file, line and rule of its first finding.
fn offered(run: &LintRun) -> Vec<(String, &'static str, &Fix)> {
    let mut out: Vec<(String, &'static str, &Fix)> = Vec::new();
    for report in &run.skills {
        // A fix is an edit of this skill's SKILL.md: two skills' equal edits are two fixes.
        let skill_starts = out.len();
        for d in &report.diagnostics {
            let Some(fix) = &d.fix else { continue };
            if out[skill_starts..].iter().any(|(_, _, f)| *f == fix) {
                continue;
            }
            let line = skill_lint::report::positions(report, d)
                .map(|(start, _)| format!(":{}", start.line))
                .unwrap_or_default();
            out.push((format!("{}{line}", d.file.display()), d.rule.code, fix));
        }
    }
    out
}

/// `--show-fixes`: every fix on offer on stderr, marked safe or unsafe with its consequence.
pub(crate) fn show(run: &LintRun, unsafe_fixes: bool) -> Result<(), CliError> {
    let mut err = anstream::stderr().lock();
    for (at, code, fix) in offered(run) {
        let kind = match &fix.unsafe_because {
            None => "safe".to_owned(),
            Some(c) if unsafe_fixes => format!("unsafe, applied with --unsafe-fixes: {c}"),
            Some(c) => format!("unsafe, needs --unsafe-fixes: {c}"),
        };
        writeln!(err, "{at}: {code}: {} ({kind})", fix.message)?;
    }
    Ok(())
}

/// After the findings: how many fixes `--fix` would apply, and how many more need
/// `--unsafe-fixes`.
pub(crate) fn hint(run: &LintRun) -> Result<(), CliError> {
    let fixes = offered(run);
    let safe = fixes.iter().filter(|(_, _, f)| f.is_safe()).count();
    print_hint(safe, fixes.len() - safe)
}

/// The safe and unsafe fixes one skill's findings offer, each counted once.
pub(crate) fn fix_counts(report: &skill_lint::SkillReport) -> (usize, usize) {
    let mut seen: Vec<&Fix> = Vec::new();
    for fix in report.diagnostics.iter().filter_map(|d| d.fix.as_ref()) {
        if !seen.contains(&fix) {
            seen.push(fix);
        }
    }
    let safe = seen.iter().filter(|f| f.is_safe()).count();
    (safe, seen.len() - safe)
}

/// The line on stderr saying how many findings `--fix` (and `--unsafe-fixes`) would fix.
pub(crate) fn print_hint(safe: usize, unsafe_: usize) -> Result<(), CliError> {
    if safe + unsafe_ == 0 {
        return Ok(());
    }
    let unsafe_line = format!(
        "{unsafe_} with --fix --unsafe-fixes, which change what agents load (--show-fixes says how)"
    );
    let line = match (safe, unsafe_) {
        (_, 0) => format!("{safe} fixable with --fix"),
        (0, _) => format!("Fixable: {unsafe_line}"),
        _ => format!("{safe} fixable with --fix; {unsafe_line}"),
    };
    writeln!(anstream::stderr().lock(), "{line}.")?;
    Ok(())
}

/// `--statistics`: one line per rule, most findings first: count, code, slug, and `[*]` when
/// every finding has a safe fix, `[-]` when some have only an unsafe one.
pub(crate) fn statistics(run: &LintRun) -> String {
    let mut rows: Vec<(&'static str, &'static str, usize, bool, bool)> = Vec::new();
    for d in run.skills.iter().flat_map(|r| &r.diagnostics) {
        let safe = d.fix.as_ref().is_some_and(Fix::is_safe);
        let unsafe_ = d.fix.as_ref().is_some_and(|f| !f.is_safe());
        match rows.iter_mut().find(|r| r.0 == d.rule.code) {
            Some(row) => {
                row.2 += 1;
                row.3 &= safe;
                row.4 |= unsafe_;
            }
            None => rows.push((d.rule.code, d.rule.slug, 1, safe, unsafe_)),
        }
    }
    rows.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
    let width = rows
        .iter()
        .map(|r| r.2.to_string().len())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for (code, slug, count, safe, unsafe_) in rows {
        let mark = match (safe, unsafe_) {
            (true, _) => "[*] ",
            (false, true) => "[-] ",
            _ => "",
        };
        out.push_str(&format!("{count:>width$}  {code}  {mark}{slug}\n"));
    }
    out.push_str("[*] fixable with --fix; [-] fixable with --fix --unsafe-fixes\n");
    out
}
