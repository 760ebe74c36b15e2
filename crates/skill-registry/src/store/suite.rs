//! The storage test suite every backend must pass (SQLite in its unit tests, PostgreSQL in
//! `postgres`'s).

use super::*;
use skill_model::fingerprint::sha256_hex;

fn file(path: &str, text: &str) -> NewFile {
    NewFile {
        path: path.into(),
        bytes: text.as_bytes().to_vec(),
        content_type: Some("text/markdown".into()),
    }
}

fn request(slug: &str, version: &str) -> PublishRequest {
    PublishRequest {
        slug: slug.into(),
        display_name: "PDF Tools".into(),
        summary: Some("Extract tables from PDF files".into()),
        version: version.into(),
        changelog: String::new(),
        tags: vec![],
        files: vec![
            file(
                "SKILL.md",
                &format!("---\nname: {slug}\ndescription: d\n---\nversion {version}\n"),
            ),
            file("references/a.md", "a"),
        ],
        tickets: vec![],
        signature: None,
    }
}

fn alice(store: &dyn Store) -> User {
    store.add_user("Alice", Some("Alice")).unwrap()
}

/// Every text a publisher writes into listings is bounded: a publish over a limit is refused
/// naming it, and nothing is stored.
pub(crate) fn listing_text_is_bounded(store: &dyn Store) {
    let alice = alice(store);
    let huge = "x".repeat(4 << 20);
    type Set = fn(&mut PublishRequest, &str);
    let cases: [(Set, &str); 4] = [
        (
            |r, h| r.display_name = h.to_owned(),
            "displayName must be at most 128 characters",
        ),
        (
            |r, h| r.summary = Some(h.to_owned()),
            "summary must be at most 1024 characters",
        ),
        (
            |r, h| r.changelog = h.to_owned(),
            "changelog must be at most 65536 bytes",
        ),
        (
            |r, h| r.tags = vec![h[..100].to_owned()],
            "is longer than 64 bytes",
        ),
    ];
    for (set, message) in cases {
        let mut request = request("pdf-tools", "1.0.0");
        set(&mut request, &huge);
        match store.publish(&alice, &request) {
            Err(StoreError::Invalid(m)) => assert!(m.contains(message), "{m}"),
            other => panic!("{message}: {other:?}"),
        }
    }
    let mut many = request("pdf-tools", "1.0.0");
    many.tags = (0..33).map(|i| format!("t{i}")).collect();
    assert!(matches!(
        store.publish(&alice, &many),
        Err(StoreError::Invalid(_))
    ));
    store
        .publish(&alice, &request("pdf-tools", "1.0.0"))
        .unwrap();
}

/// Build metadata does not make a new version (semver precedence decides what is taken), and
/// prerelease and build labels have a length limit.
pub(crate) fn build_metadata_makes_no_new_version(store: &dyn Store) {
    let alice = alice(store);
    store
        .publish(&alice, &request("pdf-tools", "1.0.0+build1"))
        .unwrap();
    assert_eq!(
        store
            .publish(&alice, &request("pdf-tools", "1.0.0+build2"))
            .unwrap_err(),
        StoreError::Conflict(
            "Version 1.0.0+build1 already exists, and 1.0.0+build2 differs from it only in build metadata. Increment the version number and try again.".into()
        )
    );
    assert!(matches!(
        store.publish(&alice, &request("pdf-tools", "1.0.0")),
        Err(StoreError::Conflict(_))
    ));
    store
        .publish(&alice, &request("pdf-tools", "1.0.1-rc.1+build1"))
        .unwrap();
    store
        .publish(&alice, &request("pdf-tools", "1.0.1+build1"))
        .unwrap();
    assert_eq!(store.versions("pdf-tools").unwrap().len(), 3);
    let long = "a".repeat(rules::MAX_VERSION_LABEL + 1);
    assert_eq!(
        store
            .publish(&alice, &request("pdf-tools", &format!("2.0.0+{long}")))
            .unwrap_err(),
        StoreError::Invalid("Version build metadata must be at most 64 characters".into())
    );
    assert_eq!(
        store
            .publish(&alice, &request("pdf-tools", &format!("2.0.0-{long}")))
            .unwrap_err(),
        StoreError::Invalid("Version prerelease must be at most 64 characters".into())
    );
}

