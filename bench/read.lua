-- wrk script for bench/read.sh: each request GETs a path picked at random
-- from the file named by the first argument (one path per line), with the
-- headers given on wrk's command line; done() prints one machine-readable
-- line: RESULT <req/s> <p50 ms> <p99 ms> <non-2xx> <requests> <socket errors>.
local paths = {}

function init(args)
	for line in io.lines(args[1]) do
		if line ~= "" then paths[#paths + 1] = line end
	end
	math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
end

function request()
	return wrk.format("GET", paths[math.random(#paths)])
end

function done(summary, latency, requests)
	local e = summary.errors
	io.write(string.format("RESULT %.0f %.2f %.2f %d %d %d\n",
		summary.requests / (summary.duration / 1e6),
		latency:percentile(50) / 1000, latency:percentile(99) / 1000,
		e.status, summary.requests, e.connect + e.read + e.write + e.timeout))
end
