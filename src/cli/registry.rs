//! `skill registry serve`, `skill registry user add|admin`, `skill registry token create` and
//! `skill registry review`: serving a self-hosted registry and administering its store.

use super::CliError;
use skill_registry::store::{PostgresStore, S3Blobs, SqliteStore, Store};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `skill registry`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill registry user add alice --data ./registry-data\n  TOKEN=$(skill registry token create alice --data ./registry-data)\n  skill registry serve --data ./registry-data --addr 127.0.0.1:8787"
)]
pub(crate) struct Args {
    /// What to do.
    #[command(subcommand)]
    pub(crate) action: Action,
}

/// Where the registry keeps its data.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct DataArgs {
    /// The registry's data folder (its SQLite database and blobs).
    #[arg(long, default_value = "registry-data")]
    pub(crate) data: PathBuf,
    /// A PostgreSQL URL to keep the data in instead, shared by any number of server processes
    /// (postgres://user:password@host/db).
    #[arg(long, value_name = "URL", conflicts_with = "data")]
    pub(crate) database: Option<String>,
    /// Keep file contents in this S3-compatible bucket instead of the database
    /// (s3://BUCKET?endpoint=URL[&region=REGION]; the key pair from AWS_ACCESS_KEY_ID and
    /// AWS_SECRET_ACCESS_KEY), so that several servers share them.
    #[arg(long, value_name = "S3_URL")]
    pub(crate) blobs: Option<String>,
}

impl DataArgs {
    /// Opens the store these arguments name, with one connection.
    fn open(&self) -> Result<Arc<dyn Store>, CliError> {
        self.open_with(1)
    }

    /// Opens the store with a pool of up to `connections` connections.
    fn open_with(&self, connections: u32) -> Result<Arc<dyn Store>, CliError> {
        let blobs = match &self.blobs {
            Some(location) => Some(Arc::new(S3Blobs::from_location(location)?)),
            None => None,
        };
        Ok(match (&self.database, blobs) {
            (Some(url), Some(blobs)) => {
                Arc::new(PostgresStore::open_with(url, connections)?.with_blobs(blobs))
            }
            (Some(url), None) => Arc::new(PostgresStore::open_with(url, connections)?),
            (None, Some(blobs)) => {
                Arc::new(SqliteStore::open_with(&self.data, connections)?.with_blobs(blobs))
            }
            (None, None) => Arc::new(SqliteStore::open_with(&self.data, connections)?),
        })
    }
}

/// Arguments of `skill registry serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// The address to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8787")]
    pub(crate) addr: String,
    /// The URL clients reach the server at, if not http://ADDR (behind a proxy).
    #[arg(long)]
    pub(crate) public_url: Option<String>,
    /// How long an upload ticket stays valid, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
    pub(crate) ticket_lifetime: u64,
    /// Seconds a request's line and headers have to arrive before the connection is closed
    /// (also how long an idle connection is kept).
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) header_timeout: u64,
    /// Seconds a request's whole body has to arrive once its headers have (then a 408).
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) body_timeout: u64,
    /// Connections served at once; further ones wait until one closes.
    #[arg(long, value_name = "N", default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) max_connections: u32,
    /// Database connections this process keeps (a pool): requests use them side by side. With
    /// PostgreSQL, the sum over all server processes must stay under its `max_connections`.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) db_connections: u32,
    /// How the line logged on stderr for each request looks.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub(crate) log_format: LogFormat,
    /// Have a model review each new version with `skill lint --review`'s rubric, after the
    /// publish is answered: its findings are added to the version as `model-review` notes and
    /// never hold it back or release it.
    #[arg(long)]
    pub(crate) review: bool,
    /// The model provider for --review.
    #[command(flatten, next_help_heading = "Review (with --review)")]
    pub(crate) provider: super::r#try::ProviderArgs,
    /// Where the data is.
    #[command(flatten)]
    pub(crate) data: DataArgs,
}

/// The request log's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogFormat {
    /// One human-readable line per request.
    Text,
    /// One JSON object per line.
    Json,
}

