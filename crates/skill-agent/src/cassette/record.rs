//! The recorder: wraps a live model, keeps every exchange normalised, and writes the cassette
//! when the run ends well (a failed run leaves any earlier cassette as it was).

use super::{Cassette, Exchange, FORMAT_VERSION, Normaliser, RecordedBy};
use crate::message::{Delta, Reply, Request, Stop};
use crate::provider::{Model, ModelError};
use std::path::PathBuf;

/// A live model whose exchanges are written to a cassette.
pub struct Recorder {
    inner: Box<dyn Model>,
    path: PathBuf,
    cassette: Cassette,
    normaliser: Normaliser,
}

impl Recorder {
    /// Records `inner`'s exchanges into `path`; `recorded_by` says who.
    pub fn new(
        inner: Box<dyn Model>,
        path: PathBuf,
        recorded_by: RecordedBy,
        normaliser: Normaliser,
    ) -> Recorder {
        Recorder {
            inner,
            path,
            cassette: Cassette {
                version: FORMAT_VERSION,
                recorded_by,
                stop: None,
                exchanges: Vec::new(),
            },
            normaliser,
        }
    }
}

impl Model for Recorder {
    fn complete(
        &mut self,
        request: &Request,
        on_delta: &mut dyn FnMut(Delta),
    ) -> Result<Reply, ModelError> {
        let reply = self.inner.complete(request, on_delta)?;
        self.cassette.exchanges.push(Exchange {
            request: self.normaliser.normalise_request(request),
            response: self.normaliser.normalise_reply(&reply),
        });
        Ok(reply)
    }

    fn finish(&mut self, stop: Stop) -> Result<(), ModelError> {
        self.inner.finish(stop)?;
        self.cassette.stop = Some(stop);
        self.cassette.save(&self.path)?;
        Ok(())
    }
}
