//! What each page shows: store reads turned into the values its template prints. Every string
//! from the store that is shown as a name goes through [`text::plain`]; bodies go through
//! [`markdown::render`]; the templates escape the rest.

use super::markdown::{self, FileLinks};
use super::text::{self, encode_component, encode_path, plain};
use super::{Page, PageError, Viewer, Web};
use crate::store::{
    HeldVersion, Moderation, SearchHit, SkillInfo, SkillOrder, SkillSummary, Store, StoreError,
    StoredFinding, VersionInfo,
};
use serde::Serialize;
use skill_model::layout::SKILL_MD;
use skill_model::{Document, Requirements, Source};

/// Items on one page of a list.
pub(crate) const PER_PAGE: usize = 20;

/// The largest `?page=` accepted; past it a request is a 400, so no query skips millions of rows.
pub(crate) const MAX_PAGE: usize = 10_000;

/// Pages of search results: the API's largest `limit` is 200.
const SEARCH_PAGES: usize = 10;

/// The largest SKILL.md rendered on a skill's page; a longer one is read in the files view.
const MAX_RENDERED_BODY: usize = 512 * 1024;

/// The largest text file shown on its page; a longer one is offered raw.
const MAX_SHOWN_FILE: u64 = 1024 * 1024;

/// One skill in a list.
#[derive(Debug, Serialize)]
struct SkillRow {
    slug: String,
    url: String,
    name: String,
    summary: Option<String>,
    owner: String,
    owner_url: String,
    version: Option<String>,
    updated: String,
    downloads: Option<u64>,
}

fn skill_url(slug: &str) -> String {
    format!("/skills/{}", encode_component(slug))
}

fn user_url(handle: &str) -> String {
    format!("/users/{}", encode_component(handle))
}

fn version_url(slug: &str, version: &str) -> String {
    format!("{}/{}", skill_url(slug), encode_component(version))
}

impl From<SkillSummary> for SkillRow {
    fn from(s: SkillSummary) -> SkillRow {
        SkillRow {
            url: skill_url(&s.slug),
            name: plain(&s.display_name),
            summary: s.summary.as_deref().map(plain),
            owner_url: user_url(&s.owner_handle),
            owner: plain(&s.owner_handle),
            version: s.version.as_deref().map(plain),
            updated: text::date(s.updated_at),
            downloads: Some(s.downloads),
            slug: s.slug,
        }
    }
}

impl From<SearchHit> for SkillRow {
    fn from(h: SearchHit) -> SkillRow {
        SkillRow {
            url: skill_url(&h.slug),
            name: plain(&h.display_name),
            summary: h.summary.as_deref().map(plain),
            owner_url: user_url(&h.owner_handle),
            owner: plain(&h.owner_handle),
            version: h.version.as_deref().map(plain),
            updated: text::date(h.updated_at),
            downloads: None,
            slug: h.slug,
        }
    }
}

/// Links to the pages either side of `page` of a list at `base` (which may have a query).
#[derive(Debug, Serialize)]
struct Pager {
    page: usize,
    prev: Option<String>,
    next: Option<String>,
}

impl Pager {
    fn new(base: &str, page: usize, has_next: bool) -> Pager {
        let join = if base.contains('?') { '&' } else { '?' };
        let link = |p: usize| {
            if p == 1 {
                base.to_owned()
            } else {
                format!("{base}{join}page={p}")
            }
        };
        Pager {
            page,
            prev: (page > 1).then(|| link(page - 1)),
            next: has_next.then(|| link(page + 1)),
        }
    }
}

/// `items` (one more than a page was asked for) cut to a page, and whether there is a next one.
fn cut<T>(mut items: Vec<T>) -> (Vec<T>, bool) {
    let more = items.len() > PER_PAGE;
    items.truncate(PER_PAGE);
    (items, more)
}

