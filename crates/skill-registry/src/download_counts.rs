//! Downloads counted in memory and written to the store in batches. A row update per download
//! made SQLite's single writer the pace of every download; now a download adds one to a map and
//! the server writes the sums every [`FLUSH_EVERY`] and once more when it shuts down, so a crash
//! loses at most the last interval's counts.

use super::store::{Store, StoreError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// How often counted downloads reach the store; what a crash can lose at most.
pub(crate) const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// Downloads not yet in the store, by the skill's stored slug.
pub(crate) struct DownloadCounts {
    store: Arc<dyn Store>,
    pending: Mutex<HashMap<String, u64>>,
    /// Held through a flush, so two flushes never write the same counts or reorder them.
    flushing: Mutex<()>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl DownloadCounts {
    /// Counts that will be written to `store`.
    pub fn new(store: Arc<dyn Store>) -> DownloadCounts {
        DownloadCounts {
            store,
            pending: Mutex::default(),
            flushing: Mutex::default(),
        }
    }

    /// Counts one download of `slug` (as stored).
    pub fn add(&self, slug: &str) {
        let mut pending = lock(&self.pending);
        match pending.get_mut(slug) {
            Some(n) => *n += 1,
            None => {
                pending.insert(slug.to_owned(), 1);
            }
        }
    }

    /// Writes what was counted since the last flush in one transaction and says how many
    /// downloads that was; when the store refuses, the counts are kept for the next flush.
    pub fn flush(&self) -> Result<u64, StoreError> {
        let _one_at_a_time = lock(&self.flushing);
        let batch: Vec<(String, u64)> = std::mem::take(&mut *lock(&self.pending))
            .into_iter()
            .collect();
        if batch.is_empty() {
            return Ok(0);
        }
        match self.store.count_downloads(&batch) {
            Ok(()) => Ok(batch.iter().map(|(_, n)| n).sum()),
            Err(e) => {
                let mut pending = lock(&self.pending);
                for (slug, n) in batch {
                    *pending.entry(slug).or_default() += n;
                }
                Err(e)
            }
        }
    }
}
