//! Signed archives in minisign's formats (Ed25519): key pairs (`NAME.key`, `NAME.pub`), a
//! detached `<archive>.minisig` whose trusted comment names the skill, its version and the
//! archive's SHA-256, and verification against a set of trusted public keys. The cryptography
//! and the file formats are the `minisign` crate's; this module decides names, comments and
//! policy.

use std::io::Cursor;
use std::path::{Path, PathBuf};

/// The extension of a detached signature beside its archive.
pub(crate) const SIGNATURE_EXTENSION: &str = "minisig";

/// Why signing or verifying failed.
#[derive(Debug, thiserror::Error)]
pub enum SignatureError {
    /// A key file would overwrite an existing one.
    #[error("{0} exists; keygen never overwrites a key")]
    Exists(PathBuf),
    /// Reading or writing a file failed.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A key or signature file is not in minisign's format, or a password is wrong.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// minisign's message.
        message: String,
    },
    /// The signature is by a key that is not trusted here.
    #[error("{archive}: signed by key {key_id}, which is not among the trusted keys")]
    Untrusted {
        /// The archive.
        archive: String,
        /// The signer's key id.
        key_id: String,
    },
    /// The signature does not match the archive.
    #[error("{archive}: the signature by key {key_id} does not match: {message}")]
    Invalid {
        /// The archive.
        archive: String,
        /// The signer's key id.
        key_id: String,
        /// minisign's message.
        message: String,
    },
    /// No signature where one is required.
    #[error("{0}: not signed, and a signature is required")]
    Unsigned(String),
}

/// A verified signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signer {
    /// The key id, as minisign prints it (16 upper-case hex digits).
    pub key_id: String,
    /// The signed trusted comment.
    pub trusted_comment: String,
}

/// Which signatures an install accepts.
#[derive(Debug, Clone, Default)]
pub struct TrustPolicy {
    /// The public key files whose signatures are trusted.
    pub keys: Vec<PathBuf>,
    /// Refuse unsigned archives.
    pub require: bool,
}

/// minisign's key id of a key number: its 8 bytes as a little-endian number in hex.
fn key_id(keynum: &[u8]) -> String {
    let mut n = [0u8; 8];
    let len = keynum.len().min(8);
    n[..len].copy_from_slice(&keynum[..len]);
    format!("{:016X}", u64::from_le_bytes(n))
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> SignatureError + '_ {
    move |e| SignatureError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

fn format(path: &Path) -> impl Fn(minisign::PError) -> SignatureError + '_ {
    move |e| SignatureError::Format {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// How a new secret key is protected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Protection {
    /// Not encrypted (for CI, where no one can type a password).
    None,
    /// Encrypted with this password.
    Password(String),
    /// Encrypted with a password asked for on the terminal.
    Prompt,
}

/// Writes a new key pair to `<base>.key` and `<base>.pub` and returns the key id. Neither file
/// is overwritten.
pub fn keygen(base: &Path, protection: Protection) -> Result<String, SignatureError> {
    let secret = base.with_extension("key");
    let public = base.with_extension("pub");
    for path in [&secret, &public] {
        if path.exists() {
            return Err(SignatureError::Exists(path.clone()));
        }
    }
    let pair = match protection {
        Protection::None => minisign::KeyPair::generate_unencrypted_keypair(),
        Protection::Password(password) => {
            minisign::KeyPair::generate_encrypted_keypair(Some(password))
        }
        Protection::Prompt => minisign::KeyPair::generate_encrypted_keypair(None),
    }
    .map_err(format(&secret))?;
    let id = key_id(pair.pk.keynum());
    let comment = format!("skill secret key {id}");
    let secret_text = pair
        .sk
        .to_box(Some(&comment))
        .map_err(format(&secret))?
        .into_string();
    let public_text = pair.pk.to_box().map_err(format(&public))?.into_string();
    write_new(&secret, &secret_text, 0o600)?;
    write_new(&public, &public_text, 0o644)?;
    Ok(id)
}

/// Creates `path` (never replacing a file) with `text` and `mode`.
fn write_new(path: &Path, text: &str, mode: u32) -> Result<(), SignatureError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(path)
        .map_err(io(path))?;
    file.write_all(text.as_bytes()).map_err(io(path))
}

/// The trusted comment of a skill archive's signature.
pub fn trusted_comment(skill: &str, version: Option<&str>, sha256: &str) -> String {
    format!(
        "skill:{skill} version:{} sha256:{sha256}",
        version.unwrap_or("unversioned")
    )
}