fn terms(label: Option<&str>) -> NewToken<'_> {
    NewToken {
        label,
        scopes: Scopes::ALL,
        expires_at: None,
    }
}

/// The user a token speaks for, if it is live.
fn user_of(store: &dyn Store, token: &str) -> Option<User> {
    store.grant_for_token(token).unwrap().map(|g| g.user)
}

/// Tokens: created, resolved, unknown ones refused; returns the token.
pub fn tokens(store: &dyn Store) -> String {
    let user = alice(store);
    let token = store.create_token("alice", &terms(Some("ci"))).unwrap();
    assert!(token.starts_with("skl_") && token.len() == 52);
    assert_eq!(user_of(store, &token), Some(user));
    assert_eq!(user_of(store, "skl_nope"), None);
    assert!(matches!(
        store.create_token("bob", &terms(None)),
        Err(StoreError::NoUser(_))
    ));
    assert!(matches!(
        store.add_user("alice", None),
        Err(StoreError::Conflict(_))
    ));
    // Listed by label and id, revoked by id and handle, and gone at once.
    let spare = store.create_token("alice", &terms(None)).unwrap();
    let listed = store.tokens("alice").unwrap();
    assert_eq!(
        listed
            .iter()
            .map(|t| t.label.as_deref())
            .collect::<Vec<_>>(),
        [Some("ci"), None]
    );
    store.add_user("bob", None).unwrap();
    assert!(matches!(
        store.revoke_token("bob", listed[1].id),
        Err(StoreError::NoToken { .. })
    ));
    store.revoke_token("@Alice", listed[1].id).unwrap();
    assert_eq!(user_of(store, &spare), None);
    assert!(user_of(store, &token).is_some());
    assert!(matches!(
        store.revoke_token("alice", listed[1].id),
        Err(StoreError::NoToken { .. })
    ));
    assert_eq!(store.tokens("alice").unwrap().len(), 1);
    token
}

/// Scopes and expiry: a token's admin powers need both an administrator and the admin scope,
/// an expired token speaks for nobody, and each use of an admin token is in the audit log.
pub(crate) fn token_scopes_and_expiry(store: &dyn Store) {
    store.add_user("root", None).unwrap();
    store.set_admin("root", true).unwrap();
    let read_only = NewToken {
        label: Some("ro"),
        scopes: Scopes::default(),
        expires_at: None,
    };
    let read = store.create_token("root", &read_only).unwrap();
    let grant = store.grant_for_token(&read).unwrap().unwrap();
    assert_eq!(grant.scopes, Scopes::default());
    assert!(!grant.user.admin, "no admin scope, no admin powers");
    let admin_terms = NewToken {
        scopes: Scopes {
            publish: false,
            admin: true,
        },
        expires_at: Some(now_ms() + 60_000),
        ..read_only
    };
    let admin = store.create_token("root", &admin_terms).unwrap();
    assert!(store.grant_for_token(&admin).unwrap().unwrap().user.admin);
    let expired = NewToken {
        expires_at: Some(now_ms() - 1),
        ..admin_terms
    };
    let stale = store.create_token("root", &expired).unwrap();
    assert_eq!(store.grant_for_token(&stale).unwrap(), None);
    let listed = store.tokens("root").unwrap();
    let shown: Vec<(String, bool)> = listed
        .iter()
        .map(|t| (t.scopes.to_text(), t.expires_at.is_some()))
        .collect();
    assert_eq!(
        shown,
        [
            ("read".to_owned(), false),
            ("read,admin".to_owned(), true),
            ("read,admin".to_owned(), true)
        ]
    );

    use_token(store, &read, "whoami").unwrap().unwrap();
    use_token(store, &admin, "search").unwrap().unwrap();
    assert_eq!(use_token(store, &stale, "search").unwrap(), None);
    let log = store.audit_log(None).unwrap();
    let uses: Vec<(&str, &str, &str)> = log
        .iter()
        .map(|e| (e.actor.as_str(), e.action.as_str(), e.note.as_str()))
        .collect();
    let note = format!("token {} used for search", listed[1].id);
    assert_eq!(uses, [("root", "admin-token", note.as_str())]);
}

