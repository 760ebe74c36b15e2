//! File contents in an S3-compatible object store, keyed by SHA-256, for a registry that runs as
//! several processes over one PostgreSQL (`--blobs s3://BUCKET?endpoint=URL`). The database keeps
//! which file of which version has which hash; the bucket keeps the bytes. A blob is written
//! before the transaction that refers to it, so a version is never visible without its bytes; a
//! publish that fails after the upload leaves an unreferenced object, which is harmless because
//! objects are named by their content.

use super::StoreError;
use reqwest::Url;
use rusty_s3::{Bucket, Credentials, S3Action, UrlStyle};
use std::time::Duration;

/// The SHA-256 of no bytes: an empty file needs no object.
const EMPTY_SHA256: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// How long a signed request stays valid; each is used at once.
const SIGNED_FOR: Duration = Duration::from_secs(300);

/// How long one request to the object store may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a health check waits for the object store (the server answers within 2 s).
const PING_TIMEOUT: Duration = Duration::from_secs(2);

/// A bucket of an S3-compatible object store, with the credentials to read and write it.
pub struct S3Blobs {
    bucket: Bucket,
    credentials: Credentials,
    http: reqwest::blocking::Client,
    /// The location as the operator gave it, for messages.
    location: String,
}

impl std::fmt::Debug for S3Blobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Blobs")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

impl S3Blobs {
    /// Reads `s3://BUCKET?endpoint=URL[&region=REGION]` (region `us-east-1` unless named) and
    /// the key pair from `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`: secrets stay out of
    /// command lines and process listings.
    pub fn from_location(location: &str) -> Result<S3Blobs, StoreError> {
        let bad = |why: &str| StoreError::blobs(format!("{location}: {why}"));
        let url = Url::parse(location).map_err(|e| bad(&e.to_string()))?;
        if url.scheme() != "s3" {
            return Err(bad("expected s3://BUCKET?endpoint=URL"));
        }
        let name = url
            .host_str()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad("no bucket"))?;
        let query = |key: &str| {
            url.query_pairs()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.into_owned())
        };
        let endpoint = query("endpoint").ok_or_else(|| bad("no endpoint=URL"))?;
        let endpoint = Url::parse(&endpoint).map_err(|e| bad(&format!("endpoint: {e}")))?;
        let region = query("region").unwrap_or_else(|| "us-east-1".to_owned());
        let bucket = Bucket::new(endpoint, UrlStyle::Path, name.to_owned(), region)
            .map_err(|e| bad(&e.to_string()))?;
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let (Some(key), Some(secret)) = (var("AWS_ACCESS_KEY_ID"), var("AWS_SECRET_ACCESS_KEY"))
        else {
            return Err(bad("set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"));
        };
        let http = skill_http::client_builder()
            .timeout(REQUEST_TIMEOUT)
            .build()
            .map_err(|e| bad(&e.to_string()))?;
        Ok(S3Blobs {
            bucket,
            credentials: Credentials::new(key, secret),
            http,
            location: location.to_owned(),
        })
    }

    /// Writes the blob whose hash is `sha256` (again, harmlessly, when it is there already).
    pub fn put(&self, sha256: &str, bytes: &[u8]) -> Result<(), StoreError> {
        if sha256 == EMPTY_SHA256 {
            return Ok(());
        }
        let key = object_key(sha256);
        let url = self
            .bucket
            .put_object(Some(&self.credentials), &key)
            .sign(SIGNED_FOR);
        let reply = self.http.put(url).body(bytes.to_vec()).send();
        self.expect_success(reply, "writing", sha256).map(drop)
    }

    /// Reads the blob whose hash is `sha256`, checking that its bytes still have that hash.
    pub fn get(&self, sha256: &str) -> Result<Vec<u8>, StoreError> {
        if sha256 == EMPTY_SHA256 {
            return Ok(Vec::new());
        }
        let key = object_key(sha256);
        let url = self
            .bucket
            .get_object(Some(&self.credentials), &key)
            .sign(SIGNED_FOR);
        let reply = self.expect_success(self.http.get(url).send(), "reading", sha256)?;
        let bytes = reply
            .bytes()
            .map_err(|e| self.unreached("reading", sha256, e))?;
        if skill_model::fingerprint::sha256_hex(&bytes) != sha256 {
            return Err(self.failed("reading", sha256, "its bytes do not have that hash"));
        }
        Ok(bytes.to_vec())
    }

    /// Answers when the bucket can be reached with these credentials: a HEAD of an object that
    /// need not exist, which a key allowed only objects may make (a bucket HEAD needs listing).
    pub fn ping(&self) -> Result<(), StoreError> {
        let url = self
            .bucket
            .head_object(Some(&self.credentials), "blobs/health")
            .sign(SIGNED_FOR);
        let reply = self
            .http
            .head(url)
            .timeout(PING_TIMEOUT)
            .send()
            .map_err(|e| self.unreached("reaching", "the bucket", e))?;
        match reply.status() {
            status if status.is_success() || status == reqwest::StatusCode::NOT_FOUND => Ok(()),
            status => Err(self.failed(
                "reaching",
                "the bucket",
                &format!("the object store answered {status}"),
            )),
        }
    }

    fn expect_success(
        &self,
        reply: reqwest::Result<reqwest::blocking::Response>,
        doing: &str,
        what: &str,
    ) -> Result<reqwest::blocking::Response, StoreError> {
        // The error's URL is the signed one (key id and signature): it must not reach a reply.
        let reply = reply.map_err(|e| self.unreached(doing, what, e))?;
        let status = reply.status();
        if status.is_success() {
            return Ok(reply);
        }
        Err(self.failed(doing, what, &format!("the object store answered {status}")))
    }

    fn failed(&self, doing: &str, what: &str, why: &str) -> StoreError {
        StoreError::blobs(format!("{}: {doing} {what}: {why}", self.location))
    }

    /// The HTTP client failed: its error, without the signed URL, is kept as the source.
    fn unreached(&self, doing: &str, what: &str, error: reqwest::Error) -> StoreError {
        let error = error.without_url();
        StoreError::Blobs {
            message: format!("{}: {doing} {what}: {error}", self.location),
            source: Some(error),
        }
    }
}

