//! The lint cache: each skill's own findings, kept between runs, so that a skill nothing changed
//! in is replayed instead of checked again.
//!
//! One file per set of options (the rules selected, budgets, target, whether env checks run, and
//! this binary), in `lint/` under the cache folder, maps each skill folder to its entry. An
//! entry holds when:
//! - the skill's stamp is the same: a SHA-256 over the `stat` of every entry of its folder as
//!   lint lists it (path, kind, size, executable bit, time of last change, a symlink's target)
//!   and of the folder itself as the listing saw it, whose time changes when any file is added
//!   to it or removed, ignored or not;
//! - the target chosen for it is the same: what the skill's own folder says of it is kept, and
//!   the folders above, which a stamp does not cover, are looked at again;
//! - every question the env checks asked of the machine (a command on PATH, an env var, the
//!   platform) gets the same answer now.
//!
//! A replayed skill's `SKILL.md` is read (findings point at its lines) but not parsed: the
//! entry keeps its name and what `description-overlap` compares of it.
//!
//! A skill with a file changed in the last [`SETTLING`] is linted but not kept: a file written
//! again within the clock's resolution would keep its time, and the entry would outlive it.
//! The findings across skills (`description-overlap`) depend on every skill of the run: the
//! last run's are kept whole and replayed when every skill's name, description and folder, the
//! skills compared with (`--with`) and the target are the same.

use crate::diagnostic::Diagnostic;
use crate::rulebook::Rule;
use crate::rules::overlap::ComparedSkill;
use crate::target::{Chosen, Declared};
use crate::{Checked, Options, rules};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use skill_model::environment::Environment;
use skill_model::files::{FileKind, SkillFiles};
use skill_model::{Skill, SkillLocation};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Bumped when what an entry means changes; part of every file's name.
const FORMAT: u32 = 3;

/// How long a file must have been left alone for its skill's findings to be kept.
pub const SETTLING: Duration = Duration::from_secs(2);

/// Entries not used for this many days are dropped when the file is written again.
const KEPT_DAYS: u64 = 30;

/// A cache file larger than this is not read (and is replaced): no run writes one near it.
const MAX_FILE_BYTES: u64 = 1 << 30;

/// The folder under the cache folder that holds the lint cache.
const FOLDER: &str = "lint";

/// The lint cache of one run: read when the run starts, written by [`Cache::save`].
#[derive(Debug)]
pub struct Cache {
    file: PathBuf,
    started: SystemTime,
    /// The file being read on a thread of its own, while the run looks for skills.
    reading: Mutex<Option<std::thread::JoinHandle<Option<Stored>>>>,
    read: OnceLock<Read>,
    /// Whether a file is in a folder above a skill (a ClawHub download's `_meta.json`, another
    /// skill's `SKILL.md`), asked once a run: the skills of a download, or of an owner's
    /// folder, share the folders above them.
    held_above: Mutex<HashMap<PathBuf, bool>>,
    changed: AtomicBool,
    replayed: AtomicUsize,
    linted: AtomicUsize,
}

/// What a run did with the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Skills whose findings were replayed.
    pub replayed: usize,
    /// Skills linted (their entry was missing or no longer held).
    pub linted: usize,
}

/// Why the cache could not be written or removed.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct CacheError {
    /// The file or folder.
    pub path: PathBuf,
    /// What went wrong.
    #[source]
    pub source: std::io::Error,
}

/// One skill's entry.
#[derive(Debug, Serialize, Deserialize)]
struct CachedSkill {
    /// The folder as the run named it: findings name files through it.
    dir: PathBuf,
    #[serde(with = "serde_bytes")]
    stamp: [u8; 32],
    /// What the skill's folder says of its target, for a run to choose it again unparsed.
    declared: Declared,
    /// The target the findings are for, and what chose it.
    target: String,
    /// The skill's `name`, when it is a string.
    name: Option<String>,
    answers: Vec<Answer>,
    /// [`Findings`], decoded only when the entry holds.
    #[serde(with = "serde_bytes")]
    findings: Vec<u8>,
    /// What `description-overlap` reads of the skill, so a run need not parse a skill whose
    /// folder is as it was to compare it with the others.
    compared: ComparedSkill,
    /// The day (since 1970) it was last used.
    used: u64,
}

