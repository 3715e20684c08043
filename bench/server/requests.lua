-- wrk's script for the server benchmarks (bench/lib.sh's request_load): sends $REQUEST_METHOD (default GET) with the
-- body in $REQUEST_BODY_FILE (when set, as JSON) and the token in $TRAINYARD_TOKEN, counts every answer other than
-- $EXPECTED_STATUS (default 200) as a failure, and prints one line: requests, rate, failures, latency p50 and p99.
wrk.method = os.getenv("REQUEST_METHOD") or "GET"
local body_file = os.getenv("REQUEST_BODY_FILE")
if body_file and body_file ~= "" then
  local file = assert(io.open(body_file, "r"))
  wrk.body = file:read("*a")
  file:close()
  wrk.headers["Content-Type"] = "application/json"
end
local token = os.getenv("TRAINYARD_TOKEN") or ""
if token ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. token
end
local expected = tonumber(os.getenv("EXPECTED_STATUS") or "200")

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init()
  failures = 0
end

function response(status)
  if status ~= expected then
    failures = failures + 1
  end
end

function done(summary, latency)
  local failed = 0
  for _, thread in ipairs(threads) do
    failed = failed + thread:get("failures")
  end
  local seconds = summary.duration / 1e6
  io.write(string.format("%d requests in %.1f s = %.0f requests/s (failures: %d, latency p50 %.1f ms, p99 %.1f ms)\n",
    summary.requests, seconds, summary.requests / seconds, failed, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3))
end