/// `/`: recently published skills (paged) and, on the first page, the most downloaded.
pub async fn index(web: &Web, page: usize) -> Result<Page, PageError> {
    let offset = (page - 1) * PER_PAGE;
    let (recent, popular) = web
        .run(move |s| {
            let recent = s.list_skills(None, SkillOrder::Recent, offset, PER_PAGE + 1)?;
            let popular = if page == 1 {
                s.list_skills(None, SkillOrder::Popular, 0, 8)?
            } else {
                Vec::new()
            };
            Ok((recent, popular))
        })
        .await?;
    let (recent, more) = cut(recent);
    // Until something has been downloaded, "most downloaded" would only repeat "recent".
    let popular: Vec<SkillRow> = popular
        .into_iter()
        .filter(|s| s.downloads > 0)
        .map(SkillRow::from)
        .collect();
    let recent: Vec<SkillRow> = recent.into_iter().map(SkillRow::from).collect();
    #[derive(Serialize)]
    struct Index {
        recent: Vec<SkillRow>,
        popular: Vec<SkillRow>,
        pager: Pager,
    }
    Ok(Page::new(
        "index.html",
        &Index {
            recent,
            popular,
            pager: Pager::new("/", page, more),
        },
    ))
}

/// `/search?q=`: the API's ranking, a page at a time.
pub async fn search(web: &Web, query: &str, page: usize) -> Result<Page, PageError> {
    #[derive(Serialize)]
    struct Search {
        results: Vec<SkillRow>,
        count_text: String,
        pager: Pager,
    }
    if query.is_empty() {
        let empty = Search {
            results: Vec::new(),
            count_text: String::new(),
            pager: Pager::new("/search", 1, false),
        };
        return Ok(Page::new("search.html", &empty));
    }
    let cap = SEARCH_PAGES * PER_PAGE;
    let page = page.min(SEARCH_PAGES + 1);
    let limit = (page * PER_PAGE + 1).min(cap);
    let q = query.to_owned();
    let hits = web.run(move |s| s.search(&q, limit)).await?;
    let offset = (page - 1) * PER_PAGE;
    let count_text = match hits.len() {
        0 => "No results".to_owned(),
        1 if limit > 1 => "1 result".to_owned(),
        n if n < limit => format!("{n} results"),
        _ if limit == cap => format!("{cap} or more results"),
        _ => format!("More than {} results", limit - 1),
    };
    let rest: Vec<SearchHit> = hits.into_iter().skip(offset).collect();
    let (rest, more) = cut(rest);
    let more = more && page < SEARCH_PAGES;
    let base = format!("/search?q={}", encode_component(query));
    Ok(Page::new(
        "search.html",
        &Search {
            results: rest.into_iter().map(SkillRow::from).collect(),
            count_text,
            pager: Pager::new(&base, page, more),
        },
    ))
}

/// A declared requirement, as the page lists it.
#[derive(Debug, Serialize)]
struct RequirementRow {
    label: &'static str,
    values: Vec<String>,
}

fn requirement_rows(req: &Requirements) -> Vec<RequirementRow> {
    let values = |items: &[skill_model::requirements::Item]| {
        items.iter().map(|i| plain(&i.value)).collect::<Vec<_>>()
    };
    [
        ("Programs", values(&req.bins)),
        ("One of these programs", values(&req.any_bins)),
        ("Environment variables", values(&req.env)),
        ("OpenClaw settings", values(&req.config)),
        ("Operating systems", values(&req.os)),
    ]
    .into_iter()
    .filter(|(_, v)| !v.is_empty())
    .map(|(label, values)| RequirementRow { label, values })
    .collect()
}

/// What the publish scan found in a version, for the eyes of those who may see it.
#[derive(Debug, Serialize)]
struct Review {
    heading: String,
    text: String,
    findings: Vec<Finding>,
    /// The skill's quarantined versions, for the skill's own page.
    held: Vec<HeldLink>,
}

