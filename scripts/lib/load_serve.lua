-- wrk script of scripts/load-serve.sh: each request is a path drawn at random from the list given after
-- `--` (one path a line), each thread with its own seed; done() prints the count of every status as a line
-- that scripts/lib/load_serve.py reads (which path got which status is in the server's access log: wrk does
-- not tell response() which of a thread's connections, hence which request, an answer belongs to):
--   load_serve statuses: 200=1234 404=1
--   load_serve non-2xx: 1
-- wrk -t2 -c64 -d30s --latency -s scripts/lib/load_serve.lua http://127.0.0.1:PORT -- urls.txt

local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  paths = {}
  local file = assert(io.open(args[1], "r"), "cannot open the URL list " .. tostring(args[1]))
  for line in file:lines() do
    if #line > 0 then paths[#paths + 1] = line end
  end
  file:close()
  assert(#paths > 0, "the URL list is empty")
  math.randomseed(7919 * id)
  statuses = {}
end

function request()
  return wrk.format("GET", paths[math.random(#paths)])
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses") or {}) do
      total[status] = (total[status] or 0) + count
    end
  end
  local keys = {}
  for status in pairs(total) do keys[#keys + 1] = status end
  table.sort(keys)
  local parts = {}
  local non2xx = 0
  for _, status in ipairs(keys) do
    parts[#parts + 1] = status .. "=" .. total[status]
    if status < 200 or status > 299 then non2xx = non2xx + total[status] end
  end
  io.write("load_serve statuses: " .. table.concat(parts, " ") .. "\n")
  io.write("load_serve non-2xx: " .. non2xx .. "\n")
end
