//! Declared requirements that do not hold on this machine, worded as agents would see it; only
//! those the target agent checks.

use crate::diagnostic::{Diagnostic, Location};
use crate::rulebook::*;
use crate::rules::Context;
use skill_model::agents::gated;
use skill_model::requirements::Item;

/// Declared requirements that do not hold on this machine.
pub fn check_gating(cx: &Context, out: &mut Vec<Diagnostic>) {
    if !cx.options.env_checks || cx.requirements.is_empty() {
        return;
    }
    let availability = gated(&cx.requirements, cx.target.reading().gates, cx.environment);
    if availability.is_available() {
        return;
    }
    let here = format!("unavailable here: {}", availability.describe());
    let find = |list: &[Item], name: &str| list.iter().find(|i| i.value == name).map(|i| i.span);
    for bin in &availability.missing_bins {
        let span = find(&cx.requirements.bins, bin).unwrap_or_default();
        out.push(cx.diagnostic(
            &BIN_MISSING,
            format!("'{bin}' is not on PATH; {here}"),
            Location::Span(span),
        ));
    }
    if let Some(first) = cx
        .requirements
        .any_bins
        .first()
        .filter(|_| !availability.missing_any_bins.is_empty())
    {
        out.push(cx.diagnostic(
            &ANY_BIN_MISSING,
            format!(
                "none of {} is on PATH; {here}",
                availability.missing_any_bins.join(", ")
            ),
            Location::Span(first.span),
        ));
    }
    for var in &availability.missing_env {
        let span = find(&cx.requirements.env, var).unwrap_or_default();
        out.push(cx.diagnostic(
            &ENV_MISSING,
            format!("env var '{var}' is not set; {here}"),
            Location::Span(span),
        ));
    }
    if let (Some(os), Some(first)) = (&availability.unsupported_os, cx.requirements.os.first()) {
        let platform = cx.environment.platform();
        out.push(cx.diagnostic(
            &OS_UNSUPPORTED,
            format!("os is [{}], not {platform}; {here}", os.join(", ")),
            Location::Span(first.span),
        ));
    }
}
