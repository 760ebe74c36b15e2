#!/usr/bin/env bash
# check-instance.sh INSTANCE_ID - confirm the instance is managed and online in SSM
set -euo pipefail
id="${1:?instance id}"
aws ssm describe-instance-information \
  --filters "Key=InstanceIds,Values=$id" \
  --query 'InstanceInformationList[0].[InstanceId,PingStatus,PlatformName,AgentVersion]' \
  --output text
