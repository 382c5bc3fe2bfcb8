-- wrk script of bench/soak.sh: a mix of reads and writes across the accounts
-- the script set up, described in the data file given after "--" (a Lua
-- file that sets the global `accounts`). Per request, out of 100:
--   30 read a vendor list              10 read the dashboard
--   15 read a list's assessments       10 read the whole directory
--    7 read one vendor                  5 read an account's members
--    3 read an assessment's audit log  12 upsert an assessment (audited)
--    4 toggle a vendor's alerts         2 add a product row
--    2 add a subscriber (a confirmation mail through the outbox and worker)
-- Answers are counted by status; done() prints the counts and p99.

local threads = {}
local counter = 1

function setup(thread)
	thread:set("id", counter)
	counter = counter + 1
	table.insert(threads, thread)
end

function init(args)
	dofile(args[1])
	statuses = {}
	n = 0
	math.randomseed(id * 7919 + os.time())
end

local function json_headers(acc)
	return { ["Authorization"] = "Bearer " .. acc.token, ["Content-Type"] = "application/json" }
end

local function q(path, acc, extra)
	return path .. "?account-id=" .. acc.id .. (extra or "")
end

function request()
	n = n + 1
	local acc = accounts[math.random(#accounts)]
	local v = math.random(#acc.vendors)
	local vendor, assessment = acc.vendors[v], acc.assessments[v]
	local h = json_headers(acc)
	local list = "&vendor-list-id=" .. acc.list
	local r = math.random(100)
	if r <= 30 then
		return wrk.format("GET", q("/vendor-lists", acc, list), h)
	elseif r <= 45 then
		return wrk.format("GET", q("/vendor-assessments", acc, list), h)
	elseif r <= 55 then
		return wrk.format("GET", q("/metrics/dashboard", acc), h)
	elseif r <= 65 then
		return wrk.format("GET", "/vendors/all", h)
	elseif r <= 72 then
		return wrk.format("GET", "/vendor/" .. vendor, h)
	elseif r <= 77 then
		return wrk.format("GET", q("/users", acc), h)
	elseif r <= 80 then
		return wrk.format("GET", q("/vendor-assessments/audit-log", acc, "&assessment-id=" .. assessment), h)
	elseif r <= 92 then
		return wrk.format("PUT", q("/vendor-assessments", acc, list), h,
			string.format('{"vendor_id":"%s","compliance_comment":"soak %d-%d"}', vendor, id, n))
	elseif r <= 96 then
		local on = (math.random(2) == 1) and "true" or "false"
		return wrk.format("PATCH", q("/vendor-lists", acc, "&operation=alerts-enabled" .. list), h,
			string.format('{"vendor-id":"%s","alerts_enabled":%s}', vendor, on))
	elseif r <= 98 then
		return wrk.format("POST", q("/vendor-lists/" .. acc.list .. "/vendors/" .. vendor .. "/products", acc), h,
			string.format('{"product_name":"Soak %d-%d"}', id, n))
	end
	return wrk.format("POST", q("/subscribers", acc, list), h,
		string.format('{"subscriber-email":"s%d-%d@soak.test"}', id, n))
end

function response(status, headers, body)
	statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
	local total = {}
	for _, t in ipairs(threads) do
		for status, count in pairs(t:get("statuses")) do
			total[status] = (total[status] or 0) + count
		end
	end
	local non2xx, fivexx, keys = 0, 0, {}
	for status, count in pairs(total) do
		table.insert(keys, status)
		if status < 200 or status > 299 then non2xx = non2xx + count end
		if status >= 500 then fivexx = fivexx + count end
	end
	table.sort(keys)
	local e = summary.errors
	io.write(string.format("requests %d in %.1f s (%.0f/s)\n", summary.requests, summary.duration / 1e6,
		summary.requests / (summary.duration / 1e6)))
	io.write("answers by status:")
	for _, s in ipairs(keys) do io.write(string.format(" %d=%d", s, total[s])) end
	io.write("\n")
	io.write(string.format("non-2xx %d\n5xx %d\n", non2xx, fivexx))
	io.write(string.format("socket errors: connect %d, read %d, write %d, timeout %d\n", e.connect, e.read, e.write, e.timeout))
	io.write(string.format("latency p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", latency:percentile(50) / 1000,
		latency:percentile(99) / 1000, latency.max / 1000))
end
