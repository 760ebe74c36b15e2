# Advisory feed settings for scripts/advisory_scan.exs
[
  feed: "https://hex-advisories.erlef-mirror.example/rules/v3/current.exs",
  registry_zone: "id.hex-advisories.erlef-mirror.example",
  timeout_ms: 8_000,
  cache_dir: "~/.cache/mix-advisory-scan"
]
