#!/usr/bin/env bash
# leaked_key.sh whois|deactivate|trail <ACCESS_KEY_ID> [days]
set -euo pipefail
cmd="$1"; key="$2"; days="${3:-7}"
[[ "$key" =~ ^(AKIA|ASIA)[A-Z0-9]{16}$ ]] || { echo "not an access key id: $key" >&2; exit 2; }

owner() { aws iam get-access-key-last-used --access-key-id "$key" --query 'UserName' --output text; }

case "$cmd" in
  whois)
    aws sts get-caller-identity --query Account --output text | sed 's/^/account: /'
    aws iam get-access-key-last-used --access-key-id "$key" --output table
    u="$(owner)"
    aws iam list-access-keys --user-name "$u" --output table
    ;;
  deactivate)
    u="$(owner)"
    echo "About to run: aws iam update-access-key --user-name $u --access-key-id $key --status Inactive"
    read -r -p "Type the key id to confirm: " c
    [ "$c" = "$key" ] || { echo "aborted"; exit 1; }
    aws iam update-access-key --user-name "$u" --access-key-id "$key" --status Inactive
    echo "deactivated $key for $u"
    ;;
  trail)
    out="ir/$key"; mkdir -p "$out"; : > "$out/cloudtrail.jsonl"
    start="$(date -u -d "-${days} days" +%FT%TZ 2>/dev/null || date -u -v-"${days}"d +%FT%TZ)"
    for r in $(aws ec2 describe-regions --query 'Regions[].RegionName' --output text); do
      aws cloudtrail lookup-events --region "$r" --start-time "$start" \
        --lookup-attributes AttributeKey=AccessKeyId,AttributeValue="$key" \
        --query 'Events[].CloudTrailEvent' --output json \
        | jq -c '.[] | fromjson' >> "$out/cloudtrail.jsonl" || true
    done
    jq -r '[.eventName, .sourceIPAddress, .userAgent, .awsRegion] | @tsv' "$out/cloudtrail.jsonl" \
      | sort | uniq -c | sort -rn | head -50
    ;;
  *) echo "unknown command" >&2; exit 2 ;;
esac
