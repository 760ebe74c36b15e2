//! What scanners cannot see into, and what turns protections off: password-protected or
//! encrypted archives inside the skill, instructions to unpack one with a password
//! (`encrypted-archive`), and instructions to disable antivirus, Gatekeeper, SIP or SELinux
//! (`disable-security`). Both are errors: a skill never needs either.

use super::Finding;
use super::pattern::Pattern;
use super::text::{Text, excerpt, family};
use crate::rulebook::{DISABLE_SECURITY, ENCRYPTED_ARCHIVE};
use skill_model::Span;
use skill_model::span::Position;
use std::sync::LazyLock;

const WHY_ENCRYPTED: &str = "an encrypted archive is opaque to every scanner, so it is how \
    malware is shipped past them; the password in the instructions is there only to open it on \
    the victim's machine";
const INSTEAD_ENCRYPTED: &str = "ship files unencrypted inside the skill, or have the agent \
    download a published release whose checksum the skill states";

/// A binary file that is a zip, 7z or RAR archive with encrypted entries.
pub(crate) fn check_encrypted_archive(path: &str, bytes: &[u8], out: &mut Vec<Finding>) {
    let Some(format) = encrypted_format(bytes) else {
        return;
    };
    out.push(Finding {
        rule: &ENCRYPTED_ARCHIVE,
        path: path.to_owned(),
        span: Span::new(0, 0),
        position: Position { line: 1, column: 1 },
        message: format!("'{path}' is a password-protected {format} archive"),
        why: WHY_ENCRYPTED.to_owned(),
        instead: INSTEAD_ENCRYPTED.to_owned(),
        excerpt: String::new(),
        allowed: None,
    });
}

/// Whether `bytes` start like a compressed file or an archive, or an image or document format
/// that holds compressed data: binaries, never text with a stray byte.
pub(super) fn is_archive(bytes: &[u8]) -> bool {
    const MAGICS: &[&[u8]] = &[
        b"PK\x03\x04",
        b"PK\x05\x06",
        b"7z\xBC\xAF\x27\x1C",
        b"Rar!\x1A\x07",
        b"\x1f\x8b",
        b"BZh",
        b"\xfd7zXZ\0",
        b"\x28\xb5\x2f\xfd",
        b"\x89PNG",
        b"\xff\xd8\xff",
        b"GIF8",
        b"RIFF",
        b"\0\0\x01\0",
        b"wOF",
    ];
    MAGICS.iter().any(|m| bytes.starts_with(m))
}

/// The archive format, when `bytes` are an archive with encryption.
fn encrypted_format(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        // The general-purpose flag's bit 0 marks an encrypted entry, in local headers (offset
        // 6) and central-directory headers (offset 8); reading both catches archives whose
        // local headers lie.
        let encrypted = memchr::memmem::find_iter(bytes, b"PK\x03\x04")
            .any(|at| bytes.get(at + 6).is_some_and(|f| f & 1 == 1))
            || memchr::memmem::find_iter(bytes, b"PK\x01\x02")
                .any(|at| bytes.get(at + 8).is_some_and(|f| f & 1 == 1));
        return encrypted.then_some("zip");
    }
    if bytes.starts_with(b"7z\xBC\xAF\x27\x1C") {
        // The AES-256 + SHA-256 coder's id, present whenever content or headers are encrypted.
        return memchr::memmem::find(bytes, b"\x06\xF1\x07\x01").map(|_| "7z");
    }
    if let Some(rest) = bytes.strip_prefix(b"Rar!\x1A\x07\x01\x00") {
        // RAR5: an archive encryption header (type 4) comes first when headers are encrypted.
        let header_type = rest
            .get(4..)
            .and_then(|r| vint(r).and_then(|(_, n)| vint(&r[n..])));
        return (header_type.map(|(t, _)| t) == Some(4)).then_some("RAR");
    }
    if let Some(rest) = bytes.strip_prefix(b"Rar!\x1A\x07\x00") {
        // RAR4: the main header's flags carry 0x0080 when headers are encrypted.
        let flags = rest.get(3..5).map(|f| u16::from_le_bytes([f[0], f[1]]));
        return (rest.get(2) == Some(&0x73) && flags.is_some_and(|f| f & 0x0080 != 0))
            .then_some("RAR");
    }
    None
}