/// One finding of the scan, as the review panel lists it.
#[derive(Debug, Serialize)]
struct Finding {
    severity: String,
    code: String,
    location: String,
    message: String,
    excerpt: String,
    allowed: Option<String>,
}

impl From<&StoredFinding> for Finding {
    fn from(f: &StoredFinding) -> Finding {
        Finding {
            severity: plain(&f.severity),
            code: plain(&f.code),
            location: format!("{}:{}", plain(&f.path), f.line),
            message: plain(&f.message),
            excerpt: text::reveal_bidi(&f.excerpt).into_owned(),
            allowed: f.allowed.as_deref().map(plain),
        }
    }
}

/// A quarantined version, linked from its skill's review panel.
#[derive(Debug, Serialize)]
struct HeldLink {
    version: String,
    url: String,
}

/// The review panel `viewer` sees for `version` of `skill`: its owner and the administrators
/// see the scan's findings (and `held`, the skill's quarantined versions), everyone else sees
/// nothing at all, not even that there is a panel.
fn review_for(
    viewer: &Viewer,
    skill: &SkillInfo,
    version: &VersionInfo,
    held: &[HeldVersion],
) -> Option<Review> {
    if !viewer.may_review(&skill.owner_handle) {
        return None;
    }
    let errors = version.findings.iter().filter(|f| f.is_error()).count();
    let name = plain(&version.version);
    let (heading, text) = match (version.moderation, version.findings.len()) {
        (Moderation::Quarantined, _) => (
            "Held for review",
            format!(
                "Version {name} is quarantined: the publish scan found {errors} security error(s). It is out of search and installs until an administrator approves it with `skill registry review`. Only the owner and the administrators see it."
            ),
        ),
        (_, 0) => (
            "Review",
            format!("The publish scan found nothing in version {name}."),
        ),
        (_, n) => (
            "Review",
            format!(
                "The publish scan found {n} warning(s) in version {name}; none holds it back. Only the owner and the administrators see them."
            ),
        ),
    };
    Some(Review {
        heading: heading.to_owned(),
        text,
        findings: version.findings.iter().map(Finding::from).collect(),
        held: held
            .iter()
            .map(|h| HeldLink {
                url: format!("{}/files", version_url(&skill.slug, &h.version.version)),
                version: plain(&h.version.version),
            })
            .collect(),
    })
}

/// The quarantined versions of `slug`, newest first, when `may_review` (nobody else is told
/// they exist).
fn held_versions(
    s: &dyn Store,
    slug: &str,
    may_review: bool,
) -> Result<Vec<HeldVersion>, StoreError> {
    if !may_review {
        return Ok(Vec::new());
    }
    let mut held: Vec<HeldVersion> = s
        .quarantined()?
        .into_iter()
        .filter(|h| h.slug == slug)
        .collect();
    held.reverse();
    Ok(held)
}

/// The SKILL.md of a version, if it has one (`skills.md` is ClawHub's older name).
fn skill_md_path(version: &VersionInfo) -> Option<String> {
    [SKILL_MD, "skills.md", "skill.md"].iter().find_map(|name| {
        version
            .files
            .iter()
            .find(|f| f.path.eq_ignore_ascii_case(name))
            .map(|f| f.path.clone())
    })
}

fn file_links(slug: &str, version: &VersionInfo) -> FileLinks {
    FileLinks {
        base: version_url(slug, &version.version),
        files: version.files.iter().map(|f| f.path.clone()).collect(),
    }
}

#[derive(Serialize)]
struct Tag {
    tag: String,
    version: String,
}

/// What `skill.html` shows.
#[derive(Serialize)]
struct SkillPage {
    slug: String,
    name: String,
    description: Option<String>,
    owner: String,
    owner_url: String,
    version: Option<String>,
    updated: String,
    versions: u64,
    downloads: u64,
    tags: Vec<Tag>,
    install_skill: String,
    install_clawhub: String,
    requirements: Vec<RequirementRow>,
    body: Option<minijinja::Value>,
    withheld: bool,
    review: Option<Review>,
    files_url: String,
    versions_url: String,
}

