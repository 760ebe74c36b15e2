//! The replayer: a model that answers from a cassette and nothing else. It holds no HTTP client,
//! so a replay cannot open a connection.

use super::diff::{first_difference, unified};
use super::{Cassette, CassetteError, Normaliser};
use crate::message::{Delta, Message, Reply, Request, Stop};
use crate::provider::{Model, ModelError, emit_reply};
use std::path::PathBuf;

/// Answers each request with the next recorded reply, after checking the request matches.
pub struct Replayer {
    path: PathBuf,
    cassette: Cassette,
    next: usize,
    normaliser: Normaliser,
    rerecord: String,
}

impl Replayer {
    /// A replayer of `cassette` (read from `path`); `rerecord` is the command that records it
    /// again, quoted in errors.
    pub fn new(
        path: PathBuf,
        cassette: Cassette,
        normaliser: Normaliser,
        rerecord: String,
    ) -> Replayer {
        Replayer {
            path,
            cassette,
            next: 0,
            normaliser,
            rerecord,
        }
    }

    fn mismatch(&self, recorded: &Request, actual: &Request) -> CassetteError {
        let value = |r: &Request| serde_json::to_value(r).unwrap_or_default();
        let yaml = |r: &Request| serde_saphyr::to_string(r).unwrap_or_default();
        CassetteError::Mismatch {
            path: self.path.clone(),
            exchange: self.next + 1,
            json_path: first_difference(&value(recorded), &value(actual)),
            diff: unified(&yaml(recorded), &yaml(actual)),
            rerecord: self.rerecord.clone(),
        }
    }
}

impl Model for Replayer {
    fn complete(
        &mut self,
        request: &Request,
        on_delta: &mut dyn FnMut(Delta),
    ) -> Result<Reply, ModelError> {
        let Some(exchange) = self.cassette.exchanges.get(self.next) else {
            return Err(CassetteError::Exhausted {
                path: self.path.clone(),
                exchange: self.next + 1,
                recorded: self.cassette.exchanges.len(),
                rerecord: self.rerecord.clone(),
            }
            .into());
        };
        let actual = without_error_marks(self.normaliser.normalise_request(request));
        let recorded = without_error_marks(exchange.request.clone());
        if actual != recorded {
            return Err(self.mismatch(&recorded, &actual).into());
        }
        let reply = self.normaliser.expand_reply(&exchange.response);
        self.next += 1;
        emit_reply(&reply, on_delta);
        Ok(reply)
    }

    fn finish(&mut self, stop: Stop) -> Result<(), ModelError> {
        let recorded = self.cassette.exchanges.len();
        // At the turn limit the rest was never asked for; the limit says why. Any other stop
        // came from a recorded reply, so nothing recorded after it can be meant.
        if stop != Stop::MaxTurns && self.next < recorded {
            return Err(CassetteError::Unused {
                path: self.path.clone(),
                used: self.next,
                recorded,
                rerecord: self.rerecord.clone(),
            }
            .into());
        }
        Ok(())
    }
}

/// `request` without the marks of failed tools: whether a tool failed follows from what it
/// returned, which is compared, and cassettes recorded before the marks were kept lack them.
fn without_error_marks(mut request: Request) -> Request {
    for message in &mut request.messages {
        if let Message::Tool { is_error, .. } = message {
            *is_error = false;
        }
    }
    request
}