/// A RAR5 variable-length integer and the bytes it took.
fn vint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, b) in bytes.iter().take(10).enumerate() {
        value |= u64::from(b & 0x7F) << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// `unzip -P`, `7z x -p…`, or "extract with password: 1234".
static ARCHIVE_PASSWORD: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r"(?i)(?-u:\b)unzip\s+(?:-\S+\s+)*-P\s*\S+|(?-u:\b)7za?\s+[ex](?-u:\b)[^\n]*\s-p\S+|(?-u:\b)unrar\s+[ex](?-u:\b)[^\n]*\s-p\S+|(?-u:\b)(?:extract|unzip|unpack|decompress|unarchive|open\s+the\s+(?:zip|archive))(?-u:\b)[^\n]{0,80}?(?-u:\b)pass(?:word|code|phrase)(?-u:\b)|(?-u:\b)(?:zip|rar|7z|archive)(?-u:\b)[^\n]{0,40}?(?-u:\b)pass(?:word|code|phrase)(?:\s*(?:is|:|=))",
    )
    .expect("a valid archive password pattern")
});

/// Instructions to unpack an archive with a password.
pub(crate) fn check_archive_password(text: &Text, out: &mut Vec<Finding>) {
    if !text.triggered(family::ARCHIVE) {
        return;
    }
    let mut lines_seen = Vec::new();
    for m in text.find_on_lines(family::ARCHIVE, &ARCHIVE_PASSWORD) {
        let line = text.line_at(m.start);
        if lines_seen.contains(&line.start) {
            continue;
        }
        lines_seen.push(line.start);
        out.push(text.finding(
            &ENCRYPTED_ARCHIVE,
            Span::new(m.start, m.end),
            format!(
                "tells the user to open a password-protected archive: `{}`",
                excerpt(&text.text[line])
            ),
            WHY_ENCRYPTED,
            INSTEAD_ENCRYPTED,
        ));
    }
}

