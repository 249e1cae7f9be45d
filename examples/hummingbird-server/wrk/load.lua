-- The timed run: every connection cycles through the request list (each thread starts at a
-- different place), and done() prints one JSON line with throughput, latency and errors.
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
local list = require("requests")

local requests
local next_index = 1
local thread_count = 0

function setup(thread)
  thread:set("offset", thread_count * 7919)
  thread_count = thread_count + 1
end

function init(args)
  requests = list.read(args[1])
  next_index = (offset or 0) % #requests + 1
end

function request()
  local r = requests[next_index]
  next_index = next_index % #requests + 1
  return r
end

function done(summary, latency, _)
  local errors = summary.errors
  local seconds = summary.duration / 1e6
  io.write(string.format(
    '{"requests":%d,"seconds":%.3f,"requestsPerSecond":%.1f,"p50Milliseconds":%.3f,' ..
    '"p99Milliseconds":%.3f,"p999Milliseconds":%.3f,"errors":%d}\n',
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency:percentile(99.9) / 1000,
    errors.connect + errors.read + errors.write + errors.timeout + errors.status))
end
