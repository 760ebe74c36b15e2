//! Byte-count progress bars for long transfers, drawn on stderr only when it is a terminal.

use std::io::IsTerminal;

/// A bar counting `total` bytes under `label`; hidden when stderr is not a terminal or the
/// work is under `threshold` bytes (too quick to be worth drawing).
pub(crate) fn bytes(label: &str, total: u64, threshold: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() || total < threshold || super::output::quiet() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let template = format!("{label} {{bar:30}} {{bytes}}/{{total_bytes}}");
    bar.set_style(
        indicatif::ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
