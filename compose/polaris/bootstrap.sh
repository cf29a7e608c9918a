#!/bin/sh
# Polaris bootstrap for the lakegate stack (runs once, in a curl container):
#  1. a token for the bootstrap principal root (Polaris's own token endpoint, which the
#     `mixed` authentication type keeps for internal principals);
#  2. the catalog `lakehouse` (INTERNAL) on s3://warehouse/lakehouse, SeaweedFS as its S3
#     endpoint; the store has no STS, so Polaris vends no credentials (stsUnavailable) and
#     lakegate reads with its own storage keys (lakegate/config.json);
#  3. one principal per Keycloak user (principals.txt): Polaris answers 401 to a valid
#     token whose principal does not exist.
# Every call is authorized by Ranger (root's grants come from ranger/policies/polaris).
# Idempotent: 409 (exists) is fine.
set -eu
: "${POLARIS_URL:?}" "${POLARIS_ROOT_SECRET:?}" "${S3_ENDPOINT:?}"
DIR=$(dirname "$0")

i=0
until token=$(curl -fsS -X POST "$POLARIS_URL/api/catalog/v1/oauth/tokens" \
  -d grant_type=client_credentials -d client_id=root --data-urlencode "client_secret=$POLARIS_ROOT_SECRET" -d scope=PRINCIPAL_ROLE:ALL |
  sed -n 's/.*"access_token" *: *"\([^"]*\)".*/\1/p') && [ -n "$token" ]; do
  i=$((i + 1)); [ "$i" -lt 60 ] || { echo "polaris-setup: no token for root after 5 min" >&2; exit 1; }
  sleep 5
done

post() {
  code=$(curl -sS -o /tmp/out.json -w '%{http_code}' -X POST "$POLARIS_URL$1" \
    -H "Authorization: Bearer $token" -H 'Content-Type: application/json' --data-binary "$2")
  case "$code" in
    200 | 201 | 409) ;;
    *) echo "POST $1 → $code: $(cat /tmp/out.json)" >&2; exit 1 ;;
  esac
}

post /api/management/v1/catalogs "{\"catalog\":{\"type\":\"INTERNAL\",\"name\":\"lakehouse\",
  \"properties\":{\"default-base-location\":\"s3://warehouse/lakehouse\"},
  \"storageConfigInfo\":{\"storageType\":\"S3\",\"allowedLocations\":[\"s3://warehouse/lakehouse\"],
    \"endpoint\":\"$S3_ENDPOINT\",\"endpointInternal\":\"$S3_ENDPOINT\",\"pathStyleAccess\":true,\"stsUnavailable\":true}}}"

while read -r name; do
  case "$name" in '' | '#'*) continue ;; esac
  post /api/management/v1/principals "{\"principal\":{\"name\":\"$name\"},\"credentialRotationRequired\":false}"
done <"$DIR/principals.txt"
echo "polaris-setup: done"
