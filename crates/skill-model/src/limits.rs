//! ClawHub's size limits, which every reader and writer of a skill honours: a file larger than
//! [`FILE_BYTES`] is refused unread, and a skill whose files add up to more than
//! [`BUNDLE_BYTES`] is not published or installed. Lint warns before either happens.

/// The largest file of a skill (ClawHub's per-file limit, 10 MiB).
pub const FILE_BYTES: u64 = 10 * 1024 * 1024;

/// The most all of a skill's files may add up to (ClawHub's per-version limit, 50 MiB).
pub const BUNDLE_BYTES: u64 = 50 * 1024 * 1024;
