#!/usr/bin/env bash
# Starts a Strapi 5 project's content types on the reference Strapi (port STRAPI_PORT, default 1340) and on
# Folio (FOLIO_PORT, default 1341), each on a fresh SQLite database in WORK, for bench/compare-project.ts.
# The reference Strapi gets the project's schema files (content types, components, the users-permissions
# extension's schemas) with the generator's plain controllers, routes and services: none of the project's own code.
# Folio serves a copy of the project folder (WORK/project: its uploads, and a database file its config may place
# under its own folder, stay out of the project) as it is, with its config (pass DATABASE_* when that config names
# a server).
#
#   bash bench/compare-project-setup.sh <project> <reference folder (../shared/reference/setup.sh)> <work folder>
#
# Prints the two tokens' environment lines for compare-project.ts. Stop the servers by the PIDs in WORK/pids.
set -euo pipefail
project=$(cd "${1:?project folder}" && pwd)
reference=$(cd "${2:?reference folder}" && pwd)
work=${3:?work folder}
here=$(cd "$(dirname "$0")/.." && pwd)
strapi_port=${STRAPI_PORT:-1340}
folio_port=${FOLIO_PORT:-1341}
# a project's config may read these names itself (config/server: `env('STRAPI_PORT')`): not passed on to the servers
unset STRAPI_PORT FOLIO_PORT
rm -rf "$work" && mkdir -p "$work/strapi/src" "$work/project" && work=$(cd "$work" && pwd)
tar -C "$project" --exclude=./node_modules --exclude=./.git --exclude=./.tmp --exclude=./public/uploads -cf - . | tar -C "$work/project" -xf -
project="$work/project"
cp -r "$reference/config" "$reference/package.json" "$reference/run.js" "$reference/public" "$work/strapi/"
ln -s "$reference/node_modules" "$work/strapi/node_modules"
[ -d "$project/src/components" ] && cp -r "$project/src/components" "$work/strapi/src/"
first=""
for schema in "$project"/src/api/*/content-types/*/schema.json; do
  [ -f "$schema" ] || continue
  type=$(basename "$(dirname "$schema")")
  api=$(basename "$(dirname "$(dirname "$(dirname "$schema")")")")
  uid="api::$api.$type"
  first=${first:-$uid.find}
  dir="$work/strapi/src/api/$api"
  mkdir -p "$dir/content-types/$type" "$dir/controllers" "$dir/routes" "$dir/services"
  cp "$schema" "$dir/content-types/$type/"
  for kind in Controller:controllers Router:routes Service:services; do
    echo "'use strict'; module.exports = require('@strapi/strapi').factories.createCore${kind%%:*}('$uid');" > "$dir/${kind#*:}/$type.js"
  done
done
if [ -d "$project/src/extensions/users-permissions/content-types" ]; then
  mkdir -p "$work/strapi/src/extensions/users-permissions"
  cp -r "$project/src/extensions/users-permissions/content-types" "$work/strapi/src/extensions/users-permissions/"
fi
# custom fields and relations to plugin types the reference doesn't have installed (compare-reference-schemas.mjs)
node "$here/bench/compare-reference-schemas.mjs" "$work/strapi/src" "$project"
# the reference's bootstrap makes a custom token for an example-app permission: give it one this project has
sed "s/api::article\.article\.find/$first/" "$reference/src/index.js" > "$work/strapi/src/index.js"
# as the reference's start.sh starts it
(
  cd "$work/strapi"
  env NODE_ENV=production PORT="$strapi_port" STRAPI_TELEMETRY_DISABLED=true BROWSER=none DATABASE_CLIENT=sqlite \
    DATABASE_FILENAME="$work/strapi/.tmp/data.db" nohup node run.js > "$work/strapi.log" 2>&1 &
  echo $! > "$work/pids"
)

export NODE_ENV=production APP_KEYS=compare-a,compare-b API_TOKEN_SALT=compare-salt JWT_SECRET=compare-jwt
export PORT=$folio_port HOST=127.0.0.1 FOLIO_LOG=false DATABASE_CLIENT=${DATABASE_CLIENT:-sqlite} DATABASE_FILENAME=${DATABASE_FILENAME:-$work/folio.db}
folio=(node "$here/dist/cli/main.js")
folio_token=$("${folio[@]}" api-token create --dir "$project" --name compare --type full-access | tail -1)
# a locale the project's config/plugins seeds (i18n.config.locales) is there already
add_locale() {
  local out
  out=$("${folio[@]}" locales add "$1" --name "$2" --dir "$project" 2>&1) || case $out in *'already exists'*) ;; *) echo "$out" >&2; exit 1 ;; esac
}
add_locale fr 'French (fr)'
add_locale de 'German (de)'
nohup "${folio[@]}" start --dir "$project" > "$work/folio.log" 2>&1 &
echo $! >> "$work/pids"
for _ in $(seq 120); do [ -s "$work/strapi/.tmp/api-token.txt" ] && break; sleep 1; done
[ -s "$work/strapi/.tmp/api-token.txt" ] || { echo "Strapi did not start: see $work/strapi.log" >&2; exit 1; }
echo "COMPARE_PROJECT=$project FOLIO=http://127.0.0.1:$folio_port FOLIO_TOKEN=$folio_token STRAPI=http://127.0.0.1:$strapi_port STRAPI_TOKEN=$(cat "$work/strapi/.tmp/api-token.txt")"
