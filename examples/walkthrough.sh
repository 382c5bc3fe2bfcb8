#!/usr/bin/env bash
# A walk-through of the Vetted API with curl and jq against a running server
# (make run). TOKEN must be a platform-admin token (make run prints one).
#   TOKEN=... bash examples/walkthrough.sh [base-url]
set -euo pipefail
B=${1:-http://127.0.0.1:8080}
: "${TOKEN:?set TOKEN to the token make run prints}"
H="Authorization: Bearer $TOKEN"
J="Content-Type: application/json"
call() { local m=$1 p=$2; shift 2; echo "> $m $p" >&2; curl -sS -X "$m" -H "$H" -H "$J" "$B$p" "$@"; echo; }

ACC=$(call POST /accounts -d '{"account":"Walkthrough '"$RANDOM"'","users":["admin@vetted.local","bob@acme.test"]}' | jq -r .id)
call GET /accounts
call POST "/users?account-id=$ACC" -d '{"users":[{"email":"carol@acme.test","role":"viewer"}]}'
call PATCH "/users?account-id=$ACC" -d '{"users":[{"email":"carol@acme.test","role":"member"}]}'
call GET "/users?account-id=$ACC"
call DELETE "/users?account-id=$ACC" -d '{"users":[{"email":"carol@acme.test"}]}'
call POST "/accounts/owner?account-id=$ACC" -d '{"email":"bob@acme.test","reason":"the owner left the company"}'
call POST "/vendor-lists?account-id=$ACC&vendor-list=Critical"
call POST "/vendor-lists?account-id=$ACC&operation=save-vendors" -d '{"vendors":["Slack",{"vendor_name":"Figma","website_url":"https://www.figma.com"}]}'
call POST "/vendor-lists?account-id=$ACC&operation=import-csv" -d '{"csv":"vendor_name,product_name,compliance_approval_status\nZoom,Meetings,in-progress\nZoom,Phone,\n","dry_run":true}'
call POST "/vendor-lists?account-id=$ACC&operation=import-csv" -d '{"csv":"vendor_name,product_name,compliance_approval_status\nZoom,Meetings,in-progress\nZoom,Phone,\n"}'
LIST_JSON=$(call GET "/vendor-lists?account-id=$ACC&vendor-list=master-list")
echo "$LIST_JSON"
LIST=$(jq -r .list.id <<<"$LIST_JSON")
VENDOR=$(jq -r '.vendors[] | select(.vendor_name=="Slack") | .vendor_id' <<<"$LIST_JSON")
call POST "/vendor-lists/$LIST/vendors/$VENDOR/products?account-id=$ACC" -d '{"product_name":"Enterprise Grid"}'
call PATCH "/vendor-lists?account-id=$ACC&operation=alerts-enabled&vendor-list=$LIST" -d "{\"vendor-id\":\"$VENDOR\",\"alerts_enabled\":false}"
call GET "/vendor/Slack"
call PUT "/vendor-assessments?account-id=$ACC&vendor-list-id=$LIST" -d '{"vendor_name":"Slack","compliance_approval_status":"conditional approval","conditional_approval_condition":"SSO enforced","use_case":"Chat","data_collected":["names","messages"]}'
ASM=$(call GET "/vendor-assessments?account-id=$ACC&vendor-list-id=$LIST" | jq -r '.assessments[0].id')
call GET "/vendor-assessments/audit-log?account-id=$ACC&assessment-id=$ASM"
call GET "/vendor-assessments/documents/upload-url?account-id=$ACC&vendor-list-id=$LIST&assessment-id=$ASM&file-name=soc2.pdf&content-type=application/pdf"
call POST "/subscribers?account-id=$ACC&vendor-list=$LIST" -d '{"subscriber-email":"admin@vetted.local"}'
call GET "/subscribers?account-id=$ACC&vendor-list=$LIST"
call POST "/vendor/Figma/incidents" -d '{"title":"Credential stuffing","severity":"high","summary":"Reset your passwords."}'
call POST "/vendor-lists?account-id=$ACC&vendor-list=Scratch"
call DELETE "/vendor-lists?account-id=$ACC&vendor-list=Scratch"
call GET "/vendor-lists?account-id=individual"
echo "account $ACC keeps its list Critical: vetted import --file vendors.csv --account $ACC --list Critical --base $B" >&2
