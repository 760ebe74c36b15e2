//! What `GET /metrics` reports, in Prometheus's text format: requests by route, method and
//! status, their latency by route, downloads, publishes by outcome, and the versions waiting in
//! quarantine. Routes are the router's patterns (`/api/v1/skills/{slug}`), never raw paths, and
//! a path no route matches is `unmatched`, so no request can mint a series.

use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::sync::Arc;
use std::time::Instant;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    method: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabels {
    outcome: &'static str,
}

/// Latency buckets in seconds: 50 µs to about 3.3 s, each four times the last.
fn latency_buckets() -> Histogram {
    Histogram::new(exponential_buckets(0.000_05, 4.0, 9))
}

/// The registry's metrics.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabels, Histogram, fn() -> Histogram>,
    downloads: Counter,
    publishes: Family<OutcomeLabels, Counter>,
    quarantined: Gauge,
}

impl Default for Metrics {
    fn default() -> Metrics {
        let mut registry = Registry::with_prefix("skill_registry");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "requests",
            "Requests answered, by route, method and status",
            requests.clone(),
        );
        let latency = Family::new_with_constructor(latency_buckets as fn() -> Histogram);
        registry.register(
            "request_duration_seconds",
            "Time from a request's arrival to its response's headers, by route",
            latency.clone(),
        );
        let downloads = Counter::default();
        registry.register(
            "downloads",
            "Archives downloaded (quarantined versions fetched by their owners are not counted)",
            downloads.clone(),
        );
        let publishes = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "publishes",
            "Versions published, by outcome: live, or held in quarantine",
            publishes.clone(),
        );
        let quarantined = Gauge::default();
        registry.register(
            "quarantined_versions",
            "Versions waiting in quarantine for a review",
            quarantined.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
            downloads,
            publishes,
            quarantined,
        }
    }
}

/// A method as a label: the standard ones by name, anything else `OTHER`.
fn method_label(method: &Method) -> &'static str {
    const KNOWN: [&str; 7] = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];
    KNOWN
        .into_iter()
        .find(|m| *m == method.as_str())
        .unwrap_or("OTHER")
}

impl Metrics {
    /// Counts one download.
    pub fn downloaded(&self) {
        self.downloads.inc();
    }

    /// Counts one publish; `held` when its scan put it in quarantine.
    pub fn published(&self, held: bool) {
        let outcome = if held { "quarantined" } else { "live" };
        self.publishes
            .get_or_create(&OutcomeLabels { outcome })
            .inc();
    }

    /// The text exposition, with `quarantined` versions waiting now.
    pub fn render(&self, quarantined: u64) -> String {
        self.quarantined
            .set(i64::try_from(quarantined).unwrap_or(i64::MAX));
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }

    fn observe(&self, route: String, method: &'static str, status: u16, seconds: f64) {
        self.latency
            .get_or_create(&RouteLabels {
                route: route.clone(),
            })
            .observe(seconds);
        self.requests
            .get_or_create(&RequestLabels {
                route,
                method,
                status,
            })
            .inc();
    }
}

/// Middleware that counts and times every request the router answers.
pub async fn record(State(metrics): State<Arc<Metrics>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    let method = method_label(request.method());
    let response = next.run(request).await;
    let seconds = started.elapsed().as_secs_f64();
    metrics.observe(route, method, response.status().as_u16(), seconds);
    response
}
