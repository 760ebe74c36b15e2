//! Fuzzes the cassette reader: arbitrary bytes as a cassette file must load or be refused with
//! an error, never panic; a loaded cassette's requests normalise to a fixed point, its replies
//! normalise and expand, and
//! saved again (when it holds no secret) it loads as the same cassette.
#![no_main]

mod scratch;

use libfuzzer_sys::fuzz_target;
use skill_agent::cassette::{Cassette, Normaliser};

fuzz_target!(|data: &[u8]| {
    let tmp = scratch::tempdir();
    let path = tmp.path().join("cassette.yaml");
    std::fs::write(&path, data).expect("temp dir is writable");
    let Ok(cassette) = Cassette::load(&path) else {
        return;
    };
    let normaliser = Normaliser::new(tmp.path(), Some(std::path::Path::new("/home/fuzz")));
    for exchange in &cassette.exchanges {
        let request = normaliser.normalise_request(&exchange.request);
        assert_eq!(
            normaliser.normalise_request(&request),
            request,
            "normalising twice changes the request"
        );
        let _ = normaliser.normalise_reply(&exchange.response);
        let _ = normaliser.expand_reply(&exchange.response);
    }
    let again = tmp.path().join("again.yaml");
    if cassette.save(&again).is_ok() {
        let reloaded = Cassette::load(&again).expect("a saved cassette loads");
        assert_eq!(reloaded, cassette);
    }
});