/// Versions are immutable, `latest` is the highest semver, slugs are owned.
pub(crate) fn publish_rules_versions_and_latest(store: &dyn Store) {
    let alice = alice(store);
    let first = latest_is_the_highest_semver(store, &alice);
    taken_and_invalid_versions_are_refused(store, &alice);
    assert_eq!(
        store.resolve("pdf-tools", &first.fingerprint).unwrap(),
        Some("1.0.0".into())
    );
    assert_eq!(
        store.file("pdf-tools", "1.0.0", "references/a.md").unwrap(),
        Some(b"a".to_vec())
    );
    let listed: Vec<String> = store
        .versions("pdf-tools")
        .unwrap()
        .into_iter()
        .map(|v| v.version)
        .collect();
    assert_eq!(listed, ["1.0.1", "2.0.0-beta.1", "1.0.0"]);
}

/// Publishes 1.0.0, 2.0.0-beta.1 and then a backport 1.0.1 of pdf-tools: `latest` stays on the
/// highest. Returns the first publish.
fn latest_is_the_highest_semver(store: &dyn Store, alice: &User) -> Published {
    let first = store
        .publish(alice, &request("pdf-tools", "1.0.0"))
        .unwrap();
    store
        .publish(alice, &request("pdf-tools", "2.0.0-beta.1"))
        .unwrap();
    store
        .publish(alice, &request("pdf-tools", "1.0.1"))
        .unwrap();
    let skill = store.skill("PDF-Tools").unwrap().unwrap();
    assert_eq!(
        skill.latest.unwrap().version,
        "2.0.0-beta.1",
        "latest is the highest semver; a backport does not move it"
    );
    assert_eq!(
        skill.tags.get("latest").map(String::as_str),
        Some("2.0.0-beta.1")
    );
    assert_eq!(skill.versions, 3);
    first
}

/// A version number already used, one that is not semver, a reserved slug, and another
/// publisher's slug are refused.
fn taken_and_invalid_versions_are_refused(store: &dyn Store, alice: &User) {
    assert_eq!(
        store
            .publish(alice, &request("pdf-tools", "1.0.0"))
            .unwrap_err(),
        StoreError::Conflict(
            "Version 1.0.0 already exists. Increment the version number and try again.".into()
        )
    );
    assert_eq!(
        store
            .publish(alice, &request("pdf-tools", "1.0"))
            .unwrap_err(),
        StoreError::Invalid("Version must be valid semver".into())
    );
    assert!(
        matches!(store.publish(alice, &request("admin", "1.0.0")), Err(StoreError::Invalid(m)) if m.contains("reserved"))
    );
    let bob = store.add_user("bob", None).unwrap();
    assert_eq!(
        store
            .publish(&bob, &request("pdf-tools", "9.0.0"))
            .unwrap_err(),
        StoreError::Forbidden("Slug is already taken. Choose a different slug.".into())
    );
}

/// A publish that fails leaves no trace.
pub(crate) fn a_failed_publish_leaves_nothing(store: &dyn Store) {
    let alice = alice(store);
    let mut bad = request("half-done", "1.0.0");
    bad.files.push(file("references/a.md", "duplicate path"));
    assert!(store.publish(&alice, &bad).is_err());
    assert_eq!(
        store.skill("half-done").unwrap(),
        None,
        "no skill row survives the rolled-back transaction"
    );
    let mut no_manifest = request("no-manifest", "1.0.0");
    no_manifest.files.remove(0);
    assert!(matches!(
        store.publish(&alice, &no_manifest),
        Err(StoreError::Invalid(_))
    ));
    let mut big = request("big", "1.0.0");
    big.files.push(NewFile {
        path: "assets/x.bin".into(),
        bytes: vec![0; skill_model::limits::FILE_BYTES as usize + 1],
        content_type: None,
    });
    assert_eq!(
        store.publish(&alice, &big).unwrap_err(),
        StoreError::TooLarge("File \"assets/x.bin\" exceeds 10MB limit".into())
    );
}

