#!/bin/sh
# nginx in front of the replicas on a plain host, from the same template as Compose (deploy/nginx/).
#
#   deploy/baremetal/nginx-site.sh SITE_FILE LISTEN "UPSTREAM [UPSTREAM...]" "READY [READY...]"
#   e.g. nginx-site.sh /etc/nginx/sites-available/rocm-bridge 80 "127.0.0.1:8501 127.0.0.1:8511" \
#                      "127.0.0.1:8502 127.0.0.1:8512"
#
# - envsubst is given the four ROCM_BRIDGE_* names explicitly: a bare `envsubst` replaces EVERY $name, and nginx's
#   own $http_upgrade, $request_id, $host ... become empty (websockets and stickiness silently break);
# - Debian's nginx package enables sites-enabled/default, a default_server on port 80: a site enabled there that
#   listens on our port is moved to sites-disabled-by-rocm-bridge/ and named, instead of silently taking the port;
# - the site is enabled with a link and `nginx -t` checks the whole configuration before anything is reloaded.
# SITES_ENABLED (default /etc/nginx/sites-enabled), ACCESS_LOG (default /var/log/nginx/access.log) and NGINX
# (default nginx; "" = do not test) can be changed.
set -eu
SITE=$1
LISTEN=$2
HERE=$(cd "$(dirname "$0")" && pwd)
TEMPLATE="$HERE/../nginx/rocm-bridge.conf.template"
SITES_ENABLED=${SITES_ENABLED:-/etc/nginx/sites-enabled}
servers() { for s in $1; do printf 'server %s; ' "$s"; done; }
ROCM_BRIDGE_LISTEN=$LISTEN
ROCM_BRIDGE_UPSTREAM_SERVERS=$(servers "$3")
ROCM_BRIDGE_READY_SERVERS=$(servers "$4")
ROCM_BRIDGE_ACCESS_LOG=${ACCESS_LOG:-/var/log/nginx/access.log}
export ROCM_BRIDGE_LISTEN ROCM_BRIDGE_UPSTREAM_SERVERS ROCM_BRIDGE_READY_SERVERS ROCM_BRIDGE_ACCESS_LOG
envsubst '${ROCM_BRIDGE_LISTEN} ${ROCM_BRIDGE_UPSTREAM_SERVERS} ${ROCM_BRIDGE_READY_SERVERS} ${ROCM_BRIDGE_ACCESS_LOG}' \
    <"$TEMPLATE" >"$SITE"

PORT=${LISTEN##*:}
if [ -d "$SITES_ENABLED" ]; then
    for f in "$SITES_ENABLED"/*; do
        [ -e "$f" ] || continue
        [ "$(basename "$f")" = "$(basename "$SITE")" ] && continue
        if grep -Eq "^[[:space:]]*listen[[:space:]]+([^;]*:)?$PORT([[:space:]]|;)" "$f"; then
            mkdir -p "$SITES_ENABLED/../sites-disabled-by-rocm-bridge"
            mv "$f" "$SITES_ENABLED/../sites-disabled-by-rocm-bridge/"
            echo "disabled $(basename "$f"): it listened on port $PORT (moved to sites-disabled-by-rocm-bridge/)"
        fi
    done
    ln -sf "$SITE" "$SITES_ENABLED/$(basename "$SITE")"
fi
if [ -n "${NGINX-nginx}" ]; then
    "${NGINX:-nginx}" -t
fi
echo "nginx site written: $SITE"
