-- The check before timing: one connection sends requests from the list (every `stride`-th one,
-- so a large list is sampled evenly) and compares each response's status and body with the
-- expected ones; it stops after the sample and done() prints {"checked":N,"wrong":M}.
-- Run with one thread and one connection: responses then come back in the order sent.
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
local list = require("requests")

local requests, expected, labels
local stride, sent, pending = 1, 0, {}
local probed = false
local checked, wrong = 0, 0
local checker

function setup(thread)
  checker = thread
end

function init(args)
  requests, expected, labels = list.read(args[1])
  local sample = tonumber(args[2] or "0")
  if sample > 0 and sample < #requests then stride = math.floor(#requests / sample) end
end

function request()
  -- wrk (4.1) builds one request per thread before connecting and never sends it: answer that
  -- call without recording it. Were it sent, every response would pair with the wrong request
  -- and the check would fail, not pass.
  if not probed then
    probed = true
    return requests[1]
  end
  local index = (sent * stride) % #requests + 1
  sent = sent + 1
  pending[#pending + 1] = index
  return requests[index]
end

function response(status, _, body)
  local index = table.remove(pending, 1)
  checked = checked + 1
  if status ~= 200 or body ~= expected[index] then
    wrong = wrong + 1
    if wrong <= 5 then
      io.stderr:write(string.format("wrong response to %s: %d %s (expected %s)\n",
        labels[index], status, body, expected[index]))
    end
  end
  wrk.thread:set("checked", checked)
  wrk.thread:set("wrong", wrong)
  if checked >= math.ceil(#requests / stride) then wrk.thread:stop() end
end

function done()
  io.write(string.format('{"checked":%d,"wrong":%d}\n', checker:get("checked") or 0, checker:get("wrong") or 0))
end
