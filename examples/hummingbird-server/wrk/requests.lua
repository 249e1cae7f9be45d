-- Shared by load.lua and check.lua: reads the request list the server printed with
-- --print-requests (METHOD <tab> URI <tab> expected body) into ready-to-send requests.
local M = {}

function M.read(path)
  local requests, expected, labels = {}, {}, {}
  local file = assert(io.open(path, "r"), "cannot open " .. path)
  for line in file:lines() do
    local method, uri, body = line:match("^([^\t]+)\t([^\t]+)\t(.*)$")
    if method then
      requests[#requests + 1] = wrk.format(method, uri)
      expected[#expected + 1] = body
      labels[#labels + 1] = method .. " " .. uri
    end
  end
  file:close()
  assert(#requests > 0, "no requests in " .. path)
  return requests, expected, labels
end

return M