/// `/skills/{slug}`: the latest version's instructions and everything needed to install it.
pub async fn skill(web: &Web, viewer: &Viewer, slug: String) -> Result<Page, PageError> {
    let reviewer = viewer.clone();
    let (skill, body, held) = web
        .run(move |s| {
            let Some(skill) = s.skill(&slug)? else {
                return Ok((None, None, Vec::new()));
            };
            let held = held_versions(s, &skill.slug, reviewer.may_review(&skill.owner_handle))?;
            let body = match skill
                .latest
                .as_ref()
                .and_then(|v| skill_md_path(v).map(|p| (v.version.clone(), p)))
            {
                Some((version, path)) => s.file(&skill.slug, &version, &path)?,
                None => None,
            };
            Ok((Some(skill), body, held))
        })
        .await?;
    // A skill whose every version is held is, to anyone but its reviewers, no skill at all.
    let skill = skill
        .filter(|s| s.latest.is_some() || viewer.may_review(&s.owner_handle))
        .ok_or_else(|| PageError::NotFound("There is no skill by that name.".into()))?;
    let document = body
        .map(|bytes| Document::parse(Source::new(String::from_utf8_lossy(&bytes).into_owned())));
    let review = match &skill.latest {
        Some(v) => review_for(viewer, &skill, v, &held),
        // Nothing live: the panel is about the newest held version.
        None => held
            .first()
            .and_then(|h| review_for(viewer, &skill, &h.version, &held)),
    };
    let page = skill_page(web, skill, document.as_ref(), !held.is_empty(), review);
    Ok(Page::new("skill.html", &page))
}

/// The page of `skill`, whose latest `SKILL.md` is `document`; `held` when it has versions held
/// for review.
fn skill_page(
    web: &Web,
    skill: SkillInfo,
    document: Option<&Document>,
    held: bool,
    review: Option<Review>,
) -> SkillPage {
    let manifest = document.and_then(|d| d.manifest().as_ref().ok());
    let description = skill_description(manifest, &skill);
    let requirements = match (manifest, document) {
        (Some(m), Some(d)) => requirement_rows(&Requirements::from_manifest(m, &d.source.text)),
        _ => Vec::new(),
    };
    let rendered = document
        .zip(skill.latest.as_ref())
        .map(|(d, v)| rendered_body(d, &skill.slug, v));
    let version = skill.latest.as_ref().map(|v| v.version.clone());
    let tags = skill.tags.iter().map(|(tag, version)| Tag {
        tag: plain(tag),
        version: plain(version),
    });
    let install = |tool: &str| {
        format!(
            "{tool} install {} \\\n  --registry {}",
            skill.slug, web.base_url
        )
    };
    SkillPage {
        name: plain(&skill.display_name),
        description,
        owner: plain(&skill.owner_handle),
        owner_url: user_url(&skill.owner_handle),
        updated: text::date(skill.updated_at),
        versions: skill.versions,
        downloads: skill.downloads,
        tags: tags.collect(),
        install_skill: install("skill"),
        install_clawhub: install("clawhub"),
        requirements,
        // Sanitised by `markdown::render`: the one string printed unescaped.
        body: rendered.map(minijinja::Value::from_safe_string),
        withheld: skill.latest.is_none() && held,
        review,
        files_url: match &version {
            Some(v) => format!("{}/files", version_url(&skill.slug, v)),
            None => format!("{}/versions", skill_url(&skill.slug)),
        },
        versions_url: format!("{}/versions", skill_url(&skill.slug)),
        version: version.as_deref().map(plain),
        slug: skill.slug,
    }
}

/// What the skill page says the skill is: its SKILL.md's description, else its summary.
fn skill_description(
    manifest: Option<&skill_model::Manifest>,
    skill: &SkillInfo,
) -> Option<String> {
    manifest
        .and_then(|m| m.value("description"))
        .and_then(|n| n.as_str())
        .map(plain)
        .or_else(|| skill.summary.as_deref().map(plain))
        .filter(|d| !d.trim().is_empty())
}