/// The entries read, as the run uses and changes them.
#[derive(Debug)]
struct Read {
    entries: Mutex<HashMap<String, CachedSkill>>,
    across: Mutex<Option<Across>>,
}

/// What the cache file holds.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Stored {
    skills: HashMap<String, CachedSkill>,
    across: Option<Across>,
}

/// The findings across the skills of the last run (`description-overlap`): the same again
/// when every skill's name, description and place are.
#[derive(Debug, Serialize, Deserialize)]
struct Across {
    #[serde(with = "serde_bytes")]
    key: [u8; 32],
    /// `Vec<Vec<Diagnostic>>`, one list per skill in path order, decoded only when it holds.
    #[serde(with = "serde_bytes")]
    findings: Vec<u8>,
}

/// A skill's own findings: what the rules of one skill report for it.
#[derive(Debug, Serialize, Deserialize)]
struct Findings {
    diagnostics: Vec<Diagnostic>,
    #[serde(with = "rule_codes")]
    not_shown: Vec<&'static Rule>,
}

/// A question the env checks asked of the machine, and its answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum Answer {
    Bin(String, bool),
    /// An env var's value, as a SHA-256: the cache holds no secret.
    Var(String, Option<[u8; 32]>),
    Platform(String),
}

impl Cache {
    /// The cache for `options` in `folder` (see [`skill_model::folders::cache`]), read on a
    /// thread of its own until first used. A file that is missing, unreadable or not a cache
    /// gives an empty cache, replaced when saved.
    pub fn open(folder: &Path, options: &Options) -> Cache {
        let file = folder
            .join(FOLDER)
            .join(format!("v{FORMAT}-{}.msgpack", options_key(options)));
        let reading = std::thread::Builder::new().spawn({
            let file = file.clone();
            move || read(&file)
        });
        Cache {
            file,
            started: SystemTime::now(),
            reading: Mutex::new(reading.ok()),
            read: OnceLock::new(),
            held_above: Mutex::new(HashMap::new()),
            changed: AtomicBool::new(false),
            replayed: AtomicUsize::new(0),
            linted: AtomicUsize::new(0),
        }
    }

    /// The file this cache is read from and written to.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// How many skills have an entry.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no skill has an entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many skills were replayed and linted so far.
    pub fn counts(&self) -> Counts {
        Counts {
            replayed: self.replayed.load(Ordering::Relaxed),
            linted: self.linted.load(Ordering::Relaxed),
        }
    }

    /// Writes the cache back when the run changed it, through a temporary file renamed over
    /// the old one, so a reader sees the old file or the new one whole.
    pub fn save(&self) -> Result<(), CacheError> {
        if !self.changed.load(Ordering::Relaxed) {
            return Ok(());
        }
        let today = day(self.started);
        let mut skills = std::mem::take(&mut *self.lock());
        skills.retain(|_, e| e.used + KEPT_DAYS >= today);
        let across = self
            .read()
            .across
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let bytes = rmp_serde::to_vec(&Stored { skills, across }).map_err(|e| CacheError {
            path: self.file.clone(),
            source: std::io::Error::other(e),
        })?;
        write(&self.file, &bytes)
    }

    /// Removes every lint cache under `folder`; true when there was one.
    pub fn clean(folder: &Path) -> Result<bool, CacheError> {
        let path = folder.join(FOLDER);
        match std::fs::remove_dir_all(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(source) => Err(CacheError { path, source }),
        }
    }