/// Racing publishes of one version number: one wins, the rest conflict.
pub(crate) fn twenty_concurrent_publishes_of_one_version_leave_one(store: &dyn Store) {
    let alice = alice(store);
    store.publish(&alice, &request("race", "0.1.0")).unwrap();
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..20)
            .map(|_| s.spawn(|| store.publish(&alice, &request("race", "1.0.0"))))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
    assert!(
        results
            .iter()
            .filter(|r| r.is_err())
            .all(|r| matches!(r, Err(StoreError::Conflict(_))))
    );
    assert_eq!(store.versions("race").unwrap().len(), 2);
}

/// Search ranks and skips deleted skills; only owners delete and restore.
pub(crate) fn search_and_soft_delete(store: &dyn Store) {
    let alice = alice(store);
    store
        .publish(&alice, &request("pdf-tools", "1.0.0"))
        .unwrap();
    let mut other = request("csv-report", "1.0.0");
    other.display_name = "CSV report".into();
    other.summary = Some("Summarise CSV files into tables".into());
    other.tags = vec!["spreadsheets".into()];
    store.publish(&alice, &other).unwrap();
    let tagged: Vec<String> = store
        .search("spreadsheets", 25)
        .unwrap()
        .into_iter()
        .map(|h| h.slug)
        .collect();
    assert_eq!(tagged, ["csv-report"], "tags are searched");
    let hits: Vec<String> = store
        .search("tables", 25)
        .unwrap()
        .into_iter()
        .map(|h| h.slug)
        .collect();
    assert_eq!(hits.len(), 2);
    let top = store.search("pdf-tools", 25).unwrap();
    assert_eq!(top[0].slug, "pdf-tools");
    assert!(top.iter().all(|h| h.score > 0.0));
    assert_eq!(top[0].version.as_deref(), Some("1.0.0"));
    assert!(store.search("", 25).unwrap().is_empty());
    assert!(
        store
            .search("\"; DROP TABLE skills; --", 25)
            .unwrap()
            .is_empty()
    );
    store.delete_skill(&alice, "pdf-tools").unwrap();
    assert_eq!(store.skill("pdf-tools").unwrap(), None);
    assert!(
        store
            .search("pdf", 25)
            .unwrap()
            .iter()
            .all(|h| h.slug != "pdf-tools")
    );
    let bob = store.add_user("bob", None).unwrap();
    assert!(matches!(
        store.undelete_skill(&bob, "pdf-tools"),
        Err(StoreError::Forbidden(_))
    ));
    store.undelete_skill(&alice, "pdf-tools").unwrap();
    assert!(store.skill("pdf-tools").unwrap().is_some());
}

/// Upload tickets: one upload each, used up by the publish that names them, left in place by
/// a publish that fails, and never used twice.
pub(crate) fn upload_tickets(store: &dyn Store) {
    let alice = alice(store);
    let ticket = tickets_take_one_upload(store, &alice);
    publishes_use_up_their_tickets(store, &alice, &ticket);
}

/// An expired ticket is forgotten and a live one takes one upload; returns that ticket as
/// created, for more like it.
fn tickets_take_one_upload(store: &dyn Store, alice: &User) -> UploadTicket {
    let ticket = UploadTicket {
        user_id: alice.id,
        path: "SKILL.md".into(),
        size: 3,
        sha256: "ab".repeat(32),
        content_type: None,
        expires_at: now_ms() + 60_000,
        bytes: None,
    };
    let expired = UploadTicket {
        expires_at: now_ms() - 1,
        ..ticket.clone()
    };
    store.create_ticket("upl_old", &expired).unwrap();
    store.create_ticket("upl_1", &ticket).unwrap();
    assert_eq!(
        store.ticket("upl_old").unwrap(),
        None,
        "expired tickets are forgotten"
    );
    assert_eq!(store.ticket("upl_1").unwrap(), Some(ticket.clone()));
    assert_eq!(store.ticket("upl_2").unwrap(), None);
    assert!(store.fill_ticket("upl_1", b"abc").unwrap());
    assert!(
        !store.fill_ticket("upl_1", b"xyz").unwrap(),
        "one upload per ticket"
    );
    assert_eq!(
        store.ticket("upl_1").unwrap().unwrap().bytes.as_deref(),
        Some(&b"abc"[..])
    );
    ticket
}