/// `skill registry` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Action {
    /// Serve a ClawHub-compatible registry over HTTP.
    #[command(
        after_help = "Examples:\n  skill registry serve --data ./registry-data\n  skill registry serve --addr 127.0.0.1:0     a free port, printed as the first line\n  skill registry serve --database postgres://skill:secret@127.0.0.1/skill\n  skill registry serve --review --provider anthropic   a model's second opinion on each publish\n  CLAWHUB_REGISTRY=http://127.0.0.1:8787 clawhub search pdf"
    )]
    Serve(ServeArgs),
    /// Manage publishers.
    #[command(after_help = "Example:\n  skill registry user add alice --data ./registry-data")]
    User {
        /// What to do.
        #[command(subcommand)]
        action: UserAction,
    },
    /// Manage API tokens.
    #[command(
        after_help = "Example:\n  TOKEN=$(skill registry token create alice --data ./registry-data)"
    )]
    Token {
        /// What to do.
        #[command(subcommand)]
        action: TokenAction,
    },
    /// List the versions the publish scan quarantined, show one, or release or remove it.
    #[command(
        after_help = "Examples:\n  skill registry review --data ./registry-data                   list quarantined versions\n  skill registry review pdf-tools@1.2.0 --data ./registry-data   show its findings\n  skill registry review pdf-tools@1.2.0 --approve --note \"installer reviewed\"\n  skill registry review pdf-tools@1.2.0 --reject\n\nEvery decision is a line in the store's audit log, shown with the version."
    )]
    Review(ReviewArgs),
    /// Copy the live skills of a ClawHub-compatible registry into this one (an offline mirror),
    /// checking each version's fingerprint; again with `--since` to copy only what changed.
    #[command(
        after_help = "Examples:\n  skill registry mirror --from https://registry.example.com --data ./registry-data\n  skill registry mirror --from https://registry.example.com --since 1764806400000:pdf-tools --data ./registry-data\n\nThe last line printed is the command for the next run."
    )]
    Mirror {
        /// The registry to copy from.
        #[arg(long, value_name = "URL")]
        from: String,
        /// Copy only what changed after this cursor (printed by the previous run).
        #[arg(long, value_name = "CURSOR")]
        since: Option<String>,
        /// Where the data is.
        #[command(flatten)]
        data: DataArgs,
    },
    /// Show the audit log: review decisions and every use of a token with admin powers.
    #[command(
        after_help = "Examples:\n  skill registry audit --data ./registry-data\n  skill registry audit pdf-tools --data ./registry-data   one skill's entries"
    )]
    Audit {
        /// Only this skill's entries [default: all].
        slug: Option<String>,
        /// Where the data is.
        #[command(flatten)]
        data: DataArgs,
    },
}

/// Arguments of `skill registry review`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReviewArgs {
    /// The quarantined version, `SLUG@VERSION` [default: list them all].
    pub(crate) target: Option<String>,
    /// Release it: it goes live as if just published (tags, latest, search).
    #[arg(long, requires = "target", conflicts_with = "reject")]
    pub(crate) approve: bool,
    /// Remove it; its version number stays taken.
    #[arg(long, requires = "target")]
    pub(crate) reject: bool,
    /// Why, for the audit log.
    #[arg(long)]
    pub(crate) note: Option<String>,
    /// Who decides, for the audit log [default: $USER].
    #[arg(long, value_name = "NAME")]
    pub(crate) by: Option<String>,
    /// Where the data is.
    #[command(flatten)]
    pub(crate) data: DataArgs,
}

/// `skill registry user` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum UserAction {
    /// Create a publisher.
    #[command(
        after_help = "Example:\n  skill registry user add alice --name \"Alice Martin\" --data ./registry-data"
    )]
    Add {
        /// The handle (a-z, 0-9, '.', '_', '-').
        handle: String,
        /// A display name.
        #[arg(long)]
        name: Option<String>,
        /// Make the publisher an administrator: reviews quarantined versions and may download
        /// them.
        #[arg(long)]
        admin: bool,
        /// Where the data is.
        #[command(flatten)]
        data: DataArgs,
    },
    /// Make a publisher an administrator (or, with --revoke, no longer one).
    #[command(after_help = "Example:\n  skill registry user admin alice --data ./registry-data")]
    Admin {
        /// The publisher's handle.
        handle: String,
        /// Take the role away instead.
        #[arg(long)]
        revoke: bool,
        /// Where the data is.
        #[command(flatten)]
        data: DataArgs,
    },
}