/// The HTML of a SKILL.md's body, links pointing into the files of `version`; a note instead
/// when it is too long to render.
fn rendered_body(document: &Document, slug: &str, version: &VersionInfo) -> String {
    if document.body().len() <= MAX_RENDERED_BODY {
        markdown::render(document.body(), file_links(slug, version))
    } else {
        "<p>SKILL.md is too long to show here: read it in the files of this version.</p>".to_owned()
    }
}

/// `/skills/{slug}/versions`: every live version, newest first, a page at a time.
pub async fn versions(
    web: &Web,
    viewer: &Viewer,
    slug: String,
    page: usize,
) -> Result<Page, PageError> {
    let (skill, versions) = skill_versions(web, viewer, slug).await?;
    // A skill whose every version is held is, to anyone but its reviewers, no skill at all.
    let skill = skill
        .filter(|s| s.latest.is_some() || viewer.may_review(&s.owner_handle))
        .ok_or_else(|| PageError::NotFound("There is no skill by that name.".into()))?;
    let total = versions.len();
    let items: Vec<VersionRow> = versions
        .into_iter()
        .skip((page - 1) * PER_PAGE)
        .take(PER_PAGE)
        .map(|v| version_row(&skill, v))
        .collect();
    let more = total > page * PER_PAGE;
    let base = format!("{}/versions", skill_url(&skill.slug));
    Ok(Page::new(
        "versions.html",
        &VersionsPage {
            name: plain(&skill.display_name),
            skill_url: skill_url(&skill.slug),
            total,
            items,
            pager: Pager::new(&base, page, more),
        },
    ))
}

/// The skill `slug` and its versions newest first, held ones included for its reviewers.
async fn skill_versions(
    web: &Web,
    viewer: &Viewer,
    slug: String,
) -> Result<(Option<SkillInfo>, Vec<VersionInfo>), PageError> {
    let reviewer = viewer.clone();
    let found = web
        .run(move |s| {
            let Some(skill) = s.skill(&slug)? else {
                return Ok((None, Vec::new()));
            };
            let mut versions = s.versions(&skill.slug)?;
            // Reviewers see the held versions too, in their place by date.
            let held = held_versions(s, &skill.slug, reviewer.may_review(&skill.owner_handle))?;
            versions.extend(held.into_iter().map(|h| h.version));
            versions.sort_by_key(|v| std::cmp::Reverse(v.created_at));
            Ok((Some(skill), versions))
        })
        .await?;
    Ok(found)
}

/// The versions page of a skill.
#[derive(Serialize)]
struct VersionsPage {
    name: String,
    skill_url: String,
    total: usize,
    items: Vec<VersionRow>,
    pager: Pager,
}

/// One version on the versions page.
#[derive(Serialize)]
struct VersionRow {
    version: String,
    files_url: String,
    tags: Vec<String>,
    held: bool,
    created: String,
    files: usize,
    size: String,
    changelog: String,
}

/// The row of version `v` of `skill`, with the tags pointing at it.
fn version_row(skill: &SkillInfo, v: VersionInfo) -> VersionRow {
    VersionRow {
        files_url: format!("{}/files", version_url(&skill.slug, &v.version)),
        tags: skill
            .tags
            .iter()
            .filter(|(_, tagged)| **tagged == v.version)
            .map(|(tag, _)| plain(tag))
            .collect(),
        held: v.moderation == Moderation::Quarantined,
        created: text::date(v.created_at),
        files: v.files.len(),
        size: text::size(v.files.iter().map(|f| f.size).sum()),
        changelog: text::reveal_bidi(v.changelog.trim()).into_owned(),
        version: plain(&v.version),
    }
}