/// The version a signature names for a skill: its `metadata.version`.
pub fn signed_version(manifest: &skill_model::manifest::Manifest) -> Option<String> {
    manifest
        .value("metadata")
        .and_then(|m| m.get("version"))
        .and_then(|v| v.as_str())
        .map(str::to_owned)
}

/// The trusted comment a signature of the archive `bytes` (read from `path`) must carry: the
/// skill it installs as, the version its SKILL.md gives and its SHA-256, so a signature cannot
/// vouch for another skill or version than the one installed. `None` for bytes that are not a
/// readable skill archive (the install refuses them anyway).
fn expected_comment(path: &Path, bytes: &[u8]) -> Option<String> {
    use skill_model::layout::{SKILL_MD, SKILL_MD_LOWER};
    let archive = super::reader::read_bytes(bytes, &super::reader::Limits::default()).ok()?;
    let name = archive
        .top
        .clone()
        .or_else(|| Some(path.file_stem()?.to_string_lossy().into_owned()))?;
    let skill_md = archive
        .files
        .iter()
        .find(|f| f.path == SKILL_MD || f.path == SKILL_MD_LOWER)?;
    let document = skill_model::document::Document::parse(skill_model::source::Source::new(
        String::from_utf8_lossy(&skill_md.bytes).into_owned(),
    ));
    let version = document.manifest().as_ref().ok().and_then(signed_version);
    Some(trusted_comment(
        &name,
        version.as_deref(),
        &skill_model::fingerprint::sha256_hex(bytes),
    ))
}

/// The trusted comment of a registry version's signature, which signs the version's file
/// manifest (see [`skill_model::fingerprint::manifest`]) rather than any one archive of it.
pub fn manifest_comment(slug: &str, version: &str, fingerprint: &str) -> String {
    format!("skill:{slug} version:{version} fingerprint:{fingerprint}")
}

/// Signs `archive` with the secret key at `secret_key` (decrypted with `password` when it is
/// encrypted; asked for on the terminal when that is `None`) and writes `<archive>.minisig`
/// beside it; returns that path.
pub fn sign(
    archive: &Path,
    secret_key: &Path,
    password: Option<String>,
    comment: &str,
) -> Result<PathBuf, SignatureError> {
    let bytes = std::fs::read(archive).map_err(io(archive))?;
    let signature = sign_bytes(&bytes, secret_key, password, comment)?;
    let out = signature_path(archive);
    crate::atomic_file::write(&out, signature.as_bytes()).map_err(io(&out))?;
    Ok(out)
}

/// Signs `bytes` with the secret key at `secret_key` (see [`sign`]) and returns the `.minisig`
/// text.
pub fn sign_bytes(
    bytes: &[u8],
    secret_key: &Path,
    password: Option<String>,
    comment: &str,
) -> Result<String, SignatureError> {
    let text = std::fs::read_to_string(secret_key).map_err(io(secret_key))?;
    let boxed = minisign::SecretKeyBox::from_string(&text).map_err(format(secret_key))?;
    // An unencrypted key (keygen --no-password) needs no password and must not prompt.
    let key = match boxed.clone().into_unencrypted_secret_key() {
        Ok(key) if !key.is_encrypted() => key,
        _ => boxed
            .into_secret_key(password)
            .map_err(format(secret_key))?,
    };
    let signature = minisign::sign(None, &key, Cursor::new(bytes), Some(comment), None)
        .map_err(format(secret_key))?;
    Ok(signature.into_string())
}

/// What a `.minisig` text says about itself before any key checks it: the signer's key id and
/// the trusted comment. `name` names the signature in errors.
pub fn describe(name: &str, text: &str) -> Result<Signer, SignatureError> {
    let path = PathBuf::from(name);
    let boxed = minisign::SignatureBox::from_string(text).map_err(format(&path))?;
    Ok(Signer {
        key_id: key_id(boxed.keynum()),
        trusted_comment: boxed.trusted_comment().map_err(format(&path))?,
    })
}

/// `<archive>.minisig`.
pub(crate) fn signature_path(archive: &Path) -> PathBuf {
    let mut name = archive.as_os_str().to_owned();
    name.push(".");
    name.push(SIGNATURE_EXTENSION);
    PathBuf::from(name)
}