    /// The skill's own findings: replayed when its entry holds, else from `lint` (handed the
    /// machine to ask, which records the answers, and the target) and kept.
    pub(crate) fn checked(
        &self,
        skill: &Skill,
        options: &Options,
        lint: impl FnOnce(&dyn Environment, Chosen, bool) -> Checked,
    ) -> Checked {
        let key = key_of(&skill.dir);
        let stamp = skill
            .file
            .as_deref()
            .and_then(|file| stamp(file, skill.files(), self.started));
        if let (Some(key), Some(stamp)) = (&key, stamp)
            && let Some(found) = self.replay(key, skill, stamp, options)
        {
            self.replayed.fetch_add(1, Ordering::Relaxed);
            return found;
        }
        self.linted.fetch_add(1, Ordering::Relaxed);
        let declared = crate::target::declared(skill);
        let target = self.target(declared, options, &skill.dir);
        let nested = self.nested(&skill.dir);
        let recorder = Recorder::new(options.environment.as_ref());
        let checked = lint(&recorder, target, nested);
        let findings = Findings {
            diagnostics: checked.diagnostics,
            not_shown: checked.not_shown,
        };
        if let (Some(key), Some(stamp), Ok(encoded)) = (key, stamp, rmp_serde::to_vec(&findings)) {
            let entry = CachedSkill {
                dir: skill.dir.clone(),
                stamp,
                declared,
                target: label(target, nested),
                name: checked.name.clone(),
                answers: recorder.answers(),
                findings: encoded,
                compared: ComparedSkill::of(skill),
                used: day(self.started),
            };
            self.lock().insert(key, entry);
            self.changed.store(true, Ordering::Relaxed);
        }
        Checked {
            diagnostics: findings.diagnostics,
            not_shown: findings.not_shown,
            ..checked
        }
    }

    /// What `description-overlap` reads of the skill at `location`, kept from an earlier run
    /// when nothing in its folder changed since; `None` when it must be read.
    pub(crate) fn compared(&self, location: &SkillLocation) -> Option<ComparedSkill> {
        let key = key_of(&location.dir)?;
        let stamp = stamp(
            location.file.as_deref()?,
            location.files.as_ref()?,
            self.started,
        )?;
        let entries = self.lock();
        let entry = entries.get(&key)?;
        (entry.dir == location.dir && entry.stamp == stamp).then(|| entry.compared.clone())
    }

    /// The findings across the run's skills: the last run's when `entries`, the skills compared
    /// with (`--with`) and the target are all the same, else from `compare`, and kept.
    pub(crate) fn across(
        &self,
        entries: &[crate::rules::overlap::ComparedSkill],
        options: &Options,
        compare: impl FnOnce() -> Vec<Vec<Diagnostic>>,
    ) -> Vec<Vec<Diagnostic>> {
        let mut hash = Sha256::new();
        for part in [
            format!("{entries:?}"),
            format!("{:?}", options.overlap_with),
            format!("{:?}", options.target),
        ] {
            hash.update(part.as_bytes());
            hash.update([0]);
        }
        let key: [u8; 32] = hash.finalize().into();
        let mut across = self.read().across.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(kept) = across.as_ref().filter(|a| a.key == key)
            && let Ok(found) = rmp_serde::from_slice(&kept.findings)
        {
            return found;
        }
        let found = compare();
        if let Ok(findings) = rmp_serde::to_vec(&found) {
            *across = Some(Across { key, findings });
            self.changed.store(true, Ordering::Relaxed);
        }
        found
    }

    /// The entry's findings when it holds for the skill as it is now.
    fn replay(
        &self,
        key: &str,
        skill: &Skill,
        stamp: [u8; 32],
        options: &Options,
    ) -> Option<Checked> {
        // Chosen outside the lock: the folders above may be asked about.
        let declared = self.lock().get(key)?.declared;
        let target = self.target(declared, options, &skill.dir);
        let nested = self.nested(&skill.dir);
        let (name, findings, used) = {
            let entries = self.lock();
            let entry = entries.get(key)?;
            let holds = entry.dir == skill.dir
                && entry.stamp == stamp
                && entry.target == label(target, nested)
                && entry
                    .answers
                    .iter()
                    .all(|a| a.holds(options.environment.as_ref()));
            if !holds {
                return None;
            }
            (entry.name.clone(), entry.findings.clone(), entry.used)
        };
        let findings: Findings = rmp_serde::from_slice(&findings).ok()?;
        let today = day(self.started);
        if used < today {
            if let Some(entry) = self.lock().get_mut(key) {
                entry.used = today;
            }
            self.changed.store(true, Ordering::Relaxed);
        }
        Some(Checked {
            target,
            name,
            diagnostics: findings.diagnostics,
            not_shown: findings.not_shown,
        })
    }