/// The skill and one of its versions, or the 404 that says which is missing. A quarantined
/// version is found only for its reviewers; to anyone else it does not exist.
async fn skill_version(
    web: &Web,
    viewer: &Viewer,
    slug: String,
    version: String,
) -> Result<(SkillInfo, VersionInfo), PageError> {
    let reviewer = viewer.clone();
    let (skill, found) = web
        .run(move |s| {
            let Some(skill) = s.skill(&slug)? else {
                return Ok((None, None));
            };
            let found = match s.version(&skill.slug, &version)? {
                Some(v) => Some(v),
                None if reviewer.may_review(&skill.owner_handle) => {
                    s.held_version(&skill.slug, &version)?.map(|h| h.version)
                }
                None => None,
            };
            Ok((Some(skill), found))
        })
        .await?;
    let skill =
        skill.ok_or_else(|| PageError::NotFound("There is no skill by that name.".into()))?;
    let version =
        found.ok_or_else(|| PageError::NotFound("This skill has no such version.".into()))?;
    Ok((skill, version))
}

/// `/skills/{slug}/{version}/files`: the files of a version with sizes and hashes.
pub async fn files(
    web: &Web,
    viewer: &Viewer,
    slug: String,
    version: String,
) -> Result<Page, PageError> {
    let (skill, version) = skill_version(web, viewer, slug, version).await?;
    #[derive(Serialize)]
    struct FileRow {
        path: String,
        url: String,
        size: String,
        sha256: String,
    }
    #[derive(Serialize)]
    struct Files {
        name: String,
        version: String,
        skill_url: String,
        versions_url: String,
        fingerprint: String,
        total: String,
        files: Vec<FileRow>,
        review: Option<Review>,
    }
    let base = version_url(&skill.slug, &version.version);
    let page = Files {
        name: plain(&skill.display_name),
        version: plain(&version.version),
        skill_url: skill_url(&skill.slug),
        versions_url: format!("{}/versions", skill_url(&skill.slug)),
        fingerprint: version.fingerprint.clone(),
        total: text::size(version.files.iter().map(|f| f.size).sum()),
        review: review_for(viewer, &skill, &version, &[]),
        files: version
            .files
            .iter()
            .map(|f| FileRow {
                url: format!("{base}/files/{}", encode_path(&f.path)),
                // Stored paths passed the installer's rules (no invisible characters); cleaned
                // anyway, since older stores may hold anything.
                path: plain(&f.path),
                size: text::size(f.size),
                sha256: f.sha256.clone(),
            })
            .collect(),
    };
    Ok(Page::new("files.html", &page))
}

/// `/skills/{slug}/{version}/files/{path}`: one file, as escaped text when it is text.
pub async fn file(
    web: &Web,
    viewer: &Viewer,
    slug: String,
    version: String,
    path: String,
) -> Result<Page, PageError> {
    let (skill, version) = skill_version(web, viewer, slug, version).await?;
    let info = version
        .files
        .iter()
        .find(|f| f.path == path)
        .cloned()
        .ok_or_else(|| PageError::NotFound("This version has no such file.".into()))?;
    let bytes = if info.size <= MAX_SHOWN_FILE {
        let (slug, v, p) = (skill.slug.clone(), version.version.clone(), path.clone());
        let held = version.moderation == Moderation::Quarantined;
        web.run(move |s| version_file(s, held, &slug, &v, &p))
            .await?
    } else {
        None
    };
    let base = version_url(&skill.slug, &version.version);
    let view = file_view(&path, bytes.as_deref());
    #[derive(Serialize)]
    struct File {
        name: String,
        version: String,
        path: String,
        skill_url: String,
        files_url: String,
        raw_url: String,
        size: String,
        sha256: String,
        text: Option<String>,
        image: bool,
        note: String,
    }
    Ok(Page::new(
        "file.html",
        &File {
            name: plain(&skill.display_name),
            version: plain(&version.version),
            path: plain(&info.path),
            skill_url: skill_url(&skill.slug),
            files_url: format!("{base}/files"),
            raw_url: format!("{base}/raw/{}", encode_path(&info.path)),
            size: text::size(info.size),
            sha256: info.sha256,
            text: view.text,
            image: view.image,
            note: view.note,
        },
    ))
}