/// A publish refuses a ticket never uploaded or already used, uses up the uploaded `upl_1`, and
/// keeps the tickets of a publish that fails.
fn publishes_use_up_their_tickets(store: &dyn Store, alice: &User, ticket: &UploadTicket) {
    store.create_ticket("upl_empty", ticket).unwrap();
    let with = |version: &str, ids: &[&str]| {
        let mut r = request("ticketed", version);
        r.tickets = ids.iter().map(|s| s.to_string()).collect();
        store.publish(alice, &r)
    };
    let reused = Err(StoreError::Invalid(
        "Skill upload tickets cannot be reused".into(),
    ));
    assert_eq!(
        with("1.0.0", &["upl_empty"]).map(|_| ()),
        reused,
        "never uploaded"
    );
    assert!(with("1.0.0", &["upl_1"]).is_ok());
    assert_eq!(store.ticket("upl_1").unwrap(), None, "used up");
    assert_eq!(with("1.0.1", &["upl_1"]).map(|_| ()), reused);
    store.create_ticket("upl_3", ticket).unwrap();
    store.fill_ticket("upl_3", b"abc").unwrap();
    assert!(matches!(
        with("1.0.0", &["upl_3"]),
        Err(StoreError::Conflict(_))
    ));
    assert!(
        store.ticket("upl_3").unwrap().is_some(),
        "a failed publish keeps its tickets"
    );
}

/// The web pages' lists: recent and popular skills, a user's skills, users by handle, and the
/// download count popular ranks by; deleted skills are in none of them.
pub(crate) fn lists_users_and_downloads(store: &dyn Store) {
    let alice = alice(store);
    let bob = store.add_user("bob", None).unwrap();
    store.publish(&alice, &request("first", "1.0.0")).unwrap();
    store.publish(&bob, &request("second", "1.0.0")).unwrap();
    // Distinct timestamps, so "recent" has one right order.
    std::thread::sleep(std::time::Duration::from_millis(5));
    store.publish(&alice, &request("third", "1.0.0")).unwrap();
    store.publish(&alice, &request("third", "1.1.0")).unwrap();
    recent_skills_come_first(store);
    popular_ranks_by_downloads(store);
    lists_by_owner_and_users_by_handle(store, &alice);
    store.delete_skill(&alice, "first").unwrap();
    assert_eq!(
        slugs(
            store
                .list_skills(Some("alice"), SkillOrder::Popular, 0, 10)
                .unwrap()
        ),
        ["third"]
    );
}

/// The slugs of a list, in its order.
fn slugs(list: Vec<SkillSummary>) -> Vec<String> {
    list.into_iter().map(|s| s.slug).collect::<Vec<_>>()
}

/// The recent list, newest first, with offset and limit.
fn recent_skills_come_first(store: &dyn Store) {
    let recent = store.list_skills(None, SkillOrder::Recent, 0, 10).unwrap();
    assert_eq!(recent[0].slug, "third");
    assert_eq!(recent[0].version.as_deref(), Some("1.1.0"));
    assert_eq!(recent[0].owner_handle, "alice");
    assert_eq!(recent.len(), 3);
    assert_eq!(
        slugs(store.list_skills(None, SkillOrder::Recent, 1, 1).unwrap()).len(),
        1,
        "offset and limit"
    );
    assert_eq!(
        slugs(store.list_skills(None, SkillOrder::Recent, 3, 10).unwrap()),
        Vec::<String>::new()
    );
}

/// Download counts, slugs in any case and unknown ones ignored, rank the popular list.
fn popular_ranks_by_downloads(store: &dyn Store) {
    let counts = [
        ("second", 1),
        ("SECOND", 1),
        ("first", 1),
        ("no-such-skill", 4),
    ];
    store
        .count_downloads(&counts.map(|(s, n)| (s.to_owned(), n)))
        .unwrap();
    let popular = store.list_skills(None, SkillOrder::Popular, 0, 10).unwrap();
    assert_eq!(slugs(popular.clone()), ["second", "first", "third"]);
    assert_eq!(popular[0].downloads, 2);
    assert_eq!(store.skill("second").unwrap().unwrap().downloads, 2);
}