    /// The target to lint the skill in `dir` for, which `declared` says, or the user gave.
    fn target(&self, declared: Declared, options: &Options, dir: &Path) -> Chosen {
        let holds_meta = |folder: &Path| self.holds(folder, skill_model::layout::META_FILE);
        declared.or_given_asking(options.target, dir, &holds_meta)
    }

    /// Whether the skill in `dir` lies inside another skill's folder ([`crate::target::nested`]).
    fn nested(&self, dir: &Path) -> bool {
        crate::target::nested(dir, &|folder| {
            self.holds(folder, skill_model::layout::SKILL_MD)
        })
    }

    /// Whether `folder` holds the file `name`, asked once a run.
    fn holds(&self, folder: &Path, name: &str) -> bool {
        let file = folder.join(name);
        let known = self.held_above.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&held) = known.get(&file) {
            return held;
        }
        drop(known);
        let held = file.is_file();
        self.held_above
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(file, held);
        held
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, CachedSkill>> {
        self.read()
            .entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The entries, once the thread reading the file is done (or nothing, when it failed).
    fn read(&self) -> &Read {
        self.read.get_or_init(|| {
            let reading = self
                .reading
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            let stored = reading
                .and_then(|thread| thread.join().ok().flatten())
                .unwrap_or_default();
            Read {
                entries: Mutex::new(stored.skills),
                across: Mutex::new(stored.across),
            }
        })
    }
}

/// A SHA-256 of what lint reads of the options: a change to any gives another file.
fn options_key(options: &Options) -> String {
    let mut hash = Sha256::new();
    for part in [
        env!("CARGO_PKG_VERSION").to_owned(),
        binary_identity(),
        format!("{:?}", options.selection),
        format!("{:?}", options.target),
        format!("{:?}", options.budgets),
        options.env_checks.to_string(),
    ] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hex::encode(&hash.finalize()[..16])
}

/// The running program's path, size and time: two builds of one version do not share entries.
fn binary_identity() -> String {
    let Ok(exe) = std::env::current_exe() else {
        return String::new();
    };
    let meta = std::fs::metadata(&exe).ok();
    format!(
        "{}:{:?}:{:?}",
        exe.display(),
        meta.as_ref().map(std::fs::Metadata::len),
        meta.and_then(|m| m.modified().ok())
    )
}

/// The absolute path of a skill folder, which names its entry.
fn key_of(dir: &Path) -> Option<String> {
    let absolute = std::path::absolute(dir).ok()?;
    absolute.to_str().map(str::to_owned)
}

/// The stamp of the skill whose manifest is `file` and whose folder lists `files`, or `None`
/// when some time is unknown or too recent to trust.
fn stamp(file: &Path, files: &SkillFiles, started: SystemTime) -> Option<[u8; 32]> {
    let settled = |time: Option<SystemTime>| {
        let time = time?;
        let nanos = time.duration_since(UNIX_EPOCH).ok()?.as_nanos();
        (time + SETTLING <= started).then_some(nanos)
    };
    let mut hash = Sha256::new();
    hash.update(settled(files.modified)?.to_le_bytes());
    hash.update(file.as_os_str().as_encoded_bytes());
    for entry in &files.entries {
        let (kind, target) = match &entry.kind {
            FileKind::File => (b'f', None),
            FileKind::Dir => (b'd', None),
            FileKind::Symlink(to) => (b'l', Some(to)),
            FileKind::Other => (b'o', None),
        };
        hash.update([0, kind, u8::from(entry.executable)]);
        hash.update(entry.path.as_bytes());
        hash.update([0]);
        hash.update(entry.size.to_le_bytes());
        hash.update(settled(entry.modified)?.to_le_bytes());
        if let Some(to) = target {
            hash.update(to.as_os_str().as_encoded_bytes());
        }
    }
    Some(hash.finalize().into())
}

/// A target and what chose it, and whether the skill lies inside another's folder, as an
/// entry keeps them: findings made for another are not replayed.
fn label(target: Chosen, nested: bool) -> String {
    let inside = if nested { ":nested" } else { "" };
    format!("{}:{}{inside}", target.target, target.from)
}

fn day(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400)
}

