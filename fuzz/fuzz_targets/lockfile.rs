//! Fuzzes the readers of ClawHub's install records: arbitrary bytes as `.clawhub/lock.json` and
//! as a skill's `.clawhub/origin.json` are read or refused with an error naming the file, never
//! a panic; an accepted lock file written back reads as the same entries.
#![no_main]

mod scratch;

use libfuzzer_sys::fuzz_target;
use skill_registry::lock::{LockFile, Origin};

fuzz_target!(|data: &[u8]| {
    let tmp = scratch::tempdir();
    std::fs::create_dir_all(tmp.path().join(".clawhub")).expect("temp dir is writable");
    std::fs::write(tmp.path().join(".clawhub/lock.json"), data).expect("temp dir is writable");
    std::fs::write(tmp.path().join(".clawhub/origin.json"), data).expect("temp dir is writable");
    match LockFile::read(tmp.path()) {
        Ok(lock) => {
            lock.write()
                .expect("an accepted lock file can be written back");
            let again = LockFile::read(tmp.path()).expect("a written lock file reads");
            assert_eq!(again.skills, lock.skills);
        }
        Err(e) => assert!(e.to_string().contains("lock.json"), "{e}"),
    }
    if let Err(e) = Origin::read(tmp.path()) {
        assert!(e.to_string().contains("origin.json"), "{e}");
    }
});
