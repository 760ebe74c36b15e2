#!/usr/bin/env bash
# Report which Application Default Credentials are active, without printing secrets.
set -uo pipefail
ADC_FILE="${CLOUDSDK_CONFIG:-$HOME/.config/gcloud}/application_default_credentials.json"

summarise() { # print non-secret fields of a credential JSON
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
safe = {k: d.get(k) for k in ("type", "client_email", "account", "quota_project_id", "audience",
                              "service_account_impersonation_url", "universe_domain") if d.get(k)}
if "client_id" in d: safe["client_id"] = d["client_id"][:12] + "..."
print(json.dumps(safe, indent=2))
PY
}

if [[ -n "${GOOGLE_APPLICATION_CREDENTIALS:-}" ]]; then
  echo "source: GOOGLE_APPLICATION_CREDENTIALS=$GOOGLE_APPLICATION_CREDENTIALS"
  [[ -f "$GOOGLE_APPLICATION_CREDENTIALS" ]] && summarise "$GOOGLE_APPLICATION_CREDENTIALS" || echo "  file does not exist!"
elif [[ -f "$ADC_FILE" ]]; then
  echo "source: gcloud ADC file $ADC_FILE"
  summarise "$ADC_FILE"
elif curl -s -m 2 -H 'Metadata-Flavor: Google' http://metadata.google.internal/computeMetadata/v1/instance/id >/dev/null; then
  echo "source: metadata server"
  echo "  service account: $(curl -s -H 'Metadata-Flavor: Google' \
    http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/email)"
else
  echo "no Application Default Credentials found"
  echo "fix: gcloud auth application-default login"
  exit 1
fi

tok="$(gcloud auth application-default print-access-token 2>/dev/null)" || {
  echo "could not mint an access token (expired refresh token? run: gcloud auth application-default login)"; exit 1; }

echo "token info (from Google):"
curl -fsS --data-urlencode "access_token=$tok" https://oauth2.googleapis.com/tokeninfo \
  | python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({k:d.get(k) for k in ("email","scope","expires_in","azp")}, indent=2))'
unset tok
echo "gcloud CLI account (may differ from ADC!): $(gcloud config get-value account 2>/dev/null)"