/// A user's skills, found by handle in any case and with `@`, and users by handle.
fn lists_by_owner_and_users_by_handle(store: &dyn Store, alice: &User) {
    let mut mine = slugs(
        store
            .list_skills(Some("@Alice"), SkillOrder::Recent, 0, 10)
            .unwrap(),
    );
    mine.sort();
    assert_eq!(mine, ["first", "third"]);
    assert_eq!(
        slugs(
            store
                .list_skills(Some("nobody"), SkillOrder::Recent, 0, 10)
                .unwrap()
        ),
        Vec::<String>::new()
    );
    assert_eq!(store.user("@ALICE").unwrap(), Some(alice.clone()));
    assert_eq!(store.user("nobody").unwrap(), None);
}

/// A signature is stored with its version when its trusted comment names this slug, version and
/// file set; garbage, an oversized one, or one made for other files is refused and nothing is
/// stored.
pub fn signatures(store: &dyn Store) {
    use skill_archive::signature::{Protection, keygen, manifest_comment};
    let alice = alice(store);
    let tmp = tempfile::tempdir().unwrap();
    let key = tmp.path().join("alice");
    keygen(&key, Protection::None).unwrap();
    let mut req = request("pdf-tools", "1.0.0");
    bad_signatures_are_refused(store, &alice, &mut req, &key);
    assert!(store.skill("pdf-tools").unwrap().is_none());
    let hashes: Vec<(String, String)> = req
        .files
        .iter()
        .map(|f| (f.path.clone(), sha256_hex(&f.bytes)))
        .collect();
    let fingerprint = skill_model::fingerprint::fingerprint(&hashes);
    let good = signed(
        &req,
        &key,
        &manifest_comment("pdf-tools", "1.0.0", &fingerprint),
    );
    req.signature = Some(good.clone());
    store.publish(&alice, &req).unwrap();
    let stored = store.version("pdf-tools", "1.0.0").unwrap().unwrap();
    assert_eq!(stored.signature, Some(good));
    store
        .publish(&alice, &request("pdf-tools", "1.0.1"))
        .unwrap();
    let unsigned = store.version("pdf-tools", "1.0.1").unwrap().unwrap();
    assert_eq!(unsigned.signature, None);
}

/// The signature of `req`'s file manifest with the secret half of `key`, trusted comment
/// `comment`.
fn signed(req: &PublishRequest, key: &std::path::Path, comment: &str) -> String {
    let hashes: Vec<(String, String)> = req
        .files
        .iter()
        .map(|f| (f.path.clone(), sha256_hex(&f.bytes)))
        .collect();
    let manifest = skill_model::fingerprint::manifest(&hashes);
    skill_archive::signature::sign_bytes(
        manifest.as_bytes(),
        &key.with_extension("key"),
        None,
        comment,
    )
    .unwrap()
}

/// Publishes `req` with garbage, an oversized signature, and signatures whose trusted comment
/// names other files or another skill: each is refused saying why.
fn bad_signatures_are_refused(
    store: &dyn Store,
    alice: &User,
    req: &mut PublishRequest,
    key: &std::path::Path,
) {
    use skill_archive::signature::manifest_comment;
    for (signature, says) in [
        ("not a signature".to_owned(), "signature"),
        ("x".repeat(5000), "longer than 4096 bytes"),
        (
            signed(
                req,
                key,
                &manifest_comment("pdf-tools", "1.0.0", &"0".repeat(64)),
            ),
            "trusted comment",
        ),
        (
            signed(req, key, &manifest_comment("other", "1.0.0", "")),
            "skill:other",
        ),
    ] {
        req.signature = Some(signature);
        match store.publish(alice, req) {
            Err(StoreError::Invalid(message)) => assert!(message.contains(says), "{message}"),
            other => panic!("{other:?}"),
        }
    }
}