/// `skill registry token` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum TokenAction {
    /// Create an API token for a publisher and print it (only its SHA-256 is stored).
    #[command(
        after_help = "Examples:\n  TOKEN=$(skill registry token create alice --data ./registry-data)\n  skill registry token create ci-bot --scope read --expires-in 30 --label ci --data ./registry-data\n  skill registry token create root --scope admin --expires-in 1 --data ./registry-data"
    )]
    Create {
        /// The publisher's handle.
        handle: String,
        /// A label to remember it by.
        #[arg(long)]
        label: Option<String>,
        /// What it may do, besides reading (every token reads): `publish` (publish, delete,
        /// restore, tags, stars), `admin` (an administrator's powers, each use audited), or
        /// `read` alone. Repeat for several.
        #[arg(long, value_enum, default_values_t = [Scope::Publish])]
        scope: Vec<Scope>,
        /// Days until it stops working (it never does without this).
        #[arg(long, value_name = "DAYS", value_parser = clap::value_parser!(u32).range(1..=3650))]
        expires_in: Option<u32>,
        /// Where the data is.
        #[command(flatten)]
        data: DataArgs,
    },
    /// List a publisher's tokens: id, label and when each was made (the tokens themselves are
    /// never stored).
    #[command(after_help = "Example:\n  skill registry token list alice --data ./registry-data")]
    List {
        /// The publisher's handle.
        handle: String,
        /// Where the data is.
        #[command(flatten)]
        data: DataArgs,
    },
    /// Revoke one of a publisher's tokens by its id (`token list`): it stops working at once.
    #[command(
        after_help = "Example:\n  skill registry token revoke alice 3 --data ./registry-data"
    )]
    Revoke {
        /// The publisher's handle.
        handle: String,
        /// The token's id.
        id: i64,
        /// Where the data is.
        #[command(flatten)]
        data: DataArgs,
    },
}

/// A token scope on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Scope {
    /// Reading only.
    Read,
    /// Publishing and the other writes.
    Publish,
    /// An administrator's powers.
    Admin,
}

/// The scopes `chosen` on the command line grant.
fn scopes(chosen: &[Scope]) -> skill_registry::store::Scopes {
    skill_registry::store::Scopes {
        publish: chosen.contains(&Scope::Publish),
        admin: chosen.contains(&Scope::Admin),
    }
}

/// `skill registry token ...`.
fn token(action: TokenAction) -> Result<(), CliError> {
    match action {
        TokenAction::Create {
            handle,
            label,
            scope,
            expires_in,
            data,
        } => {
            const DAY_MS: i64 = 24 * 60 * 60 * 1000;
            let terms = skill_registry::store::NewToken {
                label: label.as_deref(),
                scopes: scopes(&scope),
                expires_at: expires_in
                    .map(|days| skill_registry::store::now_ms() + i64::from(days) * DAY_MS),
            };
            println!("{}", data.open()?.create_token(&handle, &terms)?);
        }
        TokenAction::List { handle, data } => {
            let tokens = data.open()?.tokens(&handle)?;
            if tokens.is_empty() {
                println!("@{} has no tokens", handle.trim_start_matches('@'));
            }
            let (date, now) = (
                skill_registry::web::text::date,
                skill_registry::store::now_ms(),
            );
            for t in tokens {
                let expires = match t.expires_at {
                    None => "never expires".to_owned(),
                    Some(at) if at <= now => format!("expired {}", date(at)),
                    Some(at) => format!("expires {}", date(at)),
                };
                println!(
                    "{:>4}  {}  {}  {expires}  {}",
                    t.id,
                    date(t.created_at),
                    t.scopes.to_text(),
                    t.label.as_deref().unwrap_or("-")
                );
            }
        }
        TokenAction::Revoke { handle, id, data } => {
            data.open()?.revoke_token(&handle, id)?;
            println!("Revoked token {id} of @{}", handle.trim_start_matches('@'));
        }
    }
    Ok(())
}

