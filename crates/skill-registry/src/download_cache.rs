//! Finished download archives kept in memory, so a popular version is zipped once rather than on
//! every request. An archive never changes, but which archive a request gets can: a publish moves
//! `latest`, a delete hides a skill. This process's writes invalidate at once; another process
//! sharing a PostgreSQL database is seen within [`LIFETIME`].
//!
//! Entries are keyed by what a request asks for ([`Wanted`]) under the skill's stored slug, so a
//! cached archive is answered before any store call. Only a request that resolved is kept, and
//! only under the stored slug and version it resolved to, so parameters that do not change the
//! bytes (an unknown tag, padding, another spelling of the slug) cannot mint keys; and the cache
//! is bounded by both its number of entries and the bytes they hold, keys included.

use axum::body::Bytes;
use std::collections::HashMap;
use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long an entry is trusted without a write from this process.
pub(crate) const LIFETIME: Duration = Duration::from_secs(10);
/// Bytes held at most (archives, file names and keys).
const CAPACITY: usize = 64 * 1024 * 1024;
/// Entries held at most.
const MAX_ENTRIES: usize = 512;

/// A served archive: its bytes and its file name.
#[derive(Clone)]
pub struct Download {
    /// The zip.
    pub body: Bytes,
    /// `slug-version.zip`.
    pub file_name: String,
    /// The version's signature (a `.minisig` text), if its author signed it.
    pub signature: Option<String>,
}

/// A download the cache holds, with the generation and time it was made in.
struct CachedDownload {
    generation: u64,
    made: Instant,
    download: Download,
}

/// Which version of a skill a download request asks for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Wanted {
    /// A version number, as the store compares it (trimmed).
    Version(String),
    /// The version a tag points at (`latest` when the request names neither).
    Tag(String),
}

impl Wanted {
    fn len(&self) -> usize {
        match self {
            Wanted::Version(s) | Wanted::Tag(s) => s.len(),
        }
    }
}

/// `(stored slug, what was asked for)`.
type Key = (String, Wanted);

/// What an entry costs the cache.
fn weight(key: &Key, entry: &CachedDownload) -> usize {
    key.0.len() + key.1.len() + entry.download.file_name.len() + entry.download.body.len()
}

#[derive(Default)]
struct Entries {
    map: HashMap<Key, CachedDownload>,
    bytes: usize,
}

impl Entries {
    fn remove(&mut self, key: &Key) {
        if let Some((key, entry)) = self.map.remove_entry(key) {
            self.bytes -= weight(&key, &entry);
        }
    }
}

/// The cache of archives by slug and resolved version.
#[derive(Default)]
pub(crate) struct DownloadCache {
    generation: AtomicU64,
    entries: RwLock<Entries>,
}

impl DownloadCache {
    /// The current generation; pass it to [`DownloadCache::put`] for work started now.
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    fn fresh(&self, entry: &CachedDownload) -> bool {
        entry.generation == self.generation() && entry.made.elapsed() < LIFETIME
    }

    /// The archive `wanted` of `slug` resolved to, if one made since the last write is still
    /// fresh.
    pub fn get(&self, slug: &str, wanted: &Wanted) -> Option<Download> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        let entry = entries.map.get(&(slug.to_owned(), wanted.clone()))?;
        self.fresh(entry).then(|| entry.download.clone())
    }

    /// Keeps `download` as the archive `wanted` of `slug` resolves to, unless a write happened
    /// since `generation` was read; drops stale entries, then the oldest while there is no room.
    pub fn put(&self, slug: &str, wanted: &Wanted, generation: u64, download: Download) {
        let key = (slug.to_owned(), wanted.clone());
        let entry = CachedDownload {
            generation,
            made: Instant::now(),
            download,
        };
        let cost = weight(&key, &entry);
        if cost > CAPACITY {
            return;
        }
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if generation != self.generation() {
            return;
        }
        entries.remove(&key);
        // A pass over at most MAX_ENTRIES on a miss, which has just zipped a whole version.
        let stale: Vec<Key> = entries
            .map
            .iter()
            .filter(|(_, e)| !self.fresh(e))
            .map(|(k, _)| k.clone())
            .collect();
        for key in &stale {
            entries.remove(key);
        }
        while entries.map.len() >= MAX_ENTRIES || entries.bytes + cost > CAPACITY {
            let Some(oldest) = entries
                .map
                .iter()
                .min_by_key(|(_, e)| e.made)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            entries.remove(&oldest);
        }
        entries.bytes += cost;
        entries.map.insert(key, entry);
    }

    /// Forgets everything: the registry changed.
    pub(crate) fn invalidate(&self) {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        self.generation.fetch_add(1, Ordering::AcqRel);
        *entries = Entries::default();
    }

    /// (entries, bytes) held, for tests of the bounds.
    #[cfg(test)]
    fn size(&self) -> (usize, usize) {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        (entries.map.len(), entries.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(version: &str) -> Wanted {
        Wanted::Version(version.to_owned())
    }

    fn download(n: usize) -> Download {
        Download {
            body: Bytes::from(vec![0; n]),
            file_name: "a-1.0.0.zip".into(),
            signature: None,
        }
    }

    #[test]
    fn a_write_invalidates_entries_and_work_started_before_it() {
        let cache = DownloadCache::default();
        let before = cache.generation();
        cache.put("a", &v("1.0.0"), before, download(3));
        assert_eq!(cache.get("a", &v("1.0.0")).unwrap().body.len(), 3);
        cache.invalidate();
        assert!(cache.get("a", &v("1.0.0")).is_none());
        cache.put("a", &v("1.0.0"), before, download(3));
        assert!(
            cache.get("a", &v("1.0.0")).is_none(),
            "stale work is not kept"
        );
    }

    #[test]
    fn the_oldest_entries_make_room_for_bytes() {
        let cache = DownloadCache::default();
        cache.put("a", &v("1.0.0"), 0, download(CAPACITY - 100));
        cache.put("b", &v("1.0.0"), 0, download(200));
        assert!(cache.get("a", &v("1.0.0")).is_none());
        assert!(cache.get("b", &v("1.0.0")).is_some());
        cache.put("c", &v("1.0.0"), 0, download(CAPACITY + 1));
        assert!(cache.get("c", &v("1.0.0")).is_none(), "too big to keep");
        assert!(cache.get("b", &v("1.0.0")).is_some());
    }

    #[test]
    fn the_number_of_entries_is_bounded_and_bytes_add_up() {
        let cache = DownloadCache::default();
        for i in 0..MAX_ENTRIES * 3 {
            cache.put("a", &v(&format!("1.0.{i}")), 0, download(10));
        }
        let (count, bytes) = cache.size();
        assert_eq!(count, MAX_ENTRIES);
        let one = "a".len() + "1.0.0".len() + "a-1.0.0.zip".len() + 10;
        assert!(bytes >= count * one && bytes <= count * (one + 4));
        assert!(
            cache
                .get("a", &v(&format!("1.0.{}", MAX_ENTRIES * 3 - 1)))
                .is_some()
        );
        assert!(cache.get("a", &v("1.0.0")).is_none());
        cache.put("a", &v("1.0.0"), 0, download(10));
        cache.put("a", &v("1.0.0"), 0, download(10));
        assert_eq!(
            cache.size().0,
            MAX_ENTRIES,
            "a replaced entry is counted once"
        );
    }
}