/// Checks `bytes` (named `archive` in messages) against `signature` (a `.minisig` text, or
/// `None`) under `policy`: `Ok(None)` for an unsigned archive the policy allows, the signer for
/// a good signature by a trusted key, and an error otherwise (bad signature, untrusted key, or a
/// signature the policy requires but that is missing). With no trusted keys, a signature cannot
/// be checked and counts as unsigned.
pub fn check(
    archive: &str,
    bytes: &[u8],
    signature: Option<&str>,
    policy: &TrustPolicy,
) -> Result<Option<Signer>, SignatureError> {
    let Some(signature) = signature else {
        return if policy.require {
            Err(SignatureError::Unsigned(archive.to_owned()))
        } else {
            Ok(None)
        };
    };
    let sig_path = PathBuf::from(format!("{archive}.{SIGNATURE_EXTENSION}"));
    let boxed = minisign::SignatureBox::from_string(signature).map_err(format(&sig_path))?;
    let signer_id = key_id(boxed.keynum());
    if policy.keys.is_empty() && !policy.require {
        return Ok(None);
    }
    for key_file in &policy.keys {
        let key = minisign::PublicKey::from_file(key_file).map_err(format(key_file))?;
        if key_id(key.keynum()) != signer_id {
            continue;
        }
        minisign::verify(&key, &boxed, Cursor::new(bytes), true, false, false).map_err(|e| {
            SignatureError::Invalid {
                archive: archive.to_owned(),
                key_id: signer_id.clone(),
                message: e.to_string(),
            }
        })?;
        let trusted_comment = boxed.trusted_comment().map_err(format(&sig_path))?;
        return Ok(Some(Signer {
            key_id: signer_id,
            trusted_comment,
        }));
    }
    Err(SignatureError::Untrusted {
        archive: archive.to_owned(),
        key_id: signer_id,
    })
}

/// Reads the archive at `path` once and checks it against `<path>.minisig` (if there is one)
/// under `policy`; returns the bytes to install and the signer.
pub fn check_file(
    path: &Path,
    policy: &TrustPolicy,
) -> Result<(Vec<u8>, Option<Signer>), CheckFileError> {
    let limits = super::reader::Limits::default();
    let bytes = super::reader::read_file(path, &limits).map_err(|source| CheckFileError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let sig_path = signature_path(path);
    let signature = match std::fs::read_to_string(&sig_path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(&sig_path)(e).into()),
    };
    let name = path.display().to_string();
    let signer = check(&name, &bytes, signature.as_deref(), policy)?;
    if let (Some(signer), Some(expected)) = (&signer, expected_comment(path, &bytes)) {
        check_comment(&name, signer, &expected)?;
    }
    Ok((bytes, signer))
}

/// Refuses a good signature whose trusted comment is not `expected`: it vouches for another
/// skill, version or content than the one at hand. `name` names the signed thing in errors.
pub fn check_comment(name: &str, signer: &Signer, expected: &str) -> Result<(), SignatureError> {
    if signer.trusted_comment == expected {
        return Ok(());
    }
    Err(SignatureError::Invalid {
        archive: name.to_owned(),
        key_id: signer.key_id.clone(),
        message: format!(
            "its trusted comment is \"{}\", expected \"{expected}\"",
            signer.trusted_comment
        ),
    })
}

/// Why [`check_file`] refused.
#[derive(Debug, thiserror::Error)]
pub enum CheckFileError {
    /// The archive could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The archive.
        path: PathBuf,
        /// Why.
        source: super::reader::ArchiveError,
    },
    /// The signature check failed.
    #[error(transparent)]
    Signature(#[from] SignatureError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_then_check_and_tampering_is_caught() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().join("alice");
        let id = keygen(&base, Protection::None).unwrap();
        assert!(matches!(
            keygen(&base, Protection::None),
            Err(SignatureError::Exists(_))
        ));
        let archive = tmp.path().join("demo.skill");
        std::fs::write(&archive, b"archive bytes").unwrap();
        let comment = trusted_comment("demo", Some("1.0.0"), "ab");
        let sig = sign(&archive, &base.with_extension("key"), None, &comment).unwrap();
        let text = std::fs::read_to_string(&sig).unwrap();
        let policy = TrustPolicy {
            keys: vec![base.with_extension("pub")],
            require: true,
        };
        let signer = check("demo.skill", b"archive bytes", Some(&text), &policy)
            .unwrap()
            .unwrap();
        assert_eq!(signer.key_id, id);
        assert_eq!(signer.trusted_comment, comment);
        assert!(matches!(
            check("demo.skill", b"archive bytez", Some(&text), &policy),
            Err(SignatureError::Invalid { .. })
        ));
        assert!(matches!(
            check("demo.skill", b"archive bytes", None, &policy),
            Err(SignatureError::Unsigned(_))
        ));
        let other = tmp.path().join("mallory");
        keygen(&other, Protection::Password("hunter2".into())).unwrap();
        let foreign = TrustPolicy {
            keys: vec![other.with_extension("pub")],
            require: false,
        };
        assert!(matches!(
            check("demo.skill", b"archive bytes", Some(&text), &foreign),
            Err(SignatureError::Untrusted { .. })
        ));
    }
}