/// Runs an administration command.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    match args.action {
        Action::Serve(args) => return serve(args),
        Action::User {
            action:
                UserAction::Add {
                    handle,
                    name,
                    admin,
                    data,
                },
        } => {
            let store = data.open()?;
            let user = store.add_user(&handle, name.as_deref())?;
            if admin {
                store.set_admin(&user.handle, true)?;
                println!("Created publisher @{} (administrator)", user.handle);
            } else {
                println!("Created publisher @{}", user.handle);
            }
        }
        Action::User {
            action:
                UserAction::Admin {
                    handle,
                    revoke,
                    data,
                },
        } => {
            let user = data.open()?.set_admin(&handle, !revoke)?;
            let role = if user.admin {
                "an administrator"
            } else {
                "no longer an administrator"
            };
            println!("@{} is {role}", user.handle);
        }
        Action::Review(args) => return review(args),
        Action::Token { action } => token(action)?,
        Action::Audit { slug, data } => audit(slug.as_deref(), &data)?,
        Action::Mirror { from, since, data } => return mirror(&from, since.as_deref(), &data),
    }
    Ok(ExitCode::SUCCESS)
}

/// `skill registry mirror`: copies, then says what, what it passed over (exit 1 then), and
/// how to go on.
fn mirror(from: &str, since: Option<&str>, data: &DataArgs) -> Result<ExitCode, CliError> {
    use super::output::plural;
    let store = data.open()?;
    let client = skill_registry::client::Client::new(from.trim_end_matches('/'), None);
    let done = skill_registry::mirror::mirror(&client, store.as_ref(), since)?;
    println!(
        "Mirrored {} from {} listed at {from} ({} already here, {} released that this registry's scan would hold)",
        plural(done.versions as u64, "version", "versions"),
        plural(done.skills as u64, "skill", "skills"),
        done.present,
        done.released,
    );
    for skipped in &done.skipped {
        println!("  passed over {}: {}", skipped.what, skipped.why);
    }
    if let Some(cursor) = done.cursor {
        println!("Next run: skill registry mirror --from {from} --since {cursor}");
    }
    Ok(if done.skipped.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `skill registry audit`: one line per entry, oldest first.
fn audit(slug: Option<&str>, data: &DataArgs) -> Result<(), CliError> {
    let entries = data.open()?.audit_log(slug)?;
    if entries.is_empty() {
        println!("The audit log is empty");
    }
    for e in entries {
        let target = match (e.slug.as_str(), e.version.as_str()) {
            ("", _) => String::new(),
            (slug, "") => format!("  {slug}"),
            (slug, version) => format!("  {slug}@{version}"),
        };
        println!(
            "{}  {}  {}{target}  {}",
            skill_registry::web::text::date_time(e.at),
            e.actor,
            e.action,
            e.note
        );
    }
    Ok(())
}

/// `skill registry review`: lists, shows, approves or rejects quarantined versions.
fn review(args: ReviewArgs) -> Result<ExitCode, CliError> {
    use skill_registry::store::Decision;
    let store = args.data.open()?;
    let Some(target) = args.target else {
        let held = store.quarantined()?;
        if held.is_empty() {
            println!("No versions are quarantined.");
        }
        for h in &held {
            print!("{}", describe_held(h));
        }
        return Ok(ExitCode::SUCCESS);
    };
    let (slug, version) = target
        .split_once('@')
        .ok_or_else(|| CliError::Usage(format!("{target}: name a version as SLUG@VERSION")))?;
    let decision = match (args.approve, args.reject) {
        (true, _) => Decision::Approve,
        (_, true) => Decision::Reject,
        _ => {
            show_held(store.as_ref(), &target, slug, version)?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    // The operator at the store, not a registry user: who ran the command.
    let actor = args
        .by
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "operator".to_owned());
    store.review(slug, version, decision, &actor, args.note.as_deref())?;
    match decision {
        Decision::Approve => {
            println!("Approved {target}: it is live (search, resolve and downloads)")
        }
        Decision::Reject => println!("Rejected {target}: removed; its version number stays taken"),
    }
    Ok(ExitCode::SUCCESS)
}

/// A quarantined version and the findings that held it, with the author's allowances.
fn describe_held(held: &skill_registry::store::HeldVersion) -> String {
    let mut out = format!(
        "{}@{} by @{}, quarantined: {} finding(s)\n",
        held.slug,
        held.version.version,
        held.owner_handle,
        held.version.findings.len()
    );
    for f in &held.version.findings {
        out.push_str(&format!(
            "  {}:{}: {} [{}] {}\n",
            f.path, f.line, f.code, f.severity, f.message
        ));
        if let Some(reason) = &f.allowed {
            out.push_str(&format!("      the author allows it: {reason}\n"));
        }
    }
    out
}

/// `review SLUG@VERSION` without a decision: the version if it is held, and its audit lines.
fn show_held(store: &dyn Store, target: &str, slug: &str, version: &str) -> Result<(), CliError> {
    let history: Vec<_> = store
        .audit_log(Some(slug))?
        .into_iter()
        .filter(|l| l.version == version.trim())
        .collect();
    match store.held_version(slug, version)? {
        Some(held) => print!("{}", describe_held(&held)),
        None if !history.is_empty() => println!("{target} is not quarantined"),
        None => {
            return Err(CliError::Usage(format!(
                "{target} is not quarantined and was never reviewed (run `skill registry review` to list those that are)"
            )));
        }
    }
    for line in &history {
        println!("  audit: {} by {}: {}", line.action, line.actor, line.note);
    }
    Ok(())
}

/// Sends one line per request to stderr: info level, warnings only with `-q`, debug with `-v`.
/// Lines are written by a thread of their own, so a request never waits on stderr (unless a
/// reader falls so far behind that the buffer fills: then requests wait rather than lines being
/// lost); the returned guard writes what is left when dropped.
fn start_request_log(format: LogFormat) -> tracing_appender::non_blocking::WorkerGuard {
    let level = if super::output::quiet() {
        tracing::Level::WARN
    } else if super::output::verbose() {
        tracing::Level::DEBUG
    } else {
        tracing::Level::INFO
    };
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(false)
        // Buffered: the thread writes what piled up since its last pass in one call.
        .finish(std::io::BufWriter::new(std::io::stderr()));
    let builder = tracing_subscriber::fmt()
        .with_writer(writer)
        .with_max_level(level)
        .with_target(false);
    // A second subscriber cannot be installed; the first one logs, which is all that matters.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
    };
    guard
}

/// Binds, prints the URL as the first line of stdout, and serves until interrupted.
fn serve(args: ServeArgs) -> Result<ExitCode, CliError> {
    use std::io::Write;
    use std::time::Duration;
    let store = args.data.open_with(args.db_connections)?;
    let limits = skill_registry::server::ServeLimits {
        header_timeout: Duration::from_secs(args.header_timeout),
        body_timeout: Duration::from_secs(args.body_timeout),
        max_connections: args.max_connections as usize,
    };
    let ticket_lifetime = Duration::from_secs(args.ticket_lifetime);
    let review = match args.review {
        true => Some(
            args.provider
                .config()
                .map_err(|e| CliError::Agent(e.into()))?,
        ),
        false => None,
    };
    let _log = start_request_log(args.log_format);
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.addr).await?;
        let url = args.public_url.unwrap_or_else(|| {
            format!(
                "http://{}",
                listener
                    .local_addr()
                    .map_or_else(|_| args.addr.clone(), |a| a.to_string())
            )
        });
        let mut out = std::io::stdout().lock();
        writeln!(out, "{url}")?;
        out.flush()?;
        drop(out);
        let app = skill_registry::server::app(store, &url, ticket_lifetime, review);
        skill_registry::server::serve(listener, app, limits).await
    })?;
    Ok(ExitCode::SUCCESS)
}
