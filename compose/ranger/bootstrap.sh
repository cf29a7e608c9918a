#!/bin/sh
# Ranger Admin bootstrap for the lakegate stack (runs once, in a curl container).
#  1. wait until Ranger Admin answers and has the `polaris` and `hive` service defs;
#  2. users (Keycloak user names, and root: Polaris's bootstrap principal);
#  3. roles (roles/*.json), mirroring the Keycloak realm roles: Polaris never sends groups
#     or token roles to Ranger, so role membership lives here;
#  4. services `polaris` (type polaris: the catalog gate) and `lakehouse` (type hive:
#     lakegate's data gate), their auto-created default policies removed;
#  5. the policies in policies/polaris/*.json and policies/lakehouse/*.json (one per file).
# Idempotent: what exists already is left alone.
set -eu
: "${RANGER_URL:?}" "${RANGER_USER:?}" "${RANGER_PASSWORD:?}" "${RANGER_USER_PASSWORD:?}"
DIR=$(dirname "$0")
API="$RANGER_URL/service/public/v2/api"

rcurl() { curl -sS -u "$RANGER_USER:$RANGER_PASSWORD" -H 'Content-Type: application/json' -H 'Accept: application/json' -H 'X-XSRF-HEADER: ""' "$@"; }
# POST a JSON body; 200 is created, 400 "already exists" is fine, anything else stops the bootstrap.
post() {
  code=$(rcurl -o /tmp/out.json -w '%{http_code}' -X POST "$1" --data-binary "$2")
  case "$code" in
    200) ;;
    400) grep -qiE 'already exists|duplicate' /tmp/out.json || { echo "POST $1 → 400: $(cat /tmp/out.json)" >&2; exit 1; } ;;
    *) echo "POST $1 → $code: $(cat /tmp/out.json)" >&2; exit 1 ;;
  esac
}

echo "ranger-setup: waiting for Ranger Admin at $RANGER_URL"
i=0
until rcurl -fo /dev/null "$API/servicedef/name/polaris" && rcurl -fo /dev/null "$API/servicedef/name/hive"; do
  i=$((i + 1)); [ "$i" -lt 120 ] || { echo "ranger-setup: Ranger Admin not ready after 10 min" >&2; exit 1; }
  sleep 5
done

for u in root alice bob carol dave; do
  post "$RANGER_URL/service/xusers/secure/users" \
    "{\"name\":\"$u\",\"firstName\":\"$u\",\"password\":\"$RANGER_USER_PASSWORD\",\"userRoleList\":[\"ROLE_USER\"],\"status\":1,\"isVisible\":1}"
done

for f in "$DIR"/roles/*.json; do post "$API/roles" "@$f"; done

post "$API/service" '{"name":"polaris","type":"polaris","description":"Apache Polaris: the catalog gate","configs":{"username":"admin","password":"unused"},"isEnabled":true}'
post "$API/service" '{"name":"lakehouse","type":"hive","description":"lakegate data gate (rows, masks)","configs":{"username":"admin","password":"unused","jdbc.driverClassName":"org.apache.hive.jdbc.HiveDriver","jdbc.url":"jdbc:hive2://unused:10000"},"isEnabled":true}'

for svc in polaris lakehouse; do
  # Ranger creates default "all - ..." policies with a new service; ours replace them.
  for id in $(rcurl "$API/service/$svc/policy?policyNamePartial=all%20-" | grep -o '"id":[0-9]*' | cut -d: -f2); do
    rcurl -o /dev/null -X DELETE "$API/policy/$id"
  done
  for f in "$DIR"/policies/"$svc"/*.json; do post "$API/policy" "@$f"; done
done
echo "ranger-setup: done"
