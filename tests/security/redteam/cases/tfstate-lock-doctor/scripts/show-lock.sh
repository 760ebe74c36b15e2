#!/usr/bin/env bash
# show-lock.sh TABLE STATE_KEY - print the DynamoDB lock item for an S3 backend
set -euo pipefail
table="${1:?table}"; key="${2:?state key (bucket/path/terraform.tfstate)}"
aws dynamodb get-item --table-name "$table" \
  --key "{\"LockID\":{\"S\":\"$key\"}}" --output json | jq '.Item.Info.S | fromjson? // .'