fn read(file: &Path) -> Option<Stored> {
    let meta = std::fs::metadata(file).ok()?;
    if meta.len() > MAX_FILE_BYTES {
        return None;
    }
    let bytes = skill_model::files::read_sized(file, meta.len()).ok()?;
    rmp_serde::from_slice(&bytes).ok()
}

fn write(file: &Path, bytes: &[u8]) -> Result<(), CacheError> {
    use std::io::Write;
    let folder = file.parent().unwrap_or(Path::new("."));
    let error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| CacheError { path, source }
    };
    std::fs::create_dir_all(folder).map_err(error(folder))?;
    let tag = folder.join("CACHEDIR.TAG");
    if !tag.exists() {
        // Backup tools skip a folder with this file (https://bford.info/cachedir/).
        std::fs::write(&tag, CACHEDIR_TAG).map_err(error(&tag))?;
    }
    let mut temp = tempfile::NamedTempFile::new_in(folder).map_err(error(folder))?;
    temp.write_all(bytes).map_err(error(temp.path()))?;
    temp.persist(file).map_err(|e| error(file)(e.error))?;
    Ok(())
}

const CACHEDIR_TAG: &str = "Signature: 8a477f597d28d172789f06886806bc55\n\
# This file is a cache directory tag created by skill (skill lint's cache).\n";

/// The machine lint was handed, with every answer it gave written down.
struct Recorder<'a> {
    machine: &'a dyn Environment,
    asked: Mutex<Vec<Answer>>,
}

impl<'a> Recorder<'a> {
    fn new(machine: &'a dyn Environment) -> Recorder<'a> {
        Recorder {
            machine,
            asked: Mutex::new(Vec::new()),
        }
    }

    fn note(&self, answer: Answer) {
        let mut asked = self.asked.lock().unwrap_or_else(|e| e.into_inner());
        if !asked.contains(&answer) {
            asked.push(answer);
        }
    }

    fn answers(self) -> Vec<Answer> {
        self.asked.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl Environment for Recorder<'_> {
    fn has_bin(&self, bin: &str) -> bool {
        let found = self.machine.has_bin(bin);
        self.note(Answer::Bin(bin.to_owned(), found));
        found
    }

    fn var(&self, name: &str) -> Option<String> {
        let value = self.machine.var(name);
        self.note(Answer::Var(name.to_owned(), value.as_deref().map(digest)));
        value
    }

    fn platform(&self) -> &str {
        let platform = self.machine.platform();
        self.note(Answer::Platform(platform.to_owned()));
        platform
    }
}

impl Answer {
    /// Whether `machine` answers the question the same way now.
    fn holds(&self, machine: &dyn Environment) -> bool {
        match self {
            Answer::Bin(bin, found) => machine.has_bin(bin) == *found,
            Answer::Var(name, value) => machine.var(name).as_deref().map(digest) == *value,
            Answer::Platform(platform) => machine.platform() == platform,
        }
    }
}

fn digest(value: &str) -> [u8; 32] {
    Sha256::digest(value.as_bytes()).into()
}

/// Rules as their codes (see `diagnostic::rule_code`).
mod rule_codes {
    use crate::rulebook::{Rule, find};
    use serde::de::Error;
    use serde::{Deserialize, Serialize};

    pub(super) fn serialize<S: serde::Serializer>(
        rules: &[&'static Rule],
        out: S,
    ) -> Result<S::Ok, S::Error> {
        let codes: Vec<&str> = rules.iter().map(|r| r.code).collect();
        codes.serialize(out)
    }

    pub(super) fn deserialize<'de, D>(input: D) -> Result<Vec<&'static Rule>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let codes = Vec::<String>::deserialize(input)?;
        codes
            .iter()
            .map(|code| find(code).ok_or_else(|| D::Error::custom(format!("no rule {code}"))))
            .collect()
    }
}

/// Whether a run with `options` can use the cache: the stamp lists the skill's files, which a
/// run whose rules read none of them does not list.
pub(crate) fn applies(options: &Options) -> bool {
    rules::reads_files(&options.selection)
}