/// `explore` (every order, a slug prefix, offset and limit), stars (idempotent, per user,
/// unknown slugs refused), tags moved by their owner, and versions withdrawn and restored.
pub(crate) fn explore_stars_tags_and_withdrawn_versions(store: &dyn Store) {
    let alice = alice(store);
    let bob = store.add_user("bob", None).unwrap();
    store
        .publish(&alice, &request("pdf-tools", "1.0.0"))
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(5));
    store.publish(&bob, &request("pdf-merge", "1.0.0")).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(5));
    store
        .publish(&alice, &request("csv-report", "1.0.0"))
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(5));
    // A new version moves `updated` but not `created`.
    store
        .publish(&alice, &request("pdf-tools", "1.1.0"))
        .unwrap();
    explore_orders_prefixes_and_pages(store);
    stars_are_per_user_and_idempotent(store, &alice, &bob);
    tags_are_moved_by_their_owner(store, &alice, &bob);
    withdrawn_versions_keep_their_number(store, &alice, &bob);
    restored_versions_come_back_without_tags(store, &alice);

    // The owner may move `latest` back; a deleted skill leaves lists and takes no stars.
    store
        .set_tag(&alice, "pdf-tools", "latest", "1.0.0")
        .unwrap();
    assert_eq!(
        store.skill("pdf-tools").unwrap().unwrap().tags["latest"],
        "1.0.0"
    );
    store.delete_skill(&bob, "pdf-merge").unwrap();
    assert_eq!(
        explored(store, ExploreOrder::Name, Some("pdf"), 0, 10),
        ["pdf-tools"]
    );
    assert!(matches!(
        store.star(&alice, "pdf-merge"),
        Err(StoreError::NotFound(_))
    ));
}

/// The slugs `explore` lists.
fn explored(
    store: &dyn Store,
    order: ExploreOrder,
    prefix: Option<&str>,
    offset: usize,
    limit: usize,
) -> Vec<String> {
    store.explore(order, prefix, offset, limit).unwrap()
}

/// Every order of pdf-tools, pdf-merge and csv-report, a slug prefix in any case (LIKE's
/// wildcards taken literally), offset and limit.
fn explore_orders_prefixes_and_pages(store: &dyn Store) {
    let list =
        |order, prefix: Option<&str>, offset, limit| explored(store, order, prefix, offset, limit);
    assert_eq!(
        list(ExploreOrder::Updated, None, 0, 10),
        ["pdf-tools", "csv-report", "pdf-merge"]
    );
    assert_eq!(
        list(ExploreOrder::Created, None, 0, 10),
        ["csv-report", "pdf-merge", "pdf-tools"]
    );
    assert_eq!(
        list(ExploreOrder::Name, None, 0, 10),
        ["csv-report", "pdf-merge", "pdf-tools"]
    );
    assert_eq!(
        list(ExploreOrder::Name, Some("PDF-"), 0, 10),
        ["pdf-merge", "pdf-tools"]
    );
    assert_eq!(list(ExploreOrder::Name, Some("pdf-"), 1, 1), ["pdf-tools"]);
    assert_eq!(
        list(ExploreOrder::Name, Some("%"), 0, 10),
        Vec::<String>::new()
    );
    assert_eq!(
        list(ExploreOrder::Name, Some("_df"), 0, 10),
        Vec::<String>::new()
    );
}

/// Stars: one per user, idempotent both ways; the stars, downloads and trending orders.
fn stars_are_per_user_and_idempotent(store: &dyn Store, alice: &User, bob: &User) {
    assert!(store.star(alice, "pdf-merge").unwrap());
    assert!(!store.star(alice, "PDF-MERGE").unwrap());
    assert!(store.star(bob, "pdf-merge").unwrap());
    assert!(store.star(bob, "csv-report").unwrap());
    assert_eq!(store.stars("pdf-merge").unwrap(), 2);
    assert_eq!(store.stars("no-such-skill").unwrap(), 0);
    assert!(matches!(
        store.star(alice, "no-such-skill"),
        Err(StoreError::NotFound(_))
    ));
    assert_eq!(
        explored(store, ExploreOrder::Stars, None, 0, 10),
        ["pdf-merge", "csv-report", "pdf-tools"]
    );
    store
        .count_downloads(&[("pdf-tools".to_owned(), 3)])
        .unwrap();
    assert_eq!(
        explored(store, ExploreOrder::Downloads, None, 0, 1),
        ["pdf-tools"]
    );
    assert_eq!(
        explored(store, ExploreOrder::Trending, None, 0, 1),
        ["pdf-tools"]
    );
    assert!(store.unstar(bob, "pdf-merge").unwrap());
    assert!(!store.unstar(bob, "pdf-merge").unwrap());
    assert_eq!(store.stars("pdf-merge").unwrap(), 1);
}