/// How the file page shows a file.
struct FileView {
    /// The file as text, when it is text.
    text: Option<String>,
    /// Whether it is an image (shown from its raw URL).
    image: bool,
    /// Why it is not shown, when it is neither.
    note: String,
}

/// How the file page shows `path`; `bytes` is `None` for a file too large to show.
fn file_view(path: &str, bytes: Option<&[u8]>) -> FileView {
    let (text, image, note) = match bytes.map(|b| (text::file_kind(path, b), b)) {
        Some((text::FileKind::Text, b)) => (
            Some(text::reveal_bidi(&String::from_utf8_lossy(b)).into_owned()),
            false,
            String::new(),
        ),
        Some((text::FileKind::Image(_), _)) => (None, true, String::new()),
        Some((text::FileKind::Binary, _)) => (
            None,
            false,
            "This file is not text: download it raw to look inside.".to_owned(),
        ),
        None => (
            None,
            false,
            "This file is too large to show here: download it raw.".to_owned(),
        ),
    };
    FileView { text, image, note }
}

/// The bytes of one file of a version, for `/skills/{slug}/{version}/raw/{path}`.
pub async fn raw(
    web: &Web,
    viewer: &Viewer,
    slug: String,
    version: String,
    path: String,
) -> Result<Vec<u8>, PageError> {
    let (skill, version) = skill_version(web, viewer, slug, version).await?;
    let held = version.moderation == Moderation::Quarantined;
    web.run(move |s| version_file(s, held, &skill.slug, &version.version, &path))
        .await?
        .ok_or_else(|| PageError::NotFound("This version has no such file.".into()))
}

/// One file of a version that [`skill_version`] found for this viewer (`held`: a quarantined
/// one, which only its reviewers get this far with).
fn version_file(
    s: &dyn Store,
    held: bool,
    slug: &str,
    version: &str,
    path: &str,
) -> Result<Option<Vec<u8>>, StoreError> {
    if held {
        s.held_file(slug, version, path)
    } else {
        s.file(slug, version, path)
    }
}

/// `/users/{handle}`: a publisher and their skills.
pub async fn user(web: &Web, handle: String, page: usize) -> Result<Page, PageError> {
    let offset = (page - 1) * PER_PAGE;
    let (user, skills) = web
        .run(move |s| {
            let Some(user) = s.user(&handle)? else {
                return Ok((None, Vec::new()));
            };
            let skills =
                s.list_skills(Some(&user.handle), SkillOrder::Recent, offset, PER_PAGE + 1)?;
            Ok((Some(user), skills))
        })
        .await?;
    let user =
        user.ok_or_else(|| PageError::NotFound("There is no publisher by that name.".into()))?;
    let (skills, more) = cut(skills);
    #[derive(Serialize)]
    struct UserPage {
        handle: String,
        display_name: Option<String>,
        skills: Vec<SkillRow>,
        pager: Pager,
    }
    Ok(Page::new(
        "user.html",
        &UserPage {
            pager: Pager::new(&user_url(&user.handle), page, more),
            handle: plain(&user.handle),
            display_name: user
                .display_name
                .as_deref()
                .map(plain)
                .filter(|n| !n.trim().is_empty()),
            skills: skills.into_iter().map(SkillRow::from).collect(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pagers_link_both_ways_and_keep_the_query() {
        let p = Pager::new("/search?q=pdf", 2, true);
        assert_eq!(p.prev.as_deref(), Some("/search?q=pdf"));
        assert_eq!(p.next.as_deref(), Some("/search?q=pdf&page=3"));
        let first = Pager::new("/", 1, false);
        assert!(first.prev.is_none() && first.next.is_none());
    }
}