/// The bytes of a file whose blob row holds `data`: the row's own bytes, or the object store's
/// when the row's are kept there (an empty row for a non-empty hash). Such a row read without an
/// object store is an error, never an empty file.
pub(super) fn load(
    blobs: Option<&S3Blobs>,
    sha256: &str,
    data: Vec<u8>,
) -> Result<Vec<u8>, StoreError> {
    if !data.is_empty() || sha256 == EMPTY_SHA256 {
        return Ok(data);
    }
    match blobs {
        Some(blobs) => blobs.get(sha256),
        None => Err(StoreError::blobs(format!(
            "the contents of blob {sha256} are kept in an object store: start the registry with the --blobs it was run with"
        ))),
    }
}

/// The bytes a blob row keeps: none when an object store holds them.
pub(super) fn kept_in_row<'a>(blobs: Option<&S3Blobs>, bytes: &'a [u8]) -> &'a [u8] {
    if blobs.is_some() { &[] } else { bytes }
}

/// Objects are spread over 256 prefixes by the hash's first byte.
fn object_key(sha256: &str) -> String {
    format!("blobs/{}/{sha256}", &sha256[..2.min(sha256.len())])
}

#[cfg(test)]
mod tests {
    use super::S3Blobs;

    #[test]
    fn a_location_names_a_bucket_and_an_endpoint() {
        for (location, why) in [
            ("https://bucket", "expected s3://"),
            ("s3://bucket", "no endpoint"),
            ("s3://bucket?endpoint=ftp://host", "unsupported Url scheme"),
            ("not a url", "relative URL"),
        ] {
            let error = S3Blobs::from_location(location).unwrap_err().to_string();
            assert!(error.contains(location) && error.contains(why), "{error}");
        }
    }
}
