//! A model that answers from a fixed list of replies, whatever it is asked. `skill new` runs the
//! loop with one to record a starter cassette; the author records a real one over it.

use super::{Model, ModelError, emit_reply};
use crate::message::{Delta, Reply, Request};
use std::collections::VecDeque;

/// Replies given in order.
#[derive(Debug, Clone, Default)]
pub struct Script {
    replies: VecDeque<Reply>,
}

impl Script {
    /// A script of `replies`.
    pub fn new(replies: Vec<Reply>) -> Script {
        Script {
            replies: replies.into(),
        }
    }
}

impl Model for Script {
    fn complete(
        &mut self,
        _request: &Request,
        on_delta: &mut dyn FnMut(Delta),
    ) -> Result<Reply, ModelError> {
        let reply = self
            .replies
            .pop_front()
            .ok_or_else(|| ModelError::Protocol {
                url: "script".to_owned(),
                message: "the script has no more replies".to_owned(),
            })?;
        emit_reply(&reply, on_delta);
        Ok(reply)
    }
}