static DISABLE: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r"(?ix)
        (?-u:\b)spctl\s+--(?:master|global)-disable(?-u:\b)
        | (?-u:\b)csrutil\s+(?:authenticated-root\s+)?disable(?-u:\b)
        | (?-u:\b)setenforce\s+(?:0|permissive)(?-u:\b)
        | (?-u:\b)SELINUX\s*=\s*(?:disabled|permissive)(?-u:\b)
        | (?-u:\b)Set-MpPreference(?-u:\b)[^\n]*-Disable\w*
        | (?-u:\b)Add-MpPreference(?-u:\b)[^\n]*-Exclusion\w*
        | (?-u:\b)sc(?:\.exe)?\s+(?:stop|config)\s+WinDefend(?-u:\b)
        | (?-u:\b)DisableAntiSpyware(?-u:\b)
        | (?-u:\b)(?:systemctl\s+(?:stop|disable|mask)\s+apparmor|aa-teardown)(?-u:\b)
        | (?-u:\b)(?:disable|turn\s+off|switch\s+off|deactivate|pause|uninstall|stop)\s+(?:your\s+|the\s+|any\s+|all\s+|temporarily\s+)*
          (?:antivirus|anti-virus|av\s+software|windows\s+defender|microsoft\s+defender|defender|gatekeeper|xprotect
             |sip|system\s+integrity\s+protection|selinux|apparmor|real-?time\s+protection|endpoint\s+protection|security\s+software)(?-u:\b)
        | (?-u:\b)(?:antivirus|anti-virus|windows\s+defender|gatekeeper)(?-u:\b)[^\n]{0,30}(?-u:\b)(?:must|should|needs\s+to)\s+be\s+(?:disabled|turned\s+off|off)(?-u:\b)
        | (?-u:\b)strict-ssl\s*=?\s*false(?-u:\b)
        | (?-u:\b)NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['\x22]?0
        | (?-u:\b)GIT_SSL_NO_VERIFY\s*=\s*['\x22]?(?:1|true)(?-u:\b)
        | (?-u:\b)http\.sslVerify\s*=?\s*false(?-u:\b)
        | (?-u:\b)TLS_VERIFY\s+(?:OFF|FALSE|0|NO)(?-u:\b)
        | (?-u:\b)GOINSECURE\s*=\s*['\x22]?[^\s'\x22]
        | (?-u:\b)GOSUMDB\s*=\s*['\x22]?off(?-u:\b)
        | (?-u:\b)PYTHONHTTPSVERIFY\s*=\s*['\x22]?0
        | (?-u:\b)trusted-host\s*[=\s]\s*\S
        | (?-u:\b)NOPASSWD:\s*ALL(?-u:\b)[^\n]*sudoers | sudoers[^\n]*NOPASSWD:\s*ALL(?-u:\b)
        | (?:\s-v|--volume|--mount)[\s=]+(?:type=bind,\s*)?(?:source=|src=)?/(?::|,\s*(?:target|dst|destination)=)/?[\w/-]*(?::rw)?(?:[\s\x22']|$)
        ",
    )
    .expect("a valid disable pattern")
});

/// Commands or instructions that turn off antivirus, Gatekeeper, SIP, SELinux or AppArmor,
/// or the certificate checks of package managers and git (so a look-alike mirror can serve
/// anything).
pub(crate) fn check_disable_security(text: &Text, out: &mut Vec<Finding>) {
    if !text.triggered(family::DISABLE) {
        return;
    }
    let mut lines_seen = Vec::new();
    for m in text.find_on_lines(family::DISABLE, &DISABLE) {
        let line = text.line_at(m.start);
        if lines_seen.contains(&line.start) {
            continue;
        }
        lines_seen.push(line.start);
        out.push(text.finding(
            &DISABLE_SECURITY,
            Span::new(m.start, m.end),
            format!(
                "turns off a system protection: `{}`",
                excerpt(&text.text[m])
            ),
            "these protections are what stops a malicious download from running; a skill that \
             needs them off is asking the user to let its payload through",
            "ship software that runs with protections on (signed, or installed with a package \
             manager); if a tool is flagged by mistake, say so and let the user decide",
        ));
    }
}

/// Compiles the patterns of this file now (see [`super::preload`]).
pub(super) fn compile() {
    for pattern in [&ARCHIVE_PASSWORD, &DISABLE] {
        LazyLock::force(pattern);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&'static str> {
        let t = Text::new("SKILL.md", text);
        let mut out = Vec::new();
        check_archive_password(&t, &mut out);
        check_disable_security(&t, &mut out);
        out.iter().map(|f| f.rule.code).collect()
    }

    #[test]
    fn passwords_and_protections() {
        assert_eq!(found("**2. EXTRACT** with password: `1234`\n"), ["SK905"]);
        assert_eq!(found("unzip -P infected payload.zip\n"), ["SK905"]);
        assert_eq!(found("7z x tool.7z -p1234\n"), ["SK905"]);
        assert_eq!(found("sudo spctl --master-disable\n"), ["SK906"]);
        // Certificate and checksum checks turned off for CMake's and Go's downloads.
        assert_eq!(
            found("file(DOWNLOAD ${u} ${f} TLS_VERIFY OFF)\n"),
            ["SK906"]
        );
        assert_eq!(found("go env -w GOINSECURE=mirror.example\n"), ["SK906"]);
        assert_eq!(found("export GOSUMDB=off\n"), ["SK906"]);
        assert!(found("go env -w GOPRIVATE=git.corp.example\n").is_empty());
        assert_eq!(
            found("docker run --rm --privileged -v /:/host alpine chroot /host\n"),
            ["SK906"]
        );
        assert!(found("docker run -v /:/rootfs:ro gcr.io/cadvisor/cadvisor\n").is_empty());
        assert!(found("docker run -v /data:/data -v \"$PWD\":/src img\n").is_empty());
        assert_eq!(
            found("Temporarily disable your antivirus before running.\n"),
            ["SK906"]
        );
        assert_eq!(found("sudo setenforce 0\n"), ["SK906"]);
        assert_eq!(found("csrutil disable\n"), ["SK906"]);
        assert!(found("Store the password in the keychain.\n").is_empty());
        assert!(found("Check that SELinux is enforcing: getenforce\n").is_empty());
        assert_eq!(
            found("echo \"$USER ALL=(ALL) NOPASSWD: ALL\" | sudo tee /etc/sudoers.d/dev\n"),
            ["SK906"]
        );
        assert!(found("ci ALL=(ALL) NOPASSWD: /usr/bin/systemctl restart app\n").is_empty());
    }

    #[test]
    fn encrypted_zips_are_told_from_plain_ones() {
        use std::io::Write;
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        zip.start_file("a.txt", zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(b"hello").unwrap();
        let mut plain = zip.finish().unwrap().into_inner();
        assert_eq!(encrypted_format(&plain), None);
        // Set the encryption bit in the local and central headers, as an encrypting zip does.
        for sig in [&b"PK\x03\x04"[..], b"PK\x01\x02"] {
            let at = memchr::memmem::find(&plain, sig).unwrap();
            plain[at + if sig[2] == 3 { 6 } else { 8 }] |= 1;
        }
        assert_eq!(encrypted_format(&plain), Some("zip"));
        assert_eq!(
            encrypted_format(b"7z\xBC\xAF\x27\x1C\x00\x04..\x06\xF1\x07\x01"),
            Some("7z")
        );
        assert_eq!(encrypted_format(b"\x89PNG"), None);
    }
}