/// Tags: the owner points one at a live version; others may not.
fn tags_are_moved_by_their_owner(store: &dyn Store, alice: &User, bob: &User) {
    store
        .set_tag(alice, "pdf-tools", "stable", "1.0.0")
        .unwrap();
    assert_eq!(
        store.skill("pdf-tools").unwrap().unwrap().tags["stable"],
        "1.0.0"
    );
    assert!(matches!(
        store.set_tag(bob, "pdf-tools", "stable", "1.1.0"),
        Err(StoreError::Forbidden(_))
    ));
    assert!(matches!(
        store.set_tag(alice, "pdf-tools", "stable", "9.9.9"),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.set_tag(alice, "pdf-tools", "_hidden", "1.0.0"),
        Err(StoreError::Invalid(_))
    ));
}

/// Withdrawing: never the latest, owner only; the version and its tags go, the number stays
/// taken.
fn withdrawn_versions_keep_their_number(store: &dyn Store, alice: &User, bob: &User) {
    assert_eq!(
        store
            .delete_version(alice, "pdf-tools", "1.1.0")
            .unwrap_err(),
        StoreError::Invalid(LATEST_VERSION_REFUSED.into())
    );
    assert!(matches!(
        store.delete_version(bob, "pdf-tools", "1.0.0"),
        Err(StoreError::Forbidden(_))
    ));
    assert!(!store.withdrawn("pdf-tools", "1.0.0").unwrap());
    store.delete_version(alice, "pdf-tools", "1.0.0").unwrap();
    assert_eq!(store.version("pdf-tools", "1.0.0").unwrap(), None);
    assert!(store.withdrawn("pdf-tools", "1.0.0").unwrap());
    assert!(!store.withdrawn("pdf-tools", "1.1.0").unwrap());
    assert!(!store.withdrawn("no-such-skill", "1.0.0").unwrap());
    let skill = store.skill("pdf-tools").unwrap().unwrap();
    assert_eq!(skill.versions, 1);
    assert!(!skill.tags.contains_key("stable"));
    let versions: Vec<String> = store
        .versions("pdf-tools")
        .unwrap()
        .into_iter()
        .map(|v| v.version)
        .collect();
    assert_eq!(versions, ["1.1.0"]);
    assert!(matches!(
        store.publish(alice, &request("pdf-tools", "1.0.0")),
        Err(StoreError::Conflict(_))
    ));
    assert!(matches!(
        store.set_tag(alice, "pdf-tools", "stable", "1.0.0"),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.delete_version(alice, "pdf-tools", "3.0.0"),
        Err(StoreError::NotFound(_))
    ));
}

/// Restoring (twice is fine) brings the withdrawn 1.0.0 back without its tags; `latest` stays.
fn restored_versions_come_back_without_tags(store: &dyn Store, alice: &User) {
    store.restore_version(alice, "pdf-tools", "1.0.0").unwrap();
    store.restore_version(alice, "pdf-tools", "1.0.0").unwrap();
    assert!(!store.withdrawn("pdf-tools", "1.0.0").unwrap());
    assert!(store.version("pdf-tools", "1.0.0").unwrap().is_some());
    let skill = store.skill("pdf-tools").unwrap().unwrap();
    assert_eq!(skill.versions, 2);
    assert_eq!(skill.latest.unwrap().version, "1.1.0");
    assert!(!skill.tags.contains_key("stable"));
}
