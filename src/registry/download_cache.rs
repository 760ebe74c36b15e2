//! Finished download archives kept in memory, so a popular version is zipped once rather than on
//! every request. An archive never changes, but which archive a request gets can: a publish moves
//! `latest`, a delete hides a skill. This process's writes invalidate at once; another process
//! sharing a PostgreSQL database is seen within [`LIFETIME`].

use axum::body::Bytes;
use std::collections::HashMap;
use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long an entry is trusted without a write from this process.
pub const LIFETIME: Duration = Duration::from_secs(10);
/// Bytes held before the cache starts over.
const CAPACITY: usize = 64 * 1024 * 1024;

/// A served archive: its bytes and its file name.
#[derive(Clone)]
pub struct Download {
    /// The zip.
    pub body: Bytes,
    /// `slug-version.zip`.
    pub file_name: String,
}

struct Entry {
    generation: u64,
    made: Instant,
    download: Download,
}

/// The cache; the key is what the request asked for (slug, version, tag).
#[derive(Default)]
pub struct DownloadCache {
    generation: AtomicU64,
    entries: RwLock<(HashMap<String, Entry>, usize)>,
}

impl DownloadCache {
    /// The current generation; pass it to [`DownloadCache::put`] for work started now.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The archive for `key`, if one made since the last write is still fresh.
    pub fn get(&self, key: &str) -> Option<Download> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        let entry = entries.0.get(key)?;
        let fresh = entry.generation == self.generation() && entry.made.elapsed() < LIFETIME;
        fresh.then(|| entry.download.clone())
    }

    /// Keeps `download` for `key` unless a write happened since `generation` was read.
    pub fn put(&self, key: String, generation: u64, download: Download) {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if generation != self.generation() {
            return;
        }
        if entries.1 + download.body.len() > CAPACITY {
            *entries = (HashMap::new(), 0);
        }
        entries.1 += download.body.len();
        let made = Instant::now();
        let old = entries.0.insert(
            key,
            Entry {
                generation,
                made,
                download,
            },
        );
        entries.1 -= old.map_or(0, |o| o.download.body.len());
    }

    /// Forgets everything: the registry changed.
    pub fn invalidate(&self) {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        self.generation.fetch_add(1, Ordering::AcqRel);
        *entries = (HashMap::new(), 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn download(n: usize) -> Download {
        Download {
            body: Bytes::from(vec![0; n]),
            file_name: "a-1.0.0.zip".into(),
        }
    }

    #[test]
    fn a_write_invalidates_entries_and_work_started_before_it() {
        let cache = DownloadCache::default();
        let before = cache.generation();
        cache.put("a".into(), before, download(3));
        assert_eq!(cache.get("a").unwrap().body.len(), 3);
        cache.invalidate();
        assert!(cache.get("a").is_none());
        cache.put("a".into(), before, download(3));
        assert!(cache.get("a").is_none(), "stale work is not kept");
    }

    #[test]
    fn the_cache_starts_over_when_full() {
        let cache = DownloadCache::default();
        cache.put("a".into(), 0, download(CAPACITY - 10));
        cache.put("b".into(), 0, download(20));
        assert!(cache.get("a").is_none());
        assert!(cache.get("b").is_some());
    }
}
